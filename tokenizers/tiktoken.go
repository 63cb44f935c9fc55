package tokenizers

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
)

// TiktokenConfig describes how to build a tokenizer from a tiktoken rank
// file.
type TiktokenConfig struct {
	// Pattern is the pre-tokenizer split pattern. Empty selects it from
	// ModelType: Kimi's pattern for the Kimi model types (kimi, kimi_k2,
	// kimi_k25, kimi_k3, kimi_linear, and deepseek_v3, the architecture
	// Kimi K2.5 ships on), otherwise the Llama-3 (cl100k) pattern.
	Pattern string
	// ModelType is config.json's model_type.
	ModelType string
	// Specials maps special-token content to id (tokenizer_config.json
	// added_tokens_decoder; every entry is special). Ids in the 256 after
	// the last rank that have no entry are filled with
	// "<|reserved_token_{id}|>".
	Specials map[string]uint32
	// BOS is prepended by Encode with addSpecialTokens when AddBOS is set.
	BOS    string
	AddBOS bool
}

// kimiModelTypes are the model_type values that select Kimi's pattern.
var kimiModelTypes = map[string]bool{
	"kimi": true, "kimi_k2": true, "kimi_k25": true, "kimi_k3": true, "kimi_linear": true, "deepseek_v3": true,
}

// kimiMaxRun is the longest run of white-space or non-white-space characters
// Kimi's tokenizer encodes in one piece.
const kimiMaxRun = 25000

// FromTiktoken builds a tokenizer from the contents of a tiktoken rank file
// (lines "<base64 token bytes> <rank>", rank = id).
func FromTiktoken(ranks []byte, cfg TiktokenConfig) (*BPE, error) {
	initClasses()
	pattern := cfg.Pattern
	kimi := kimiModelTypes[cfg.ModelType]
	if pattern == "" {
		pattern = patCL100K
		if kimi {
			pattern = patKimi
		}
	}
	t := &BPE{tiktoken: true}
	st := preStep{kind: preSplit, behavior: splitIsolated, scan: knownScanner(pattern), starts: knownStarts(pattern)}
	if st.scan == nil {
		pre, err := parsePreTokenizer(json.RawMessage(fmt.Sprintf(`{"type":"Split","pattern":{"Regex":%q},"behavior":"Isolated","invert":false}`, pattern)), 0)
		if err != nil {
			return nil, err
		}
		st = pre[0]
	}
	t.pre = []preStep{st}
	if kimi {
		t.kimiRuns = kimiMaxRun
	}
	t.dec = decoderChain{rawJoin: true}

	bm := &t.model
	bm.byteLevel = true
	bm.ignoreMerges = true
	bm.whole = make(map[string]uint32, 200000)
	maxRank := -1
	for line, rest := 1, ranks; len(rest) > 0; line++ {
		var l []byte
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			l, rest = rest[:i], rest[i+1:]
		} else {
			l, rest = rest, nil
		}
		l = bytes.TrimRight(l, "\r")
		if len(l) == 0 {
			continue
		}
		sp := bytes.IndexByte(l, ' ')
		if sp < 0 {
			return nil, invalid("tiktoken line %d: no rank", line)
		}
		tok := make([]byte, base64.StdEncoding.DecodedLen(sp))
		n, err := base64.StdEncoding.Decode(tok, l[:sp])
		if err != nil {
			return nil, invalid("tiktoken line %d: %v", line, err)
		}
		rank, err := strconv.ParseUint(string(l[sp+1:]), 10, 32)
		if err != nil {
			return nil, invalid("tiktoken line %d: %v", line, err)
		}
		if rank > maxID {
			return nil, invalid("tiktoken line %d: rank %d above the limit %d", line, rank, maxID)
		}
		bm.whole[string(tok[:n])] = uint32(rank)
		if int(rank) > maxRank {
			maxRank = int(rank)
		}
	}
	if maxRank < 0 {
		return nil, invalid("empty tiktoken file")
	}
	t.tokens = make([]string, maxRank+1)
	t.known = make([]bool, maxRank+1)
	for tok, id := range bm.whole {
		t.tokens[id], t.known[id] = tok, true
		if len(tok) == 1 {
			bm.byteIDs[tok[0]], bm.hasByte[tok[0]] = id, true
		}
	}
	// tiktoken merges the adjacent pair whose concatenation has the lowest
	// rank; as a merge table that is every split of a token into two
	// tokens, ranked by the token.
	bm.merges = newPairTable(2 * len(bm.whole))
	for tok, id := range bm.whole {
		for k := 1; k < len(tok); k++ {
			a, ok1 := bm.whole[tok[:k]]
			b, ok2 := bm.whole[tok[k:]]
			if ok1 && ok2 {
				bm.merges.put(a, b, id, id)
			}
		}
	}
	bm.vocab = bm.whole
	bm.buildBytePairs()

	specials := cfg.Specials
	seen := map[uint32]bool{}
	for content, id := range specials {
		if id > maxID {
			return nil, invalid("special token %q has id %d, above the limit %d", content, id, maxID)
		}
		t.added = append(t.added, addedToken{content: content, id: id, special: true})
		seen[id] = true
	}
	if len(specials) > 0 {
		for id := uint32(maxRank + 1); id < uint32(maxRank+1+256); id++ {
			if !seen[id] {
				t.added = append(t.added, addedToken{content: fmt.Sprintf("<|reserved_token_%d|>", id), id: id, special: true})
			}
		}
	}
	sort.Slice(t.added, func(i, j int) bool { return t.added[i].id < t.added[j].id })
	t.decoded = t.tokens // tiktoken tokens are raw bytes already
	if err := t.finishAdded(); err != nil {
		return nil, err
	}
	t.decoded = t.tokens
	if cfg.AddBOS {
		id, ok := t.TokenToID(cfg.BOS)
		if !ok {
			return nil, invalid("BOS token %q is not a special token", cfg.BOS)
		}
		t.post.prefix = []uint32{id}
	}
	return t, nil
}

// loadTiktokenFile reads a tiktoken rank file, the tokenizer_config.json
// beside it (special tokens, BOS) and, when present, config.json
// (model_type).
func loadTiktokenFile(path string) (*BPE, error) {
	ranks, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("tokenizers: %w", err)
	}
	dir := filepath.Dir(path)
	var cfg TiktokenConfig
	var mc struct {
		ModelType string `json:"model_type"`
	}
	if data, err := os.ReadFile(filepath.Join(dir, "config.json")); err == nil {
		if err := json.Unmarshal(data, &mc); err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "config.json"), invalid("%v", err))
		}
	}
	cfg.ModelType = mc.ModelType
	var tc struct {
		AddedTokensDecoder map[string]hfAddedToken `json:"added_tokens_decoder"`
		BOS                json.RawMessage         `json:"bos_token"`
		AddBOS             *bool                   `json:"add_bos_token"`
		AutoMap            json.RawMessage         `json:"auto_map"`
	}
	tcPath := filepath.Join(dir, "tokenizer_config.json")
	data, err := os.ReadFile(tcPath)
	if err != nil {
		return nil, fmt.Errorf("tokenizers: tiktoken file needs its tokenizer_config.json: %w", err)
	}
	if err := json.Unmarshal(data, &tc); err != nil {
		return nil, fmt.Errorf("%s: %w", tcPath, invalid("%v", err))
	}
	if cfg.ModelType == "" && bytes.Contains(tc.AutoMap, []byte("tokenization_kimi")) {
		// No config.json: Kimi's tokenizer_config names its tokenizer class.
		cfg.ModelType = "kimi"
	}
	cfg.Specials = map[string]uint32{}
	for key, a := range tc.AddedTokensDecoder {
		id, err := strconv.ParseUint(key, 10, 32)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", tcPath, invalid("added_tokens_decoder key %q", key))
		}
		cfg.Specials[a.Content] = uint32(id)
	}
	// bos_token is a string or an AddedToken object.
	var bos string
	if json.Unmarshal(tc.BOS, &bos) != nil {
		var obj struct {
			Content string `json:"content"`
		}
		if json.Unmarshal(tc.BOS, &obj) == nil {
			bos = obj.Content
		}
	}
	cfg.BOS = bos
	switch {
	case tc.AddBOS != nil:
		cfg.AddBOS = *tc.AddBOS && bos != ""
	default:
		// Llama 3 ships no add_bos_token; its tokenizer.json's
		// post-processor adds <|begin_of_text|>. Kimi adds none.
		cfg.AddBOS = bos != "" && !kimiModelTypes[cfg.ModelType]
	}
	t, err := FromTiktoken(ranks, cfg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}
