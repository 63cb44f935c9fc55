package pipeline

import (
	"bytes"
	"testing"

	"github.com/agentwire/agentwire/preprocess/api"
	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/agentwire/agentwire/protocols/openai"
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
			if !bytes.Contains(body, []byte(tt.want)) {
				t.Errorf("body %s does not contain %q", body, tt.want)
			}
			if bytes.Contains(body, []byte(`\u003`)) || bytes.Contains(body, []byte(`\u0026`)) {
				t.Errorf("body %s is HTML-escaped", body)
			}
		})
	}
}

func TestMarshalJSON(t *testing.T) {
	got, err := MarshalJSON(map[string]string{"s": "<tool_call> & </tool_call>"})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"s":"<tool_call> & </tool_call>"}`; string(got) != want {
		t.Errorf("MarshalJSON = %s, want %s", got, want)
	}
}
