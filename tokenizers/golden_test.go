package tokenizers

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func short(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

// TestGolden checks encode and decode against Hugging Face's library on the
// corpus, for every tokenizer with goldens.
func TestGolden(t *testing.T) {
	for _, model := range goldenModels {
		t.Run(model, func(t *testing.T) {
			tok := modelFile(t, model)
			g := loadGolden(t, model)
			for _, c := range g.Encode {
				got, err := tok.Encode(c.Text, c.AddSpecialTokens)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(c.IDs, got, cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("Encode(%q, %v) mismatch (-hf +got):\n%s", short(c.Text), c.AddSpecialTokens, diff)
				}
			}
			for _, c := range g.EncodePlain {
				got, err := tok.EncodeSegments([]Segment{{Text: c.Text}}, false)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(c.IDs, got, cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("EncodeSegments(untrusted %q) mismatch (-hf +got):\n%s", short(c.Text), diff)
				}
			}
			for _, c := range g.Decode {
				got, err := tok.Decode(c.IDs, c.SkipSpecialTokens)
				if err != nil {
					t.Fatal(err)
				}
				if got != c.Text {
					t.Errorf("Decode(%v, %v) = %q, want %q", c.IDs, c.SkipSpecialTokens, short(got), short(c.Text))
				}
			}
		})
	}
}
