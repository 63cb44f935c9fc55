package engine

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

// usageDir holds engine streams with prefix-cache hits (see its README).
const usageDir = "testdata/usage"

// The scripted agent's turn 2 of the conversation the streams of usageDir
// answer (its README), as text and as the reasoning and content a chat
// engine with its own reasoning parser sends.
const (
	turn2Text      = "<think>\nThe tool finished. I will report what it returned.\n</think>\n\nDone. The tool returned:\n\nhello"
	turn2Reasoning = "\nThe tool finished. I will report what it returned.\n"
	turn2Content   = "Done. The tool returned:\n\nhello"
)

func readUsageStream(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(usageDir, name))
	require.NoError(t, err)
	return b
}

// TestCachedTokensFromEngines streams each engine's answer through its
// adapter and checks the usage it reports: the prompt, completion and
// cached tokens of the engine's usage, and, where the engine reports the
// prompt with its first event (SGLang native), that first usage.
func TestCachedTokensFromEngines(t *testing.T) {
	cases := []struct {
		file      string
		engine    func(url string) Engine
		text      string
		reasoning string
		usage     Usage
		first     *Usage // the first output's usage
		usages    int    // outputs that carry a usage
	}{
		{file: "vllm-completions-turn1.sse", engine: func(u string) Engine { return NewVLLM(VLLMConfig{Config: Config{BaseURL: u}}) },
			text:  "<think>\nThe user wants me to act. I will call the Bash tool.\n</think>\n\n<tool_call>\n{\"name\": \"Bash\", \"arguments\": {\"command\":\"echo hello\"}}\n</tool_call>",
			usage: Usage{PromptTokens: 150, CompletionTokens: 59}, usages: 1},
		{file: "vllm-completions-turn2.sse", engine: func(u string) Engine { return NewVLLM(VLLMConfig{Config: Config{BaseURL: u}}) },
			text: turn2Text, usage: Usage{PromptTokens: 202, CompletionTokens: 43, CachedTokens: 144}, usages: 1},
		{file: "vllm-chat-turn2.sse", engine: func(u string) Engine { return NewChat(ChatConfig{Config: Config{BaseURL: u}}) },
			text: turn2Content, reasoning: turn2Reasoning, usage: Usage{PromptTokens: 202, CompletionTokens: 43, CachedTokens: 144}, usages: 1},
		{file: "sglang-generate-turn2.sse", engine: func(u string) Engine { return NewSGLang(SGLangConfig{Config: Config{BaseURL: u}}) },
			text: turn2Text, usage: Usage{PromptTokens: 202, CompletionTokens: 43, CachedTokens: 153},
			first: &Usage{PromptTokens: 202, CachedTokens: 153}, usages: 2},
		{file: "sglang-completions-turn2.sse", engine: func(u string) Engine { return NewSGLangCompletions(Config{BaseURL: u}) },
			text: turn2Text, usage: Usage{PromptTokens: 202, CompletionTokens: 43, CachedTokens: 153}, usages: 1},
		{file: "trtllm-completions-turn2.sse", engine: func(u string) Engine { return NewTRTLLM(TRTLLMConfig{Config: Config{BaseURL: u}}) },
			text: turn2Text, usage: Usage{PromptTokens: 202, CompletionTokens: 43, CachedTokens: 128}, usages: 1},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			u := newUpstream(t, sseHandler(readUsageStream(t, tc.file)))
			st, err := tc.engine(u.URL+"/v1").Generate(ctxTimeout(t, 10*time.Second), &Request{Model: "Qwen/Qwen3-8B", PromptIDs: []uint32{1, 2}, MaxTokens: 64,
				Chat: json.RawMessage(`{"messages":[{"role":"user","content":"say hello with the shell"}]}`)})
			require.NoError(t, err)
			defer st.Close()
			var first *Usage
			usages := 0
			var text, reasoning bytes.Buffer
			for i := 0; ; i++ {
				out, err := st.Next()
				if err != nil {
					require.Less(t, errKind(err), 0, err)
					break
				}
				text.Write(out.Text)
				reasoning.Write(out.Reasoning)
				if out.Usage == nil {
					continue
				}
				usages++
				u := *out.Usage
				if i == 0 {
					first = &u
				}
				if d := cmp.Diff(tc.usage, u); usages == tc.usages && d != "" {
					t.Errorf("final usage (-want +got):\n%s", d)
				}
			}
			require.Equal(t, tc.usages, usages, "%d outputs carry a usage, want %d", usages, tc.usages)
			if d := cmp.Diff(tc.first, first); d != "" {
				t.Errorf("first output's usage (-want +got):\n%s", d)
			}
			require.Equal(t, tc.text, text.String(), "text %q reasoning %q, want %q %q", text.String(), reasoning.String(), tc.text, tc.reasoning)
			require.Equal(t, tc.reasoning, reasoning.String(), "text %q reasoning %q, want %q %q", text.String(), reasoning.String(), tc.text, tc.reasoning)
		})
	}
}

// TestPrefixCacheAgreesWithEngines replays the two prompts of the usage
// streams (vLLM's prompt_token_ids) through a PrefixCache with vLLM's
// and TensorRT-LLM's block sizes: it reports what those engines reported
// for turn 2.
func TestPrefixCacheAgreesWithEngines(t *testing.T) {
	turn1 := promptIDsOf(t, "vllm-completions-turn1.sse")
	turn2 := promptIDsOf(t, "vllm-completions-turn2.sse")
	for _, tc := range []struct {
		block  int
		cached int64
	}{{16, 144}, {32, 128}} {
		c := NewPrefixCache(PrefixCacheConfig{BlockTokens: tc.block})
		p, got := c.Use(&Request{PromptIDs: turn1})
		require.Equal(t, int64(150), p, "block %d: turn 1: prompt %d cached %d, want 150 0", tc.block, p, got)
		require.Equal(t, int64(0), got, "block %d: turn 1: prompt %d cached %d, want 150 0", tc.block, p, got)
		if p, got := c.Use(&Request{PromptIDs: turn2}); p != 202 || got != tc.cached {
			t.Errorf("block %d: turn 2: prompt %d cached %d, want 202 %d", tc.block, p, got, tc.cached)
		}
	}
}

// promptIDsOf returns the prompt_token_ids of a vLLM stream's first chunk.
func promptIDsOf(t *testing.T, name string) []uint32 {
	t.Helper()
	data := readUsageStream(t, name)
	line, _, _ := bytes.Cut(bytes.TrimPrefix(data, []byte("data: ")), []byte("\n"))
	var chunk struct {
		Choices []struct {
			PromptTokenIDs []uint32 `json:"prompt_token_ids"`
		} `json:"choices"`
	}
	err := json.Unmarshal(line, &chunk)
	require.NoError(t, err, "%s: no prompt_token_ids in the first chunk (%v)", name, err)
	require.Len(t, chunk.Choices, 1, "%s: no prompt_token_ids in the first chunk (%v)", name, err)
	require.NotEmpty(t, chunk.Choices[0].PromptTokenIDs, "%s: no prompt_token_ids in the first chunk (%v)", name, err)
	return chunk.Choices[0].PromptTokenIDs
}
