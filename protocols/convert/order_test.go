package convert_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/agentwire/agentwire/protocols/convert"
	"github.com/agentwire/agentwire/protocols/responses"
)

func toolOrder(v []msgView) []string {
	var out []string
	for _, m := range v {
		s := m.Role
		if m.ToolID != "" {
			s += ":" + m.ToolID
		} else if m.Role == "user" {
			s += ":" + m.Content
		}
		out = append(out, s)
	}
	return out
}

func TestAnthropicToolResultsInCallOrder(t *testing.T) {
	body := `{"model":"m","max_tokens":5,"messages":[
		{"role":"user","content":"go"},
		{"role":"assistant","content":[{"type":"tool_use","id":"A","name":"f","input":{}},{"type":"tool_use","id":"B","name":"f","input":{}},{"type":"tool_use","id":"C","name":"f","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"C","content":"c"},{"type":"text","text":"note"},{"type":"tool_result","tool_use_id":"A","content":"a"},{"type":"tool_result","tool_use_id":"X","content":"x"},{"type":"tool_result","tool_use_id":"B","content":"b"}]},
		{"role":"assistant","content":[{"type":"tool_use","id":"D","name":"f","input":{}},{"type":"tool_use","id":"E","name":"f","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"E","content":"e"},{"type":"tool_result","tool_use_id":"D","content":"d"}]}]}`
	req, err := anthropic.DecodeMessagesRequest([]byte(body), anthropic.DecodeOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	chat, _, err := convert.AnthropicToChat(req, convert.AnthropicOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"user:go", "assistant", "tool:A", "tool:B", "tool:C", "user:note", "tool:X", "assistant", "tool:D", "tool:E"}
	if d := cmp.Diff(want, toolOrder(view(chat.Messages))); d != "" {
		t.Errorf("order (-want +got):\n%s", d)
	}
}

func TestResponsesToolResultsInCallOrder(t *testing.T) {
	body := `{"model":"m","input":[
		{"role":"user","content":"go"},
		{"type":"function_call","call_id":"c1","name":"f","arguments":"{}"},
		{"type":"custom_tool_call","call_id":"c2","name":"p","input":"x"},
		{"type":"function_call","call_id":"c3","name":"f","arguments":"{}"},
		{"type":"function_call_output","call_id":"c3","output":"3"},
		{"type":"custom_tool_call_output","call_id":"c2","output":"2"},
		{"type":"function_call_output","call_id":"c1","output":"1"}]}`
	req, err := responses.DecodeRequest([]byte(body), responses.DecodeOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	chat, _, err := convert.ResponsesToChat(req, convert.ResponsesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"user:go", "assistant", "tool:c1", "tool:c2", "tool:c3"}
	if d := cmp.Diff(want, toolOrder(view(chat.Messages))); d != "" {
		t.Errorf("order (-want +got):\n%s", d)
	}
}
