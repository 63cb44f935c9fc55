package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentwire/agentwire/preprocess"
	"github.com/agentwire/agentwire/preprocess/server/scripted"
	"github.com/stretchr/testify/require"
)

// replica is one engine replica on loopback: the scripted agent behind
// vLLM's protocol, recording the session id of every request it gets.
type replica struct {
	name  string
	ts    *httptest.Server
	v     *scripted.VLLM
	token int // a token id for a cut stream's first chunk

	mu       sync.Mutex
	sessions []string      // X-Dynamo-Session-Id of each completion request
	headers  []http.Header // and the headers

	// cut: 1 answers the next completions request with one token and then
	// drops the connection (a replica dying mid-stream); 2 drops it after
	// the headers, before any event.
	cut atomic.Int32

	// delay paces the answer: a pause before each write of the stream.
	delay time.Duration

	unhealthy atomic.Bool // GET /health answers 503
}

// slowWriter pauses before each write (a replica generating tokens).
type slowWriter struct {
	http.ResponseWriter
	delay time.Duration
}

func (w slowWriter) Write(p []byte) (int, error) {
	time.Sleep(w.delay)
	return w.ResponseWriter.Write(p)
}

func (w slowWriter) Flush() { w.ResponseWriter.(http.Flusher).Flush() }

func (r *replica) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.URL.Path == "/health" {
		if r.unhealthy.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
		return
	}
	if req.URL.Path == "/v1/completions" {
		r.mu.Lock()
		r.sessions = append(r.sessions, req.Header.Get("X-Dynamo-Session-Id"))
		r.headers = append(r.headers, req.Header.Clone())
		r.mu.Unlock()
		switch r.cut.Swap(0) {
		case 1:
			_, _ = io.Copy(io.Discard, req.Body)
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "data: {\"id\":\"c\",\"object\":\"text_completion\",\"created\":0,\"model\":\"tiny\",\"choices\":[{\"index\":0,\"text\":\"\",\"token_ids\":[%d],\"logprobs\":null,\"finish_reason\":null}]}\n\n", r.token)
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler)
		case 2:
			_, _ = io.Copy(io.Discard, req.Body)
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(200)
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler)
		}
	}
	if r.delay > 0 {
		w = slowWriter{w, r.delay}
	}
	r.v.ServeHTTP(w, req)
}

func (r *replica) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.sessions)
}

// replicaSet is three replicas and the server in front of them.
type replicaSet struct {
	t    *testing.T
	reps []*replica
	addr string
}

func startReplicas(t *testing.T, extra ...string) *replicaSet {
	return startPacedReplicas(t, 0, extra...)
}

func startPacedReplicas(t *testing.T, delay time.Duration, extra ...string) *replicaSet {
	t.Helper()
	m, err := preprocess.LoadModel("../../testdata/models/tiny", preprocess.ModelOptions{})
	require.NoError(t, err)
	ids, err := m.Tokenizer.Encode("Hello", false)
	require.NoError(t, err, "%v %v", ids, err)
	require.NotEmpty(t, ids, "%v %v", ids, err)
	rs := &replicaSet{t: t}
	args := []string{"-addr", "127.0.0.1:0", "-model-dir", "../../testdata/models/tiny", "-engine", "vllm",
		"-served-model-name", "tiny", "-max-model-len", "131072", "-log-json"}
	for i := range 3 {
		r := &replica{name: fmt.Sprint("r", i), v: &scripted.VLLM{Tok: m.Tokenizer, Model: "tiny"}, token: int(ids[0]), delay: delay}
		r.ts = httptest.NewServer(r)
		t.Cleanup(r.ts.Close)
		rs.reps = append(rs.reps, r)
		args = append(args, "-upstream", r.ts.URL+"/v1")
	}
	args = append(args, extra...)
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- run(ctx, args, io.Discard, ready) }()
	select {
	case rs.addr = <-ready:
	case err := <-done:
		cancel()
		t.Fatal(err)
	case <-time.After(10 * time.Second):
		cancel()
		t.Fatal("not listening")
	}
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	return rs
}

// post sends a recorded harness body with the harness's headers and
// returns the status and the answer.
func (rs *replicaSet) post(path, bodyFile string, header map[string]string) (int, string) {
	rs.t.Helper()
	body, err := os.ReadFile(filepath.Join("..", "..", "preprocess", "testdata", "harness", bodyFile))
	if err != nil {
		rs.t.Fatal(err)
	}
	req, _ := http.NewRequest("POST", "http://"+rs.addr+path, strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		rs.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// served returns the replica that got the last completions request since
// counts (the request counts before it), and checks there is one.
func (rs *replicaSet) served(counts []int) *replica {
	rs.t.Helper()
	var got []*replica
	for i, r := range rs.reps {
		if r.count() > counts[i] {
			got = append(got, r)
		}
	}
	if len(got) != 1 {
		rs.t.Fatalf("%d replicas got the request (counts before %v)", len(got), counts)
	}
	return got[0]
}

func (rs *replicaSet) counts() []int {
	var c []int
	for _, r := range rs.reps {
		c = append(c, r.count())
	}
	return c
}

func (rs *replicaSet) metrics() string {
	rs.t.Helper()
	resp, err := http.Get("http://" + rs.addr + "/metrics")
	if err != nil {
		rs.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// metric returns the value of one series (-1 when absent).
func metric(text, series string) float64 {
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(series) + ` (\S+)$`).FindStringSubmatch(text)
	if m == nil {
		return -1
	}
	v, _ := strconv.ParseFloat(m[1], 64)
	return v
}

// TestHarnessLoopsOnReplicas is the recorded two-turn Claude Code and
// Codex sessions through three replicas: every turn of a session lands
// on one replica, under its session id (sent as X-Dynamo-Session-ID,
// X-Session-Id and X-SMG-Routing-Key); when that replica is killed
// between turns, the next turn is answered by another replica, and the
// turns after it stay there. The per-upstream metrics count it all and
// no slot is left held.
func TestHarnessLoopsOnReplicas(t *testing.T) {
	rs := startReplicas(t)
	harnesses := []struct {
		name, path, turn1, turn2, session, done string
		header                                  map[string]string
	}{{
		name: "claude code", path: "/v1/messages?beta=true",
		turn1: "claude-code_B-bash_0001-POST-v1_messages.body.json", turn2: "claude-code_B-bash_0002-POST-v1_messages.body.json",
		session: "99bc91c6-7413-4039-84a7-fc0f5a6a5891", done: "event: message_stop",
		// The recorded request's session header, and a routing hint.
		header: map[string]string{"X-Claude-Code-Session-Id": "99bc91c6-7413-4039-84a7-fc0f5a6a5891", "anthropic-version": "2023-06-01", "X-Dynamo-Priority": "2"},
	}, {
		name: "codex", path: "/v1/responses",
		turn1: "codex_B-gpt-5.5_0004-POST-v1_responses.body.json", turn2: "codex_B-gpt-5.5_0005-POST-v1_responses.body.json",
		session: "01a2027a-3ec1-7bc2-8bf2-3b85ebd63cc7", done: "event: response.completed",
		header: map[string]string{"Session-Id": "01a2027a-3ec1-7bc2-8bf2-3b85ebd63cc7"},
	}}
	killed := map[*replica]bool{}
	for _, h := range harnesses {
		t.Run(h.name, func(t *testing.T) {
			var home *replica
			for i, file := range []string{h.turn1, h.turn2, h.turn1, h.turn2} {
				before := rs.counts()
				code, body := rs.post(h.path, file, h.header)
				require.Equal(t, 200, code, "turn %d: %d %.300s", i+1, code, body)
				require.Contains(t, body, h.done, "turn %d: %d %.300s", i+1, code, body)
				r := rs.served(before)
				if home == nil {
					home = r
				} else if r != home {
					t.Fatalf("turn %d on %s; earlier turns on %s", i+1, r.name, home.name)
				}
				hd := r.headers[len(r.headers)-1]
				for _, name := range []string{"X-Dynamo-Session-Id", "X-Session-Id", "X-Smg-Routing-Key"} {
					require.Equal(t, h.session, hd.Get(name), "turn %d: %s %q; want %q", i+1, name, hd.Get(name), h.session)
				}
				v, ok := h.header["X-Dynamo-Priority"]
				require.False(t, ok && hd.Get("X-Dynamo-Priority") != v, "turn %d: X-Dynamo-Priority not forwarded: %v", i+1, hd)
			}
			require.False(t, killed[home], "the session landed on %s, killed before", home.name)
			// Kill the session's replica between turns.
			home.ts.Close()
			killed[home] = true
			var next *replica
			for i, file := range []string{h.turn2, h.turn1, h.turn2} {
				before := rs.counts()
				code, body := rs.post(h.path, file, h.header)
				require.Equal(t, 200, code, "after the kill, turn %d: %d %.300s", i+1, code, body)
				require.Contains(t, body, h.done, "after the kill, turn %d: %d %.300s", i+1, code, body)
				r := rs.served(before)
				if next == nil {
					next = r
				} else if r != next {
					t.Fatalf("after the kill, turn %d on %s; the turn before on %s", i+1, r.name, next.name)
				}
			}
			require.False(t, next == home, "served by the killed replica")
		})
	}
	m := rs.metrics()
	var requests float64
	for _, r := range rs.reps {
		series := `{upstream="` + r.ts.URL + `/v1"}`
		requests += metric(m, "agentwire_upstream_requests_total"+series)
		v := metric(m, "agentwire_upstream_in_flight"+series)
		require.Equal(t, float64(0), v, "%s: in flight %v", r.name, v)
		healthy, failures := metric(m, "agentwire_upstream_healthy"+series), metric(m, "agentwire_upstream_failures_total"+series)
		require.False(t, killed[r] && (healthy != 0 || failures < 1), "%s (killed %v): healthy %v, failures %v", r.name, killed[r], healthy, failures)
		require.False(t, !killed[r] && (healthy != 1 || failures != 0), "%s (killed %v): healthy %v, failures %v", r.name, killed[r], healthy, failures)
	}
	// 14 requests, and the attempts on a killed replica before its
	// ejection (2 each).
	want := float64(2*7 + 2*len(killed))
	require.GreaterOrEqual(t, requests, float64(2*7), "%v attempts over the upstreams; want 14 to %v", requests, want)
	require.LessOrEqual(t, requests, want, "%v attempts over the upstreams; want 14 to %v", requests, want)
	v := metric(m, "agentwire_requests_running")
	require.Equal(t, float64(0), v, "requests running %v", v)
}

// TestReplicaDiesMidStream: replicas that drop the stream before its
// first event are retried elsewhere (the client sees a normal answer);
// when every attempt does, the client gets the API's error; a replica
// that drops it after a token is not replayed: the client's stream ends
// with the API's error event. No slot stays held.
func TestReplicaDiesMidStream(t *testing.T) {
	rs := startReplicas(t, "-balance", "least-in-flight")
	const file = "claude-code_B-bash_0002-POST-v1_messages.body.json"
	hdr := map[string]string{"anthropic-version": "2023-06-01"}
	attempts := func(before []int) int {
		n := 0
		for i, c := range rs.counts() {
			n += c - before[i]
		}
		return n
	}
	cases := []struct {
		name         string
		cut          [3]int32
		wantCode     int
		want, unwant string
		wantAttempts int // 0: 1 to 3
	}{
		{"two replicas drop before the first event", [3]int32{2, 2, 0}, 200, "event: message_stop", "event: error", 0},
		{"every attempt drops before the first event", [3]int32{2, 2, 2}, 500, `{"type":"error","error":{"type":"api_error"`, "event:", 3},
		{"dropped after a token", [3]int32{1, 1, 1}, 200, "event: error", "event: message_stop", 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for i, r := range rs.reps {
				r.cut.Store(tc.cut[i])
			}
			before := rs.counts()
			code, body := rs.post("/v1/messages", file, hdr)
			require.Equal(t, tc.wantCode, code, "%d %.600s", code, body)
			require.Contains(t, body, tc.want, "%d %.600s", code, body)
			require.NotContains(t, body, tc.unwant, "%d %.600s", code, body)
			n := attempts(before)
			require.False(t, tc.wantAttempts != 0 && n != tc.wantAttempts, "%d attempts; want %d", n, tc.wantAttempts)
			require.GreaterOrEqual(t, n, 1, "%d attempts; want %d", n, tc.wantAttempts)
			require.LessOrEqual(t, n, 3, "%d attempts; want %d", n, tc.wantAttempts)
			m := rs.metrics()
			for _, r := range rs.reps {
				v := metric(m, `agentwire_upstream_in_flight{upstream="`+r.ts.URL+`/v1"}`)
				require.Equal(t, float64(0), v, "%s: in flight %v", r.name, v)
			}
			v := metric(m, "agentwire_requests_running")
			require.Equal(t, float64(0), v, "requests running %v", v)
		})
	}
}

// TestReplicaKilledUnderLoad: 12 sessions of 3 turns each run at once on
// three paced replicas; one replica is killed while streams are running
// on it. Every answer is complete or ends with the API's error (a stream
// cut after its first byte is never replayed), every turn started after
// the kill is answered, the sessions of the live replicas never move, the
// dead one's move to one other each, and nothing is left in flight.
func TestReplicaKilledUnderLoad(t *testing.T) {
	rs := startPacedReplicas(t, 2*time.Millisecond)
	const sessions, turns = 12, 3
	var (
		wg       sync.WaitGroup
		answered atomic.Int64
		cut      atomic.Int64
		killed   = make(chan struct{})
	)
	for i := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for turn := range turns {
				after := false
				select {
				case <-killed:
					after = true
				default:
				}
				req, _ := http.NewRequest("POST", "http://"+rs.addr+"/v1/chat/completions", strings.NewReader(
					fmt.Sprintf(`{"model":"tiny","stream":true,"max_tokens":200,"messages":[{"role":"user","content":"session %d turn %d: say something"}]}`, i, turn)))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("X-Session-Affinity", fmt.Sprint("load-", i))
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				body := string(b)
				switch {
				case resp.StatusCode == 200 && strings.HasSuffix(body, "data: [DONE]\n\n") && !strings.Contains(body, `"error"`):
					answered.Add(1)
				case resp.StatusCode == 200 && strings.Contains(body, `"error":{`) && !after:
					cut.Add(1) // cut mid-stream by the kill: the chat API's in-stream error
				default:
					t.Errorf("session %d turn %d (after the kill %v): %d %.400s", i, turn, after, resp.StatusCode, body)
				}
			}
		}()
	}
	// Kill replica 0 once it has streams running.
	dead := rs.reps[0]
	deadline := time.Now().Add(10 * time.Second)
	for dead.count() == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	dead.ts.Listener.Close()
	dead.ts.CloseClientConnections()
	close(killed)
	wg.Wait()
	got := answered.Load() + cut.Load()
	require.Equal(t, int64(sessions*turns), got, "%d of %d turns accounted for", got, sessions*turns)
	t.Logf("%d turns answered, %d cut by the kill", answered.Load(), cut.Load())
	// Where each session went: a live replica's sessions stayed; the dead
	// one's moved to one other each.
	where := map[string]map[string]bool{}
	for _, r := range rs.reps {
		r.mu.Lock()
		for _, h := range r.headers {
			id := h.Get("X-Session-Id")
			if where[id] == nil {
				where[id] = map[string]bool{}
			}
			where[id][r.name] = true
		}
		r.mu.Unlock()
	}
	require.Len(t, where, sessions, "%d sessions seen upstream; want %d", len(where), sessions)
	for id, reps := range where {
		live := 0
		for name := range reps {
			if name != dead.name {
				live++
			}
		}
		require.LessOrEqual(t, live, 1, "session %s on %v", id, reps)
		require.False(t, reps[dead.name] && len(reps) > 2, "session %s on %v", id, reps)
	}
	m := rs.metrics()
	for _, r := range rs.reps {
		v := metric(m, `agentwire_upstream_in_flight{upstream="`+r.ts.URL+`/v1"}`)
		require.Equal(t, float64(0), v, "%s: in flight %v", r.name, v)
	}
	v := metric(m, "agentwire_requests_running")
	require.Equal(t, float64(0), v, "requests running %v", v)
}

// TestHealthProbe: a replica whose GET /health fails is ejected by the
// probes before any request is sent to it, and readmitted once it passes.
func TestHealthProbe(t *testing.T) {
	rs := startReplicas(t, "-health-interval", "10ms")
	sick := rs.reps[0]
	sick.unhealthy.Store(true)
	series := `{upstream="` + sick.ts.URL + `/v1"}`
	waitFor := func(what string, ok func(m string) bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); ; {
			if ok(rs.metrics()) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: metrics\n%s", what, rs.metrics())
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	waitFor("ejected", func(m string) bool { return metric(m, "agentwire_upstream_healthy"+series) == 0 })
	send := func(n int) {
		for i := range n {
			req, _ := http.NewRequest("POST", "http://"+rs.addr+"/v1/chat/completions", strings.NewReader(`{"model":"tiny","max_tokens":50,"messages":[{"role":"user","content":"hi"}]}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("X-Session-Id", fmt.Sprint("probe-", i))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Fatalf("status %d", resp.StatusCode)
			}
		}
	}
	send(30)
	n := sick.count()
	require.Equal(t, 0, n, "the ejected replica got %d requests", n)
	sick.unhealthy.Store(false)
	waitFor("readmitted", func(m string) bool { return metric(m, "agentwire_upstream_healthy"+series) == 1 })
	send(30)
	require.NotEqual(t, 0, sick.count(), "the readmitted replica got none of 30 sessions")
	v := metric(rs.metrics(), "agentwire_upstream_failures_total"+series)
	require.Equal(t, float64(0), v, "failures %v: no request should have failed on it", v)
}
