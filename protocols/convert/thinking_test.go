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

// TestAnthropicEffort: Anthropic's thinking settings reach the chat
// request as one reasoning_effort (and enable_thinking), the control the
// chat template and the reasoning gate read, as Chat's reasoning_effort
// and Responses' reasoning.effort do.
func TestAnthropicEffort(t *testing.T) {
	for _, tc := range []struct {
		name, fields string
		def          bool   // ShowThinkingByDefault
		effort       string // chat_template_args.reasoning_effort
		enable       string // chat_template_args.enable_thinking
	}{
		{"absent", ``, false, "none", "false"},
		{"absent, shown by default", ``, true, "high", "true"},
		{"disabled", `,"thinking":{"type":"disabled"}`, true, "none", "false"},
		{"disabled wins over effort", `,"thinking":{"type":"disabled"},"output_config":{"effort":"max"}`, true, "none", "false"},
		{"adaptive", `,"thinking":{"type":"adaptive"}`, false, "high", "true"},
		{"Claude Code", `,"thinking":{"type":"adaptive","display":"omitted"},"output_config":{"effort":"medium"}`, false, "medium", "true"},
		{"adaptive low", `,"thinking":{"type":"adaptive"},"output_config":{"effort":"low"}`, false, "low", "true"},
		{"adaptive xhigh", `,"thinking":{"type":"adaptive"},"output_config":{"effort":"xhigh"}`, false, "xhigh", "true"},
		{"adaptive, unknown effort", `,"thinking":{"type":"adaptive"},"output_config":{"effort":"ultra"}`, false, "high", "true"},
		{"minimum budget", `,"thinking":{"type":"enabled","budget_tokens":1024}`, false, "low", "true"},
		{"think", `,"thinking":{"type":"enabled","budget_tokens":4000}`, false, "medium", "true"},
		{"think hard", `,"thinking":{"type":"enabled","budget_tokens":10000}`, false, "high", "true"},
		{"ultrathink", `,"thinking":{"type":"enabled","budget_tokens":31999}`, false, "xhigh", "true"},
		{"huge budget", `,"thinking":{"type":"enabled","budget_tokens":64000}`, false, "max", "true"},
		{"effort wins over budget", `,"thinking":{"type":"enabled","budget_tokens":1024},"output_config":{"effort":"high"}`, false, "high", "true"},
	} {
		req, err := anthropic.DecodeMessagesRequest([]byte(`{"model":"m","max_tokens":1,"messages":[{"role":"user","content":"x"}]`+tc.fields+`}`), anthropic.DecodeOptions{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, parser := range []bool{false, true} {
			chat, _, err := convert.AnthropicToChat(req, convert.AnthropicOptions{ReasoningParser: parser, ShowThinkingByDefault: tc.def})
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			got := [2]string{string(chat.ChatTemplateArgs["reasoning_effort"]), string(chat.ChatTemplateArgs["enable_thinking"])}
			if want := [2]string{`"` + tc.effort + `"`, tc.enable}; got != want {
				t.Errorf("%s (parser %v): reasoning_effort, enable_thinking = %s, want %s", tc.name, parser, got, want)
			}
		}
	}
}
