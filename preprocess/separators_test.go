package preprocess

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/agentwire/agentwire/protocols/openai"
	"github.com/stretchr/testify/require"
)

// TestReasoningSeparators: the whitespace a template writes around
// reasoning is found at load time, and the reasoning a client sends back
// (with the newline the model wrote before its closer, which the parser
// keeps) is replayed so that the template writes the model's bytes, not a
// doubled newline.
func TestReasoningSeparators(t *testing.T) {
	cases := []struct {
		template, lead, trail string
		reasoning, want       string
	}{
		{"NVIDIA-Nemotron-3-Super.jinja", "\n", "\n", "I will run it.\n", "<think>\nI will run it.\n</think>\n<tool_call>"},
		{"gemma-4-26B-A4B-it-UD-Q8_K_XL.jinja", "\n", "\n", "I will run it.\n", "<|channel>thought\nI will run it.\n<channel|><|tool_call>"},
		{"qwen3.jinja", "\n", "\n", "\nI will run it.\n", "<think>\nI will run it.\n</think>\n\n<tool_call>"},
		{"GLM-5.2.jinja", "", "", "I will run it.", "I will run it.</think><tool_call>"},
		// A newline the model wrote on top of the template's one is kept.
		{"NVIDIA-Nemotron-3-Super.jinja", "\n", "\n", "I will run it.\n\n", "<think>\nI will run it.\n\n</think>\n<tool_call>"},
	}
	for _, c := range cases {
		t.Run(c.template, func(t *testing.T) {
			src, err := os.ReadFile("../testdata/chattemplate/templates/" + c.template)
			require.NoError(t, err)
			m := tinyModel(t, ModelOptions{ChatTemplate: string(src), ToolParser: "none", ReasoningParser: "none", ContextLength: 1 << 20})
			tm := m.Template(true)
			require.True(t, tm.HandlesReasoning)
			require.Equal(t, c.lead, tm.ReasoningLead, "lead")
			require.Equal(t, c.trail, tm.ReasoningTrail, "trail")
			body := `{"model":"m","messages":[{"role":"user","content":"Run it."},
				{"role":"assistant","content":null,"reasoning_content":` + string(mustMarshal(c.reasoning)) + `,
				 "tool_calls":[{"id":"call_1","type":"function","function":{"name":"Bash","arguments":"{\"command\": \"ls\"}"}}]},
				{"role":"tool","tool_call_id":"call_1","content":"a"}],
				"tools":[{"type":"function","function":{"name":"Bash","parameters":{"type":"object","properties":{"command":{"type":"string"}}}}}],
				"chat_template_kwargs":{"enable_thinking":true,"truncate_history_thinking":false,"clear_thinking":false}}`
			req, err := openai.DecodeChatRequest([]byte(body), openai.DecodeOptions{})
			require.NoError(t, err)
			prep, err := New(m, Options{PrefixCacheEntries: -1}).Chat(context.Background(), req)
			require.NoError(t, err)
			require.Contains(t, prep.Engine.Prompt, c.want)
		})
	}
}

func mustMarshal(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
