package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/agentwire/agentwire/preprocess"
	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/agentwire/agentwire/preprocess/server"
	"github.com/agentwire/agentwire/preprocess/server/scripted"
	"github.com/stretchr/testify/require"
)

// TestSoak is the opt-in soak (not part of the default run): for
// $AGENTWIRE_SOAK (a duration, e.g. 20m) it serves, on loopback, 64
// concurrent streaming clients on the four APIs (the scripted agent at 5 ms
// a token, and a vLLM-speaking engine that fails at random: 500, drop
// mid-stream, abort, an empty [DONE], malformed chunks, stalls, ignoring
// max_tokens), together with slow readers, clients that never read
// (cut by the write timeout), slow uploads (408), idle keep-alive
// connections (closed by the idle timeout) and requests past the
// concurrency limit. Every answer must be complete or end in the API's
// error shape; at the end the goroutines, open files and live heap must be
// back at their level after the warm-up, and no slot held.
//
//	AGENTWIRE_SOAK=20m go test -run '^TestSoak$' -timeout 40m -v ./preprocess/server
func TestSoak(t *testing.T) {
	d, err := time.ParseDuration(os.Getenv("AGENTWIRE_SOAK"))
	if err != nil {
		t.Skip("set AGENTWIRE_SOAK to a duration (20m) to run the soak")
	}
	flood := &floodEngine{}
	backend := &soakBackend{
		agent:  &scripted.Backend{PerToken: 5 * time.Millisecond},
		flood:  &scripted.Backend{Engine: flood},
		faulty: faultBackend(t, soakFaults),
	}
	l := startLive(t, server.Config{Backend: backend, MaxConcurrent: 96, BodyTimeout: 2 * time.Second,
		WriteTimeout: 2 * time.Second, IdleTimeout: 5 * time.Second, ReadHeaderTimeout: 5 * time.Second,
		RequestTimeout: time.Minute, DrainTimeout: 5 * time.Second, Logger: discardLogger()})

	var st soakStats
	warm := min(30*time.Second, d/10)
	runSoak(t, l, &st, warm) // pools, caches and the engine's connections warm up
	engineTransport.CloseIdleConnections()
	before := measure()
	t.Logf("after a %v warm-up: %v", warm, before)
	st = soakStats{}

	samples := make(chan usage, 64)
	stopSampling := make(chan struct{})
	go func() {
		tick := time.NewTicker(max(d/20, time.Second))
		defer tick.Stop()
		for {
			select {
			case <-stopSampling:
				close(samples)
				return
			case <-tick.C:
				var m runtime.MemStats
				runtime.ReadMemStats(&m)
				samples <- usage{goroutines: runtime.NumGoroutine(), fds: openFDs(), heap: m.HeapInuse}
			}
		}
	}()
	start := time.Now()
	runSoak(t, l, &st, d)
	elapsed := time.Since(start)
	close(stopSampling)
	var peak usage
	for s := range samples {
		peak.goroutines, peak.fds, peak.heap = max(peak.goroutines, s.goroutines), max(peak.fds, s.fds), max(peak.heap, s.heap)
	}
	engineTransport.CloseIdleConnections()
	after := backToBaseline(t, l, before, 16<<20)
	t.Logf("soak of %v: %s", elapsed.Round(time.Second), st.String())
	t.Logf("peak during the soak: %v (heap in use, not live)", peak)
	t.Logf("before: %v; after: %v", before, after)
	t.Logf("flood engine requests ended: %d", flood.ended.Load())
	if n := st.bad.Load(); n > 0 {
		t.Errorf("%d answers neither complete nor in the API's error shape; first: %s", n, st.firstBad())
	}
	require.NotEqual(t, int64(0), st.ok.Load(), "no request completed")
}

// soakBackend serves model "agent" with the scripted agent, "flood" with
// an engine that floods text, and "faulty" with the tiny model on a
// vLLM-speaking engine that fails at random.
type soakBackend struct {
	agent, flood *scripted.Backend
	faulty       *server.ModelBackend
}

func (b *soakBackend) Models() []server.ModelCard { return b.agent.Models() }

func (b *soakBackend) Prepare(ctx context.Context, req *server.Job) (*preprocess.Prepared, engine.Engine, error) {
	switch req.Model {
	case "faulty":
		return b.faulty.Prepare(ctx, req)
	case "flood":
		return b.flood.Prepare(ctx, req)
	}
	return b.agent.Prepare(ctx, req)
}

// soakFaults answers each engine request with a random behaviour.
func soakFaults(w http.ResponseWriter, r *http.Request, ids func(string) string) {
	flush := func() { w.(http.Flusher).Flush() }
	sse := func() { w.Header().Set("Content-Type", "text/event-stream") }
	good := vllmChunk("Hello", ids("Hello"), "") + vllmChunk(" there", ids(" there"), "")
	switch rand.IntN(10) {
	case 0:
		http.Error(w, `{"error":{"message":"CUDA error","type":"InternalServerError","code":500}}`, 500)
	case 1:
		sse()
		_, _ = io.WriteString(w, good)
		flush()
		if c, _, err := http.NewResponseController(w).Hijack(); err == nil {
			c.Close()
		}
	case 2:
		sse()
		_, _ = io.WriteString(w, good+vllmChunk("", "[]", "abort")+"data: [DONE]\n\n")
	case 3:
		sse()
		_, _ = io.WriteString(w, "data: [DONE]\n\n")
	case 4:
		sse()
		_, _ = io.WriteString(w, good+"data: {\"choices\": [{\"text\n\n")
	case 5: // ignores max_tokens
		sse()
		for r.Context().Err() == nil {
			if _, err := io.WriteString(w, vllmChunk("la", ids("la"), "")); err != nil {
				return
			}
			flush()
			time.Sleep(2 * time.Millisecond)
		}
	case 6: // stalls, then finishes
		sse()
		_, _ = io.WriteString(w, good)
		flush()
		select {
		case <-r.Context().Done():
			return
		case <-time.After(time.Duration(rand.IntN(500)) * time.Millisecond):
		}
		_, _ = io.WriteString(w, ": ping\n\nevent: ping\ndata: {}\n\n"+vllmChunk("", "[]", "stop")+"data: [DONE]\n\n")
	default:
		sse()
		for i := range 20 {
			_, _ = io.WriteString(w, vllmChunk(fmt.Sprint(" w", i), ids(fmt.Sprint(" w", i)), ""))
			flush()
			time.Sleep(time.Millisecond)
		}
		_, _ = io.WriteString(w, vllmChunk("", "[]", "stop")+"data: [DONE]\n\n")
	}
}

// soakStats counts the answers by kind.
type soakStats struct {
	ok, apiErrors, overloaded, cut, slowUploads408, idleClosed, retried, bad atomic.Int64
	mu                                                                       sync.Mutex
	bads                                                                     []string
}

func (s *soakStats) badAnswer(what string) {
	s.bad.Add(1)
	s.mu.Lock()
	if len(s.bads) < 3 {
		s.bads = append(s.bads, what)
	}
	s.mu.Unlock()
}

func (s *soakStats) firstBad() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.bads, "\n")
}

func (s *soakStats) String() string {
	return fmt.Sprintf("%d complete answers, %d API errors (engine faults, bad requests), %d overloaded, %d never-read streams cut, %d slow uploads answered 408, %d idle connections closed by the server, %d requests sent again on a connection the server had closed as idle",
		s.ok.Load(), s.apiErrors.Load(), s.overloaded.Load(), s.cut.Load(), s.slowUploads408.Load(), s.idleClosed.Load(), s.retried.Load())
}

// soakBodies are the requests of the streaming clients: every API, the
// agent and the faulty engine.
var soakBodies = []struct{ path, body string }{
	{"/v1/messages", `{"model":"agent","max_tokens":256,"stream":true,"thinking":{"type":"enabled","budget_tokens":128},` +
		`"tools":[{"name":"Bash","input_schema":{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}}],` +
		`"messages":[{"role":"user","content":"say hello"}]}`},
	{"/v1/chat/completions", `{"model":"agent","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"hi there"}]}`},
	{"/v1/responses", `{"model":"agent","stream":true,"input":"run it in parallel",` +
		`"tools":[{"type":"function","name":"exec_command","parameters":{"type":"object","properties":{"cmd":{"type":"string"}},"required":["cmd"]}}]}`},
	{"/v1/completions", `{"model":"agent","stream":true,"prompt":"<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n"}`},
	{"/v1/messages", `{"model":"faulty","max_tokens":40,"stream":true,"messages":[{"role":"user","content":"hi"}]}`},
	{"/v1/chat/completions", `{"model":"faulty","max_tokens":40,"stream":true,"messages":[{"role":"user","content":"hi"}]}`},
	{"/v1/responses", `{"model":"faulty","max_output_tokens":40,"stream":false,"input":"hi"}`},
	{"/v1/chat/completions", `{"model":"agent","max_tokens":0,"messages":[{"role":"user","content":"hi"}]}`},
}

// runSoak runs every kind of client against l for d.
func runSoak(t *testing.T, l *live, st *soakStats, d time.Duration) {
	tr := &http.Transport{MaxIdleConnsPerHost: 128}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr, Timeout: 2 * time.Minute}
	deadline := time.Now().Add(d)
	var wg sync.WaitGroup
	spawn := func(n int, f func(i int)) {
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for k := i; time.Now().Before(deadline); k++ {
					f(k)
				}
			}()
		}
	}
	spawn(64, func(i int) { soakStream(hc, l.url, soakBodies[i%len(soakBodies)], st, 0) })
	spawn(4, func(i int) { soakStream(hc, l.url, soakBodies[i%4], st, 20*time.Millisecond) })
	spawn(4, func(int) { soakNeverReads(l.addr, st) })
	spawn(2, func(int) { soakSlowUpload(l.addr, st) })
	spawn(2, func(int) { soakIdle(l.addr, st) })
	wg.Wait()
	_ = t
}

// soakStream posts one request and reads the answer, pausing between
// reads when slow, and checks it is complete or in the API's error shape.
func soakStream(hc *http.Client, url string, b struct{ path, body string }, st *soakStats, pause time.Duration) {
	resp, err := hc.Post(url+b.path, "application/json", strings.NewReader(b.body))
	if err != nil && (errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET)) {
		// The server closed an idle keep-alive connection just as the
		// client sent on it (net/http retries only idempotent requests;
		// the SDKs retry these): send again, as they do.
		st.retried.Add(1)
		resp, err = hc.Post(url+b.path, "application/json", strings.NewReader(b.body))
	}
	if err != nil {
		st.badAnswer(b.path + ": " + err.Error())
		return
	}
	defer resp.Body.Close()
	var out strings.Builder
	br := bufio.NewReader(resp.Body)
	for {
		line, err := br.ReadString('\n')
		out.WriteString(line)
		if err == io.EOF {
			break
		}
		if err != nil {
			st.badAnswer(b.path + ": reading: " + err.Error())
			return
		}
		if pause > 0 {
			time.Sleep(pause)
		}
	}
	body := out.String()
	switch {
	case resp.StatusCode == 529 || resp.StatusCode == 503:
		st.overloaded.Add(1)
	case resp.StatusCode != 200:
		var e apiErrorBody
		if json.Unmarshal([]byte(body), &e) != nil || e.Error.Message == "" {
			st.badAnswer(fmt.Sprintf("%s: %d %.200s", b.path, resp.StatusCode, body))
			return
		}
		st.apiErrors.Add(1)
	case strings.Contains(body, "event: error") || strings.Contains(body, "response.failed"):
		st.apiErrors.Add(1)
	case strings.Contains(body, "data: [DONE]") || strings.Contains(body, "event: message_stop") ||
		strings.Contains(body, "response.completed") || strings.Contains(body, "response.incomplete") ||
		!strings.Contains(b.body, `"stream":true`) && strings.HasPrefix(body, "{"):
		st.ok.Add(1)
	default:
		st.badAnswer(fmt.Sprintf("%s: incomplete %.300s", b.path, body[max(0, len(body)-300):]))
	}
}

// soakNeverReads sends a request for a long stream and never reads it;
// the server's write timeout ends it.
func soakNeverReads(addr string, st *soakStats) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return
	}
	defer c.Close()
	body := `{"model":"flood","max_tokens":100000,"stream":true,"messages":[{"role":"user","content":"hi"}]}`
	_, _ = fmt.Fprintf(c, "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	time.Sleep(4 * time.Second) // past the write timeout
	st.cut.Add(1)
}

// soakSlowUpload trickles a body until the server answers 408.
func soakSlowUpload(addr string, st *soakStats) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return
	}
	defer c.Close()
	_, _ = io.WriteString(c, "POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4096\r\n\r\n{")
	go func() {
		for range 60 {
			time.Sleep(100 * time.Millisecond)
			if _, err := c.Write([]byte(" ")); err != nil {
				return
			}
		}
	}()
	if line, err := statusLine(c, 10*time.Second); err == nil && strings.Contains(line, " 408 ") {
		st.slowUploads408.Add(1)
	}
}

// soakIdle makes one request on a keep-alive connection and waits for the
// server to close it.
func soakIdle(addr string, st *soakStats) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return
	}
	defer c.Close()
	_, _ = io.WriteString(c, "GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
	_ = c.SetReadDeadline(time.Now().Add(15 * time.Second))
	buf, _ := io.ReadAll(c) // the answer, then EOF when the server closes
	if slices.Contains(strings.Fields(string(buf)), "200") {
		st.idleClosed.Add(1)
	}
}
