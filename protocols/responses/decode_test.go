package responses_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/internal/testutil"
	"github.com/agentwire/agentwire/protocols/responses"
)

func harness(t testing.TB, pattern string) map[string][]byte {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "testdata", "harness", pattern))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures for %s", pattern)
	}
	out := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = b
	}
	return out
}

func TestCodexRequestsRoundTrip(t *testing.T) {
	for name, body := range harness(t, "codex__*.json") {
		t.Run(name, func(t *testing.T) {
			req, err := responses.DecodeRequest(body, responses.DecodeOptions{Strict: true})
			if err != nil {
				t.Fatal(err)
			}
			out, err := jsonx.Marshal(req)
			if err != nil {
				t.Fatal(err)
			}
			if d := testutil.JSONDiff(t, body, out); d != "" {
				t.Errorf("decode → encode lost or changed data (-original +re-encoded):\n%s", d)
			}
			var toolTypes []string
			for _, tool := range req.Tools {
				toolTypes = append(toolTypes, tool.Type)
			}
			want := []string{"function", "function", "function", "custom", "function", "function", "function", "function", "tool_search", "web_search"}
			if d := cmp.Diff(want, toolTypes); d != "" {
				t.Errorf("tool types (-want +got):\n%s", d)
			}
			if req.Reasoning.Value().Effort != "medium" || req.Store.Or(true) || req.Text == nil || req.Text.Verbosity != "low" {
				t.Errorf("unexpected decode: reasoning %+v store %v text %+v", req.Reasoning, req.Store, req.Text)
			}
		})
	}
}

func TestCodexTurnTwoItems(t *testing.T) {
	body := harness(t, "codex__B-gpt-5.5__0005-responses.json")["codex__B-gpt-5.5__0005-responses.json"]
	req, err := responses.DecodeRequest(body, responses.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range req.Input.Value().Array {
		got = append(got, it.Type())
	}
	want := []string{"message", "message", "message", "message", "reasoning", "function_call", "function_call_output"}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("items (-want +got):\n%s", d)
	}
	items := req.Input.Value().Array
	rs := items[4].OfReasoning
	if !rs.Content.IsNull() || rs.EncryptedContent.Value() == "" || rs.Summary[0].Text == "" {
		t.Errorf("reasoning item %+v", rs)
	}
	fc := items[5].OfFunctionCall
	out := items[6].OfFunctionCallOutput
	if fc.CallID != out.CallID || fc.Arguments != `{"cmd":"echo hi"}` || fc.Name != "exec_command" {
		t.Errorf("function call %+v / output %+v", fc, out)
	}
}

func TestStrictResponses(t *testing.T) {
	body := []byte(`{"model":"m","input":[{"type":"message","role":"user","content":"hi","colour":1}],"frobnicate":true}`)
	_, err := responses.DecodeRequest(body, responses.DecodeOptions{Strict: true})
	apiErr, ok := err.(*responses.APIError)
	if !ok || apiErr.Status != 400 || apiErr.Body.Error.Message != "Unsupported parameter(s): `frobnicate`, `input.0.colour`" {
		t.Fatalf("err = %v", err)
	}
	req, err := responses.DecodeRequest(body, responses.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := protocols.UnknownFields(req); len(got) != 2 {
		t.Errorf("UnknownFields = %v", got)
	}
	b, _ := jsonx.Marshal(req)
	if d := testutil.JSONDiff(t, body, b); d != "" {
		t.Error(d)
	}
}

func TestEasyInputMessageRoundTrip(t *testing.T) {
	body := []byte(`{"model":"m","input":[{"role":"user","content":"hi"},{"type":"message","role":"assistant","content":[{"type":"output_text","text":"yo","annotations":[]}]},{"type":"web_search_call","id":"ws_1","status":"completed"}],"tool_choice":{"type":"function","name":"f"}}`)
	req, err := responses.DecodeRequest(body, responses.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	items := req.Input.Value().Array
	if !items[0].OfMessage.ImplicitType || items[2].Raw == nil || items[2].Type() != "web_search_call" {
		t.Errorf("items: %+v", items)
	}
	if tc := req.ToolChoice.Value(); tc.Type != "function" || tc.Name != "f" {
		t.Errorf("tool_choice %+v", tc)
	}
	b, _ := jsonx.Marshal(req)
	if d := testutil.JSONDiff(t, body, b); d != "" {
		t.Error(d)
	}
}
