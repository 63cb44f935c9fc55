package pipeline

import (
	"bytes"
	"testing"

	"github.com/agentwire/agentwire/preprocess/api"
	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/agentwire/agentwire/protocols/openai"
	"github.com/stretchr/testify/require"
)

// TestErrorBodyNoHTMLEscape: error bodies write '<', '>' and '&' as they
// are, whichever path shapes them (a neutral error, or an API error value
// encoded here), as the real APIs do.
func TestErrorBodyNoHTMLEscape(t *testing.T) {
	overflow := &engine.Error{Kind: engine.ErrorContextLength, PromptTokens: 5000, MaxContext: 4096, Message: "too long"}
	tests := []struct {
		name string
		api  api.API
		err  error
		want string
	}{
		{"anthropic context length", api.Messages, overflow, "prompt is too long: 5000 tokens > 4096 maximum"},
		{"anthropic API error value", api.Messages, anthropic.NewAPIError(400, "a < b && c > d"), "a < b && c > d"},
		{"openai API error value", api.Chat, openai.BadRequest("a < b && c > d"), "a < b && c > d"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, body := ErrorBody(tt.api, tt.err)
			require.True(t, bytes.Contains(body, []byte(tt.want)), "body %s does not contain %q", body, tt.want)
			require.False(t, bytes.Contains(body, []byte(`\u003`)), "body %s is HTML-escaped", body)
			require.False(t, bytes.Contains(body, []byte(`\u0026`)), "body %s is HTML-escaped", body)
		})
	}
}

func TestMarshalJSON(t *testing.T) {
	got, err := MarshalJSON(map[string]string{"s": "<tool_call> & </tool_call>"})
	require.NoError(t, err)
	want := `{"s":"<tool_call> & </tool_call>"}`
	require.Equal(t, want, string(got), "MarshalJSON = %s, want %s", got, want)
}
