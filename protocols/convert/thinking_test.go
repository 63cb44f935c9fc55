package convert_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/agentwire/agentwire/protocols/convert"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/internal/testutil"
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

// TestAnthropicOmittedThinkingRoundTrip: an answer whose thinking is
// omitted (Claude Code's thinking.display "omitted"), streamed or unary,
// sent back by the client as it holds it — thinking blocks with empty text
// and the signature they came with — gives the chat request the reasoning
// segments the model wrote, as a shown answer does. A foreign signature
// on an empty block gives none.
func TestAnthropicOmittedThinkingRoundTrip(t *testing.T) {
	segs := []string{"I should list the files.\n", "Now read “README.md”.", ""}
	resp := &openai.ChatResponse{Model: "m", Choices: []openai.Choice{{FinishReason: protocols.Some("tool_calls"), Message: openai.ResponseMessage{
		Role: "assistant", ReasoningContent: protocols.Some(protocols.Array(segs...)),
		ToolCalls: []openai.ToolCall{
			{ID: "call_1", Type: "function", Function: openai.FunctionCall{Name: "Bash", Arguments: `{"command": "ls"}`}},
			{ID: "call_2", Type: "function", Function: openai.FunctionCall{Name: "Read", Arguments: `{"file_path": "README.md"}`}},
		}}}}}
	stream := []testutil.Step{
		testutil.R(segs[0][:5]), testutil.R(segs[0][5:]), testutil.S(0, "call_1", "Bash"), testutil.A(0, `{"command": "ls"}`), testutil.E(0),
		testutil.R(segs[1]), testutil.S(1, "call_2", "Read"), testutil.A(1, `{"file_path": "README.md"}`), testutil.E(1),
		testutil.F(protocols.FinishToolCalls, protocols.Usage{}),
	}
	for _, display := range []string{`"display":"omitted"`, `"display":"summarized"`} {
		req := func(assistant []anthropic.ContentBlock) []byte {
			var ids []string
			for _, b := range assistant {
				if b.OfToolUse != nil {
					ids = append(ids, `{"type":"tool_result","tool_use_id":"`+b.OfToolUse.ID+`","content":"ok"}`)
				}
			}
			blocks, err := jsonx.Marshal(assistant)
			if err != nil {
				t.Fatal(err)
			}
			return []byte(`{"model":"m","max_tokens":1,"thinking":{"type":"adaptive",` + display + `},"messages":[` +
				`{"role":"user","content":"list"},{"role":"assistant","content":` + string(blocks) + `},` +
				`{"role":"user","content":[` + strings.Join(ids, ",") + `]}]}`)
		}
		first, err := anthropic.DecodeMessagesRequest([]byte(`{"model":"m","max_tokens":1,"thinking":{"type":"adaptive",`+display+
			`},"messages":[{"role":"user","content":"list"}]}`), anthropic.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		_, ctx, err := convert.AnthropicToChat(first, convert.AnthropicOptions{ReasoningParser: true})
		if err != nil {
			t.Fatal(err)
		}

		unary := convert.ChatToAnthropic(resp, ctx, convert.BackOptions{}).Content
		e := anthropic.NewEmitter(ctx.EmitterConfig(1, 0))
		var streamed []anthropic.ContentBlock
		for _, f := range testutil.Frames(t, testutil.Run(e, stream)) {
			ev, err := anthropic.DecodeStreamEvent([]byte(f.Data))
			if err != nil {
				t.Fatal(err)
			}
			switch ev := ev.(type) {
			case *anthropic.ContentBlockStartEvent:
				streamed = append(streamed, ev.ContentBlock)
			case *anthropic.ContentBlockDeltaEvent:
				b := &streamed[ev.Index]
				switch ev.Delta.Type {
				case anthropic.DeltaThinking:
					b.OfThinking.Thinking += ev.Delta.Thinking
				case anthropic.DeltaSignature:
					b.OfThinking.Signature += ev.Delta.Signature
				case anthropic.DeltaInputJSON:
					b.OfToolUse.Input = append(b.OfToolUse.Input[:len(b.OfToolUse.Input):len(b.OfToolUse.Input)], ev.Delta.PartialJSON...)
				}
			}
		}
		for i := range streamed {
			if u := streamed[i].OfToolUse; u != nil {
				u.Input = u.Input[len("{}"):] // the start event's empty input, then the deltas
			}
		}
		for name, blocks := range map[string][]anthropic.ContentBlock{"unary": unary, "stream": streamed} {
			for _, b := range blocks {
				if th := b.OfThinking; th != nil && (th.Thinking == "") != (ctx.Thinking == anthropic.ThinkingOmitted) {
					t.Errorf("%s %s: thinking block %+v", display, name, th)
				}
			}
			next, err := anthropic.DecodeMessagesRequest(req(blocks), anthropic.DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			chat, _, err := convert.AnthropicToChat(next, convert.AnthropicOptions{ReasoningParser: true})
			if err != nil {
				t.Fatal(err)
			}
			got := view(chat.Messages)[1]
			if d := cmp.Diff(any(segs), got.Reasoning); d != "" || len(got.Calls) != 2 {
				t.Errorf("%s %s: reasoning sent back (-want +got):\n%s\ncalls %q", display, name, d, got.Calls)
			}
		}
	}

	// An empty block with a signature this library did not write carries
	// no reasoning.
	foreign, err := anthropic.DecodeMessagesRequest([]byte(`{"model":"m","max_tokens":1,"messages":[{"role":"user","content":"x"},`+
		`{"role":"assistant","content":[{"type":"thinking","thinking":"","signature":"EqQBCkgIBxAB"},{"type":"text","text":"hi"}]},`+
		`{"role":"user","content":"y"}]}`), anthropic.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	chat, _, err := convert.AnthropicToChat(foreign, convert.AnthropicOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := view(chat.Messages)[1].Reasoning; got != nil {
		t.Errorf("a foreign signature gave reasoning %q", got)
	}
}
