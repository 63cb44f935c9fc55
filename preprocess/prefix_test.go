package preprocess

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// trickyModel is the tiny model with added tokens that overlap the ChatML
// boundaries: one longer than <|im_end|> starting with it, one that
// starts inside <|im_start|>, and two with rstrip (never boundaries), one
// of which starts before <|im_end|> and ends inside it.
func trickyModel(t *testing.T) *Model {
	b, err := os.ReadFile(filepath.Join(tinyDir, "tokenizer.json"))
	require.NoError(t, err)
	var tok map[string]any
	require.NoError(t, json.Unmarshal(b, &tok))
	added := tok["added_tokens"].([]any)
	vocab := tok["model"].(map[string]any)["vocab"].(map[string]any)
	for _, extra := range []struct {
		content string
		rstrip  bool
	}{{"<|im_end|>\n\n", false}, {">user", false}, {"<end>", true}, {"a<|im", true}} {
		id := len(vocab)
		vocab[extra.content] = id
		added = append(added, map[string]any{"id": id, "content": extra.content, "special": true, "lstrip": false, "rstrip": extra.rstrip, "single_word": false, "normalized": false})
	}
	tok["added_tokens"] = added
	dir := t.TempDir()
	out, err := json.Marshal(tok)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "tokenizer.json"), out, 0o644))
	m, err := LoadModel(dir, ModelOptions{})
	require.NoError(t, err)
	require.True(t, m.prefix.ok)
	return m
}

// TestPrefixCacheProperty encodes random texts built from pieces that hit
// every boundary rule, each followed by a random extension of it (the
// next turn), and compares the cached ids with the tokenizer's own
// encoding.
func TestPrefixCacheProperty(t *testing.T) {
	m := trickyModel(t)
	pieces := []string{"<|im_end|>", "<|im_start|>", "<|im_end|>\n\n", "\n", "\n\n", "user", ">user", "a", " the", "ü", "u\u0308", "<end>", "  ", "<|endoftext|>", "<think>", "x<|im_", "!!", "a"}
	rng := rand.New(rand.NewPCG(1, 2))
	text := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		return b.String()
	}
	p := New(m, Options{PrefixCacheEntries: 4})
	for i := range 3000 {
		base := text(1 + rng.IntN(12))
		if i%3 == 0 {
			p.encode(base)
		}
		next := base + text(rng.IntN(6))
		want, _ := m.Tokenizer.Encode(next, false)
		require.Equal(t, want, p.encode(next), "%q after %q", next, base)
	}
}
