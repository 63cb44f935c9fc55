package pipeline

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/agentwire/agentwire/preprocess"
	"github.com/agentwire/agentwire/preprocess/engine"
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
func errorShape(t *testing.T, api preprocess.API, body []byte) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("error body %q: %v", body, err)
	}
	if api == preprocess.APIMessages {
		if m["type"] != "error" || str(path(m, "error", "type")) == "" {
			t.Errorf("not an Anthropic error: %s", body)
		}
	} else if str(path(m, "error", "type")) == "" {
		t.Errorf("not an OpenAI error: %s", body)
	}
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
		for _, api := range allAPIs {
			for _, stream := range []bool{true, false} {
				eng := newFake(textOutputs(c.deltas, engine.FinishStop))
				eng.genErr = tc.genErr
				if tc.nextErr != nil {
					eng.failAt, eng.failErr = 0, tc.nextErr
				}
				w := serve(t, eng, prepFor(api, stream, c.toolParser, c.reasoningParser))
				want := tc.status
				if api == preprocess.APIMessages {
					want = tc.statusClaud
				}
				if w.Code != want {
					t.Errorf("%s %s stream=%v: status %d, want %d", tc.name, api, stream, w.Code, want)
				}
				if ct := w.Header().Get("Content-Type"); ct != "application/json" {
					t.Errorf("%s %s: content type %q", tc.name, api, ct)
				}
				if msg := errorShape(t, api, w.Body.Bytes()); msg == "" {
					t.Errorf("%s %s: empty message", tc.name, api)
				}
				if tc.genErr == nil && eng.closed != 1 {
					t.Errorf("%s %s: stream closed %d times", tc.name, api, eng.closed)
				}
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
		for _, api := range allAPIs {
			outs := textOutputs(c.deltas, engine.FinishStop)
			eng := newFake(outs)
			if fault.viaFinish {
				eng.outs = append([]engine.Output(nil), outs[:cut]...)
				eng.outs = append(eng.outs, engine.Output{HasText: true, Finish: engine.FinishError, Err: fault.err})
			} else {
				eng.failAt, eng.failErr = cut, fault.err
			}
			w := serve(t, eng, prepFor(api, true, c.toolParser, c.reasoningParser))
			if w.Code != 200 {
				t.Fatalf("%s %s: status %d", fault.name, api, w.Code)
			}
			r, err := streamResult(api, w.Body.Bytes())
			if err != nil {
				t.Fatalf("%s %s: %v\n%s", fault.name, api, err, w.Body)
			}
			if r.Error == "" {
				t.Errorf("%s %s: no in-stream error event:\n%s", fault.name, api, w.Body)
			}
			if r.Finish != "" {
				t.Errorf("%s %s: a finish (%q) was sent after the error", fault.name, api, r.Finish)
			}
			for _, bad := range []string{"<tool_call>", `"name"`, "get_weather", "</think>"} {
				if api != preprocess.APICompletions && strings.Contains(r.Content, bad) {
					t.Errorf("%s %s: content has %q: %q", fault.name, api, bad, r.Content)
				}
			}
			if eng.closed != 1 {
				t.Errorf("%s %s: stream closed %d times", fault.name, api, eng.closed)
			}
			// Unary: the error status, no partial answer.
			eng2 := newFake(eng.outs)
			eng2.failAt, eng2.failErr = eng.failAt, eng.failErr
			w = serve(t, eng2, prepFor(api, false, c.toolParser, c.reasoningParser))
			if w.Code < 500 {
				t.Errorf("%s %s unary: status %d", fault.name, api, w.Code)
			}
			errorShape(t, api, w.Body.Bytes())
		}
	}
}

// TestClientDisconnect serves over real HTTP; the client goes away in the
// middle of a stream whose engine then stalls. The engine stream is
// canceled and closed and no goroutine is left running.
func TestClientDisconnect(t *testing.T) {
	c := toolCapture(t)
	before := runtime.NumGoroutine()
	for _, api := range allAPIs {
		eng := newFake(textOutputs(c.deltas[:20], engine.FinishNone))
		eng.outs[len(eng.outs)-1].Usage = nil
		eng.block = true
		done := make(chan error, 1)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			done <- ServeWith(r.Context(), w, eng, prepFor(api, true, c.toolParser, c.reasoningParser), Options{})
		}))
		ctx, cancel := context.WithCancel(context.Background())
		req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Header.Get("Content-Type") != "text/event-stream" {
			t.Fatalf("content type %q", resp.Header.Get("Content-Type"))
		}
		// Read the first event (flushed before the engine stalls), then go away.
		rd := bufio.NewReader(resp.Body)
		if _, err := rd.ReadString('\n'); err != nil {
			t.Fatal(err)
		}
		cancel()
		resp.Body.Close()
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("%s: Serve returned %v, want context.Canceled", api, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: Serve did not return after the client went away", api)
		}
		if eng.closed != 1 {
			t.Errorf("%s: engine stream closed %d times", api, eng.closed)
		}
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
		prep := prepFor(preprocess.APIChat, true, "", "")
		_ = Serve(r.Context(), unwrapOnly{w}, eng, prep)
	}))
	defer srv.Close()
	go func() { step <- struct{}{} }()
	client := &http.Client{Timeout: 20 * time.Second} // a missing flush fails instead of hanging
	resp, err := client.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	rd := bufio.NewReader(resp.Body)
	for i := 0; i < 5; i++ {
		line, err := rd.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
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
// type for the failure's kind.
func TestStreamErrorTypes(t *testing.T) {
	c := toolCapture(t)
	err := &engine.Error{Kind: engine.ErrorOverloaded, Message: "engine draining"}
	for api, want := range map[preprocess.API]string{
		preprocess.APIChat:        "event: error\n" + `data: {"error":{"message":"engine draining","type":"server_error","param":null,"code":"server_is_overloaded"}}`,
		preprocess.APICompletions: "event: error\n" + `data: {"error":{"message":"engine draining","type":"server_error","param":null,"code":"server_is_overloaded"}}`,
		preprocess.APIMessages:    "event: error\n" + `data: {"type":"error","error":{"type":"overloaded_error","message":"engine draining"}}`,
		preprocess.APIResponses:   `"status":"failed"`,
	} {
		eng := newFake(textOutputs(c.deltas, engine.FinishStop))
		eng.failAt, eng.failErr = 10, err
		w := serve(t, eng, prepFor(api, true, c.toolParser, c.reasoningParser))
		if !strings.Contains(w.Body.String(), want) {
			t.Errorf("%s: no %s in\n%s", api, want, w.Body)
		}
	}
}
