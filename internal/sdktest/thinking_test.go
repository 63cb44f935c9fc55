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
			if err != nil {
				t.Fatal(err)
			}
			_, actx, err := convert.AnthropicToChat(req, convert.AnthropicOptions{ReasoningParser: true})
			if err != nil {
				t.Fatal(err)
			}
			srv := serve(t, func() protocols.Emitter { return awanthropic.NewEmitter(actx.EmitterConfig(120, 0)) }, toolTurn, nil)
			client := anthropic.NewClient(aoption.WithBaseURL(srv.URL), aoption.WithAPIKey("test"), aoption.WithMaxRetries(0))
			stream := client.Messages.NewStreaming(context.Background(), anthropic.MessageNewParams{Model: "claude-x", MaxTokens: 8,
				Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("x"))}})
			var msg anthropic.Message
			for stream.Next() {
				if err := msg.Accumulate(stream.Current()); err != nil {
					t.Fatalf("Accumulate: %v", err)
				}
			}
			if err := stream.Err(); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, b := range msg.Content {
				s := b.Type
				if b.Type == "thinking" {
					th := b.AsThinking()
					s += "[" + th.Thinking + "]"
					if th.Signature == "" {
						t.Error("thinking block without signature")
					}
					// An omitted block's signature carries the reasoning,
					// so the client sends it back.
					if r, ok := awanthropic.DecodeThinkingSignature(th.Signature); ok != (name == "omitted") || ok && r != "The user wants the weather in NYC." {
						t.Errorf("signature %q carries %q (%v)", th.Signature, r, ok)
					}
				}
				got = append(got, s)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("blocks (-want +got):\n%s", d)
			}
			if msg.Usage.OutputTokens != 42 || msg.Model != "claude-x" {
				t.Errorf("usage %+v model %q", msg.Usage, msg.Model)
			}
		})
	}
}
