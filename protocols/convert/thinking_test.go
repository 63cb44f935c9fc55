package convert_test

import (
	"testing"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/agentwire/agentwire/protocols/convert"
	"github.com/agentwire/agentwire/protocols/openai"
)

func TestAnthropicThinkingPolicy(t *testing.T) {
	for _, tc := range []struct {
		thinking   string
		def        bool
		display    anthropic.ThinkingDisplay
		enable     string // chat_template_args.enable_thinking, "" when absent
		blockTexts []string
	}{
		{``, false, anthropic.ThinkingHidden, "false", nil},
		{``, true, anthropic.ThinkingShown, "true", []string{"plan"}},
		{`,"thinking":{"type":"disabled"}`, false, anthropic.ThinkingHidden, "false", nil},
		{`,"thinking":{"type":"adaptive"}`, false, anthropic.ThinkingShown, "true", []string{"plan"}},
		{`,"thinking":{"type":"adaptive","display":"omitted"}`, false, anthropic.ThinkingOmitted, "true", []string{""}},
	} {
		req, err := anthropic.DecodeMessagesRequest([]byte(`{"model":"m","max_tokens":1,"messages":[{"role":"user","content":"x"}]`+tc.thinking+`}`), anthropic.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		chat, ctx, err := convert.AnthropicToChat(req, convert.AnthropicOptions{ReasoningParser: true, ShowThinkingByDefault: tc.def})
		if err != nil {
			t.Fatal(err)
		}
		if ctx.Thinking != tc.display || ctx.EmitterConfig(5, 0).Thinking != tc.display {
			t.Errorf("%s: display %v, want %v", tc.thinking, ctx.Thinking, tc.display)
		}
		if got := string(chat.ChatTemplateArgs["enable_thinking"]); got != tc.enable {
			t.Errorf("%s: enable_thinking %q, want %q", tc.thinking, got, tc.enable)
		}
		resp := &openai.ChatResponse{Model: "m", Choices: []openai.Choice{{FinishReason: protocols.Some("stop"), Message: openai.ResponseMessage{
			Role: "assistant", Content: openai.TextContent("hi"), ReasoningContent: protocols.Some(protocols.Text[string]("plan"))}}}}
		var texts []string
		for _, b := range convert.ChatToAnthropic(resp, ctx, convert.BackOptions{}).Content {
			if b.OfThinking != nil {
				texts = append(texts, b.OfThinking.Thinking)
				if b.OfThinking.Signature == "" {
					t.Errorf("%s: thinking block without signature", tc.thinking)
				}
			}
		}
		if len(texts) != len(tc.blockTexts) || len(texts) == 1 && texts[0] != tc.blockTexts[0] {
			t.Errorf("%s: thinking blocks %q, want %q", tc.thinking, texts, tc.blockTexts)
		}
	}
}
