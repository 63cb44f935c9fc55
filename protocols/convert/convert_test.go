package convert_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/agentwire/agentwire/protocols/convert"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/openai"
	"github.com/agentwire/agentwire/protocols/responses"
)

func fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "harness", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// msgView is a compact view of a chat message for comparisons.
type msgView struct {
	Role      string
	Content   string // "<null>" for null, "<absent>" for absent
	Reasoning any    // string, []string, or nil
	Calls     []string
	ToolID    string
}

func view(ms []openai.Message) []msgView {
	var out []msgView
	for _, m := range ms {
		v := msgView{Role: m.Role, ToolID: m.ToolCallID}
		switch {
		case m.Content.IsZero():
			v.Content = "<absent>"
		case m.Content.IsNull():
			v.Content = "<null>"
		default:
			v.Content = openai.ContentText(m.Content.Value(), "|")
		}
		if r, ok := m.ReasoningContent.Get(); ok {
			if r.IsArray() {
				v.Reasoning = r.Array
			} else {
				v.Reasoning = r.String
			}
		}
		for _, c := range m.ToolCalls {
			v.Calls = append(v.Calls, c.ID+" "+c.Function.Name+" "+string(c.Function.Arguments))
		}
		out = append(out, v)
	}
	return out
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

func TestClaudeCodeToChat(t *testing.T) {
	req, err := anthropic.DecodeMessagesRequest(fixture(t, "claude-code__B-bash__0002-messages.json"), anthropic.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	chat, ctx, err := convert.AnthropicToChat(req, convert.AnthropicOptions{StripBillingHeader: true, ReasoningParser: true})
	if err != nil {
		t.Fatal(err)
	}
	got := view(chat.Messages)
	if len(got) != 4 {
		t.Fatalf("got %d messages: %+v", len(got), got)
	}
	sys := got[0].Content
	if !strings.HasPrefix(sys, "You are a Claude agent, built on Anthropic's Claude Agent SDK.\n") || strings.Contains(sys, "x-anthropic-billing-header") {
		t.Errorf("system prompt not stripped: %q", clip(sys, 120))
	}
	if !strings.Contains(sys, "\n\n# Environment\n") {
		t.Errorf("in-messages system text not merged into the system prompt")
	}
	got[0].Content = ""
	if !strings.HasPrefix(got[1].Content, "<system-reminder>") || !strings.HasSuffix(got[1].Content, "(https://claude.com/claude-code)\n</system-reminder>\nRun the shell command 'echo hi' and tell me what it printed.") {
		t.Errorf("user text blocks not concatenated without separator: %q…%q", clip(got[1].Content, 40), got[1].Content[len(got[1].Content)-80:])
	}
	got[1].Content = ""
	want := []msgView{
		{Role: "system"},
		{Role: "user"},
		{Role: "assistant", Content: "<null>",
			Reasoning: []string{"The user wants me to run a quick harmless check. I will call a read-only tool first.", ""},
			Calls:     []string{`toolu_ac82982de0044eab92332cc2 Bash {"command":"echo hi","description":"Print hi"}`}},
		{Role: "tool", Content: "hi", ToolID: "toolu_ac82982de0044eab92332cc2"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("messages (-want +got):\n%s", d)
	}
	var names []string
	for _, tool := range chat.Tools {
		names = append(names, tool.Function.Name)
		if len(tool.Function.Parameters) == 0 {
			t.Errorf("tool %s lost its schema", tool.Function.Name)
		}
	}
	wantNames := []string{"Agent", "Bash", "Edit", "ListAgents", "Read", "ReportFindings", "ScheduleWakeup", "Skill", "ToolSearch", "Workflow", "DeferredToolPlaceholder", "Write"}
	if d := cmp.Diff(wantNames, names); d != "" {
		t.Errorf("tools (-want +got):\n%s", d)
	}
	if !chat.Stream.Or(false) || !chat.IncludeUsage() || chat.MaxCompletionTokens.Value() != 128000 {
		t.Errorf("stream %v include_usage %v max %v", chat.Stream, chat.IncludeUsage(), chat.MaxCompletionTokens)
	}
	args := map[string]string{}
	for k, v := range chat.ChatTemplateArgs {
		args[k] = string(v)
	}
	// thinking adaptive with output_config.effort medium: the effort reaches the template
	wantArgs := map[string]string{"enable_thinking": "true", "truncate_history_thinking": "false", "thinking_mode": `"adaptive"`, "reasoning_effort": `"medium"`}
	if d := cmp.Diff(wantArgs, args); d != "" {
		t.Errorf("chat_template_args (-want +got):\n%s", d)
	}
	if !chat.Thinking.IsZero() {
		t.Errorf("thinking not cleared by normalisation")
	}
	// Claude Code marks the system block and the last tool_result.
	eph := anthropic.CacheControl{Type: "ephemeral"}
	wantBP := []convert.CacheBreakpoint{{MessageIndex: 0, BlockIndex: 1, CacheControl: eph}, {MessageIndex: 0, BlockIndex: 2, CacheControl: eph}, {MessageIndex: 4, BlockIndex: 0, CacheControl: eph}}
	if d := cmp.Diff(wantBP, ctx.CacheBreakpoints); d != "" {
		t.Errorf("breakpoints (-want +got):\n%s", d)
	}
	if ctx.Model != "claude-opus-5-5" || !ctx.Stream || ctx.ThinkingType != "adaptive" || string(ctx.OutputConfig) != `{"effort":"medium"}` {
		t.Errorf("context %+v", ctx)
	}
	// The translated request is itself a valid chat request.
	b, err := jsonx.Marshal(chat)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := openai.DecodeChatRequest(b, openai.DecodeOptions{Strict: true}); err != nil {
		t.Errorf("translated request does not decode strictly: %v", err)
	}
}

func TestAnthropicInterleavedSegments(t *testing.T) {
	body := `{"model":"m","max_tokens":10,"messages":[
		{"role":"user","content":"go"},
		{"role":"assistant","content":[
			{"type":"thinking","thinking":"plan A","signature":"s"},
			{"type":"tool_use","id":"toolu_A","name":"a","input":{"x": 1}},
			{"type":"thinking","thinking":"plan B","signature":"s"},
			{"type":"redacted_thinking","data":"xx"},
			{"type":"tool_use","id":"toolu_B","name":"b","input":{}}]},
		{"role":"user","content":[
			{"type":"tool_result","tool_use_id":"toolu_A","content":[{"type":"text","text":"r"},{"type":"text","text":"A"}]},
			{"type":"tool_result","tool_use_id":"toolu_B","content":"rB","is_error":true},
			{"type":"text","text":"next"}]},
		{"role":"assistant","content":[{"type":"thinking","thinking":"t1","signature":"s"},{"type":"thinking","thinking":"t2","signature":"s"},{"type":"text","text":"Done"},{"type":"text","text":"!"}]}],
		"stop_sequences":["###"],"top_k":20,"tool_choice":{"type":"any","disable_parallel_tool_use":true}}`
	req, err := anthropic.DecodeMessagesRequest([]byte(body), anthropic.DecodeOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	chat, ctx, err := convert.AnthropicToChat(req, convert.AnthropicOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []msgView{
		{Role: "user", Content: "go"},
		{Role: "assistant", Content: "<null>", Reasoning: []string{"plan A", "plan B", ""},
			Calls: []string{`toolu_A a {"x":1}`, `toolu_B b {}`}},
		{Role: "tool", Content: "rA", ToolID: "toolu_A"},
		{Role: "tool", Content: "rB", ToolID: "toolu_B"},
		{Role: "user", Content: "next"},
		{Role: "assistant", Content: "Done!", Reasoning: "t1\nt2"},
	}
	if d := cmp.Diff(want, view(chat.Messages)); d != "" {
		t.Errorf("messages (-want +got):\n%s", d)
	}
	if chat.ToolChoice.Value().Mode != "required" || !ctx.DisableParallelToolUse || chat.TopK.Value() != 20 || chat.Stop.Value().Strings[0] != "###" {
		t.Errorf("tool_choice %+v ctx %+v top_k %v stop %+v", chat.ToolChoice, ctx, chat.TopK, chat.Stop)
	}
}

func TestAnthropicToChatErrors(t *testing.T) {
	cases := []struct {
		name, body string
		opts       convert.AnthropicOptions
		status     int
		msg        string
	}{
		{"unknown block", `{"model":"m","max_tokens":1,"messages":[{"role":"user","content":[{"type":"document","source":{}}]}]}`, convert.AnthropicOptions{}, 400, `content block type "document" is not supported`},
		{"server tool", `{"model":"m","max_tokens":1,"messages":[{"role":"user","content":"x"}],"tools":[{"type":"web_search_20250305","name":"web_search"}]}`, convert.AnthropicOptions{}, 501, `tools.0: server tool type "web_search_20250305" is not supported`},
		{"tool without schema", `{"model":"m","max_tokens":1,"messages":[{"role":"user","content":"x"}],"tools":[{"name":"f"}]}`, convert.AnthropicOptions{}, 400, "tools.0.input_schema: Field required"},
		{"block cache_control rejected", `{"model":"m","max_tokens":1,"messages":[{"role":"user","content":[{"type":"text","text":"x","cache_control":{"type":"ephemeral"}}]}]}`,
			convert.AnthropicOptions{CacheControl: convert.CacheControlRejectBlockLevel}, 400, "Block-level `cache_control` is not supported; use the top-level automatic `cache_control` field."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, err := anthropic.DecodeMessagesRequest([]byte(tc.body), anthropic.DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			_, _, err = convert.AnthropicToChat(req, tc.opts)
			var apiErr *anthropic.APIError
			if !errors.As(err, &apiErr) || apiErr.Status != tc.status || apiErr.Body.Error.Message != tc.msg {
				t.Errorf("err = %v, want %d %q", err, tc.status, tc.msg)
			}
		})
	}
}

func TestStripBillingHeader(t *testing.T) {
	cases := []struct{ in, want string }{
		{"x-anthropic-billing-header: cc_version=0.2.93; cch=abc123;\nYou are Claude.", "You are Claude."},
		{"  \n x-anthropic-billing-header: a\nline2\nline3", "line2\nline3"},
		{"x-anthropic-billing-header: no newline", "x-anthropic-billing-header: no newline"},
		{"You are Claude.\nx-anthropic-billing-header: a\n", "You are Claude.\nx-anthropic-billing-header: a\n"},
		{"", ""},
	}
	for _, tc := range cases {
		if got, _ := convert.StripBillingHeader(tc.in); got != tc.want {
			t.Errorf("StripBillingHeader(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCodexToChat(t *testing.T) {
	req, err := responses.DecodeRequest(fixture(t, "codex__B-gpt-5.5__0005-responses.json"), responses.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	chat, ctx, err := convert.ResponsesToChat(req, convert.ResponsesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := view(chat.Messages)
	if len(got) != 5 {
		t.Fatalf("got %d messages: %+v", len(got), got)
	}
	if !strings.HasPrefix(got[0].Content, "You are Codex, a coding agent based on GPT-5.") || !strings.Contains(got[0].Content, "\n\n<skills_instructions>") {
		t.Errorf("developer messages not merged into one system message: %q", clip(got[0].Content, 80))
	}
	if !strings.HasPrefix(got[1].Content, "<environment_context>") {
		t.Errorf("first user message %q", clip(got[1].Content, 40))
	}
	got[0].Content, got[1].Content = "", ""
	want := []msgView{
		{Role: "system"},
		{Role: "user"},
		{Role: "user", Content: "Run the shell command 'echo hi' and tell me what it printed."},
		{Role: "assistant", Content: "<null>",
			Reasoning: []string{"The user wants me to run a quick harmless check. I will call a read-only tool first.", ""},
			Calls:     []string{`call_a9dd8f1c45bc4b9ba5a18d01 exec_command {"cmd":"echo hi"}`}},
		{Role: "tool", Content: "Chunk ID: 34cf21\nWall time: 0.0000 seconds\nProcess exited with code 0\nOriginal token count: 1\nOutput:\nhi\n", ToolID: "call_a9dd8f1c45bc4b9ba5a18d01"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("messages (-want +got):\n%s", d)
	}
	var names []string
	for _, tool := range chat.Tools {
		names = append(names, tool.Function.Name)
	}
	if d := cmp.Diff([]string{"exec_command", "write_stdin", "request_user_input", "apply_patch", "view_image", "get_goal", "create_goal", "update_goal"}, names); d != "" {
		t.Errorf("tools (-want +got):\n%s", d)
	}
	patch := chat.Tools[3].Function
	if string(patch.Parameters) != convert.CustomInputSchema || !strings.Contains(patch.Description, "Input grammar (lark):\nstart: begin_patch hunk+ end_patch") {
		t.Errorf("apply_patch declared as %s / %q", patch.Parameters, patch.Description)
	}
	if d := cmp.Diff(responses.ToolRoutes{"apply_patch": {Custom: true}}, ctx.Tools); d != "" {
		t.Errorf("tool routes (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"tool_search", "web_search"}, ctx.DroppedTools); d != "" {
		t.Errorf("dropped tools (-want +got):\n%s", d)
	}
	if chat.ReasoningEffort != "medium" || string(chat.ChatTemplateArgs["reasoning_effort"]) != `"medium"` || string(chat.ChatTemplateArgs["enable_thinking"]) != "true" {
		t.Errorf("reasoning effort: %q %v", chat.ReasoningEffort, chat.ChatTemplateArgs)
	}
	if chat.Store.Or(true) || !chat.ParallelToolCalls.Or(false) || chat.ToolChoice.Value().Mode != "auto" || !chat.MaxCompletionTokens.IsZero() {
		t.Errorf("carried fields: store %v ptc %v tool_choice %v max %v", chat.Store, chat.ParallelToolCalls, chat.ToolChoice, chat.MaxCompletionTokens)
	}
	if _, _, err := convert.ResponsesToChat(req, convert.ResponsesOptions{RejectUnsupportedTools: true}); err == nil ||
		err.(*responses.APIError).Body.Error.Message != "Unsupported Responses tools type 'tool_search'" {
		t.Errorf("strict tools: %v", err)
	}
}

func TestResponsesCoalescing(t *testing.T) {
	body := `{"model":"m","instructions":"Be brief.","input":[
		{"type":"message","role":"developer","content":"Dev rules."},
		{"role":"user","content":[{"type":"input_text","text":"look"},{"type":"input_image","image_url":"https://x/y.png","detail":"low"}]},
		{"type":"reasoning","summary":[],"content":[{"type":"reasoning_text","text":"r1"}]},
		{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Checking."}]},
		{"type":"function_call","call_id":"c1","name":"ns_fn","arguments":"{\"a\":1}"},
		{"type":"reasoning","summary":[{"type":"summary_text","text":"r2"}]},
		{"type":"function_call","call_id":"c2","name":"g","arguments":""},
		{"type":"function_call_output","call_id":"c1","output":"o1"},
		{"type":"function_call_output","call_id":"c2","output":[{"type":"input_text","text":"o2"}]},
		{"type":"reasoning","summary":[]},
		{"type":"item_reference","id":"x"},
		{"type":"message","role":"user","content":"again"}],
		"tools":[{"type":"namespace","name":"ns","tools":[{"type":"function","name":"ns_fn","parameters":{}}]},{"type":"function","name":"g"}],
		"max_output_tokens":100,"text":{"format":{"type":"json_schema","name":"out","schema":{"type":"object"},"strict":true}}}`
	req, err := responses.DecodeRequest([]byte(body), responses.DecodeOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	chat, ctx, err := convert.ResponsesToChat(req, convert.ResponsesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []msgView{
		{Role: "system", Content: "Be brief.\n\nDev rules."},
		{Role: "user", Content: "look"},
		{Role: "assistant", Content: "Checking.", Reasoning: []string{"r1", "r2", ""},
			Calls: []string{`c1 ns_fn {"a":1}`, `c2 g {}`}},
		{Role: "tool", Content: "o1", ToolID: "c1"},
		{Role: "tool", Content: "o2", ToolID: "c2"},
		{Role: "assistant", Content: ""},
		{Role: "user", Content: "again"},
	}
	if d := cmp.Diff(want, view(chat.Messages)); d != "" {
		t.Errorf("messages (-want +got):\n%s", d)
	}
	img := chat.Messages[1].Content.Value().Array[1]
	if img.Type != "image_url" || img.ImageURL.URL != "https://x/y.png" || img.ImageURL.Detail != "low" {
		t.Errorf("image part %+v", img)
	}
	if ctx.Namespaces["ns_fn"] != "ns" || chat.MaxCompletionTokens.Value() != 100 || chat.ResponseFormat.JSONSchema.Name != "out" {
		t.Errorf("namespaces %v max %v format %+v", ctx.Namespaces, chat.MaxCompletionTokens, chat.ResponseFormat)
	}
}

func TestResponsesToChatErrors(t *testing.T) {
	for _, tc := range []struct{ body, msg string }{
		{`{"input":[{"role":"user","content":[{"type":"input_image","file_id":"f"}]}]}`, "Image input by file_id is not yet supported"},
		{`{"input":[{"role":"user","content":[{"type":"input_image"}]}]}`, "input_image requires file_id or image_url"},
		{`{"input":[{"role":"user","content":[{"type":"input_file","file_id":"f"}]}]}`, "File input content is not yet supported"},
		{`{"input":"x","tools":[{"type":"namespace","name":"a","tools":[{"type":"function","name":"f"}]},{"type":"namespace","name":"b","tools":[{"type":"function","name":"f"}]}]}`, "Responses function tool names are ambiguous after namespace flattening"},
	} {
		req, err := responses.DecodeRequest([]byte(tc.body), responses.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = convert.ResponsesToChat(req, convert.ResponsesOptions{})
		var apiErr *responses.APIError
		if !errors.As(err, &apiErr) || apiErr.Body.Error.Message != tc.msg || apiErr.Status != 400 {
			t.Errorf("%s: err = %v, want %q", tc.body, err, tc.msg)
		}
	}
}

func chatResponse(reasoning protocols.Opt[openai.Reasoning], content protocols.Opt[openai.Content], finish string, calls ...openai.ToolCall) *openai.ChatResponse {
	return &openai.ChatResponse{ID: "chatcmpl-1", Object: "chat.completion", Created: 1767225600, Model: "backend",
		Choices: []openai.Choice{{Message: openai.ResponseMessage{Role: "assistant", Content: content, ReasoningContent: reasoning, ToolCalls: calls},
			FinishReason: protocols.Some(finish)}},
		Usage: &openai.Usage{PromptTokens: 120, CompletionTokens: 42, TotalTokens: 162, PromptTokensDetails: &openai.PromptTokensDetails{CachedTokens: 96}}}
}

func call(id, name, args string) openai.ToolCall {
	return openai.ToolCall{ID: id, Type: "function", Function: openai.FunctionCall{Name: name, Arguments: openai.Arguments(args)}}
}

func TestChatToAnthropic(t *testing.T) {
	ctx := &convert.AnthropicContext{Model: "claude-x", StopSequences: []string{"###"}}
	resp := chatResponse(protocols.Some(protocols.Array("plan A", "plan B", "after")), openai.TextContent("Let me check."), "tool_calls",
		call("call_1", "a", `{"location":"NYC"}`), call("call_2", "b", `not json`))
	msg := convert.ChatToAnthropic(resp, ctx, convert.BackOptions{})
	var kinds []string
	for _, b := range msg.Content {
		switch {
		case b.OfThinking != nil:
			kinds = append(kinds, "thinking:"+b.OfThinking.Thinking+":"+b.OfThinking.Signature)
		case b.OfText != nil:
			kinds = append(kinds, "text:"+b.OfText.Text)
		case b.OfToolUse != nil:
			if !strings.HasPrefix(b.OfToolUse.ID, "toolu_") || len(b.OfToolUse.ID) != 38 {
				t.Errorf("tool id %q", b.OfToolUse.ID)
			}
			kinds = append(kinds, "tool_use:"+b.OfToolUse.Name+":"+string(b.OfToolUse.Input))
		}
	}
	want := []string{"thinking:plan A:erased", "text:Let me check.", "tool_use:a:{\"location\":\"NYC\"}", "thinking:plan B:erased", "tool_use:b:{}", "thinking:after:erased"}
	if d := cmp.Diff(want, kinds); d != "" {
		t.Errorf("blocks (-want +got):\n%s", d)
	}
	if msg.StopReason.Value() != "tool_use" || msg.Model != "claude-x" || !cmp.Equal(msg.Usage, anthropic.Usage{InputTokens: 24, OutputTokens: 42, CacheReadInputTokens: 96}) {
		t.Errorf("stop %v model %s usage %+v", msg.StopReason, msg.Model, msg.Usage)
	}
	// The unary body matches the spec's shape.
	b, _ := jsonx.Marshal(msg)
	if !strings.Contains(string(b), `"type":"message"`) || !strings.Contains(string(b), `"stop_sequence":null`) {
		t.Errorf("body %s", b)
	}

	empty := convert.ChatToAnthropic(chatResponse(protocols.Opt[openai.Reasoning]{}, protocols.Null[openai.Content](), "stop"), ctx, convert.BackOptions{MatchedStop: "###"})
	if len(empty.Content) != 1 || empty.Content[0].OfText == nil || empty.Content[0].OfText.Text != "" || empty.StopReason.Value() != "stop_sequence" || empty.StopSequence.Value() != "###" {
		t.Errorf("empty response %+v", empty)
	}
	flat := convert.ChatToAnthropic(chatResponse(protocols.Some(protocols.Text[string]("think")), openai.TextContent("hi"), "length", call("c", "f", "{}")), nil, convert.BackOptions{})
	if len(flat.Content) != 3 || flat.Content[0].OfThinking == nil || flat.Content[1].OfText == nil || flat.Content[2].OfToolUse == nil || flat.StopReason.Value() != "max_tokens" {
		t.Errorf("flat response %+v", flat)
	}
}

func TestChatToResponses(t *testing.T) {
	req, err := responses.DecodeRequest([]byte(`{"model":"gpt-x","input":"hi","reasoning":{"effort":"low","summary":"auto"},"tools":[{"type":"namespace","name":"ns","tools":[{"type":"function","name":"f"}]},{"type":"function","name":"g"}]}`), responses.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, ctx, err := convert.ResponsesToChat(req, convert.ResponsesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	resp := chatResponse(protocols.Some(protocols.Text[string]("Need weather.")), protocols.Null[openai.Content](), "tool_calls", call("call_9", "f", `{"a":1}`))
	out := convert.ChatToResponses(resp, ctx, convert.BackOptions{})
	b, err := jsonx.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	var got responses.Response
	if err := jsonx.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.Status != "completed" || got.Model != "gpt-x" || len(got.Output) != 2 || got.Usage.Value().InputTokensDetails.CachedTokens != 96 {
		t.Fatalf("response %s", b)
	}
	rs, fc := got.Output[0].OfReasoning, got.Output[1].OfFunctionCall
	// reasoning.summary is set: the reasoning is the summary, and only it.
	if rs == nil || len(rs.Summary) != 1 || rs.Summary[0].Text != "Need weather." || rs.Content.Valid() {
		t.Errorf("reasoning item %+v", rs)
	}
	if fc == nil || fc.CallID != "call_9" || fc.Namespace != "ns" || fc.Arguments != `{"a":1}` || !strings.HasPrefix(fc.ID, "fc_") {
		t.Errorf("function call %+v", fc)
	}
	for _, key := range []string{`"instructions":null`, `"error":null`, `"incomplete_details":null`, `"tool_choice":"auto"`, `"truncation":"disabled"`, `"metadata":{}`, `"strict":true`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("missing %s in %s", key, b)
		}
	}
	trunc := convert.ChatToResponses(chatResponse(protocols.Opt[openai.Reasoning]{}, openai.TextContent("part"), "length"), ctx, convert.BackOptions{})
	if trunc.Status != "incomplete" || trunc.IncompleteDetails.Value().Reason != "max_output_tokens" || trunc.Output[0].OfMessage.Status != "incomplete" {
		t.Errorf("truncated %+v", trunc)
	}
}

// A Codex turn with store:false: the reasoning item comes back with null
// content and no summary, only the encrypted_content that the Responses
// emitter's ReasoningPassback wrote; the translation recovers the exact text.
func TestReasoningPassbackRoundTrip(t *testing.T) {
	env := responses.ResponseFrom(&responses.Request{Model: "m"})
	e := responses.NewEmitter(responses.EmitterConfig{Response: env, ReasoningPassback: true})
	e.Reasoning(nil, []byte("Plan: run ls.\nThen report."))
	e.ToolCallStart(nil, 0, []byte("call_1"), []byte("exec"))
	e.ToolCallArgs(nil, 0, []byte(`{"cmd":"ls"}`))
	e.ToolCallEnd(nil, 0)
	e.Finish(nil, protocols.FinishStop, protocols.Usage{})
	out := e.Output()
	rs := *out[0].OfReasoning
	rs.Content = protocols.Null[[]responses.ContentPart]() // what Codex sends back
	rs.Summary = []responses.ContentPart{}
	input, _ := jsonx.Marshal([]responses.Item{{OfMessage: &responses.MessageItem{Role: "user", Content: protocols.Text[responses.ContentPart]("go")}},
		{OfReasoning: &rs}, out[1], {OfFunctionCallOutput: &responses.FunctionCallOutputItem{CallID: "call_1", Output: protocols.Text[responses.ContentPart]("a b")}}})
	req, err := responses.DecodeRequest([]byte(`{"model":"m","store":false,"include":["reasoning.encrypted_content"],"input":`+string(input)+`}`), responses.DecodeOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	if !responses.WantsEncryptedReasoning(req) {
		t.Error("WantsEncryptedReasoning")
	}
	chat, _, err := convert.ResponsesToChat(req, convert.ResponsesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []msgView{
		{Role: "user", Content: "go"},
		{Role: "assistant", Content: "<null>", Reasoning: []string{"Plan: run ls.\nThen report.", ""}, Calls: []string{`call_1 exec {"cmd":"ls"}`}},
		{Role: "tool", Content: "a b", ToolID: "call_1"},
	}
	if d := cmp.Diff(want, view(chat.Messages)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if _, ok := responses.DecodeReasoning("ZW5jcnlwdGVkOlRoZSB1c2Vy"); ok {
		t.Error("a foreign encrypted_content decoded")
	}
}
