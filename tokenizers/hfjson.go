package tokenizers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strconv"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
)

// The tokenizer.json schema, as far as this package reads it.
type hfFile struct {
	Version       string          `json:"version"`
	AddedTokens   []hfAddedToken  `json:"added_tokens"`
	Normalizer    json.RawMessage `json:"normalizer"`
	PreTokenizer  json.RawMessage `json:"pre_tokenizer"`
	Model         json.RawMessage `json:"model"`
	PostProcessor json.RawMessage `json:"post_processor"`
	Decoder       json.RawMessage `json:"decoder"`
}

type hfAddedToken struct {
	ID         uint32 `json:"id"`
	Content    string `json:"content"`
	SingleWord bool   `json:"single_word"`
	LStrip     bool   `json:"lstrip"`
	RStrip     bool   `json:"rstrip"`
	Normalized bool   `json:"normalized"`
	Special    bool   `json:"special"`
}

type hfModel struct {
	Type                    string            `json:"type"`
	Dropout                 *float64          `json:"dropout"`
	UnkToken                *string           `json:"unk_token"`
	ContinuingSubwordPrefix *string           `json:"continuing_subword_prefix"`
	EndOfWordSuffix         *string           `json:"end_of_word_suffix"`
	FuseUnk                 bool              `json:"fuse_unk"`
	ByteFallback            bool              `json:"byte_fallback"`
	IgnoreMerges            bool              `json:"ignore_merges"`
	Vocab                   map[string]uint32 `json:"-"` // read by jsonReader
}

// hfComponent is any normalizer, pre-tokenizer, decoder or post-processor
// object; fields are read according to Type.
type hfComponent struct {
	Type string `json:"type"`

	Normalizers   []json.RawMessage `json:"normalizers"`
	Pretokenizers []json.RawMessage `json:"pretokenizers"`
	Decoders      []json.RawMessage `json:"decoders"`
	Processors    []json.RawMessage `json:"processors"`

	Pattern  *hfPattern `json:"pattern"`
	Content  *string    `json:"content"`
	Prepend  *string    `json:"prepend"`
	Behavior string     `json:"behavior"`
	Invert   bool       `json:"invert"`

	AddPrefixSpace *bool  `json:"add_prefix_space"`
	UseRegex       *bool  `json:"use_regex"`
	Replacement    string `json:"replacement"`
	PrependScheme  string `json:"prepend_scheme"`
	Split          *bool  `json:"split"`

	IndividualDigits bool `json:"individual_digits"`
	StripLeft        bool `json:"strip_left"`
	StripRight       bool `json:"strip_right"`
	Start            int  `json:"start"`
	Stop             int  `json:"stop"`

	Single        []hfTemplatePiece               `json:"single"`
	SpecialTokens map[string]hfTemplateSpecialTok `json:"special_tokens"`
}

type hfPattern struct {
	String *string `json:"String"`
	Regex  *string `json:"Regex"`
}

type hfTemplatePiece struct {
	SpecialToken *struct {
		ID string `json:"id"`
	} `json:"SpecialToken"`
	Sequence *struct {
		ID string `json:"id"`
	} `json:"Sequence"`
}

type hfTemplateSpecialTok struct {
	ID  string   `json:"id"`
	IDs []uint32 `json:"ids"`
}

func isNull(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) == 0 || string(raw) == "null"
}

// FromJSON loads a Hugging Face tokenizer.json. A file that needs a feature
// this package does not implement gives an error wrapping ErrUnsupported that
// names the feature (for example `tokenizers: unsupported model type
// "Unigram"`).
func FromJSON(data []byte) (*BPE, error) {
	initClasses()
	f, m, merges, err := readTokenizerJSON(data)
	if err != nil {
		return nil, err
	}
	if m.Type != "BPE" && m.Type != "" {
		return nil, unsupported("model type %q (only BPE is implemented)", m.Type)
	}
	if m.Vocab == nil {
		return nil, invalid("model has no vocab")
	}
	if m.Dropout != nil && *m.Dropout > 0 {
		return nil, unsupported("BPE dropout %v", *m.Dropout)
	}
	if p := m.ContinuingSubwordPrefix; p != nil && *p != "" {
		return nil, unsupported("BPE continuing_subword_prefix %q", *p)
	}
	if p := m.EndOfWordSuffix; p != nil && *p != "" {
		return nil, unsupported("BPE end_of_word_suffix %q", *p)
	}

	t := &BPE{}
	if t.normalizer, err = parseNormalizer(f.Normalizer, 0); err != nil {
		return nil, err
	}
	if t.pre, err = parsePreTokenizer(f.PreTokenizer, 0); err != nil {
		return nil, err
	}
	if t.dec, err = parseDecoder(f.Decoder); err != nil {
		return nil, err
	}
	byteLevel := t.usesByteLevel()
	if err := t.buildModel(m, merges, byteLevel); err != nil {
		return nil, err
	}
	t.pre = dropNoOps(t.pre)
	if err := t.setAdded(f.AddedTokens); err != nil {
		return nil, err
	}
	if t.post, err = t.parsePostProcessor(f.PostProcessor); err != nil {
		return nil, err
	}
	return t, nil
}

// dropNoOps removes the ByteLevel steps that neither add a prefix space nor
// split (the byte-level mapping itself happens in the model, which works on
// raw bytes), saving a call per word.
func dropNoOps(pre []preStep) []preStep {
	out := pre[:0]
	for _, p := range pre {
		if p.kind == preByteLevel && !p.addPrefixSpace && !p.useRegex {
			continue
		}
		out = append(out, p)
	}
	return out
}

// usesByteLevel reports whether the pre-tokenizer contains ByteLevel, which
// makes the model work on raw bytes.
func (t *BPE) usesByteLevel() bool {
	for _, p := range t.pre {
		if p.kind == preByteLevel {
			return true
		}
	}
	return false
}

func (t *BPE) buildModel(m *hfModel, merges [][2][]byte, byteLevel bool) error {
	bm := &t.model
	bm.vocab = m.Vocab
	bm.byteLevel = byteLevel
	bm.ignoreMerges = m.IgnoreMerges
	bm.byteFallback = m.ByteFallback
	bm.fuseUnk = m.FuseUnk
	if m.UnkToken != nil {
		if id, ok := m.Vocab[*m.UnkToken]; ok {
			bm.unk, bm.hasUnk = id, true
		}
	}
	top := -1
	for tok, id := range m.Vocab {
		if id > maxID {
			return invalid("token %q has id %d, above the limit %d", tok, id, maxID)
		}
		top = max(top, int(id))
	}
	t.tokens = make([]string, top+1)
	t.known = make([]bool, top+1)
	for tok, id := range m.Vocab {
		t.tokens[id], t.known[id] = tok, true
	}
	if byteLevel {
		bm.whole = make(map[string]uint32, len(m.Vocab))
		for tok, id := range m.Vocab {
			if raw, ok := byteLevelBytes(tok); ok {
				if old, dup := bm.whole[raw]; !dup || id < old {
					bm.whole[raw] = id
				}
			}
		}
		for b := 0; b < 256; b++ {
			if id, ok := m.Vocab[string(byteToChar[b])]; ok {
				bm.byteIDs[b], bm.hasByte[b] = id, true
			}
		}
	} else if bm.ignoreMerges {
		bm.whole = m.Vocab
	}
	if !byteLevel && !bm.ignoreMerges && separatorSafe(m.Vocab, "▁") {
		bm.wordSep = "▁"
	}
	fallback := map[string]bool{}
	for b := 0; b < 256; b++ {
		tok := fmt.Sprintf("<0x%02X>", b)
		if id, ok := m.Vocab[tok]; ok {
			bm.fallbackIDs[b], bm.hasFallback[b] = id, true
			fallback[tok] = true
		}
	}
	if !byteLevel && !bm.ignoreMerges && bm.byteFallback {
		// isolated: ASCII characters outside the vocabulary, when no
		// merge touches a byte-fallback token.
		touches := false
		for _, mg := range merges {
			if fallback[string(mg[0])] || fallback[string(mg[1])] {
				touches = true
				break
			}
		}
		for b := 0; b < 0x80 && !touches; b++ {
			if _, ok := m.Vocab[string(rune(b))]; !ok && bm.hasFallback[b] {
				bm.isolated[b], bm.hasIsolated = true, true
			}
		}
	}
	bm.merges = newPairTable(len(merges))
	var buf []byte
	for rank, mg := range merges {
		a, ok1 := m.Vocab[string(mg[0])]
		b, ok2 := m.Vocab[string(mg[1])]
		if !ok1 || !ok2 {
			return invalid("merge %q %q: token not in vocabulary", mg[0], mg[1])
		}
		buf = append(append(buf[:0], mg[0]...), mg[1]...)
		id, ok := m.Vocab[string(buf)]
		if !ok {
			return invalid("merge %q %q: result not in vocabulary", mg[0], mg[1])
		}
		bm.merges.put(a, b, uint32(rank), id)
	}
	bm.buildBytePairs()
	return nil
}

// setAdded installs the added tokens and the per-id tables that depend on
// them (token strings, special flags, decoded bytes). Ids are assigned the
// way Hugging Face's loader assigns them, which ignores the "id" field of the
// file: a token already in the model's vocabulary keeps that id, any other
// takes the next id after the vocabulary and the added tokens so far. In
// files written by the library the two agree.
func (t *BPE) setAdded(list []hfAddedToken) error {
	t.added = t.added[:0]
	vocabSize := uint32(len(t.model.vocab))
	next := vocabSize
	seen := map[string]int{}
	for _, a := range list {
		id, ok := t.model.vocab[a.Content]
		if !ok {
			if i, dup := seen[a.Content]; dup {
				id = t.added[i].id
			} else {
				id = next
				next++
			}
		}
		tok := addedToken{
			content: a.Content, id: id, special: a.Special,
			lstrip: a.LStrip, rstrip: a.RStrip, normalized: a.Normalized, singleWord: a.SingleWord,
		}
		if i, dup := seen[a.Content]; dup {
			t.added[i] = tok // a later entry for the same content wins
			continue
		}
		seen[a.Content] = len(t.added)
		t.added = append(t.added, tok)
	}
	return t.finishAdded()
}

func (t *BPE) finishAdded() error {
	var raw, norm []addedToken
	t.addedIDs = make(map[string]uint32, len(t.added))
	for _, a := range t.added {
		t.addedIDs[a.content] = a.id
		if a.id > maxID {
			return invalid("added token %q has id %d, above the limit %d", a.content, a.id, maxID)
		}
		if int(a.id) >= len(t.tokens) {
			n := int(a.id) + 1
			t.tokens = append(t.tokens, make([]string, n-len(t.tokens))...)
			t.known = append(t.known, make([]bool, n-len(t.known))...)
		}
		t.tokens[a.id], t.known[a.id] = a.content, true
		if a.normalized {
			norm = append(norm, a)
		} else {
			raw = append(raw, a)
		}
	}
	t.rawAdded = newAddedMatcher(raw)
	t.normAdded = newAddedMatcher(norm)
	t.special = make([]bool, len(t.tokens))
	t.specialIDs = t.specialIDs[:0]
	for _, a := range t.added {
		if a.special && !t.special[a.id] {
			t.special[a.id] = true
			t.specialIDs = append(t.specialIDs, a.id)
		}
	}
	sort.Slice(t.specialIDs, func(i, j int) bool { return t.specialIDs[i] < t.specialIDs[j] })
	if t.dec.pureBL && !t.dec.rawJoin {
		t.decoded = make([]string, len(t.tokens))
		for id, tok := range t.tokens {
			t.decoded[id], _ = byteLevelBytes(tok)
		}
	}
	if t.dec.hasBFB {
		t.byteTokens = make([]bool, len(t.tokens))
		for id, tok := range t.tokens {
			if _, ok := parseByteToken([]byte(tok)); ok && t.known[id] {
				t.byteTokens[id] = true
			}
		}
	}
	return nil
}

// promoteSpecials applies Dynamo's loader rule: entries of a sibling
// tokenizer_config.json's added_tokens_decoder marked special are made
// special if tokenizer.json did not mark them. A missing file is fine.
func (t *BPE) promoteSpecials(configPath string) error {
	data, err := os.ReadFile(configPath)
	if err != nil {
		return nil
	}
	var cfg struct {
		AddedTokensDecoder map[string]hfAddedToken `json:"added_tokens_decoder"`
	}
	if err := json.Unmarshal(data, &cfg); err != nil {
		return nil // a config we cannot read does not make the tokenizer unusable
	}
	changed := false
	for key, a := range cfg.AddedTokensDecoder {
		if !a.Special {
			continue
		}
		id64, err := strconv.ParseUint(key, 10, 32)
		if err != nil {
			continue
		}
		id := uint32(id64)
		for i := range t.added {
			if t.added[i].id == id && t.added[i].content == a.Content && !t.added[i].special {
				t.added[i].special = true
				t.promoted = append(t.promoted, a.Content)
				changed = true
			}
		}
	}
	if changed {
		sort.Strings(t.promoted)
		return t.finishAdded()
	}
	return nil
}

func parseComponent(raw json.RawMessage, what string) (*hfComponent, error) {
	if isNull(raw) {
		return nil, nil
	}
	var c hfComponent
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, invalid("%s: %v", what, err)
	}
	return &c, nil
}

// maxNesting bounds how deep Sequence components may nest. Real files nest
// one or two levels; the bound keeps a hostile file (a Sequence inside a
// Sequence thousands of times, which costs quadratic time to read) from
// stalling the loader.
const maxNesting = 16

func tooDeep(what string) error {
	return unsupported("%s: Sequence nested more than %d levels deep", what, maxNesting)
}

func parseNormalizer(raw json.RawMessage, depth int) ([]normStep, error) {
	if depth > maxNesting {
		return nil, tooDeep("normalizer")
	}
	c, err := parseComponent(raw, "normalizer")
	if err != nil || c == nil {
		return nil, err
	}
	switch c.Type {
	case "Sequence":
		var out []normStep
		for _, r := range c.Normalizers {
			s, err := parseNormalizer(r, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, s...)
		}
		return out, nil
	case "NFC":
		return []normStep{{kind: normNFC}}, nil
	case "NFD":
		return []normStep{{kind: normNFD}}, nil
	case "NFKC":
		return []normStep{{kind: normNFKC}}, nil
	case "NFKD":
		return []normStep{{kind: normNFKD}}, nil
	case "Lowercase":
		return []normStep{{kind: normLowercase}}, nil
	case "Strip":
		return []normStep{{kind: normStrip, left: c.StripLeft, right: c.StripRight}}, nil
	case "Prepend":
		if c.Prepend == nil {
			return nil, invalid("Prepend normalizer without prepend")
		}
		return []normStep{{kind: normPrepend, to: *c.Prepend}}, nil
	case "Replace":
		if c.Pattern == nil || c.Pattern.String == nil {
			return nil, unsupported("normalizer Replace with a Regex pattern")
		}
		if c.Content == nil {
			return nil, invalid("Replace normalizer without content")
		}
		return []normStep{{kind: normReplace, from: *c.Pattern.String, to: *c.Content}}, nil
	}
	return nil, unsupported("normalizer %q", c.Type)
}

func parsePreTokenizer(raw json.RawMessage, depth int) ([]preStep, error) {
	if depth > maxNesting {
		return nil, tooDeep("pre_tokenizer")
	}
	c, err := parseComponent(raw, "pre_tokenizer")
	if err != nil || c == nil {
		return nil, err
	}
	switch c.Type {
	case "Sequence":
		var out []preStep
		for _, r := range c.Pretokenizers {
			s, err := parsePreTokenizer(r, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, s...)
		}
		return out, nil
	case "Split":
		st := preStep{kind: preSplit, invert: c.Invert}
		switch c.Behavior {
		case "Isolated":
			st.behavior = splitIsolated
		case "Removed":
			st.behavior = splitRemoved
		case "MergedWithPrevious":
			st.behavior = splitMergedWithPrevious
		case "MergedWithNext":
			st.behavior = splitMergedWithNext
		case "Contiguous":
			st.behavior = splitContiguous
		default:
			return nil, unsupported("Split pre-tokenizer behavior %q", c.Behavior)
		}
		if c.Pattern == nil {
			return nil, invalid("Split pre-tokenizer without pattern")
		}
		switch {
		case c.Pattern.String != nil:
			if c.Invert {
				return nil, unsupported("Split pre-tokenizer with invert and a String pattern")
			}
			st.literal = *c.Pattern.String
		case c.Pattern.Regex != nil:
			pat := *c.Pattern.Regex
			if !c.Invert {
				st.scan, st.starts = knownScanner(pat), knownStarts(pat)
			}
			if st.scan == nil {
				re, err := regexp2.Compile(pat, regexp2.Unicode)
				if err != nil {
					return nil, unsupported("Split pattern %q: %v", pat, err)
				}
				re.MatchTimeout = regexpMatchTimeout
				st.re = re
			}
		default:
			return nil, invalid("Split pre-tokenizer pattern is neither String nor Regex")
		}
		return []preStep{st}, nil
	case "ByteLevel":
		st := preStep{kind: preByteLevel, addPrefixSpace: true, useRegex: true}
		if c.AddPrefixSpace != nil {
			st.addPrefixSpace = *c.AddPrefixSpace
		}
		if c.UseRegex != nil {
			st.useRegex = *c.UseRegex
		}
		return []preStep{st}, nil
	case "Metaspace":
		st := preStep{kind: preMetaspace, replacement: c.Replacement, prepend: 1, splitOnSpace: true}
		if st.replacement == "" {
			st.replacement = "▁"
		}
		switch c.PrependScheme {
		case "never":
			st.prepend = 0
		case "first":
			st.prepend = 2
		case "always", "":
			if c.PrependScheme == "" && c.AddPrefixSpace != nil && !*c.AddPrefixSpace {
				st.prepend = 0
			}
		default:
			return nil, unsupported("Metaspace prepend_scheme %q", c.PrependScheme)
		}
		if c.Split != nil {
			st.splitOnSpace = *c.Split
		}
		return []preStep{st}, nil
	case "Digits":
		return []preStep{{kind: preDigits, individual: c.IndividualDigits}}, nil
	case "WhitespaceSplit":
		return []preStep{{kind: preWhitespaceSplit}}, nil
	}
	return nil, unsupported("pre-tokenizer %q", c.Type)
}

func parseDecoder(raw json.RawMessage) (decoderChain, error) {
	c, err := parseComponent(raw, "decoder")
	if err != nil {
		return decoderChain{}, err
	}
	if c == nil {
		return decoderChain{none: true}, nil
	}
	var ch decoderChain
	if err := appendDecoder(&ch, c, 0); err != nil {
		return decoderChain{}, err
	}
	ch.pureBL = len(ch.steps) == 1 && ch.steps[0].kind == decByteLevel
	return ch, nil
}

func appendDecoder(ch *decoderChain, c *hfComponent, depth int) error {
	switch c.Type {
	case "Sequence":
		if depth >= maxNesting {
			return tooDeep("decoder")
		}
		for _, r := range c.Decoders {
			sub, err := parseComponent(r, "decoder")
			if err != nil {
				return err
			}
			if sub == nil {
				continue
			}
			if err := appendDecoder(ch, sub, depth+1); err != nil {
				return err
			}
		}
	case "ByteLevel":
		ch.steps = append(ch.steps, decStep{kind: decByteLevel})
	case "ByteFallback":
		ch.steps = append(ch.steps, decStep{kind: decByteFallback})
		ch.hasBFB = true
	case "Fuse":
		ch.steps = append(ch.steps, decStep{kind: decFuse})
	case "Strip":
		if c.Content == nil || utf8.RuneCountInString(*c.Content) != 1 {
			return invalid("Strip decoder content must be one character")
		}
		ch.steps = append(ch.steps, decStep{kind: decStrip, strip: *c.Content, start: c.Start, stop: c.Stop})
	case "Replace":
		if c.Pattern == nil || c.Pattern.String == nil {
			return unsupported("decoder Replace with a Regex pattern")
		}
		if c.Content == nil {
			return invalid("Replace decoder without content")
		}
		ch.steps = append(ch.steps, decStep{kind: decReplace, from: *c.Pattern.String, to: *c.Content})
	case "Metaspace":
		rep := c.Replacement
		if rep == "" {
			rep = "▁"
		}
		prefix := c.PrependScheme != "never"
		if c.PrependScheme == "" && c.AddPrefixSpace != nil {
			prefix = *c.AddPrefixSpace
		}
		ch.steps = append(ch.steps, decStep{kind: decMetaspace, from: rep, prefix: prefix})
	default:
		return unsupported("decoder %q", c.Type)
	}
	return nil
}

func (t *BPE) parsePostProcessor(raw json.RawMessage) (postProcessor, error) {
	c, err := parseComponent(raw, "post_processor")
	if err != nil || c == nil {
		return postProcessor{}, err
	}
	var pp postProcessor
	if err := t.appendPost(&pp, c, 0); err != nil {
		return postProcessor{}, err
	}
	return pp, nil
}

func (t *BPE) appendPost(pp *postProcessor, c *hfComponent, depth int) error {
	switch c.Type {
	case "Sequence":
		if depth >= maxNesting {
			return tooDeep("post_processor")
		}
		for _, r := range c.Processors {
			sub, err := parseComponent(r, "post_processor")
			if err != nil {
				return err
			}
			if sub == nil {
				continue
			}
			if err := t.appendPost(pp, sub, depth+1); err != nil {
				return err
			}
		}
	case "ByteLevel":
		// offsets only; no effect on ids
	case "TemplateProcessing":
		seen := false
		var prefix, suffix []uint32
		for _, p := range c.Single {
			switch {
			case p.Sequence != nil:
				if seen {
					return unsupported("TemplateProcessing with two sequences in single")
				}
				seen = true
			case p.SpecialToken != nil:
				st, ok := c.SpecialTokens[p.SpecialToken.ID]
				if !ok {
					return invalid("TemplateProcessing: special token %q not defined", p.SpecialToken.ID)
				}
				if seen {
					suffix = append(suffix, st.IDs...)
				} else {
					prefix = append(prefix, st.IDs...)
				}
			}
		}
		if !seen {
			return invalid("TemplateProcessing single has no sequence")
		}
		pp.prefix = append(pp.prefix, prefix...)
		pp.suffix = append(suffix, pp.suffix...)
	default:
		return unsupported("post-processor %q", c.Type)
	}
	return nil
}
