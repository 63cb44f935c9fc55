package hf

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"

	dt "github.com/daulet/tokenizers"

	"github.com/agentwire/agentwire/tokenizers"
)

// Tokenizer is a tokenizers.Tokenizer backed by Hugging Face's Rust library.
// Safe for concurrent use; call Close to release the native tokenizer.
type Tokenizer struct {
	tk         *dt.Tokenizer
	vocab      map[string]uint32
	tokens     map[uint32]string
	specialIDs []uint32
	special    map[uint32]bool
	byteTok    map[uint32]bool // <0xHH> tokens when the decoder has ByteFallback
	size       int
}

var _ tokenizers.Tokenizer = (*Tokenizer)(nil)

// LoadFile loads a Hugging Face tokenizer.json.
func LoadFile(path string) (*Tokenizer, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("hf: %w", err)
	}
	return FromJSON(data)
}

// FromJSON loads a tokenizer.json from memory.
func FromJSON(data []byte) (*Tokenizer, error) {
	var f struct {
		AddedTokens []struct {
			ID      uint32 `json:"id"`
			Content string `json:"content"`
			Special bool   `json:"special"`
		} `json:"added_tokens"`
		Model struct {
			Vocab map[string]uint32 `json:"vocab"`
		} `json:"model"`
		Decoder json.RawMessage `json:"decoder"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%w: %v", tokenizers.ErrInvalid, err)
	}
	tk, err := dt.FromBytes(data)
	if err != nil {
		return nil, fmt.Errorf("hf: %w", err)
	}
	t := &Tokenizer{
		tk:      tk,
		vocab:   map[string]uint32{},
		tokens:  map[uint32]string{},
		special: map[uint32]bool{},
		byteTok: map[uint32]bool{},
	}
	for tok, id := range f.Model.Vocab {
		t.vocab[tok], t.tokens[id] = id, tok
		t.size = max(t.size, int(id)+1)
	}
	for _, a := range f.AddedTokens {
		t.vocab[a.Content], t.tokens[a.ID] = a.ID, a.Content
		t.size = max(t.size, int(a.ID)+1)
		if a.Special && !t.special[a.ID] {
			t.special[a.ID] = true
			t.specialIDs = append(t.specialIDs, a.ID)
		}
	}
	sort.Slice(t.specialIDs, func(i, j int) bool { return t.specialIDs[i] < t.specialIDs[j] })
	if strings.Contains(string(f.Decoder), `"ByteFallback"`) {
		for tok, id := range f.Model.Vocab {
			if len(tok) == 6 && strings.HasPrefix(tok, "<0x") && tok[5] == '>' {
				t.byteTok[id] = true
			}
		}
	}
	return t, nil
}

// Close releases the native tokenizer.
func (t *Tokenizer) Close() error { return t.tk.Close() }

// Encode implements tokenizers.Tokenizer.
func (t *Tokenizer) Encode(text string, addSpecialTokens bool) ([]uint32, error) {
	ids, _ := t.tk.Encode(text, addSpecialTokens)
	return ids, nil
}

// EncodeSegments implements tokenizers.Tokenizer. Untrusted segments are not
// supported by the binding.
func (t *Tokenizer) EncodeSegments(segments []tokenizers.Segment, addSpecialTokens bool) ([]uint32, error) {
	var out []uint32
	for i, s := range segments {
		if !s.AllowSpecial {
			return nil, fmt.Errorf("%w: hf backend: segment %d has AllowSpecial false (use the pure-Go backend)", tokenizers.ErrUnsupported, i)
		}
		ids, _ := t.tk.Encode(s.Text, false)
		out = append(out, ids...)
	}
	if addSpecialTokens {
		// The post-processor's tokens are those Encode adds to "".
		with, _ := t.tk.Encode("", true)
		out = append(with, out...)
	}
	return out, nil
}

// Decode implements tokenizers.Tokenizer.
func (t *Tokenizer) Decode(ids []uint32, skipSpecialTokens bool) (string, error) {
	return t.tk.Decode(ids, skipSpecialTokens), nil
}

// TokenToID implements tokenizers.Tokenizer.
func (t *Tokenizer) TokenToID(token string) (uint32, bool) {
	id, ok := t.vocab[token]
	return id, ok
}

// IDToToken implements tokenizers.Tokenizer.
func (t *Tokenizer) IDToToken(id uint32) (string, bool) {
	s, ok := t.tokens[id]
	return s, ok
}

// VocabSize implements tokenizers.Tokenizer.
func (t *Tokenizer) VocabSize() int { return t.size }

// SpecialTokenIDs implements tokenizers.Tokenizer.
func (t *Tokenizer) SpecialTokenIDs() []uint32 { return append([]uint32(nil), t.specialIDs...) }

// HasUnstableSuffix reports whether the last non-skipped id is a byte-fallback
// token; tokenizers.DecodeStream uses it.
func (t *Tokenizer) HasUnstableSuffix(ids []uint32, skipSpecialTokens bool) bool {
	for i := len(ids) - 1; i >= 0; i-- {
		if _, ok := t.tokens[ids[i]]; !ok || skipSpecialTokens && t.special[ids[i]] {
			continue
		}
		return t.byteTok[ids[i]]
	}
	return false
}
