package preprocess

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentwire/agentwire/preprocess/api"
)

// prepareTurn prepares one captured request on p.
func prepareTurn(tb testing.TB, p *Preprocessor, a api.API, file string) *Prepared {
	tb.Helper()
	var prep *Prepared
	var err error
	if a == api.Messages {
		prep, err = p.Messages(context.Background(), loadMessages(tb, file))
	} else {
		prep, err = p.Responses(context.Background(), loadResponses(tb, file))
	}
	require.NoError(tb, err, file)
	return prep
}

// harnessModels are the models the captures are prepared on: the tiny
// directory always, the large ones when fetched.
func harnessModels(t *testing.T, names ...string) map[string]*Model {
	ms := map[string]*Model{"tiny": tinyModel(t, ModelOptions{ContextLength: 1 << 20})}
	for _, name := range names {
		t.Run("load "+name, func(t *testing.T) { ms[name] = largeModel(t, name) })
	}
	return ms
}

// TestHarnessCaptures prepares every captured Claude Code and Codex
// request and checks the prompt's shape and that its ids are the
// tokenizer's own encoding of the prompt.
func TestHarnessCaptures(t *testing.T) {
	t.Parallel()
	for name, m := range harnessModels(t, "qwen3", "gptoss", "kimi_k2") {
		p := New(m, Options{PrefixCacheEntries: -1})
		for _, c := range conversations {
			for _, file := range c.turns {
				t.Run(name+"/"+file, func(t *testing.T) {
					prep := prepareTurn(t, p, c.api, file)
					e := prep.Engine
					ids, _ := m.Tokenizer.Encode(e.Prompt, false)
					require.Equal(t, ids, e.PromptIDs)
					require.Greater(t, e.MaxTokens, 0)
					require.NotEmpty(t, prep.Parsers.ToolParser, "the captures declare tools")
					require.NotEmpty(t, prep.Parsers.Tools)
					switch name {
					case "tiny", "qwen3":
						require.True(t, strings.HasPrefix(e.Prompt, "<|im_start|>system\n"), e.Prompt[:80])
						require.True(t, strings.HasSuffix(e.Prompt, "<|im_start|>assistant\n"), e.Prompt[len(e.Prompt)-80:])
					case "gptoss":
						require.True(t, strings.HasSuffix(e.Prompt, "<|start|>assistant"), e.Prompt[len(e.Prompt)-80:])
					case "kimi_k2":
						require.True(t, strings.HasSuffix(e.Prompt, "<|im_assistant|>assistant<|im_middle|>"), e.Prompt[len(e.Prompt)-80:])
					}
					if c.api == api.Responses {
						require.NotNil(t, prep.Response.Responses)
						require.Nil(t, prep.Response.Anthropic)
					} else {
						require.NotNil(t, prep.Response.Anthropic)
						require.False(t, prep.Response.HideReasoning, "Claude Code asks for adaptive thinking")
					}
					if strings.Contains(file, "0005") {
						// Codex's turn 2 replays its exec_command call.
						require.Contains(t, e.Prompt, "exec_command")
					}
					if strings.Contains(file, "0002") {
						// Claude Code's turn 2 replays its thinking, its tool
						// call and the result.
						require.Contains(t, e.Prompt, "Bash")
						const thought = "The user wants me to run a quick harmless check. I will call a read-only tool first."
						switch name {
						case "gptoss":
							require.Contains(t, e.Prompt, "<|channel|>analysis<|message|>"+thought+"<|end|>")
						case "kimi_k2":
							// Kimi K2's template drops earlier reasoning.
						default:
							require.Contains(t, e.Prompt, "<think>\n"+thought+"\n</think>")
						}
					}
				})
			}
		}
	}
}

// TestPrefixCacheCaptures proves on every captured conversation that a
// turn prepared with the prefix cache has exactly the ids of a cold
// encode, and that the next turn reuses most of the previous one.
func TestPrefixCacheCaptures(t *testing.T) {
	t.Parallel()
	for name, m := range harnessModels(t, largeModels...) {
		if !m.prefix.ok {
			t.Logf("%s: tokenizer not prefix-cacheable", name)
			continue
		}
		cold := New(m, Options{PrefixCacheEntries: -1})
		for _, c := range conversations {
			t.Run(name+"/"+c.name, func(t *testing.T) {
				warm := New(m, Options{})
				var prev *Prepared
				for _, file := range c.turns {
					want := prepareTurn(t, cold, c.api, file)
					reuse := 0
					if prev != nil {
						_, b := warm.cache.best(want.Engine.Prompt)
						reuse = b.n
						shared := commonPrefix(prev.Engine.Prompt, want.Engine.Prompt)
						t.Logf("next turn reuses %d of %d ids (%d of %d bytes shared with the previous prompt)", b.n, len(want.Engine.PromptIDs), shared, len(want.Engine.Prompt))
						require.Greater(t, reuse, len(want.Engine.PromptIDs)*9/10, "the next turn should reuse most of the previous prompt")
					}
					got := prepareTurn(t, warm, c.api, file)
					require.Equal(t, want.Engine.Prompt, got.Engine.Prompt)
					require.Equal(t, want.Engine.PromptIDs, got.Engine.PromptIDs, "cached ids differ from a cold encode")
					// Preparing the same turn again hits the cache fully.
					again := prepareTurn(t, warm, c.api, file)
					require.Equal(t, want.Engine.PromptIDs, again.Engine.PromptIDs)
					prev = got
				}
			})
		}
	}
}
