package protocols_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/agentwire/agentwire/protocols/openai"
	"github.com/agentwire/agentwire/protocols/responses"
)

func decodeJSON(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return v
}

func TestErrorBodies(t *testing.T) {
	overflow := &protocols.Error{Kind: protocols.ErrorContextLength, PromptTokens: 250000, MaxContext: 200000}
	for _, tc := range []struct {
		err                 *protocols.Error
		aStatus, oStatus    int
		anthropic, chat, rs string
	}{
		{overflow, 400, 400,
			`{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 250000 tokens > 200000 maximum"}}`,
			`{"error":{"message":"This model's maximum context length is 200000 tokens. However, your request has 250000 input tokens. Please reduce the length of the input.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`,
			`{"error":{"message":"Your input exceeds the context window of this model: 250000 input tokens > 200000 maximum. Please adjust your input and try again.","type":"invalid_request_error","param":"input","code":"context_length_exceeded"}}`},
		{&protocols.Error{Kind: protocols.ErrorOverloaded}, 529, 503,
			`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`,
			`{"error":{"message":"The server is overloaded. Please retry later.","type":"server_error","param":null,"code":"server_is_overloaded"}}`,
			`{"error":{"message":"The server is overloaded. Please retry later.","type":"server_error","param":null,"code":"server_is_overloaded"}}`},
		{&protocols.Error{Kind: protocols.ErrorRateLimited}, 429, 429,
			`{"type":"error","error":{"type":"rate_limit_error","message":"Rate limited: too many requests; retry later."}}`,
			`{"error":{"message":"Rate limit reached. Please retry later.","type":"requests","param":null,"code":"rate_limit_exceeded"}}`,
			`{"error":{"message":"Rate limit reached. Please retry later.","type":"requests","param":null,"code":"rate_limit_exceeded"}}`},
		{&protocols.Error{Kind: protocols.ErrorUpstream, Message: "CUDA out of memory at 0x7f"}, 500, 500,
			`{"type":"error","error":{"type":"api_error","message":"An internal error occurred during generation."}}`,
			`{"error":{"message":"CUDA out of memory at 0x7f","type":"server_error","param":null,"code":null}}`,
			`{"error":{"message":"CUDA out of memory at 0x7f","type":"server_error","param":null,"code":"server_error"}}`},
		{&protocols.Error{Kind: protocols.ErrorBadRequest, Param: "temperature", Message: "must be at most 2"}, 400, 400,
			`{"type":"error","error":{"type":"invalid_request_error","message":"temperature: must be at most 2"}}`,
			`{"error":{"message":"must be at most 2","type":"invalid_request_error","param":"temperature","code":null}}`,
			`{"error":{"message":"must be at most 2","type":"invalid_request_error","param":"temperature","code":null}}`},
		{&protocols.Error{Kind: protocols.ErrorNotFound, Model: "Qwen/Qwen3-32B"}, 404, 404,
			`{"type":"error","error":{"type":"not_found_error","message":"model: Qwen/Qwen3-32B"}}`,
			`{"error":{"message":"The model ` + "`Qwen/Qwen3-32B`" + ` does not exist.","type":"not_found_error","param":null,"code":"model_not_found"}}`,
			`{"error":{"message":"The model ` + "`Qwen/Qwen3-32B`" + ` does not exist.","type":"not_found_error","param":null,"code":"model_not_found"}}`},
		{&protocols.Error{Kind: protocols.ErrorTimeout}, 504, 504,
			`{"type":"error","error":{"type":"timeout_error","message":"Request timed out."}}`,
			`{"error":{"message":"The engine did not answer in time.","type":"server_error","param":null,"code":"timeout"}}`,
			`{"error":{"message":"The engine did not answer in time.","type":"server_error","param":null,"code":"timeout"}}`},
		{&protocols.Error{Kind: protocols.ErrorCanceled}, 499, 499,
			`{"type":"error","error":{"type":"invalid_request_error","message":"Client closed the request."}}`,
			`{"error":{"message":"Client closed the request.","type":"invalid_request_error","param":null,"code":null}}`,
			`{"error":{"message":"Client closed the request.","type":"invalid_request_error","param":null,"code":null}}`},
		{&protocols.Error{Kind: protocols.ErrorMalformed, Message: "bad JSON at byte 7"}, 500, 500,
			`{"type":"error","error":{"type":"api_error","message":"An internal error occurred during generation."}}`,
			`{"error":{"message":"bad JSON at byte 7","type":"server_error","param":null,"code":null}}`,
			`{"error":{"message":"bad JSON at byte 7","type":"server_error","param":null,"code":"server_error"}}`},
		{&protocols.Error{Kind: protocols.ErrorUnauthorized}, 401, 401,
			`{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`,
			`{"error":{"message":"Incorrect API key provided.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`,
			`{"error":{"message":"Incorrect API key provided.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`},
		{&protocols.Error{Kind: protocols.ErrorRequestTimeout, Message: "the request body did not arrive within 1s"}, 408, 408,
			`{"type":"error","error":{"type":"timeout_error","message":"the request body did not arrive within 1s"}}`,
			`{"error":{"message":"the request body did not arrive within 1s","type":"invalid_request_error","param":null,"code":"request_timeout"}}`,
			`{"error":{"message":"the request body did not arrive within 1s","type":"invalid_request_error","param":null,"code":"request_timeout"}}`},
		{&protocols.Error{Kind: protocols.ErrorNotImplemented, Message: "no tokenizer"}, 501, 501,
			`{"type":"error","error":{"type":"api_error","message":"no tokenizer"}}`,
			`{"error":{"message":"no tokenizer","type":"server_error","param":null,"code":null}}`,
			`{"error":{"message":"no tokenizer","type":"not_implemented_error","param":null,"code":null}}`},
		{&protocols.Error{Kind: protocols.ErrorRequestTooLarge}, 413, 413,
			`{"type":"error","error":{"type":"request_too_large","message":"Request exceeds the maximum allowed number of bytes."}}`,
			`{"error":{"message":"Request body too large.","type":"invalid_request_error","param":null,"code":null}}`,
			`{"error":{"message":"Request body too large.","type":"invalid_request_error","param":null,"code":null}}`},
	} {
		name := tc.err.Kind.String()
		status, body := anthropic.ErrorBody(tc.err)
		if status != tc.aStatus {
			t.Errorf("%s: anthropic status %d, want %d", name, status, tc.aStatus)
		}
		if d := cmp.Diff(decodeJSON(t, []byte(tc.anthropic)), decodeJSON(t, body)); d != "" {
			t.Errorf("%s: anthropic body (-want +got):\n%s", name, d)
		}
		ev := string(anthropic.AppendErrorEvent(nil, tc.err))
		if ev != "event: error\ndata: "+string(body)+"\n\n" {
			t.Errorf("%s: anthropic event %q", name, ev)
		}
		status, body = openai.ErrorBody(tc.err)
		if status != tc.oStatus {
			t.Errorf("%s: chat status %d, want %d", name, status, tc.oStatus)
		}
		if d := cmp.Diff(decodeJSON(t, []byte(tc.chat)), decodeJSON(t, body)); d != "" {
			t.Errorf("%s: chat body (-want +got):\n%s", name, d)
		}
		if ev := string(openai.AppendErrorEvent(nil, tc.err)); ev != "event: error\ndata: "+string(body)+"\n\n" {
			t.Errorf("%s: chat event %q", name, ev)
		}
		status, body = responses.ErrorBody(tc.err)
		if status != tc.oStatus {
			t.Errorf("%s: responses status %d, want %d", name, status, tc.oStatus)
		}
		if d := cmp.Diff(decodeJSON(t, []byte(tc.rs)), decodeJSON(t, body)); d != "" {
			t.Errorf("%s: responses body (-want +got):\n%s", name, d)
		}
	}
}

func TestErrorMessageClipped(t *testing.T) {
	e := &protocols.Error{Kind: protocols.ErrorBadRequest, Message: strings.Repeat("x", 1<<20)}
	for name, f := range map[string]func(*protocols.Error) (int, []byte){"anthropic": anthropic.ErrorBody, "chat": openai.ErrorBody, "responses": responses.ErrorBody} {
		if _, b := f(e); len(b) > 1300 {
			t.Errorf("%s: %d-byte body", name, len(b))
		}
	}
}

func TestResponsesFailError(t *testing.T) {
	e := responses.NewEmitter(responses.EmitterConfig{})
	out := string(e.FailError(nil, &protocols.Error{Kind: protocols.ErrorContextLength, PromptTokens: 9, MaxContext: 8}))
	if !strings.Contains(out, "event: response.failed\n") || !strings.Contains(out, `"error":{"code":"context_length_exceeded","message":"Your input exceeds the context window of this model: 9 input tokens > 8 maximum.`) {
		t.Errorf("failed event:\n%s", out)
	}
}

// Every emitter implements the whole contract, FailError included.
var (
	_ protocols.Emitter = (*anthropic.Emitter)(nil)
	_ protocols.Emitter = (*openai.Emitter)(nil)
	_ protocols.Emitter = (*openai.CompletionEmitter)(nil)
	_ protocols.Emitter = (*openai.Aggregator)(nil)
	_ protocols.Emitter = (*responses.Emitter)(nil)
)

// clientErr is an error of a lower layer that knows what a client reads.
type clientErr struct{ kind protocols.ErrorKind }

func (e clientErr) Error() string                 { return "secret detail" }
func (e clientErr) ClientError() *protocols.Error { return &protocols.Error{Kind: e.kind} }
func (e clientErr) Unwrap() error                 { return context.Canceled }

func TestErrorOf(t *testing.T) {
	own := &protocols.Error{Kind: protocols.ErrorNotFound, Model: "m"}
	for _, tc := range []struct {
		name string
		err  error
		want *protocols.Error
	}{
		{"the server's own", fmt.Errorf("wrapped: %w", own), own},
		{"a lower layer's answer wins over its cause", clientErr{protocols.ErrorOverloaded}, &protocols.Error{Kind: protocols.ErrorOverloaded}},
		{"canceled", fmt.Errorf("x: %w", context.Canceled), &protocols.Error{Kind: protocols.ErrorCanceled}},
		{"deadline", context.DeadlineExceeded, &protocols.Error{Kind: protocols.ErrorTimeout}},
		{"anything else hides its words", errors.New("dial tcp 10.0.0.1:8000"), &protocols.Error{Kind: protocols.ErrorUpstream}},
	} {
		if d := cmp.Diff(tc.want, protocols.ErrorOf(tc.err)); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, d)
		}
	}
}

// TestAPIErrorStatusBody: an API error value keeps its status and body,
// written without HTML escaping, in every API package.
func TestAPIErrorStatusBody(t *testing.T) {
	for _, tc := range []struct {
		err    protocols.APIError
		status int
		body   string
	}{
		{openai.BadRequest("a < b && c"), 400, `{"error":{"message":"a < b && c","type":"invalid_request_error","param":null,"code":null}}`},
		{anthropic.NewAPIError(413, "too big"), 413, `{"type":"error","error":{"type":"request_too_large","message":"too big"}}`},
		{responses.NewAPIError(400, "x > y"), 400, `{"error":{"message":"x > y","type":"invalid_request_error","param":null,"code":null}}`},
		{&openai.APIError{Status: 400, Body: openai.ErrorResponse{Error: openai.ErrorObject{Code: openai.RawJSON("{bad")}}}, 500,
			`{"error":{"message":"internal error","type":"server_error","param":null,"code":null}}`},
	} {
		status, body := tc.err.StatusBody()
		if status != tc.status || string(body) != tc.body {
			t.Errorf("%v: %d %s, want %d %s", tc.err, status, body, tc.status, tc.body)
		}
	}
}
