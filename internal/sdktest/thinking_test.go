package sdktest

import (
	"context"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	aoption "github.com/anthropics/anthropic-sdk-go/option"
	"github.com/google/go-cmp/cmp"

	"github.com/agentwire/agentwire/protocols"
	awanthropic "github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/agentwire/agentwire/protocols/convert"
	"github.com/stretchr/testify/require"
)

// The reasoning visibility policy as anthropic-sdk-go accumulates it:
// Claude Code's thinking {type: adaptive, display: omitted} gets thinking
// blocks with empty text and a signature; a request without thinking gets
// none, and the tokens still count.
func TestAnthropicSDKThinkingDisplay(t *testing.T) {
	for name, tc := range map[string]struct {
		thinking string
		want     []string // block types, thinking text in brackets
	}{
		"omitted": {`,"thinking":{"type":"adaptive","display":"omitted"}`, []string{"thinking[]", "text", "tool_use", "tool_use"}},
		"shown":   {`,"thinking":{"type":"enabled","budget_tokens":2048}`, []string{"thinking[The user wants the weather in NYC.]", "text", "tool_use", "tool_use"}},
		"absent":  {``, []string{"text", "tool_use", "tool_use"}},
	} {
		t.Run(name, func(t *testing.T) {
			req, err := awanthropic.DecodeMessagesRequest([]byte(`{"model":"claude-x","max_tokens":8,"messages":[{"role":"user","content":"x"}]`+tc.thinking+`}`), awanthropic.DecodeOptions{Strict: true})
			require.NoError(t, err)
			_, actx, err := convert.AnthropicToChat(req, convert.AnthropicOptions{ReasoningParser: true})
			require.NoError(t, err)
			srv := serve(t, func() protocols.Emitter { return awanthropic.NewEmitter(actx.EmitterConfig(120, 0)) }, toolTurn, nil)
			client := anthropic.NewClient(aoption.WithBaseURL(srv.URL), aoption.WithAPIKey("test"), aoption.WithMaxRetries(0))
			stream := client.Messages.NewStreaming(context.Background(), anthropic.MessageNewParams{Model: "claude-x", MaxTokens: 8,
				Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("x"))}})
			var msg anthropic.Message
			for stream.Next() {
				require.NoError(t, msg.Accumulate(stream.Current()), "Accumulate")
			}
			require.NoError(t, stream.Err())
			var got []string
			for _, b := range msg.Content {
				s := b.Type
				if b.Type == "thinking" {
					th := b.AsThinking()
					s += "[" + th.Thinking + "]"
					require.NotEqual(t, "", th.Signature, "thinking block without signature")
					// An omitted block's signature carries the reasoning,
					// so the client sends it back.
					r, ok := awanthropic.DecodeThinkingSignature(th.Signature)
					require.Equal(t, (name == "omitted"), ok, "signature %q carries %q (%v)", th.Signature, r, ok)
					require.False(t, ok && r != "The user wants the weather in NYC.", "signature %q carries %q (%v)", th.Signature, r, ok)
				}
				got = append(got, s)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("blocks (-want +got):\n%s", d)
			}
			require.Equal(t, int64(42), msg.Usage.OutputTokens, "usage %+v model %q", msg.Usage, msg.Model)
			require.Equal(t, "claude-x", msg.Model, "usage %+v model %q", msg.Usage, msg.Model)
		})
	}
}
