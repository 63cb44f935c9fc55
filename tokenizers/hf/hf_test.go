//go:build hftokenizers

package hf

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/agentwire/agentwire/tokenizers"
)

// TestMatchesPureGo compares the Rust backend with the pure-Go one on the
// corpus, for every tokenizer file the setup script placed.
func TestMatchesPureGo(t *testing.T) {
	data, err := os.ReadFile("../testdata/corpus.json")
	if err != nil {
		t.Fatal(err)
	}
	var c struct{ Texts []string }
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	for _, model := range []string{"qwen3", "llama3", "gptoss", "deepseek_v3", "mistral"} {
		path := filepath.Join("..", "testdata", "large", model, "tokenizer.json")
		if _, err := os.Stat(path); err != nil {
			t.Skipf("%s missing: run bash .ci/setup.d/tokenizers.sh", path)
		}
		hf, err := LoadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		defer hf.Close()
		pure, err := tokenizers.LoadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range c.Texts {
			for _, add := range []bool{false, true} {
				want, _ := hf.Encode(text, add)
				got, _ := pure.Encode(text, add)
				if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("%s Encode(%q, %v) (-hf +pure):\n%s", model, text, add, diff)
				}
				a, _ := hf.Decode(want, !add)
				b, _ := pure.Decode(want, !add)
				if a != b {
					t.Errorf("%s Decode: hf %q, pure %q", model, a, b)
				}
			}
		}
	}
}
