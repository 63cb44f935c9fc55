package server_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/openai/openai-go/v3"

	"github.com/agentwire/agentwire/preprocess/server"
	"github.com/agentwire/agentwire/preprocess/server/scripted"
	"github.com/stretchr/testify/require"
)

func TestModels(t *testing.T) {
	ts := newServer(t, server.Config{Backend: &scripted.Backend{Model: "Qwen/Qwen3-32B"}})
	ctx := ctxT(t)
	oc := openaiClient(ts, testKey)
	page, err := oc.Models.List(ctx)
	require.NoError(t, err)
	require.NotEmpty(t, page.Data, "openai list %+v", page.Data)
	require.Equal(t, "Qwen/Qwen3-32B", page.Data[0].ID, "openai list %+v", page.Data)
	require.Equal(t, "agentwire", page.Data[0].OwnedBy, "openai list %+v", page.Data)
	m, err := oc.Models.Get(ctx, "Qwen/Qwen3-32B")
	require.NoError(t, err, "openai get: %v %+v", err, m)
	require.Equal(t, "Qwen/Qwen3-32B", m.ID, "openai get: %v %+v", err, m)
	_, err = oc.Models.Get(ctx, "Qwen/nope")
	require.ErrorContains(t, err, "404", "openai get unknown")
	ac := anthropicClient(ts, testKey)
	apage, err := ac.Models.List(ctx, anthropic.ModelListParams{})
	require.NoError(t, err)
	require.NotEmpty(t, apage.Data, "anthropic list %+v", apage.Data)
	require.Equal(t, "Qwen/Qwen3-32B", apage.Data[0].ID, "anthropic list %+v", apage.Data)
	require.False(t, apage.Data[0].Type != "model", "anthropic list %+v", apage.Data)
	require.False(t, apage.Data[0].CreatedAt.IsZero(), "anthropic list %+v", apage.Data)
	am, err := ac.Models.Get(ctx, "Qwen/Qwen3-32B", anthropic.ModelGetParams{})
	require.NoError(t, err, "anthropic get: %v %+v", err, am)
	require.Equal(t, "Qwen/Qwen3-32B", am.ID, "anthropic get: %v %+v", err, am)
}

func TestCountTokens(t *testing.T) {
	ts := newServer(t, server.Config{})
	n, err := anthropicClient(ts, testKey).Messages.CountTokens(ctxT(t), anthropic.MessageCountTokensParams{
		Model:    "agent",
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(strings.Repeat("hello ", 50)))},
	})
	require.NoError(t, err, "%v %+v", err, n)
	require.Greater(t, n.InputTokens, int64(0), "%v %+v", err, n)
}

func TestTokenizeWithoutTokenizer(t *testing.T) {
	ts := newServer(t, server.Config{})
	req, _ := http.NewRequest("POST", ts.URL+"/tokenize", strings.NewReader(`{"prompt":"hi"}`))
	req.Header.Set("Authorization", "Bearer "+testKey)
	st := status(t, req)
	require.Equal(t, http.StatusNotImplemented, st, "status %d", st)
}

// TestMetricsAndLogs checks one streamed request's metric series and its
// log record.
func TestMetricsAndLogs(t *testing.T) {
	var logs bytes.Buffer
	s, err := server.New(server.Config{Backend: &scripted.Backend{}, Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	require.NoError(t, err)
	req, _ := http.NewRequest("POST", "/v1/chat/completions", strings.NewReader(
		`{"model":"agent","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"hi"}]}`))
	req.Header.Set("X-Request-Id", "my-request-1")
	rec := newRecorder()
	s.ServeHTTP(rec, req)
	require.Equal(t, 200, rec.code, "%d %v %s", rec.code, rec.header, rec.body.String())
	require.Equal(t, "my-request-1", rec.header.Get("X-Request-Id"), "%d %v %s", rec.code, rec.header, rec.body.String())
	require.Contains(t, rec.body.String(), "data: [DONE]", "%d %v %s", rec.code, rec.header, rec.body.String())
	var raw map[string]any
	require.NoError(t, json.Unmarshal(logs.Bytes(), &raw), "log %q", logs.String())
	for k, want := range map[string]any{"msg": "request", "client_request_id": "my-request-1", "route": "chat", "model": "agent", "status": float64(200), "stream": true} {
		require.False(t, raw[k] != want, "log %s = %v, want %v (%s)", k, raw[k], want, logs.String())
	}
	// the server's own id, which the engine gets (two clients may send the
	// same X-Request-Id)
	id, _ := raw["request_id"].(string)
	require.True(t, strings.HasPrefix(id, "req_"), "log request_id = %v", raw["request_id"])
	for _, k := range []string{"prompt_tokens", "completion_tokens", "ttft", "duration"} {
		v, ok := raw[k].(float64)
		require.True(t, ok, "log %s = %v", k, raw[k])
		require.Greater(t, v, float64(0), "log %s = %v", k, raw[k])
	}

	mrec := newRecorder()
	s.ServeHTTP(mrec, httptestRequest("GET", "/metrics"))
	text := mrec.body.String()
	for _, want := range []string{
		`agentwire_requests_total{route="chat",code="200"} 1`,
		`agentwire_time_to_first_token_seconds_count{api="chat"} 1`,
		`agentwire_request_errors_total{route="chat"} 0`,
		"# TYPE agentwire_inter_token_latency_seconds histogram",
		`agentwire_requests_running 0`,
	} {
		require.Contains(t, text, want, "metrics lack %q", want)
	}
	require.NotContains(t, text, `agentwire_generation_tokens_total{api="chat"} 0`, "no generation tokens counted")
	got := s.Metrics().Requests("chat", 200)
	require.Equal(t, uint64(1), got, "Requests = %d", got)
}

// TestTimeout: a request past RequestTimeout gets 504 in the API's shape.
func TestTimeout(t *testing.T) {
	eng := &blockingEngine{started: make(chan struct{}, 1)}
	ts := newServer(t, server.Config{RequestTimeout: 50 * time.Millisecond, Backend: &scripted.Backend{Engine: eng}})
	_, err := openaiClient(ts, testKey).Chat.Completions.New(ctxT(t), openai.ChatCompletionNewParams{Model: "agent",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")}})
	require.Error(t, err, "%v", err)
	require.ErrorContains(t, err, "504", "%v", err)
}

// TestDrain: canceling Serve's context lets an in-flight stream finish.
func TestDrain(t *testing.T) {
	s, err := server.New(server.Config{Backend: &scripted.Backend{PerToken: 5 * time.Millisecond},
		Logger: discardLogger(), DrainTimeout: 10 * time.Second})
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, ln) }()

	resp, err := http.Post("http://"+ln.Addr().String()+"/v1/messages", "application/json", strings.NewReader(
		`{"model":"agent","max_tokens":200,"stream":true,"messages":[{"role":"user","content":"hi"}]}`))
	require.NoError(t, err)
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	_, err = br.ReadString('\n') // the stream has started
	require.NoError(t, err)
	cancel()
	rest, err := io.ReadAll(br)
	require.NoError(t, err, "stream cut")
	require.Contains(t, string(rest), "event: message_stop", "stream did not finish: %s", rest)
	select {
	case err := <-served:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return")
	}
	_, err = http.Get("http://" + ln.Addr().String() + "/health")
	require.Error(t, err, "still accepting connections")
}

// TestClientGone: a client that disconnects mid-stream stops the engine.
func TestClientGone(t *testing.T) {
	eng := &blockingEngine{started: make(chan struct{}, 1)}
	s, err := server.New(server.Config{Backend: &scripted.Backend{Engine: eng}, Logger: discardLogger()})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	req := httptestRequest("POST", "/v1/messages").WithContext(ctx)
	req.Body = io.NopCloser(strings.NewReader(`{"model":"agent","max_tokens":20,"stream":true,"messages":[{"role":"user","content":"hi"}]}`))
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.ServeHTTP(newRecorder(), req)
	}()
	<-eng.started
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("handler still running after the client left")
	}
	n := s.Metrics().Running()
	require.Equal(t, int64(0), n, "running %d", n)
	got := s.Metrics().Requests("messages", 499)
	require.Equal(t, uint64(1), got, "499 count %d", got)
}

// recorder is a minimal flushing ResponseWriter (httptest.ResponseRecorder
// without its allocation of a new header map per WriteHeader).
type recorder struct {
	header http.Header
	body   bytes.Buffer
	code   int
}

func newRecorder() *recorder { return &recorder{header: http.Header{}} }

func (r *recorder) Header() http.Header { return r.header }
func (r *recorder) Write(p []byte) (int, error) {
	if r.code == 0 {
		r.code = 200
	}
	return r.body.Write(p)
}
func (r *recorder) WriteHeader(code int) {
	if r.code == 0 {
		r.code = code
	}
}
func (r *recorder) Flush() {}

func httptestRequest(method, path string) *http.Request {
	req, _ := http.NewRequest(method, path, nil)
	return req
}
