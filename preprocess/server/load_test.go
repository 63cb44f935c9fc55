package server_test

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentwire/agentwire/preprocess/server"
	"github.com/agentwire/agentwire/preprocess/server/scripted"
	"github.com/stretchr/testify/require"
)

// loadBodies rotate over the four generation APIs with tools, so every
// request runs the reasoning and tool-call parsers and an emitter.
var loadBodies = []struct{ path, body string }{
	{"/v1/messages", `{"model":"agent","max_tokens":256,"stream":true,"thinking":{"type":"enabled","budget_tokens":128},` +
		`"tools":[{"name":"Bash","input_schema":{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}}],` +
		`"messages":[{"role":"user","content":"say hello"}]}`},
	{"/v1/chat/completions", `{"model":"agent","stream":true,"messages":[{"role":"user","content":"hi there"}]}`},
	{"/v1/responses", `{"model":"agent","stream":true,"input":"run it in parallel",` +
		`"tools":[{"type":"function","name":"exec_command","parameters":{"type":"object","properties":{"cmd":{"type":"string"}},"required":["cmd"]}}]}`},
	{"/v1/completions", `{"model":"agent","stream":true,"prompt":"<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n"}`},
}

// TestLoad runs many concurrent streaming clients against the scripted
// agent for a fixed time on loopback: no errors, no goroutines left, heap
// flat. It reports requests/s and time to first byte of the body
// (p50/p99), measured by the clients.
func TestLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("load test in -short mode")
	}
	const clients = 32
	duration := 1500 * time.Millisecond
	s, err := server.New(server.Config{Backend: &scripted.Backend{}, Logger: discardLogger(), MaxConcurrent: clients})
	require.NoError(t, err)
	ts := httptest.NewServer(s)
	defer ts.Close()
	tr := &http.Transport{MaxIdleConnsPerHost: clients}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr}

	run := func(d time.Duration) (n int64, ttfts []time.Duration, errs []string) {
		var mu sync.Mutex
		var count atomic.Int64
		deadline := time.Now().Add(d)
		var wg sync.WaitGroup
		for c := range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var mine []time.Duration
				for i := c; time.Now().Before(deadline); i++ {
					b := loadBodies[i%len(loadBodies)]
					ttft, err := streamOnce(hc, ts.URL+b.path, b.body)
					if err != nil {
						mu.Lock()
						errs = append(errs, err.Error())
						mu.Unlock()
						return
					}
					mine = append(mine, ttft)
					count.Add(1)
				}
				mu.Lock()
				ttfts = append(ttfts, mine...)
				mu.Unlock()
			}()
		}
		wg.Wait()
		return count.Load(), ttfts, errs
	}

	// warm up, then measure goroutines and heap around the timed run
	if _, _, errs := run(200 * time.Millisecond); len(errs) > 0 {
		t.Fatalf("warm-up errors: %v", errs[:min(3, len(errs))])
	}
	tr.CloseIdleConnections()
	g0, h0 := settle()
	n, ttfts, errs := run(duration)
	if len(errs) > 0 {
		t.Fatalf("%d errors, first: %v", len(errs), errs[:min(3, len(errs))])
	}
	tr.CloseIdleConnections()
	g1, h1 := settle()
	slices.Sort(ttfts)
	p := func(q float64) time.Duration { return ttfts[int(q*float64(len(ttfts)-1))] }
	t.Logf("%d clients, %v: %d streams, %.0f requests/s, time to first token p50 %v p99 %v; goroutines %d -> %d, heap %d KB -> %d KB",
		clients, duration, n, float64(n)/duration.Seconds(), p(0.50), p(0.99), g0, g1, h0>>10, h1>>10)
	require.GreaterOrEqual(t, n, int64(clients), "only %d streams", n)
	require.LessOrEqual(t, g1, g0+2, "goroutines grew: %d -> %d", g0, g1)
	require.LessOrEqual(t, h1, 2*h0+8<<20, "heap grew: %d -> %d bytes", h0, h1)
	require.Equal(t, int64(0), s.Metrics().Running(), "running %d", s.Metrics().Running())
}

// streamOnce posts one streaming request and reads it to the end; it
// returns the time (since the request started) of the first data frame.
func streamOnce(hc *http.Client, url, body string) (time.Duration, error) {
	start := time.Now()
	resp, err := hc.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		return 0, fmt.Errorf("%s: %d %s", url, resp.StatusCode, b)
	}
	br := bufio.NewReader(resp.Body)
	var first time.Duration
	failed := ""
	for {
		line, err := br.ReadString('\n')
		if strings.HasPrefix(line, "data: ") && first == 0 {
			first = time.Since(start)
		}
		if strings.HasPrefix(line, "event: error") || strings.HasPrefix(line, `data: {"error"`) ||
			strings.HasPrefix(line, `data: {"type":"error"`) || strings.HasPrefix(line, `data: {"type":"response.failed"`) {
			failed = line
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, err
		}
	}
	if failed != "" {
		return 0, fmt.Errorf("%s: stream error %s", url, failed)
	}
	return first, nil
}

// settle waits for goroutines to finish and returns their count and the
// live heap after a GC.
func settle() (int, uint64) {
	var g int
	for range 50 {
		runtime.GC()
		g = runtime.NumGoroutine()
		time.Sleep(10 * time.Millisecond)
		if runtime.NumGoroutine() == g {
			break
		}
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return g, ms.HeapAlloc
}
