package convert_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/agentwire/agentwire/protocols/convert"
	"github.com/agentwire/agentwire/protocols/openai"
	"github.com/agentwire/agentwire/protocols/responses"
)

// partView is a compact view of a content part: "text:…" or "image:<url>".
func partsView(m openai.Message) []string {
	c, ok := m.Content.Get()
	if !ok {
		return []string{"<absent>"}
	}
	if !c.IsArray() {
		return []string{"string:" + c.String}
	}
	var out []string
	for _, p := range c.Array {
		switch p.Type {
		case openai.PartText:
			out = append(out, "text:"+p.Text)
		case openai.PartImageURL:
			out = append(out, "image:"+p.ImageURL.URL)
		default:
			out = append(out, p.Type)
		}
	}
	return out
}

// Images inside tool results (Claude Code's Read of an image file,
// Codex's view_image) reach the chat request as image_url parts of the
// tool message, in order with the text around them.
func TestToolResultImages(t *testing.T) {
	anth := `{"model":"m","max_tokens":10,"messages":[
		{"role":"user","content":[{"type":"text","text":"see "},{"type":"image","source":{"type":"url","url":"https://x/a.png"}},{"type":"text","text":"?"}]},
		{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"/s.png"}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[
			{"type":"text","text":"a "},{"type":"text","text":"shot"},
			{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}},
			{"type":"text","text":"end"}]},
			{"type":"tool_result","tool_use_id":"t2","content":[{"type":"text","text":"plain"}]}]}]}`
	req, err := anthropic.DecodeMessagesRequest([]byte(anth), anthropic.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	chat, _, err := convert.AnthropicToChat(req, convert.AnthropicOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got [][]string
	for _, m := range chat.Messages {
		got = append(got, append([]string{m.Role}, partsView(m)...))
	}
	want := [][]string{
		{"user", "text:see ", "image:https://x/a.png", "text:?"},
		{"assistant", "<absent>"},
		{"tool", "text:a shot", "image:data:image/png;base64,iVBORw0KGgo=", "text:end"},
		{"tool", "string:plain"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Anthropic (-want +got):\n%s", d)
	}

	resp := `{"model":"m","input":[
		{"role":"user","content":[{"type":"input_text","text":"look"},{"type":"input_image","image_url":"data:image/png;base64,AAAA"}]},
		{"type":"function_call","call_id":"c1","name":"view_image","arguments":"{\"path\":\"/s.png\"}"},
		{"type":"function_call_output","call_id":"c1","output":[{"type":"input_image","image_url":"data:image/png;base64,BBBB","detail":"high"},{"type":"input_text","text":"done"}]},
		{"type":"function_call_output","call_id":"c2","output":[{"type":"input_text","text":"x"},{"type":"input_text","text":"y"}]}]}`
	rreq, err := responses.DecodeRequest([]byte(resp), responses.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rchat, _, err := convert.ResponsesToChat(rreq, convert.ResponsesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	for _, m := range rchat.Messages {
		got = append(got, append([]string{m.Role}, partsView(m)...))
	}
	want = [][]string{
		{"user", "text:look", "image:data:image/png;base64,AAAA"},
		{"assistant", "<absent>"},
		{"tool", "image:data:image/png;base64,BBBB", "text:done"},
		{"tool", "string:x\ny"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Responses (-want +got):\n%s", d)
	}

	bad := `{"model":"m","input":[{"type":"function_call_output","call_id":"c1","output":[{"type":"input_image","image_url":"ftp://x"}]}]}`
	rreq, err = responses.DecodeRequest([]byte(bad), responses.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = convert.ResponsesToChat(rreq, convert.ResponsesOptions{})
	var apiErr *responses.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 400 || apiErr.Body.Error.Message != "Invalid image URL in input.0.content.0" {
		t.Errorf("bad tool-output image: %v", err)
	}
}
