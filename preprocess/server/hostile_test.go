package server_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentwire/agentwire/preprocess"
	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/agentwire/agentwire/preprocess/server"
	"github.com/agentwire/agentwire/preprocess/server/scripted"
	"github.com/stretchr/testify/require"
)

// The hostile-input suite: every class of abuse a client (or a broken
// engine) can throw at the server, on a live loopback server (Serve, so
// its timeouts run), each class followed by resource assertions: the
// goroutines, open files and live heap are back at their level before the
// class, and no request holds a concurrency slot.

// live is a Server running Serve on a loopback port.
type live struct {
	s    *server.Server
	url  string
	addr string
	logs *syncBuffer
	stop func() error
}

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// startLive serves cfg (the scripted backend when none) on 127.0.0.1 with
// JSON logs captured; the server stops when the test ends.
func startLive(t testing.TB, cfg server.Config) *live {
	t.Helper()
	if cfg.Backend == nil {
		cfg.Backend = &scripted.Backend{}
	}
	logs := &syncBuffer{}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewJSONHandler(logs, nil))
	}
	s, err := server.New(cfg)
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	var once sync.Once
	var serr error
	l := &live{s: s, addr: ln.Addr().String(), url: "http://" + ln.Addr().String(), logs: logs}
	l.stop = func() error {
		once.Do(func() {
			cancel()
			select {
			case serr = <-done:
			case <-time.After(30 * time.Second):
				serr = errors.New("Serve did not return")
			}
		})
		return serr
	}
	t.Cleanup(func() {
		if err := l.stop(); err != nil {
			t.Error(err)
		}
	})
	return l
}

// post sends body to path and returns the status, headers and body.
func post(t testing.TB, hc *http.Client, url, body string, header ...string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := hc.Do(req)
	require.NoError(t, err, "POST %s", url)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err, "POST %s: reading", url)
	return resp.StatusCode, resp.Header, string(b)
}

// usage is what the process holds: goroutines, open files, live heap.
type usage struct {
	goroutines, fds int
	heap            uint64
}

func (u usage) String() string {
	return fmt.Sprintf("%d goroutines, %d fds, heap %.1f MiB", u.goroutines, u.fds, float64(u.heap)/(1<<20))
}

func measure() usage {
	g, h := settle()
	return usage{goroutines: g, fds: openFDs(), heap: h}
}

// openFDs counts the process's open files (-1 where /proc is absent).
func openFDs() int {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1
	}
	return len(entries)
}

// backToBaseline waits (up to 10 s) until no request holds a slot and the
// goroutines, open files and heap are back at before (heap within slack),
// and fails t otherwise. Clients' idle connections must be closed first.
func backToBaseline(t testing.TB, l *live, before usage, slack uint64) usage {
	t.Helper()
	var now usage
	for deadline := time.Now().Add(10 * time.Second); ; {
		now = measure()
		ok := l.s.Metrics().Running() == 0 && now.goroutines <= before.goroutines &&
			(now.fds < 0 || now.fds <= before.fds) && now.heap <= before.heap+slack
		if ok {
			return now
		}
		if time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	n := l.s.Metrics().Running()
	require.Equal(t, int64(0), n, "%d requests still hold a slot", n)
	if now.goroutines > before.goroutines {
		buf := make([]byte, 1<<16)
		t.Errorf("goroutines %d -> %d:\n%s", before.goroutines, now.goroutines, buf[:runtime.Stack(buf, true)])
	}
	require.False(t, now.fds > before.fds && before.fds >= 0, "open files %d -> %d", before.fds, now.fds)
	require.LessOrEqual(t, now.heap, before.heap+slack, "heap %.1f MiB -> %.1f MiB (slack %.1f MiB)", float64(before.heap)/(1<<20), float64(now.heap)/(1<<20), float64(slack)/(1<<20))
	return now
}

// newClient returns a client with its own connection pool.
func newClient() (*http.Client, func()) {
	tr := &http.Transport{MaxIdleConnsPerHost: 64}
	return &http.Client{Transport: tr, Timeout: 60 * time.Second}, tr.CloseIdleConnections
}

// apiError is an error body in any of the APIs' shapes.
type apiErrorBody struct {
	Type  string `json:"type"` // Anthropic: "error"
	Error struct {
		Type    string          `json:"type"`
		Message string          `json:"message"`
		Code    json.RawMessage `json:"code"`
	} `json:"error"`
}

// checkAPIError fails t unless body is status in the error shape of the
// API served on path.
func checkAPIError(t testing.TB, path string, gotStatus int, body string, status int, typ string) {
	t.Helper()
	var e apiErrorBody
	require.Equal(t, status, gotStatus, "%s: %.300s", path, body)
	require.NoError(t, json.Unmarshal([]byte(body), &e), "%s: %.300s is not in the API's error shape", path, body)
	require.NotEmpty(t, e.Error.Message, "%s: %.300s has no error message", path, body)
	anthropicShape := strings.HasPrefix(path, "/v1/messages")
	require.Equal(t, (e.Type == "error"), anthropicShape, "%s: %.300s is not the API's error shape", path, body)
	require.False(t, typ != "" && e.Error.Type != typ, "%s: error type %q, want %q (%s)", path, e.Error.Type, typ, body)
}

// toolBody returns a generation request for path that declares one tool
// named name with the given JSON schema.
func toolBody(path, name, schema string, stream bool) string {
	s := fmt.Sprint(stream)
	switch path {
	case "/v1/messages":
		return `{"model":"agent","max_tokens":100,"stream":` + s + `,"messages":[{"role":"user","content":"go"}],"tools":[{"name":"` + name + `","input_schema":` + schema + `}]}`
	case "/v1/responses":
		return `{"model":"agent","stream":` + s + `,"input":"go","tools":[{"type":"function","name":"` + name + `","parameters":` + schema + `}]}`
	}
	return `{"model":"agent","stream":` + s + `,"messages":[{"role":"user","content":"go"}],"tools":[{"type":"function","function":{"name":"` + name + `","parameters":` + schema + `}}]}`
}

var toolPaths = []string{"/v1/chat/completions", "/v1/messages", "/v1/responses"}

// TestHostileSchema: one short request whose tool schema asks for a
// hundred million (or 2^62) array items used to kill the example server
// (out of memory) or panic its handler; it is the API's 400 now.
func TestHostileSchema(t *testing.T) {
	l := startLive(t, server.Config{})
	hc, closeIdle := newClient()
	before := measure()
	for _, minItems := range []string{"100000000", "4611686018427387904", "1e6"} {
		schema := `{"type":"object","properties":{"a":{"type":"array","minItems":` + minItems + `,"items":{"type":"string"}}},"required":["a"]}`
		for _, path := range toolPaths {
			for _, stream := range []bool{false, true} {
				body := toolBody(path, "f", schema, stream)
				st, _, resp := post(t, hc, l.url+path, body)
				checkAPIError(t, path, st, resp, 400, "invalid_request_error")
				require.Contains(t, resp, "64 KiB", "%s: %s does not say why", path, resp)
			}
		}
	}
	st, _, resp := post(t, hc, l.url+"/v1/chat/completions", `{"model":"agent","messages":[{"role":"user","content":"hi"}]}`)
	require.Equal(t, 200, st, "the server is not serving after the class: %d %s", st, resp)
	closeIdle()
	backToBaseline(t, l, before, 8<<20)
}

// TestHostileRejectedPrompts: prompts answered "too long" and prompts only
// counted are not kept by the prefix cache (six distinct 30 MiB prompts
// used to pin 918 MB).
func TestHostileRejectedPrompts(t *testing.T) {
	l := startLive(t, server.Config{Backend: tinyBackend(t, 0)})
	hc, closeIdle := newClient()
	before := measure()
	for i := range 6 {
		text := strings.Repeat(fmt.Sprintf("prompt %d is long. ", i), 3<<20/18)
		body, _ := json.Marshal(map[string]any{"model": "x", "max_tokens": 10, "messages": []any{map[string]any{"role": "user", "content": text}}})
		st, _, resp := post(t, hc, l.url+"/v1/messages", string(body))
		checkAPIError(t, "/v1/messages", st, resp, 400, "invalid_request_error")
		require.Contains(t, resp, "prompt is too long", "%s", resp)
		if i%2 == 0 {
			st, _, resp = post(t, hc, l.url+"/v1/messages/count_tokens", string(body))
			require.Equal(t, 200, st, "count_tokens: %d %.200s", st, resp)
		}
	}
	closeIdle()
	after := backToBaseline(t, l, before, 16<<20)
	t.Logf("six 3 MiB prompts answered 400 and three counted: %v -> %v", before, after)
}

// rawRequest opens a connection and writes the start of a request.
func rawRequest(t testing.TB, addr, head string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	_, err = io.WriteString(c, head)
	require.NoError(t, err)
	return c
}

// statusLine reads the status line of the answer on c (within d).
func statusLine(c net.Conn, d time.Duration) (string, error) {
	_ = c.SetReadDeadline(time.Now().Add(d))
	return bufio.NewReader(c).ReadString('\n')
}

// TestHostileSlowUpload: clients that upload their body at one byte per
// 100 ms used to hold every concurrency slot (each API answered
// overloaded as long as they liked); slots are taken after the body now,
// and a body that has not arrived within BodyTimeout is answered 408.
func TestHostileSlowUpload(t *testing.T) {
	l := startLive(t, server.Config{MaxConcurrent: 2, BodyTimeout: 800 * time.Millisecond})
	hc, closeIdle := newClient()
	before := measure()
	var slow []net.Conn
	stopDrip := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		c := rawRequest(t, l.addr, "POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
		slow = append(slow, c)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stopDrip:
					return
				case <-time.After(100 * time.Millisecond):
					if _, err := c.Write([]byte(" ")); err != nil {
						return
					}
				}
			}
		}()
	}
	time.Sleep(200 * time.Millisecond) // the slow bodies are arriving
	for _, path := range []string{"/v1/messages", "/v1/chat/completions"} {
		body := `{"model":"agent","max_tokens":50,"messages":[{"role":"user","content":"hi"}]}`
		st, _, resp := post(t, hc, l.url+path, body)
		require.Equal(t, 200, st, "%s while slow uploads are in flight: %d %.200s", path, st, resp)
	}
	for _, c := range slow {
		line, err := statusLine(c, 5*time.Second)
		require.NoError(t, err, "slow upload: %q %v, want 408", line, err)
		require.Contains(t, line, " 408 ", "slow upload: %q %v, want 408", line, err)
	}
	close(stopDrip)
	wg.Wait()
	for _, c := range slow {
		c.Close()
	}
	closeIdle()
	backToBaseline(t, l, before, 8<<20)
}

// floodEngine streams large text outputs until its context ends, and
// counts the streams whose context ended.
type floodEngine struct {
	ended atomic.Int64
}

func (e *floodEngine) Generate(ctx context.Context, _ *engine.Request) (engine.Stream, error) {
	context.AfterFunc(ctx, func() { e.ended.Add(1) })
	return &floodStream{ctx: ctx, out: engine.Output{Text: bytes.Repeat([]byte("la "), 8<<10), HasText: true}}, nil
}

type floodStream struct {
	ctx context.Context
	out engine.Output
}

func (s *floodStream) Next() (*engine.Output, error) {
	if err := s.ctx.Err(); err != nil {
		return nil, err
	}
	return &s.out, nil
}

func (*floodStream) Close() error { return nil }

// TestHostileNeverReads: a client that stops reading its stream used to
// keep its slot, its goroutine and its engine request until it hung up;
// after WriteTimeout the stream ends and the engine request is canceled.
func TestHostileNeverReads(t *testing.T) {
	eng := &floodEngine{}
	l := startLive(t, server.Config{MaxConcurrent: 4, WriteTimeout: 300 * time.Millisecond, Backend: &scripted.Backend{Engine: eng}})
	before := measure()
	var conns []net.Conn
	for i, path := range []string{"/v1/chat/completions", "/v1/messages", "/v1/responses", "/v1/completions"} {
		body := `{"model":"agent","max_tokens":100000000,"stream":true,"messages":[{"role":"user","content":"hi"}]}`
		switch path {
		case "/v1/responses":
			body = `{"model":"agent","stream":true,"input":"hi"}`
		case "/v1/completions":
			body = `{"model":"agent","stream":true,"prompt":"hi"}`
		}
		if i%2 == 1 {
			body = strings.Replace(body, `"stream":true`, `"stream":false`, 1) // a unary answer nobody reads
		}
		conns = append(conns, rawRequest(t, l.addr, fmt.Sprintf("POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", path, len(body), body)))
	}
	// The unary answers run to their max_tokens bound (tens of MB of text
	// from this engine) before their write can time out: under -race on a
	// loaded 2-core machine that took over 15 s. The loop ends as soon as
	// the slots are free.
	deadline := time.Now().Add(90 * time.Second)
	for eng.ended.Load() < 2 || l.s.Metrics().Running() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d engine requests ended, %d requests hold a slot, with clients that stopped reading", eng.ended.Load(), l.s.Metrics().Running())
		}
		time.Sleep(20 * time.Millisecond)
	}
	for _, c := range conns {
		c.Close()
	}
	backToBaseline(t, l, before, 8<<20)
}

// TestHostileIdleConnections: keep-alive connections left idle are closed
// after IdleTimeout (2,000 of 2,000 used to stay open), and a connection
// that never finishes its headers after ReadHeaderTimeout.
func TestHostileIdleConnections(t *testing.T) {
	l := startLive(t, server.Config{IdleTimeout: 300 * time.Millisecond, ReadHeaderTimeout: 300 * time.Millisecond})
	before := measure()
	var conns []net.Conn
	for range 50 {
		c := rawRequest(t, l.addr, "GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
		line, err := statusLine(c, 5*time.Second)
		require.NoError(t, err, "health: %q %v", line, err)
		require.Contains(t, line, " 200 ", "health: %q %v", line, err)
		conns = append(conns, c)
	}
	for range 10 {
		conns = append(conns, rawRequest(t, l.addr, "POST /v1/messages HTTP/1.1\r\nHost: x\r\n"))
	}
	for i, c := range conns {
		_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
		_, err := io.Copy(io.Discard, c) // returns at the server's close
		var ne net.Error
		require.False(t, errors.As(err, &ne) && ne.Timeout(), "connection %d still open after 5 s", i)
		c.Close()
	}
	backToBaseline(t, l, before, 8<<20)
}

// TestHostileModelName: a 256 KB model name used to be echoed in every
// chunk (a 9.4 MB stream) and logged whole; it is the API's 400 now.
func TestHostileModelName(t *testing.T) {
	l := startLive(t, server.Config{})
	hc, closeIdle := newClient()
	before := measure()
	name := strings.Repeat("m", 256<<10)
	for path, body := range map[string]string{
		"/v1/chat/completions":      `{"model":"` + name + `","stream":true,"messages":[{"role":"user","content":"hi"}]}`,
		"/v1/completions":           `{"model":"` + name + `","prompt":"hi"}`,
		"/v1/messages":              `{"model":"` + name + `","max_tokens":10,"stream":true,"messages":[{"role":"user","content":"hi"}]}`,
		"/v1/responses":             `{"model":"` + name + `","stream":true,"input":"hi"}`,
		"/v1/messages/count_tokens": `{"model":"` + name + `","messages":[{"role":"user","content":"hi"}]}`,
	} {
		st, _, resp := post(t, hc, l.url+path, body)
		checkAPIError(t, path, st, resp, 400, "invalid_request_error")
		require.LessOrEqual(t, len(resp), 1024, "%s: answer of %d bytes", path, len(resp))
	}
	logs := l.logs.String()
	require.NotContains(t, logs, strings.Repeat("m", server.MaxModelNameBytes+1), "a model name past %d bytes was logged", server.MaxModelNameBytes)
	closeIdle()
	backToBaseline(t, l, before, 8<<20)
}

// TestHostileLimits: max_tokens and n of 0 or less, and bodies with nothing
// to answer, are each API's 400 (they used to be served with 200).
func TestHostileLimits(t *testing.T) {
	l := startLive(t, server.Config{})
	hc, closeIdle := newClient()
	before := measure()
	msg := `"messages":[{"role":"user","content":"hi"}]`
	for _, tc := range []struct{ path, body string }{
		{"/v1/chat/completions", `{"model":"agent","max_tokens":0,` + msg + `}`},
		{"/v1/chat/completions", `{"model":"agent","max_completion_tokens":-1,` + msg + `}`},
		{"/v1/chat/completions", `{"model":"agent","n":0,` + msg + `}`},
		{"/v1/chat/completions", `{"model":"agent","n":-3,` + msg + `}`},
		{"/v1/chat/completions", `{"model":"agent"}`},
		{"/v1/chat/completions", `{"model":"agent","messages":[]}`},
		{"/v1/completions", `{"model":"agent","prompt":"hi","max_tokens":0}`},
		{"/v1/completions", `{"model":"agent","prompt":"hi","n":0}`},
		{"/v1/completions", `{"model":"agent"}`},
		{"/v1/messages", `{"model":"agent","max_tokens":0,` + msg + `}`},
		{"/v1/messages", `{"model":"agent","max_tokens":-5,` + msg + `}`},
		{"/v1/messages", `{"model":"agent","max_tokens":10,"messages":[]}`},
		{"/v1/messages", `{"model":"agent","max_tokens":10}`},
		{"/v1/responses", `{"model":"agent"}`},
		{"/v1/responses", `{"model":"agent","input":""}`},
		{"/v1/responses", `{"model":"agent","input":[]}`},
		{"/v1/responses", `{"model":"agent","input":"hi","max_output_tokens":0}`},
	} {
		st, _, resp := post(t, hc, l.url+tc.path, tc.body)
		checkAPIError(t, tc.path+" "+tc.body, st, resp, 400, "invalid_request_error")
	}
	closeIdle()
	backToBaseline(t, l, before, 8<<20)
}

// idEngine records the engine request ids it is given.
type idEngine struct {
	engine.Engine
	mu  sync.Mutex
	ids []string
}

func (e *idEngine) Generate(ctx context.Context, req *engine.Request) (engine.Stream, error) {
	e.mu.Lock()
	e.ids = append(e.ids, req.RequestID)
	e.mu.Unlock()
	return e.Engine.Generate(ctx, req)
}

// TestHostileRequestIDs: the engine's request id is minted by the server
// for each request (two clients sending one X-Request-Id used to share the
// engine's id, on which vLLM keys aborts); the client's id is echoed back
// and logged.
func TestHostileRequestIDs(t *testing.T) {
	eng := &idEngine{Engine: scripted.NewEngine(nil, 0)}
	l := startLive(t, server.Config{Backend: &scripted.Backend{Engine: eng}})
	hc, closeIdle := newClient()
	before := measure()
	var headers []http.Header
	for range 2 {
		st, h, resp := post(t, hc, l.url+"/v1/messages", `{"model":"agent","max_tokens":50,"messages":[{"role":"user","content":"hi"}]}`, "X-Request-Id", "same-id")
		require.Equal(t, 200, st, "%d %s", st, resp)
		headers = append(headers, h)
	}
	require.Len(t, eng.ids, 2, "engine request ids %q", eng.ids)
	require.NotEqual(t, eng.ids[1], eng.ids[0], "engine request ids %q", eng.ids)
	require.True(t, strings.HasPrefix(eng.ids[0], "req_"), "engine request ids %q", eng.ids)
	for i, h := range headers {
		require.Equal(t, "same-id", h.Get("X-Request-Id"), "answer %d: X-Request-Id %q, request-id %q (engine %q)", i, h.Get("X-Request-Id"), h.Get("Request-Id"), eng.ids[i])
		require.Equal(t, eng.ids[i], h.Get("Request-Id"), "answer %d: X-Request-Id %q, request-id %q (engine %q)", i, h.Get("X-Request-Id"), h.Get("Request-Id"), eng.ids[i])
	}
	logs := l.logs.String()
	require.Equal(t, 2, strings.Count(logs, `"client_request_id":"same-id"`), "logs:\n%s", logs)
	closeIdle()
	backToBaseline(t, l, before, 8<<20)
}

// faultBackend is the tiny model on the vLLM adapter, whose upstream is
// handle; its ids argument encodes text with the model's tokenizer (a
// JSON array).
func faultBackend(t testing.TB, handle func(w http.ResponseWriter, r *http.Request, ids func(string) string)) *server.ModelBackend {
	t.Helper()
	m, err := preprocess.LoadModel(tinyDir, preprocess.ModelOptions{ToolParser: "hermes", ReasoningParser: "qwen3"})
	require.NoError(t, err)
	ids := func(text string) string {
		v, _ := m.Tokenizer.Encode(text, false)
		b, _ := json.Marshal(v)
		return string(b)
	}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { handle(w, r, ids) }))
	t.Cleanup(up.Close)
	return &server.ModelBackend{
		Preprocessor: preprocess.New(m, preprocess.Options{ServedModel: "tiny"}),
		Engine: engine.NewVLLM(engine.VLLMConfig{Config: engine.Config{BaseURL: up.URL + "/v1",
			Client: &http.Client{Transport: engineTransport}}, TokenIDsOnly: true}),
		Name:           "tiny",
		AcceptAnyModel: true,
	}
}

// engineTransport carries the engine requests of faultBackend: the tests
// close its idle connections before they count open files.
var engineTransport = &http.Transport{MaxIdleConnsPerHost: 16}

// vllmChunk is one vLLM completions chunk of text and its ids.
func vllmChunk(text, ids, finish string) string {
	t, _ := json.Marshal(text)
	if finish == "" {
		finish = "null"
	} else {
		finish = `"` + finish + `"`
	}
	return `data: {"id":"c","object":"text_completion","created":0,"model":"tiny","choices":[{"index":0,"text":` + string(t) +
		`,"logprobs":null,"finish_reason":` + finish + `,"stop_reason":null,"token_ids":` + ids + `}],"usage":null}` + "\n\n"
}

// TestHostileEngine: an engine that misbehaves ends each request in the
// API's shape, never with a normal finish it did not give, and the client
// never reads the engine's address or its words about the server's own
// configuration.
func TestHostileEngine(t *testing.T) {
	type fault struct {
		name    string
		handle  func(w http.ResponseWriter, r *http.Request, ids func(string) string)
		stream  bool
		status  int    // the answer's status (unary)
		want    string // in the answer
		wantLog string // in the log (the detail the client does not read)
	}
	sse := func(w http.ResponseWriter, s string) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, s)
	}
	var endless atomic.Int64
	faults := []fault{
		{name: "401: the server's engine key is wrong", status: 500, wantLog: "invalid api key sk-abc", handle: func(w http.ResponseWriter, r *http.Request, _ func(string) string) {
			http.Error(w, `{"error":{"message":"invalid api key sk-abc","type":"AuthenticationError"}}`, 401)
		}},
		{name: "404: the server's model name is wrong", status: 500, wantLog: "does not exist", handle: func(w http.ResponseWriter, r *http.Request, _ func(string) string) {
			http.Error(w, `{"object":"error","message":"The model tiny does not exist.","type":"NotFoundError","code":404}`, 404)
		}},
		{name: "abort", status: 500, wantLog: "aborted", handle: func(w http.ResponseWriter, r *http.Request, ids func(string) string) {
			sse(w, vllmChunk("Hel", ids("Hel"), "")+vllmChunk("", "[]", "abort")+"data: [DONE]\n\n")
		}},
		{name: "abort streamed", stream: true, want: "event: error", wantLog: "aborted", handle: func(w http.ResponseWriter, r *http.Request, ids func(string) string) {
			sse(w, vllmChunk("Hel", ids("Hel"), "")+vllmChunk("", "[]", "abort")+"data: [DONE]\n\n")
		}},
		{name: "empty [DONE]", status: 500, wantLog: "before every choice finished", handle: func(w http.ResponseWriter, r *http.Request, _ func(string) string) {
			sse(w, "data: [DONE]\n\n")
		}},
		{name: "keep-alives", status: 200, want: `"stop_reason":"end_turn"`, handle: func(w http.ResponseWriter, r *http.Request, ids func(string) string) {
			sse(w, ": hi\n\ndata:\n\nevent: ping\ndata: {\"type\":\"ping\"}\n\ndata: {}\n\n"+vllmChunk("Hello", ids("Hello"), "")+"data: \n\n"+vllmChunk("", "[]", "stop")+"data: [DONE]\n\n")
		}},
		{name: "engine ignores max_tokens", status: 200, want: `"stop_reason":"max_tokens"`, handle: func(w http.ResponseWriter, r *http.Request, ids func(string) string) {
			w.Header().Set("Content-Type", "text/event-stream")
			for r.Context().Err() == nil {
				if _, err := io.WriteString(w, vllmChunk("la", ids("la"), "")); err != nil {
					break
				}
				w.(http.Flusher).Flush()
				time.Sleep(time.Millisecond)
			}
			endless.Add(1)
		}},
	}
	for _, f := range faults {
		t.Run(f.name, func(t *testing.T) {
			l := startLive(t, server.Config{Backend: faultBackend(t, f.handle)})
			hc, closeIdle := newClient()
			before := measure()
			body := `{"model":"x","max_tokens":5,"stream":` + fmt.Sprint(f.stream) + `,"messages":[{"role":"user","content":"hi"}]}`
			st, _, resp := post(t, hc, l.url+"/v1/messages", body)
			switch {
			case f.stream && st != 200:
				t.Errorf("stream: %d %s", st, resp)
			case !f.stream && st != f.status:
				t.Errorf("status %d, want %d: %s", st, f.status, resp)
			}
			require.False(t, f.want != "" && !strings.Contains(resp, f.want), "answer lacks %q:\n%s", f.want, resp)
			if f.status >= 500 {
				checkAPIError(t, "/v1/messages", st, resp, f.status, "api_error")
			}
			require.NotContains(t, resp, "127.0.0.1", "the client reads the engine's detail: %s", resp)
			require.NotContains(t, resp, "sk-abc", "the client reads the engine's detail: %s", resp)
			require.NotContains(t, resp, "does not exist", "the client reads the engine's detail: %s", resp)
			require.False(t, f.wantLog != "" && !strings.Contains(l.logs.String(), f.wantLog), "the log lacks %q:\n%s", f.wantLog, l.logs.String())
			require.False(t, f.status >= 500 && !strings.Contains(l.logs.String(), `"level":"ERROR"`), "the server's own failure is not logged at Error:\n%s", l.logs.String())
			closeIdle()
			engineTransport.CloseIdleConnections()
			backToBaseline(t, l, before, 8<<20)
		})
	}
	require.Equal(t, int64(1), endless.Load(), "the engine that ignored max_tokens saw %d disconnects", endless.Load())
}

// stallEngine sends one output, then nothing until its context ends.
type stallEngine struct{}

func (stallEngine) Generate(ctx context.Context, _ *engine.Request) (engine.Stream, error) {
	return &stallStream{ctx: ctx}, nil
}

type stallStream struct {
	ctx  context.Context
	sent bool
	out  engine.Output
}

func (s *stallStream) Next() (*engine.Output, error) {
	if !s.sent {
		s.sent = true
		s.out = engine.Output{Text: []byte("Hello"), HasText: true}
		return &s.out, nil
	}
	<-s.ctx.Done()
	return nil, s.ctx.Err()
}

func (*stallStream) Close() error { return nil }

// TestHostileDrainTimeout: streams still running when the drain timeout
// expires end with the API's error event (they used to be cut off without
// one), then Serve returns.
func TestHostileDrainTimeout(t *testing.T) {
	l := startLive(t, server.Config{DrainTimeout: 300 * time.Millisecond, Backend: &scripted.Backend{Engine: stallEngine{}}})
	want := map[string]string{
		"/v1/chat/completions": `{"model":"agent","stream":true,"messages":[{"role":"user","content":"hi"}]}`,
		"/v1/completions":      `{"model":"agent","stream":true,"prompt":"hi"}`,
		"/v1/messages":         `{"model":"agent","max_tokens":100,"stream":true,"messages":[{"role":"user","content":"hi"}]}`,
		"/v1/responses":        `{"model":"agent","stream":true,"input":"hi"}`,
	}
	type answer struct {
		path, body string
		err        error
	}
	answers := make(chan answer, len(want))
	started := make(chan struct{}, len(want))
	for path, body := range want {
		go func() {
			resp, err := http.Post(l.url+path, "application/json", strings.NewReader(body))
			if err != nil {
				answers <- answer{path, "", err}
				started <- struct{}{}
				return
			}
			defer resp.Body.Close()
			br := bufio.NewReader(resp.Body)
			first, err := br.ReadString('\n')
			started <- struct{}{}
			rest, err2 := io.ReadAll(br)
			answers <- answer{path, first + string(rest), errors.Join(err, err2)}
		}()
	}
	for range want {
		<-started
	}
	require.NoError(t, l.stop())
	for range want {
		a := <-answers
		if a.err != nil {
			t.Errorf("%s: %v (%q)", a.path, a.err, a.body)
			continue
		}
		var ok bool
		switch a.path {
		case "/v1/messages":
			ok = strings.Contains(a.body, "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"The server is shutting down")
		case "/v1/responses":
			ok = strings.Contains(a.body, "response.failed")
		default:
			ok = strings.Contains(a.body, "event: error\ndata: {\"error\":{\"message\":\"The server is shutting down")
		}
		require.True(t, ok, "%s: no error event at the drain timeout:\n%s", a.path, a.body)
	}
}

// panicBackend panics in Prepare.
type panicBackend struct{ scripted.Backend }

func (b *panicBackend) Prepare(ctx context.Context, req *server.Job) (*preprocess.Prepared, engine.Engine, error) {
	if req.Model == "boom" {
		panic("a bug")
	}
	return b.Backend.Prepare(ctx, req)
}

// TestHostilePanic: a panic in a handler (a bug) is the API's 500 and the
// server keeps serving.
func TestHostilePanic(t *testing.T) {
	l := startLive(t, server.Config{Backend: &panicBackend{}})
	hc, closeIdle := newClient()
	before := measure()
	for _, path := range toolPaths {
		body := strings.Replace(toolBody(path, "f", `{"type":"object"}`, false), `"model":"agent"`, `"model":"boom"`, 1)
		st, _, resp := post(t, hc, l.url+path, body)
		checkAPIError(t, path, st, resp, 500, "")
	}
	st, _, resp := post(t, hc, l.url+"/v1/chat/completions", `{"model":"agent","messages":[{"role":"user","content":"hi"}]}`)
	require.Equal(t, 200, st, "%d %s", st, resp)
	require.Contains(t, l.logs.String(), "panic serving a request", "the panic is not logged")
	closeIdle()
	backToBaseline(t, l, before, 8<<20)
}
