package anthropic_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/internal/testutil"
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

func TestClaudeCodeRequestsRoundTrip(t *testing.T) {
	for name, body := range harness(t, "claude-code__*.json") {
		t.Run(name, func(t *testing.T) {
			req, err := anthropic.DecodeMessagesRequest(body, anthropic.DecodeOptions{})
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
			// The modelled fields are typed, not left in Extra.
			if unknown := protocols.UnknownFields(req); len(unknown) != 0 {
				t.Errorf("fields left unmodelled: %v", unknown)
			}
			if err := req.Validate(); err != nil {
				t.Errorf("Validate: %v", err)
			}
			if req.Model != "claude-opus-5-5" || !req.Stream.Or(false) || req.Thinking == nil || req.Thinking.Type != "adaptive" {
				t.Errorf("unexpected decode: model %q stream %v thinking %+v", req.Model, req.Stream, req.Thinking)
			}
		})
	}
}

func TestClaudeCodeTurnTwoBlocks(t *testing.T) {
	body := harness(t, "claude-code__B-bash__0002-messages.json")["claude-code__B-bash__0002-messages.json"]
	req, err := anthropic.DecodeMessagesRequest(body, anthropic.DecodeOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	var types [][]string
	for _, m := range req.Messages {
		var row []string
		row = append(row, m.Role)
		for _, b := range m.Content.Array {
			row = append(row, b.Type())
		}
		types = append(types, row)
	}
	want := [][]string{{"user", "text", "text"}, {"system"}, {"assistant", "thinking", "tool_use"}, {"user", "tool_result"}}
	if d := cmp.Diff(want, types); d != "" {
		t.Errorf("message/block types (-want +got):\n%s", d)
	}
	asst := req.Messages[2].Content.Array
	if asst[0].OfThinking.Signature != "c2lnbmF0dXJlLWZyb20tdGhlLXRlc3Qtc2VydmVy" {
		t.Errorf("thinking signature %q", asst[0].OfThinking.Signature)
	}
	if string(asst[1].OfToolUse.Input) != `{"command":"echo hi","description":"Print hi"}` {
		t.Errorf("tool_use input %s", asst[1].OfToolUse.Input)
	}
	res := req.Messages[3].Content.Array[0].OfToolResult
	if res.ToolUseID != asst[1].OfToolUse.ID || res.Content.Value().String != "hi" || res.CacheControl == nil || res.IsError.Or(true) {
		t.Errorf("tool_result %+v", res)
	}
}

func TestStrictRejectsUnknownFields(t *testing.T) {
	body := []byte(`{"model":"m","max_tokens":5,"messages":[{"role":"user","content":[{"type":"text","text":"hi","bogus":1}]}],"speed":"fast"}`)
	_, err := anthropic.DecodeMessagesRequest(body, anthropic.DecodeOptions{Strict: true})
	var apiErr *anthropic.APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("err = %v, want *APIError", err)
	}
	want := anthropic.ErrorResponse{Type: "error", Error: anthropic.ErrorObject{
		Type:    "invalid_request_error",
		Message: "messages.0.content.0.bogus: Extra inputs are not permitted; speed: Extra inputs are not permitted",
	}}
	if apiErr.Status != 400 || apiErr.Body != want {
		t.Errorf("got %d %+v, want 400 %+v", apiErr.Status, apiErr.Body, want)
	}
	// Non-strict keeps them and writes them back.
	req, err := anthropic.DecodeMessagesRequest(body, anthropic.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := jsonx.Marshal(req)
	if d := testutil.JSONDiff(t, body, out); d != "" {
		t.Errorf("round trip (-in +out):\n%s", d)
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, tc := range []struct{ name, body string }{
		{"not an object", `[]`},
		{"block not an object", `{"model":"m","max_tokens":1,"messages":[{"role":"user","content":["x"]}]}`},
		{"block without type", `{"model":"m","max_tokens":1,"messages":[{"role":"user","content":[{"text":"x"}]}]}`},
		{"content number", `{"model":"m","max_tokens":1,"messages":[{"role":"user","content":5}]}`},
		{"truncated", `{"model":"m","max_tokens":1,"messages":[{"role":"user","content":"x"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := anthropic.DecodeMessagesRequest([]byte(tc.body), anthropic.DecodeOptions{})
			var apiErr *anthropic.APIError
			if !errors.As(err, &apiErr) || apiErr.Status != 400 || apiErr.Body.Error.Type != "invalid_request_error" {
				t.Errorf("err = %v, want a 400 invalid_request_error", err)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct{ body, msg string }{
		{`{"model":"m","max_tokens":0,"messages":[{"role":"user","content":"x"}]}`, "max_tokens: must be greater than 0"},
		{`{"model":"m","messages":[{"role":"user","content":"x"}]}`, "max_tokens: Field required"},
		{`{"max_tokens":3,"messages":[{"role":"user","content":"x"}]}`, "model: Field required"},
	} {
		req, err := anthropic.DecodeMessagesRequest([]byte(tc.body), anthropic.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		err = req.Validate()
		var apiErr *anthropic.APIError
		if !errors.As(err, &apiErr) || apiErr.Body.Error.Message != tc.msg {
			t.Errorf("%s: err = %v, want %q", tc.body, err, tc.msg)
		}
	}
}

func TestCacheControlTTL(t *testing.T) {
	for ttl, want := range map[string]int{``: 300, `"5m"`: 300, `"1h"`: 3600, `"2h"`: 300, `60`: 300, `900`: 900, `99999`: 3600, `true`: 300} {
		c := &anthropic.CacheControl{Type: "ephemeral", TTL: anthropic.RawJSON(ttl)}
		if got := c.TTLSeconds(); got != want {
			t.Errorf("ttl %s: %d, want %d", ttl, got, want)
		}
	}
}

func TestNvExtCacheSalt(t *testing.T) {
	for _, tc := range []struct {
		nvext   string
		salt    string
		dropped int
		fail    bool
	}{
		{``, "", 0, false},
		{`{"cache_salt":"abc","agent_hints":{"priority":1}}`, "abc", 1, false},
		{`{"cache_salt":null}`, "", 0, false},
		{`{"cache_salt":5}`, "", 0, true},
	} {
		r := &anthropic.MessagesRequest{NvExt: anthropic.RawJSON(tc.nvext)}
		salt, dropped, err := r.NvExtCacheSalt()
		if (err != nil) != tc.fail || salt != tc.salt || len(dropped) != tc.dropped {
			t.Errorf("%s: salt %q dropped %v err %v", tc.nvext, salt, dropped, err)
		}
	}
}
