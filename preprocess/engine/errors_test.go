package engine

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestContextMessages checks the context-overflow messages of the engines
// and the numbers read from them.
func TestContextMessages(t *testing.T) {
	cases := []struct {
		msg           string
		prompt, limit int
	}{
		{"This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.", 4000, 4096},
		{"This model's maximum context length is 32768 tokens. However, your request has 40000 input tokens. Please reduce the length of the input messages.", 40000, 32768},
		{"'max_tokens' or 'max_completion_tokens' is too large: 1000. This model's maximum context length is 4096 tokens and your request has 3500 input tokens (1000 > 4096 - 3500).", 3500, 4096},
		{"The decoder prompt (length 5000) is longer than the maximum model length of 4096. Make sure that `max_model_len` is no smaller than the number of text tokens.", 5000, 4096},
		{"The input (5000 tokens) is longer than the model's context length (4096 tokens).", 5000, 4096},
		{"Requested token count exceeds the model's maximum context length of 4096 tokens. You requested a total of 5000 tokens: 4000 tokens from the input messages and 1000 tokens for the completion.", 4000, 4096},
		{"Prompt length (5000) exceeds max_seq_len (4096)", 5000, 4096},
	}
	for _, tc := range cases {
		e := httpError(400, []byte(`{"error":{"message":`+jsonStr([]byte(tc.msg))+`}}`))
		require.Equal(t, ErrorContextLength, e.Kind, "%.60s…: kind %v prompt %d limit %d", tc.msg, e.Kind, e.PromptTokens, e.MaxContext)
		require.Equal(t, tc.prompt, e.PromptTokens, "%.60s…: kind %v prompt %d limit %d", tc.msg, e.Kind, e.PromptTokens, e.MaxContext)
		require.Equal(t, tc.limit, e.MaxContext, "%.60s…: kind %v prompt %d limit %d", tc.msg, e.Kind, e.PromptTokens, e.MaxContext)
	}
	for _, msg := range []string{"temperature must be non-negative", "Invalid JSON body"} {
		e := httpError(400, []byte(msg))
		require.Equal(t, ErrorBadRequest, e.Kind, "%q: %v %q", msg, e.Kind, e.Message)
		require.Contains(t, e.Message, msg, "%q: %v %q", msg, e.Kind, e.Message)
	}
	e := httpError(500, []byte(`{"detail":"Server is overloaded, try later"}`))
	require.Equal(t, ErrorOverloaded, e.Kind, "overloaded 500: %v", e.Kind)
	if e := httpError(422, []byte(`{"detail":[{"loc":["body","prompt"],"msg":"field required","type":"missing"}]}`)); e.Kind != ErrorBadRequest || !strings.Contains(e.Message, "field required") {
		t.Errorf("422: %v %q", e.Kind, e.Message)
	}
	long := strings.Repeat("é", 2000)
	if e := httpError(500, []byte(long)); len(e.Message) > maxMessage+len("…") || !strings.HasSuffix(e.Message, "…") {
		t.Errorf("long message of %d bytes", len(e.Message))
	}
	for k := ErrorUpstream; k <= ErrorCanceled+1; k++ {
		require.NotEqual(t, "", k.String(), "kind %d has no name", k)
	}
}
