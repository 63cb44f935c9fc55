package scripted

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentwire/agentwire/preprocess/server"
	"github.com/stretchr/testify/require"
)

// FuzzScript: any prompt gives a script or a refusal for too large
// arguments without panicking, the script is bounded, the pieces keep
// every byte, and every tool call carries valid JSON arguments.
func FuzzScript(f *testing.F) {
	f.Add("<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n")
	f.Add("<|im_start|>system\n<tools>\n" + bash + "\n</tools><|im_end|>\n<|im_start|>user\nparallel<|im_end|>\n<|im_start|>assistant\n<think>\n")
	f.Add("<|im_start|>user\n<tool_response>\nhello\n</tool_response>\n<tool_response>\n<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n")
	f.Add("<|im_start|>system\n<tools>\n{\"name\":\"f\",\"parameters\":{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"object\",\"properties\":{\"b\":{\"type\":\"array\",\"minItems\":2,\"items\":{}}},\"required\":[\"b\"]}},\"required\":[\"a\"]}}\n</tools>")
	f.Add("<|im_start|>user\n<<think>think> <tool_<tool_call>call>\n<|im_end|>\n<|im_start|>assistant\n")
	f.Add("<|im_start|>user\nsay <tool_call>\n{\"name\": \"x\"}\n</tool_call><think><|im_end|>\n<|im_start|>assistant\n")
	f.Add("<|im_start|>system\n<tools>\n{\"name\":\"f\",\"parameters\":{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"array\",\"minItems\":4611686018427387904,\"items\":{}}},\"required\":[\"a\"]}}\n</tools><|im_end|>\n<|im_start|>user\ngo<|im_end|>\n")
	f.Fuzz(func(t *testing.T, prompt string) {
		out, err := Answer(prompt)
		if err != nil {
			require.ErrorIs(t, err, ErrArgumentsTooLarge, "error %v", err)
			return
		}
		require.LessOrEqual(t, len(out), 2*MaxArgumentBytes+8<<10, "script of %d bytes", len(out))
		require.Equal(t, out, strings.Join(Pieces(out), ""), "pieces lose bytes")
		calls := strings.Count(out, callOpen)
		require.LessOrEqual(t, calls, 2, "markup from quoted text: %q", out)
		require.LessOrEqual(t, strings.Count(out, thinkOpen), 1, "markup from quoted text: %q", out)
		rest := out
		for {
			_, after, ok := strings.Cut(rest, callOpen+"\n")
			if !ok {
				break
			}
			body, tail, _ := strings.Cut(after, "\n"+callClose)
			var call struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			}
			require.NoError(t, json.Unmarshal([]byte(body), &call), "call %q", body)
			rest = tail
		}
	})
}

// fuzzRoutes are the routes FuzzRequest sends bodies to.
var fuzzRoutes = []string{"/v1/chat/completions", "/v1/completions", "/v1/messages", "/v1/responses", "/v1/messages/count_tokens"}

// FuzzRequest sends any body to every route that decodes one, through the
// whole server (package server) on the scripted agent: the request
// decoders, the server's checks, the agent and the pipeline. No panic (the
// server would answer 500 and log it), an answer in the API's error shape
// or a complete one, and an answer bounded by the body (the agent's
// arguments and quotes are bounded, echoed model names too). It lives here
// rather than in package server, whose tests import the official SDKs
// (slow to build with the fuzzer's instrumentation). Minted ids and times
// make its coverage vary from run to run, so the fuzzer keeps minimizing:
// run it with -fuzzminimizetime 200x.
func FuzzRequest(f *testing.F) {
	// Small bodies of each API's shape (the harness captures are 50 KB,
	// which slows the fuzzer tenfold).
	f.Add(uint8(0), []byte(`{"model":"agent","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"system","content":"be brief"},{"role":"user","content":"hi"},{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"Bash","arguments":"{}"}}]},{"role":"tool","tool_call_id":"a","content":"ok"}],"tools":[`+bash+`]}`))
	f.Add(uint8(2), []byte(`{"model":"claude","max_tokens":64,"stream":true,"thinking":{"type":"enabled","budget_tokens":32},"system":[{"type":"text","text":"sys"}],"messages":[{"role":"user","content":[{"type":"text","text":"<system-reminder>parallel</system-reminder>"},{"type":"text","text":"list files"}]}],"tools":[{"name":"Bash","input_schema":{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}}]}`))
	f.Add(uint8(3), []byte(`{"model":"gpt","stream":false,"instructions":"be brief","input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]},{"type":"function_call","call_id":"c","name":"exec_command","arguments":"{}"},{"type":"function_call_output","call_id":"c","output":"ok"}],"reasoning":{"effort":"low","summary":"auto"},"tools":[{"type":"function","name":"exec_command","parameters":{"type":"object","properties":{"cmd":{"type":"string"}},"required":["cmd"]}}]}`))
	f.Add(uint8(1), []byte(`{"model":"replay/nope","prompt":["a","b"],"n":2}`))
	schema := `{"type":"object","properties":{"a":{"type":"array","minItems":1e8,"items":{"type":"string"}}},"required":["a"]}`
	f.Add(uint8(0), []byte(`{"model":"agent","stream":true,"messages":[{"role":"user","content":"go"}],"tools":[{"type":"function","function":{"name":"f","parameters":`+schema+`}}]}`))
	f.Add(uint8(2), []byte(`{"model":"agent","max_tokens":100,"messages":[{"role":"user","content":"go"}],"tools":[{"name":"f","input_schema":`+schema+`}]}`))
	f.Add(uint8(3), []byte(`{"model":"agent","stream":true,"input":"go in parallel","tools":[{"type":"function","name":"shell","parameters":{"type":"object","properties":{"command":{"type":"array","items":{"type":"string"}}},"required":["command"]}}]}`))
	f.Add(uint8(1), []byte(`{"model":"agent","prompt":"hi","max_tokens":0}`))
	f.Add(uint8(3), []byte(`{"model":"agent","input":[]}`))
	f.Add(uint8(4), []byte(`{"model":"agent","messages":[{"role":"user","content":"hi"}]}`))
	// Images: a user image and one inside a tool result on each API, and
	// a request to read an image file.
	const png = `iVBORw0KGgoAAAANSUhEUgAAABgAAAAQCAAAAAApT+BJAAAAJ0lEQVR4nGNg4BKR0zCycQuISsmraOqZtmDVln0nLt15xjAqMRASAP59rIFLevlGAAAAAElFTkSuQmCC`
	f.Add(uint8(0), []byte(`{"model":"agent","messages":[{"role":"user","content":[{"type":"text","text":"what is in a.png?"},{"type":"image_url","image_url":{"url":"data:image/png;base64,`+png+`"}}]},{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"view_image","arguments":"{}"}}]},{"role":"tool","tool_call_id":"a","content":[{"type":"image_url","image_url":{"url":"https://x/b.png"}}]}],"tools":[{"type":"function","function":{"name":"view_image","parameters":{"type":"object","properties":{"path":{"type":"string"}}}}}]}`))
	f.Add(uint8(2), []byte(`{"model":"agent","max_tokens":64,"messages":[{"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"`+png+`"}}]},{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"Read","input":{"file_path":"/a.png"}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"`+png+`"}}]}]}]}`))
	f.Add(uint8(3), []byte(`{"model":"agent","input":[{"role":"user","content":[{"type":"input_image","image_url":"data:image/png;base64,`+png+`"}]},{"type":"function_call","call_id":"c","name":"view_image","arguments":"{}"},{"type":"function_call_output","call_id":"c","output":[{"type":"input_image","image_url":"data:image/png;base64,`+png+`"}]}]}`))
	var logs bytes.Buffer
	s, err := server.New(server.Config{Backend: &Backend{}, MaxBodyBytes: 1 << 20,
		Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelError}))})
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, route uint8, body []byte) {
		path := fuzzRoutes[int(route)%len(fuzzRoutes)]
		req := httptest.NewRequest("POST", path, bytes.NewReader(body))
		rec := httptest.NewRecorder()
		logs.Reset()
		s.ServeHTTP(rec, req)
		require.NotContains(t, logs.String(), "panic", "%s: %s", path, logs.String())
		out := rec.Body.Bytes()
		switch rec.Code {
		case http.StatusOK:
			require.False(t, !json.Valid(out) && !bytes.Contains(out, []byte("data: ")), "%s: 200 %.300s", path, out)
		case http.StatusBadRequest, http.StatusNotFound, http.StatusRequestEntityTooLarge, http.StatusNotImplemented:
			var e struct {
				Error struct{ Type, Message string }
			}
			require.NoError(t, json.Unmarshal(out, &e), "%s: %d %.300s is not an API error", path, rec.Code, out)
			require.NotEqual(t, "", e.Error.Message, "%s: %d %.300s is not an API error", path, rec.Code, out)
			require.NotEqual(t, "", e.Error.Type, "%s: %d %.300s is not an API error", path, rec.Code, out)
		default:
			t.Fatalf("%s: status %d %.300s", path, rec.Code, out)
		}
		limit := 1<<20 + 16*len(body)
		require.LessOrEqual(t, len(out), limit, "%s: an answer of %d bytes to a body of %d", path, len(out), len(body))
	})
}
