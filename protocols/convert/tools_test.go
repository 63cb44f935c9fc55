package convert_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/convert"
	"github.com/agentwire/agentwire/protocols/openai"
	"github.com/agentwire/agentwire/protocols/responses"
)

func TestResponsesCustomAndNamespacedHistory(t *testing.T) {
	body := `{"model":"m","tool_choice":{"type":"custom","name":"apply_patch"},"tools":[
		{"type":"custom","name":"apply_patch","description":"Patch."},
		{"type":"namespace","name":"mcp__fs","tools":[{"type":"function","name":"read"},{"type":"custom","name":"write"},{"type":"web_search"}]},
		{"type":"image_generation"}],
	 "input":[
		{"role":"user","content":"edit"},
		{"type":"custom_tool_call","call_id":"c1","name":"apply_patch","input":"*** Begin Patch\n\"q\"\n*** End Patch"},
		{"type":"function_call","call_id":"c2","name":"read","namespace":"mcp__fs","arguments":"{\"p\":1}"},
		{"type":"custom_tool_call_output","call_id":"c1","output":"Done!"},
		{"type":"function_call_output","call_id":"c2","output":"text"}]}`
	req, err := responses.DecodeRequest([]byte(body), responses.DecodeOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	chat, ctx, err := convert.ResponsesToChat(req, convert.ResponsesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []msgView{
		{Role: "user", Content: "edit"},
		{Role: "assistant", Content: "<null>", Calls: []string{
			`c1 apply_patch {"input":"*** Begin Patch\n\"q\"\n*** End Patch"}`, `c2 read {"p":1}`}},
		{Role: "tool", Content: "Done!", ToolID: "c1"},
		{Role: "tool", Content: "text", ToolID: "c2"},
	}
	if d := cmp.Diff(want, view(chat.Messages)); d != "" {
		t.Errorf("messages (-want +got):\n%s", d)
	}
	if d := cmp.Diff(responses.ToolRoutes{"apply_patch": {Custom: true}, "read": {Namespace: "mcp__fs"}, "write": {Namespace: "mcp__fs", Custom: true}}, ctx.Tools); d != "" {
		t.Errorf("routes (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"web_search", "image_generation"}, ctx.DroppedTools); d != "" {
		t.Errorf("dropped (-want +got):\n%s", d)
	}
	if got := chat.ToolChoice.Value().Function; got != "apply_patch" {
		t.Errorf("tool_choice %q", got)
	}
	cfg := ctx.EmitterConfig(responses.ReasoningPolicy{})
	if cfg.Tools["write"] != (responses.ToolRoute{Namespace: "mcp__fs", Custom: true}) || cfg.Summary || cfg.ReasoningPassback {
		t.Errorf("emitter config %+v", cfg)
	}

	// unary: the calls come back as the tools they stand for
	resp := &openai.ChatResponse{Model: "m", Choices: []openai.Choice{{FinishReason: protocols.Some("tool_calls"), Message: openai.ResponseMessage{
		Role: "assistant", Content: protocols.Null[openai.Content](),
		ToolCalls: []openai.ToolCall{
			{ID: "k1", Type: "function", Function: openai.FunctionCall{Name: "write", Arguments: `{"input":"x\ny"}`}},
			{ID: "k2", Type: "function", Function: openai.FunctionCall{Name: "read", Arguments: `{}`}},
		}}}}}
	out := convert.ChatToResponses(resp, ctx, convert.BackOptions{})
	if len(out.Output) != 2 || out.Output[0].OfCustomToolCall == nil || out.Output[1].OfFunctionCall == nil {
		t.Fatalf("output %+v", out.Output)
	}
	if c := out.Output[0].OfCustomToolCall; c.Input != "x\ny" || c.Namespace != "mcp__fs" || c.CallID != "k1" {
		t.Errorf("custom call %+v", c)
	}
	if f := out.Output[1].OfFunctionCall; f.Namespace != "mcp__fs" {
		t.Errorf("function call %+v", f)
	}
}

func TestResponsesReasoningPolicy(t *testing.T) {
	for _, tc := range []struct {
		reasoning string
		def, want bool
	}{
		{`{"effort":"medium"}`, false, false},
		{`{"effort":"medium"}`, true, true},
		{`{"summary":"auto"}`, false, true},
		{`{"summary":"none"}`, true, false},
		{`{"generate_summary":"concise"}`, false, true},
	} {
		req, err := responses.DecodeRequest([]byte(`{"model":"m","input":"x","include":["reasoning.encrypted_content"],"reasoning":`+tc.reasoning+`}`), responses.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		_, ctx, _ := convert.ResponsesToChat(req, convert.ResponsesOptions{})
		cfg := ctx.EmitterConfig(responses.ReasoningPolicy{DefaultSummary: tc.def})
		if cfg.Summary != tc.want || !cfg.ReasoningPassback {
			t.Errorf("%s default %v: summary %v passback %v", tc.reasoning, tc.def, cfg.Summary, cfg.ReasoningPassback)
		}
		resp := &openai.ChatResponse{Model: "m", Choices: []openai.Choice{{FinishReason: protocols.Some("stop"), Message: openai.ResponseMessage{
			Role: "assistant", Content: openai.TextContent("hi"), ReasoningContent: protocols.Some(protocols.Text[string]("think"))}}}}
		out := convert.ChatToResponses(resp, ctx, convert.BackOptions{Reasoning: responses.ReasoningPolicy{DefaultSummary: tc.def}})
		r := out.Output[0].OfReasoning
		// Exactly one channel: the summary, or the reasoning text.
		if r == nil || (len(r.Summary) == 1) != tc.want || r.Content.Valid() == tc.want {
			t.Fatalf("%s: unary reasoning %+v", tc.reasoning, out.Output[0])
		}
		if text, ok := responses.DecodeReasoning(r.EncryptedContent.Value()); !ok || text != "think" {
			t.Errorf("unary passback %q", r.EncryptedContent.Value())
		}
	}
}

// TestResponsesReasoningPassbackPolicy: reasoning items carry their text as
// encrypted_content when the request includes reasoning.encrypted_content
// (Codex, pi) or the server's DefaultPassback is set (Qwen Code and
// OpenCode ask for none, and without it replay the reasoning as visible
// text or drop it) — streamed (EmitterConfig) and unary alike.
func TestResponsesReasoningPassbackPolicy(t *testing.T) {
	for _, tc := range []struct {
		include, def, want bool
	}{
		{include: false, def: false, want: false},
		{include: false, def: true, want: true},
		{include: true, def: false, want: true},
		{include: true, def: true, want: true},
	} {
		body := `{"model":"m","input":"x","store":false}`
		if tc.include {
			body = `{"model":"m","input":"x","store":false,"include":["reasoning.encrypted_content"]}`
		}
		req, err := responses.DecodeRequest([]byte(body), responses.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		policy := responses.ReasoningPolicy{DefaultSummary: true, DefaultPassback: tc.def}
		if got := policy.Passback(req); got != tc.want {
			t.Errorf("include %v default %v: Passback = %v", tc.include, tc.def, got)
		}
		_, ctx, _ := convert.ResponsesToChat(req, convert.ResponsesOptions{})
		if cfg := ctx.EmitterConfig(policy); cfg.ReasoningPassback != tc.want {
			t.Errorf("include %v default %v: EmitterConfig.ReasoningPassback = %v", tc.include, tc.def, cfg.ReasoningPassback)
		}
		resp := &openai.ChatResponse{Model: "m", Choices: []openai.Choice{{FinishReason: protocols.Some("stop"), Message: openai.ResponseMessage{
			Role: "assistant", Content: openai.TextContent("hi"), ReasoningContent: protocols.Some(protocols.Text[string]("\nthink\n"))}}}}
		r := convert.ChatToResponses(resp, ctx, convert.BackOptions{Reasoning: policy}).Output[0].OfReasoning
		text, ok := responses.DecodeReasoning(r.EncryptedContent.Value())
		if ok != tc.want || r.EncryptedContent.Valid() != tc.want || (ok && text != "\nthink\n") {
			t.Errorf("include %v default %v: unary encrypted_content %v (%q)", tc.include, tc.def, r.EncryptedContent, text)
		}
	}
}
