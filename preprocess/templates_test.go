package preprocess

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentwire/agentwire/preprocess/api"
)

// TestCapturesOnRealTemplates prepares every captured harness request with
// every real chat template in testdata/chattemplate (on the tiny
// tokenizer): the template input must be one every template accepts (roles
// normalised where a template rejects the harnesses' shapes; Codex's
// default reasoning effort "medium" and Claude Code's adaptive thinking
// with effort "medium" mapped onto the values the template knows), and the
// conversation's text must reach the prompt.
func TestCapturesOnRealTemplates(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../testdata/chattemplate/templates/*.jinja")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		name := strings.TrimSuffix(filepath.Base(f), ".jinja")
		if name == "features" {
			continue // a feature test template, not a chat template
		}
		m := tinyModel(t, ModelOptions{ChatTemplate: string(src), ToolParser: "none", ReasoningParser: "none", ContextLength: 1 << 20})
		m.BOS = "<|endoftext|>" // templates such as Llama 3's need one
		p := New(m, Options{PrefixCacheEntries: -1})
		for _, c := range conversations {
			for _, file := range c.turns {
				t.Run(name+"/"+file, func(t *testing.T) {
					// The template's own refusals, answered as 400s.
					refusal := map[string]string{
						// no tool role: a tool result breaks its user/assistant alternation
						"gemma3": "Conversation roles must alternate",
					}[name]
					var prep *Prepared
					var err error
					if c.api == api.Messages {
						prep, err = p.Messages(context.Background(), loadMessages(t, file))
					} else {
						prep, err = p.Responses(context.Background(), loadResponses(t, file))
					}
					if refusal != "" && err != nil {
						var bad *BadRequestError
						require.ErrorAs(t, err, &bad)
						require.ErrorContains(t, err, refusal)
						return
					}
					require.NoError(t, err)
					if name == "mistral_nemo" && strings.Contains(prep.Engine.Prompt, "[TOOL_RESULTS]") {
						// The template writes the system prompt into the last
						// message only when that is the user's: after a tool
						// result it is not in the prompt (by design).
						require.Contains(t, prep.Engine.Prompt, `[TOOL_CALLS][{"name": "`, "the conversation's calls are in the prompt")
						return
					}
					require.Contains(t, prep.Engine.Prompt, "/home/dev/project", "the conversation's text is in the prompt")
				})
			}
		}
	}
}

func TestNormalizeRoles(t *testing.T) {
	in := []string{"system:a", "developer:b", "user:c", "user:d", "assistant:e", "system:f", "user:g"}
	msgs := make([]chatMessage, 0, len(in))
	for _, s := range in {
		role, text, _ := strings.Cut(s, ":")
		msgs = append(msgs, newMessage(role, text))
	}
	var got []string
	for _, m := range normalizeRoles(msgs) {
		c, _ := m.Content.Get()
		got = append(got, m.Role+":"+c.String)
	}
	require.Equal(t, []string{"system:a\n\nb", "user:c\n\nd", "assistant:e", "user:f\n\ng"}, got)
	require.Equal(t, "developer", msgs[1].Role, "the input is not modified")
}
