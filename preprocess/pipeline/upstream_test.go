package pipeline

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentwire/agentwire/preprocess/api"
	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/stretchr/testify/require"
)

// vllmUpstream is an httptest server speaking vLLM's /v1/completions
// stream; handle writes the response. idle is the adapter's idle timeout
// (0: its default).
func vllmUpstream(t testing.TB, handle http.HandlerFunc, idle time.Duration) (*httptest.Server, *engine.Completions) {
	srv := httptest.NewServer(handle)
	t.Cleanup(srv.Close)
	eng := engine.NewVLLM(engine.VLLMConfig{Config: engine.Config{BaseURL: srv.URL + "/v1", IdleTimeout: idle}})
	return srv, eng
}

// sseBody writes body as an SSE response, flushing each event.
func sseBody(body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		f := w.(http.Flusher)
		for _, ev := range strings.SplitAfter(string(body), "\n\n") {
			if ev == "" {
				continue
			}
			if _, err := w.Write([]byte(ev)); err != nil {
				return
			}
			f.Flush()
		}
	}
}

// TestVLLMUpstream serves every capture from an httptest upstream that
// speaks vLLM's streamed /v1/completions protocol, through the vLLM
// adapter, to every API surface, streamed and unary.
func TestVLLMUpstream(t *testing.T) {
	for _, c := range loadCaptures(t) {
		_, eng := vllmUpstream(t, sseBody(vllmSSE(c.deltas, c.finish)), 0)
		want := framed(c)
		raw := result{Content: strings.Join(c.deltas, ""), Finish: want.Finish}
		if raw.Finish == "tool" {
			raw.Finish = "stop"
		}
		for _, a := range allAPIs {
			var got [2]result
			for k, stream := range []bool{true, false} {
				got[k] = answer(t, eng, prepFor(a, stream, c.toolParser, c.reasoningParser))
				w := want
				if a == api.Completions {
					w = raw
				}
				if d := cmp.Diff(w, got[k], cmpResult); d != "" {
					t.Errorf("%s %s stream=%v (-want +got):\n%s", c.name, a, stream, d)
				}
			}
			require.False(t, got[0].Usage != got[1].Usage, "%s %s: usage %v streamed, %v unary", c.name, a, got[0].Usage, got[1].Usage)
			require.Equal(t, int64(len(c.deltas)), got[0].Usage[1], "%s %s: usage %v streamed, %v unary", c.name, a, got[0].Usage, got[1].Usage)
		}
	}
}

// TestVLLMUpstreamFaults: upstream failures reach the client as the API's
// error — a status before the first byte, an in-stream event after — and
// leave no goroutine behind.
func TestVLLMUpstreamFaults(t *testing.T) {
	c := toolCapture(t)
	body := vllmSSE(c.deltas, "stop")
	half := body[:len(body)/2]
	half = half[:strings.LastIndex(string(half), "\n\n")+2]
	before := runtime.NumGoroutine()
	cases := []struct {
		name     string
		handle   http.HandlerFunc
		status   int // 200: the error comes in the stream
		statusMs int // Anthropic's status when it differs
	}{
		{"503", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(503)
			_, _ = w.Write([]byte(`{"object":"error","message":"The engine is overloaded","type":"ServiceUnavailableError","param":null,"code":503}`))
		}, 503, 529},
		{"500", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(500)
			_, _ = w.Write([]byte(`Internal Server Error`))
		}, 500, 500},
		{"400 context length", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(400)
			_, _ = w.Write([]byte(`{"object":"error","message":"This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.","type":"BadRequestError","param":null,"code":400}`))
		}, 400, 400},
		{"drop mid-stream", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = w.Write(half)
			w.(http.Flusher).Flush()
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				_ = conn.Close()
			}
		}, 200, 200},
		{"malformed JSON", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = w.Write(half)
			_, _ = w.Write([]byte("data: {\"choices\":[{\"index\":0,\"text\":\"x\"\n\n"))
		}, 200, 200},
		{"stall", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = w.Write(half)
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
			case <-time.After(10 * time.Second):
			}
		}, 200, 200},
	}
	for _, tc := range cases {
		var idle time.Duration
		if tc.name == "stall" {
			idle = 300 * time.Millisecond
		}
		srv, eng := vllmUpstream(t, tc.handle, idle)
		for _, a := range allAPIs {
			for _, stream := range []bool{true, false} {
				w := serve(t, eng, prepFor(a, stream, c.toolParser, c.reasoningParser))
				want := tc.status
				if a == api.Messages {
					want = tc.statusMs
				}
				if !stream && want == 200 {
					want = 500 // unary: the status, no partial answer
					if tc.name == "stall" {
						want = 504
					}
				}
				if w.Code != want {
					t.Errorf("%s %s stream=%v: status %d, want %d\n%s", tc.name, a, stream, w.Code, want, w.Body)
					continue
				}
				if w.Code != 200 {
					errorShape(t, a, w.Body.Bytes())
					continue
				}
				r, err := streamResult(a, w.Body.Bytes())
				if err != nil {
					t.Errorf("%s %s: %v", tc.name, a, err)
					continue
				}
				require.NotEqual(t, "", r.Error, "%s %s: error %q finish %q\n%s", tc.name, a, r.Error, r.Finish, w.Body)
				require.Equal(t, "", r.Finish, "%s %s: error %q finish %q\n%s", tc.name, a, r.Error, r.Finish, w.Body)
				for _, bad := range []string{"<tool_call>", "</think>", `"name"`} {
					require.False(t, a != api.Completions && strings.Contains(r.Content, bad), "%s %s: %q in content %q", tc.name, a, bad, r.Content)
				}
			}
		}
		srv.Close()
	}
	waitGoroutines(t, before)
}

// waitGoroutines fails when goroutines started by the test are still
// running shortly after it.
func waitGoroutines(t *testing.T, before int) {
	t.Helper()
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

// TestVLLMClientDisconnect: the harness client goes away mid-stream; the
// upstream request to the engine is canceled (the engine sees its client
// go), Serve returns, and nothing keeps running.
func TestVLLMClientDisconnect(t *testing.T) {
	c := toolCapture(t)
	body := vllmSSE(c.deltas, "stop")
	half := body[:strings.Index(string(body), "\n\n")*10]
	half = half[:strings.LastIndex(string(half), "\n\n")+2]
	before := runtime.NumGoroutine()
	var upstreamGone sync.WaitGroup
	upstreamGone.Add(len(allAPIs))
	srv, eng := vllmUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		defer upstreamGone.Done()
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write(half)
		w.(http.Flusher).Flush()
		// Keep generating slowly until the pipeline cancels us.
		for {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(50 * time.Millisecond):
				if _, err := w.Write([]byte(": keep-alive\n\n")); err != nil {
					return
				}
				w.(http.Flusher).Flush()
			}
		}
	}, 0)
	for _, a := range allAPIs {
		done := make(chan error, 1)
		front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			done <- Serve(r.Context(), w, eng, prepFor(a, true, c.toolParser, c.reasoningParser))
		}))
		ctx, cancel := context.WithCancel(context.Background())
		req, _ := http.NewRequestWithContext(ctx, "POST", front.URL, nil)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		if _, err := bufio.NewReader(resp.Body).ReadString('\n'); err != nil {
			t.Fatal(err)
		}
		cancel()
		resp.Body.Close()
		select {
		case err := <-done:
			require.ErrorIs(t, err, context.Canceled, "%s: Serve returned %v", a, err)
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: Serve still running after the client left", a)
		}
		front.Close()
	}
	waitDone := make(chan struct{})
	go func() { upstreamGone.Wait(); close(waitDone) }()
	select {
	case <-waitDone:
	case <-time.After(10 * time.Second):
		t.Fatal("the engine's requests were not canceled")
	}
	srv.Close()
	waitGoroutines(t, before)
}
