package pipeline

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentwire/agentwire/preprocess"
	"github.com/agentwire/agentwire/preprocess/api"
	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/stretchr/testify/require"
)

// toolCapture is a capture whose output has reasoning and a tool call.
func toolCapture(t testing.TB) capture {
	for _, c := range loadCaptures(t) {
		if c.name == benchCapture {
			return c
		}
	}
	t.Fatal("no tool capture")
	return capture{}
}

// errorShape checks body is api's error object and returns its message.
func errorShape(t *testing.T, a api.API, body []byte) string {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(body, &m), "error body %q", body)
	if a == api.Messages {
		require.Equal(t, "error", m["type"], "not an Anthropic error: %s", body)
	}
	require.NotEmpty(t, str(path(m, "error", "type")), "not an %s error: %s", a, body)
	return str(path(m, "error", "message"))
}

func TestErrorsBeforeFirstByte(t *testing.T) {
	c := toolCapture(t)
	cases := []struct {
		name        string
		genErr      error // from Generate
		nextErr     error // from the first Next
		status      int
		statusClaud int
	}{
		{"overloaded", &engine.Error{Kind: engine.ErrorOverloaded, Status: 503, Message: "queue full"}, nil, 503, 529},
		{"upstream 500", &engine.Error{Kind: engine.ErrorUpstream, Status: 500, Message: "engine crashed"}, nil, 500, 500},
		{"context length", &engine.Error{Kind: engine.ErrorContextLength, Status: 400, Message: "This model's maximum context length is 4096 tokens"}, nil, 400, 400},
		{"rate limited", &engine.Error{Kind: engine.ErrorRateLimited, Status: 429, Message: "slow down"}, nil, 429, 429},
		{"refused", errors.New("dial tcp: connection refused"), nil, 500, 500},
		{"malformed first chunk", nil, &engine.Error{Kind: engine.ErrorMalformed, Message: "bad JSON in the engine stream"}, 500, 500},
		{"first-token timeout", nil, &engine.Error{Kind: engine.ErrorTimeout, Message: "no first token within 30s"}, 504, 504},
	}
	for _, tc := range cases {
		for _, a := range allAPIs {
			for _, stream := range []bool{true, false} {
				eng := newFake(textOutputs(c.deltas, engine.FinishStop))
				eng.genErr = tc.genErr
				if tc.nextErr != nil {
					eng.failAt, eng.failErr = 0, tc.nextErr
				}
				w := serve(t, eng, prepFor(a, stream, c.toolParser, c.reasoningParser))
				want := tc.status
				if a == api.Messages {
					want = tc.statusClaud
				}
				require.Equal(t, want, w.Code, "%s %s stream=%v: status %d, want %d", tc.name, a, stream, w.Code, want)
				ct := w.Header().Get("Content-Type")
				require.Equal(t, "application/json", ct, "%s %s: content type %q", tc.name, a, ct)
				msg := errorShape(t, a, w.Body.Bytes())
				require.NotEqual(t, "", msg, "%s %s: empty message", tc.name, a)
				require.False(t, tc.genErr == nil && eng.closed != 1, "%s %s: stream closed %d times", tc.name, a, eng.closed)
			}
		}
	}
}

// TestErrorsMidStream cuts the stream inside the tool call: the stream
// ends with the API's error event, and nothing of the half call reaches
// the content; a unary request answers with the error status.
func TestErrorsMidStream(t *testing.T) {
	c := toolCapture(t)
	cut := len(c.deltas) - 8 // inside the call's arguments
	for _, fault := range []struct {
		name string
		err  error
		// failAt < 0: the error is an Output with FinishError
		viaFinish bool
	}{
		{"drop", &engine.Error{Kind: engine.ErrorUpstream, Message: "upstream closed the connection mid-stream"}, false},
		{"malformed JSON", &engine.Error{Kind: engine.ErrorMalformed, Message: "invalid character 'x' in the engine stream"}, false},
		{"idle timeout", &engine.Error{Kind: engine.ErrorTimeout, Message: "no token for 30s"}, false},
		{"engine finish error", errors.New("CUDA error: out of memory"), true},
	} {
		for _, a := range allAPIs {
			outs := textOutputs(c.deltas, engine.FinishStop)
			eng := newFake(outs)
			if fault.viaFinish {
				eng.outs = append([]engine.Output(nil), outs[:cut]...)
				eng.outs = append(eng.outs, engine.Output{HasText: true, Finish: engine.FinishError, Err: fault.err})
			} else {
				eng.failAt, eng.failErr = cut, fault.err
			}
			w := serve(t, eng, prepFor(a, true, c.toolParser, c.reasoningParser))
			require.Equal(t, 200, w.Code, "%s %s: status %d", fault.name, a, w.Code)
			r, err := streamResult(a, w.Body.Bytes())
			require.NoError(t, err, "%s %s\n%s", fault.name, a, w.Body)
			require.NotEqual(t, "", r.Error, "%s %s: no in-stream error event:\n%s", fault.name, a, w.Body)
			require.Equal(t, "", r.Finish, "%s %s: a finish (%q) was sent after the error", fault.name, a, r.Finish)
			for _, bad := range []string{"<tool_call>", `"name"`, "get_weather", "</think>"} {
				require.False(t, a != api.Completions && strings.Contains(r.Content, bad), "%s %s: content has %q: %q", fault.name, a, bad, r.Content)
			}
			require.Equal(t, 1, eng.closed, "%s %s: stream closed %d times", fault.name, a, eng.closed)
			// Unary: the error status, no partial answer.
			eng2 := newFake(eng.outs)
			eng2.failAt, eng2.failErr = eng.failAt, eng.failErr
			w = serve(t, eng2, prepFor(a, false, c.toolParser, c.reasoningParser))
			require.GreaterOrEqual(t, w.Code, 500, "%s %s unary: status %d", fault.name, a, w.Code)
			errorShape(t, a, w.Body.Bytes())
		}
	}
}

// TestClientDisconnect serves over real HTTP; the client goes away in the
// middle of a stream whose engine then stalls. The engine stream is
// canceled and closed and no goroutine is left running.
func TestClientDisconnect(t *testing.T) {
	c := toolCapture(t)
	before := runtime.NumGoroutine()
	for _, a := range allAPIs {
		eng := newFake(textOutputs(c.deltas[:20], engine.FinishNone))
		eng.outs[len(eng.outs)-1].Usage = nil
		eng.block = true
		done := make(chan error, 1)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			done <- ServeWith(r.Context(), w, eng, prepFor(a, true, c.toolParser, c.reasoningParser), Options{})
		}))
		ctx, cancel := context.WithCancel(context.Background())
		req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL, nil)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		require.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"), "content type %q", resp.Header.Get("Content-Type"))
		// Read the first event (flushed before the engine stalls), then go away.
		rd := bufio.NewReader(resp.Body)
		_, err = rd.ReadString('\n')
		require.NoError(t, err)
		cancel()
		resp.Body.Close()
		select {
		case err := <-done:
			require.ErrorIs(t, err, context.Canceled, "%s: Serve returned %v, want context.Canceled", a, err)
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: Serve did not return after the client went away", a)
		}
		require.Equal(t, 1, eng.closed, "%s: engine stream closed %d times", a, eng.closed)
		srv.Close()
	}
	http.DefaultClient.CloseIdleConnections()
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines before, %d after:\n%s", before, n, buf[:runtime.Stack(buf, true)])
	}
}

// TestStreamingFlushes checks each step reaches the client before the next
// one is generated (one flush per step), through a ResponseWriter wrapper
// that only offers Unwrap (as servers' metering wrappers do).
func TestStreamingFlushes(t *testing.T) {
	c := toolCapture(t)
	step := make(chan struct{})
	eng := &gatedEngine{outs: textOutputs(c.deltas[:5], engine.FinishStop), step: step}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		prep := prepFor(api.Chat, true, "", "")
		_ = Serve(r.Context(), unwrapOnly{w}, eng, prep)
	}))
	defer srv.Close()
	go func() { step <- struct{}{} }()
	client := &http.Client{Timeout: 20 * time.Second} // a missing flush fails instead of hanging
	resp, err := client.Get(srv.URL)
	require.NoError(t, err)
	defer resp.Body.Close()
	rd := bufio.NewReader(resp.Body)
	for i := 0; i < 5; i++ {
		line, err := rd.ReadString('\n')
		require.NoError(t, err)
		if !strings.Contains(line, c.deltas[i][:1]) && strings.TrimSpace(c.deltas[i]) != "" {
			t.Logf("event %d: %s", i, line)
		}
		_, _ = rd.ReadString('\n') // blank line
		if i < 4 {
			step <- struct{}{} // the next step is produced only after this one arrived
		}
	}
}

// unwrapOnly hides every optional interface of the ResponseWriter but
// Unwrap.
type unwrapOnly struct{ w http.ResponseWriter }

func (u unwrapOnly) Header() http.Header         { return u.w.Header() }
func (u unwrapOnly) Write(b []byte) (int, error) { return u.w.Write(b) }
func (u unwrapOnly) WriteHeader(status int)      { u.w.WriteHeader(status) }
func (u unwrapOnly) Unwrap() http.ResponseWriter { return u.w }

// gatedEngine produces its next output only when step receives.
type gatedEngine struct {
	outs []engine.Output
	step chan struct{}
}

func (g *gatedEngine) Generate(ctx context.Context, _ *engine.Request) (engine.Stream, error) {
	return &gatedStream{g: g, ctx: ctx}, nil
}

type gatedStream struct {
	g   *gatedEngine
	ctx context.Context
	i   int
	cur engine.Output
}

func (s *gatedStream) Next() (*engine.Output, error) {
	if s.i >= len(s.g.outs) {
		return nil, context.Canceled
	}
	if s.i < 5 {
		select {
		case <-s.g.step:
		case <-s.ctx.Done():
			return nil, s.ctx.Err()
		}
	}
	s.cur = s.g.outs[s.i]
	s.i++
	return &s.cur, nil
}

func (s *gatedStream) Close() error { return nil }

// TestStreamErrorTypes: the in-stream error event carries the API's error
// type for the failure's kind, with the API's standard text (the engine's
// own words are for the server's log).
func TestStreamErrorTypes(t *testing.T) {
	c := toolCapture(t)
	err := &engine.Error{Kind: engine.ErrorOverloaded, Message: "engine draining"}
	for a, want := range map[api.API]string{
		api.Chat:        "event: error\n" + `data: {"error":{"message":"The server is overloaded. Please retry later.","type":"server_error","param":null,"code":"server_is_overloaded"}}`,
		api.Completions: "event: error\n" + `data: {"error":{"message":"The server is overloaded. Please retry later.","type":"server_error","param":null,"code":"server_is_overloaded"}}`,
		api.Messages:    "event: error\n" + `data: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`,
		api.Responses:   `"status":"failed"`,
	} {
		eng := newFake(textOutputs(c.deltas, engine.FinishStop))
		eng.failAt, eng.failErr = 10, err
		w := serve(t, eng, prepFor(a, true, c.toolParser, c.reasoningParser))
		require.Contains(t, w.Body.String(), want, "%s: no %s in\n%s", a, want, w.Body)
	}
}

// TestClientSafeMessages: what the client reads of an upstream failure, a
// timeout or an internal error is the API's standard text, never the
// engine's address, a transport error or the internals of a parser or
// template; bad requests and context overflows keep their words.
func TestClientSafeMessages(t *testing.T) {
	secret := `engine: Post "http://10.1.2.3:8000/v1/completions": dial tcp 10.1.2.3:8000: connect: connection refused`
	hidden := []error{
		&engine.Error{Kind: engine.ErrorUpstream, Message: secret},
		&engine.Error{Kind: engine.ErrorMalformed, Message: secret},
		&engine.Error{Kind: engine.ErrorTimeout, Message: secret},
		&engine.Error{Kind: engine.ErrorOverloaded, Status: 503, Message: secret},
		&engine.Error{Kind: engine.ErrorUpstream, Status: 401, Message: "engine answered 401: " + secret},
		errors.New("pipeline: parsers: " + secret),
		fmt.Errorf("preprocess: rendering the chat template: %w", errors.New(secret)),
	}
	for _, a := range allAPIs {
		for _, err := range hidden {
			status, body := ErrorBody(a, err)
			require.False(t, bytes.Contains(body, []byte("10.1.2.3")), "%s %v: %d %s", a, err, status, body)
			require.False(t, bytes.Contains(body, []byte("parsers:")), "%s %v: %d %s", a, err, status, body)
			require.False(t, bytes.Contains(body, []byte("template")), "%s %v: %d %s", a, err, status, body)
			require.GreaterOrEqual(t, status, 500, "%s %v: status %d, want 5xx", a, err, status)
			ev := appendStreamError(nil, a, err)
			require.False(t, bytes.Contains(ev, []byte("10.1.2.3")), "%s %v: event %s", a, err, ev)
		}
		kept := map[string]error{
			"temperature must be non-negative": &engine.Error{Kind: engine.ErrorBadRequest, Status: 400, Message: "temperature must be non-negative"},
			"no such tool":                     &preprocess.BadRequestError{Err: errors.New("no such tool"), API: a},
		}
		for want, err := range kept {
			_, body := ErrorBody(a, err)
			require.True(t, bytes.Contains(body, []byte(want)), "%s: %s does not say %q", a, body, want)
		}
	}
}

// TestEngineAbort: an engine's abort (finish_reason "abort") while the
// client is still there is a failure, not a normal finish: the API's
// error event in a stream, a 5xx unary answer.
func TestEngineAbort(t *testing.T) {
	for _, a := range allAPIs {
		for _, stream := range []bool{true, false} {
			w := serve(t, newFake(textOutputs([]string{"Hello", " wor"}, engine.FinishCancelled)), prepFor(a, stream, "", ""))
			body := w.Body.String()
			switch {
			case !stream && w.Code < 500:
				t.Errorf("%s unary: status %d %s", a, w.Code, body)
			case stream && !strings.Contains(body, "event: error") && !strings.Contains(body, `"status":"failed"`):
				t.Errorf("%s stream: no error event in\n%s", a, body)
			case stream && (strings.Contains(body, "[DONE]") || strings.Contains(body, "message_stop")):
				t.Errorf("%s stream: finished normally\n%s", a, body)
			}
		}
	}
}

// endlessEngine streams the same output until its context ends, ignoring
// max_tokens (an engine that does not honour the request's limit).
type endlessEngine struct {
	out    engine.Output
	steps  atomic.Int64
	closed atomic.Int64
	gone   chan struct{} // closed when the (one) stream's context ends
}

func (e *endlessEngine) Generate(ctx context.Context, _ *engine.Request) (engine.Stream, error) {
	if e.gone != nil {
		context.AfterFunc(ctx, func() { close(e.gone) })
	}
	return &endlessStream{e: e, ctx: ctx}, nil
}

type endlessStream struct {
	e   *endlessEngine
	ctx context.Context
	cur engine.Output
}

func (s *endlessStream) Next() (*engine.Output, error) {
	if err := s.ctx.Err(); err != nil {
		return nil, err
	}
	s.e.steps.Add(1)
	s.cur = s.e.out
	return &s.cur, nil
}

func (s *endlessStream) Close() error { s.e.closed.Add(1); return nil }

// TestMaxTokensBound: an engine that ignores max_tokens is cut at the
// request's limit as if it had finished with length, and closed (it used
// to stream until the request timeout).
func TestMaxTokensBound(t *testing.T) {
	v := captureTokenizer(t)
	ids := v.idOutputs(t, []string{"Hello", " world", "!"}, engine.FinishNone)
	var all []uint32
	for _, o := range ids {
		all = append(all, o.TokenIDs...)
	}
	for _, tc := range []struct {
		name string
		out  engine.Output
	}{
		{"token ids", engine.Output{TokenIDs: all}},
		{"text", engine.Output{Text: []byte("la "), HasText: true}},
	} {
		for _, a := range allAPIs {
			t.Run(tc.name+"/"+a.String(), func(t *testing.T) {
				eng := &endlessEngine{out: tc.out}
				prep := prepFor(a, true, "", "")
				prep.Engine.MaxTokens = 10
				prep.Response.Tokenizer = v.tok
				done := make(chan *httptest.ResponseRecorder)
				go func() { done <- serve(t, eng, prep) }()
				var w *httptest.ResponseRecorder
				select {
				case w = <-done:
				case <-time.After(10 * time.Second):
					t.Fatal("the stream did not end")
				}
				r, err := streamResult(a, w.Body.Bytes())
				require.NoError(t, err, "%s", w.Body)
				require.Equal(t, "length", r.Finish, "finish %q, completion tokens %d; want length, 10", r.Finish, r.Usage[1])
				require.Equal(t, int64(10), r.Usage[1], "finish %q, completion tokens %d; want length, 10", r.Finish, r.Usage[1])
				n := eng.steps.Load()
				require.LessOrEqual(t, n, int64(20), "%d engine steps for 10 tokens", n)
				require.Equal(t, int64(1), eng.closed.Load(), "engine stream closed %d times", eng.closed.Load())
			})
		}
	}
}

// TestWriteTimeout: a stream whose client stops reading ends once a write
// blocks for WriteTimeout, and the engine request is canceled (the client
// used to keep its slot and the engine kept generating until it hung up).
func TestWriteTimeout(t *testing.T) {
	eng := &endlessEngine{out: engine.Output{Text: bytes.Repeat([]byte("la "), 20<<10), HasText: true}, gone: make(chan struct{})}
	served := make(chan error, 1)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		prep := prepFor(api.Chat, true, "", "")
		prep.Engine.MaxTokens = 1 << 30
		served <- ServeWith(r.Context(), w, eng, prep, Options{WriteTimeout: 300 * time.Millisecond})
	}))
	defer ts.Close()
	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	require.NoError(t, err)
	defer conn.Close()
	if _, err := fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	// The client reads nothing more.
	select {
	case err := <-served:
		require.Error(t, err, "ServeWith returned no error for a blocked client")
	case <-time.After(20 * time.Second):
		t.Fatal("the stream is still blocked on a client that stopped reading")
	}
	select {
	case <-eng.gone:
	case <-time.After(5 * time.Second):
		t.Fatal("the engine request was not canceled")
	}
	require.Equal(t, int64(1), eng.closed.Load(), "engine stream closed %d times", eng.closed.Load())
}
