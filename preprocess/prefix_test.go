package preprocess

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/agentwire/agentwire/protocols/openai"
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
			_, e := p.encode(base)
			p.remember(e)
		}
		next := base + text(rng.IntN(6))
		want, _ := m.Tokenizer.Encode(next, false)
		got, e := p.encode(next)
		p.remember(e)
		require.Equal(t, want, got, "%q after %q", next, base)
	}
}

// TestPrefixCacheAcceptedOnly: the cache keeps the prompts of accepted
// requests only; a prompt answered "too long" and a counted one are not
// kept (six distinct 30 MiB prompts answered 400 used to pin 918 MB).
func TestPrefixCacheAcceptedOnly(t *testing.T) {
	m, err := LoadModel(tinyDir, ModelOptions{})
	require.NoError(t, err)
	require.True(t, m.prefix.ok)
	p := New(m, Options{})
	ctx := context.Background()
	chat := func(text string) *openai.ChatRequest {
		return &openai.ChatRequest{Model: "tiny", Messages: []openai.Message{{Role: "user", Content: openai.TextContent(text)}}}
	}
	for i := range 3 {
		_, err := p.Chat(ctx, chat(strings.Repeat(fmt.Sprintf("long prompt %d ", i), 2000)))
		var ee *engine.Error
		require.ErrorAs(t, err, &ee)
		require.Equal(t, engine.ErrorContextLength, ee.Kind)
	}
	_, err = p.CountTokens(ctx, &anthropic.CountTokensRequest{Model: "tiny", Messages: []anthropic.Message{{Role: "user", Content: protocols.Text[anthropic.ContentBlock]("counted only")}}})
	require.NoError(t, err)
	_, err = p.CountChatTokens(ctx, chat("tokenized only"))
	require.NoError(t, err)
	n, size := p.cache.stats()
	require.Zero(t, n, "entries of rejected or counted prompts")
	require.Zero(t, size)

	_, err = p.Chat(ctx, chat("hello"))
	require.NoError(t, err)
	_, err = p.Completion(ctx, &openai.CompletionRequest{Model: "tiny", Prompt: openai.Prompt{Text: protocols.Some("plain completion")}})
	require.NoError(t, err)
	n, size = p.cache.stats()
	require.Equal(t, 2, n)
	require.Positive(t, size)
}

// TestPrefixCacheBytes: the cache holds at most PrefixCacheBytes, evicting
// the oldest entries; a prompt larger than the bound is not kept.
func TestPrefixCacheBytes(t *testing.T) {
	m, err := LoadModel(tinyDir, ModelOptions{})
	require.NoError(t, err)
	const limit = 64 << 10
	p := New(m, Options{PrefixCacheBytes: limit})
	for i := range 40 {
		_, e := p.encode(fmt.Sprintf("<|im_start|>user\nprompt %d %s<|im_end|>\n", i, strings.Repeat("abc ", 1000)))
		p.remember(e)
		n, size := p.cache.stats()
		require.LessOrEqual(t, size, int64(limit), "after %d prompts (%d entries)", i+1, n)
	}
	n, _ := p.cache.stats()
	require.Greater(t, n, 1)
	_, e := p.encode(strings.Repeat("huge ", limit))
	p.remember(e)
	_, size := p.cache.stats()
	require.LessOrEqual(t, size, int64(limit))
	for _, ce := range p.cache.entries {
		require.NotEqual(t, e, ce, "an entry over the bound was kept")
	}
}
