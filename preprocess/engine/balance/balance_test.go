package balance

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/stretchr/testify/require"
)

// fake is a scripted upstream engine.
type fake struct {
	name     string
	startErr error // Generate fails with it
	firstErr error // the first Next fails with it
	midErr   error // the second Next fails with it (after one output)
	block    chan struct{}
	calls    atomic.Int64
}

func (f *fake) Generate(ctx context.Context, _ *engine.Request) (engine.Stream, error) {
	f.calls.Add(1)
	if f.startErr != nil {
		return nil, f.startErr
	}
	return &fakeStream{f: f, ctx: ctx, out: engine.Output{Text: []byte(f.name), HasText: true}}, nil
}

type fakeStream struct {
	f   *fake
	ctx context.Context
	n   int
	out engine.Output
}

func (s *fakeStream) Next() (*engine.Output, error) {
	s.n++
	switch {
	case s.n == 1 && s.f.firstErr != nil:
		return nil, s.f.firstErr
	case s.n == 1 && s.f.block != nil:
		select {
		case <-s.f.block:
		case <-s.ctx.Done():
			return nil, s.ctx.Err()
		}
	case s.n == 2 && s.f.midErr != nil:
		return nil, s.f.midErr
	case s.n > 3:
		return nil, io.EOF
	}
	return &s.out, nil
}

func (s *fakeStream) Close() error { return nil }

var (
	errRefused    = &engine.Error{Kind: engine.ErrorUpstream, Message: "engine: connection refused"}
	errDropped    = &engine.Error{Kind: engine.ErrorUpstream, Message: "the engine's connection dropped mid-stream"}
	errOverloaded = &engine.Error{Kind: engine.ErrorOverloaded, Status: 503, Message: "queue is full"}
	errTooLong    = &engine.Error{Kind: engine.ErrorContextLength, Status: 400, Message: "too long"}
	errConnect    = &engine.Error{Kind: engine.ErrorTimeout, Message: "no connection", Err: engine.ErrConnectTimeout}
	errFirstToken = &engine.Error{Kind: engine.ErrorTimeout, Message: "no output"}
	errCustom     = errors.New("custom")
)

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func newBalancer(t *testing.T, policy Policy, fakes ...*fake) (*Balancer, *clock) {
	t.Helper()
	c := &clock{t: time.Unix(1e9, 0)}
	var ups []Upstream
	for _, f := range fakes {
		ups = append(ups, Upstream{Name: f.name, Engine: f})
	}
	b, err := New(Config{Upstreams: ups, Policy: policy, Now: c.now})
	require.NoError(t, err)
	return b, c
}

// serve runs one request to its end and returns the upstream that
// answered (the text of its outputs) or the error.
func serve(t *testing.T, b *Balancer, session string) (string, error) {
	t.Helper()
	st, err := b.Generate(context.Background(), &engine.Request{SessionID: session, MaxTokens: 1})
	if err != nil {
		return "", err
	}
	defer st.Close()
	var who string
	for {
		out, err := st.Next()
		if err == io.EOF {
			return who, nil
		}
		if err != nil {
			return who, err
		}
		who = string(out.Text)
	}
}

func fakes(names ...string) []*fake {
	var fs []*fake
	for _, n := range names {
		fs = append(fs, &fake{name: n})
	}
	return fs
}

func checkIdle(t *testing.T, b *Balancer) {
	t.Helper()
	for _, s := range b.Stats() {
		require.Equal(t, int64(0), s.InFlight, "%s: %d in flight after every stream closed", s.Name, s.InFlight)
	}
}

// TestAffinity: every turn of a session lands on one upstream, and the
// sessions spread over all of them.
func TestAffinity(t *testing.T) {
	fs := fakes("http://a:8000/v1", "http://b:8000/v1", "http://c:8000/v1")
	b, _ := newBalancer(t, Affinity, fs...)
	perUpstream := map[string]int{}
	for i := range 300 {
		session := fmt.Sprintf("session-%d", i)
		first := ""
		for turn := range 4 {
			who, err := serve(t, b, session)
			require.NoError(t, err)
			if turn == 0 {
				first = who
				perUpstream[who]++
			} else if who != first {
				t.Fatalf("%s turn %d on %s, turn 0 on %s", session, turn, who, first)
			}
		}
	}
	for _, f := range fs {
		n := perUpstream[f.name]
		require.GreaterOrEqual(t, n, 70, "%s has %d of 300 sessions: %v", f.name, n, perUpstream)
	}
	checkIdle(t, b)
}

// TestAffinityFailover: a session whose upstream dies moves to its
// second choice on every later turn (retried before the first output);
// the dead one is ejected (not tried first any more) and, once healthy
// after EjectFor, takes its sessions back.
func TestAffinityFailover(t *testing.T) {
	fs := fakes("a", "b", "c")
	b, clk := newBalancer(t, Affinity, fs...)
	const session = "s-1"
	home, err := serve(t, b, session)
	require.NoError(t, err)
	var dead *fake
	for _, f := range fs {
		if f.name == home {
			dead = f
		}
	}
	dead.startErr = errRefused
	second := ""
	for turn := range 5 {
		who, err := serve(t, b, session)
		require.NoError(t, err, "turn %d", turn)
		require.NotEqual(t, home, who, "turn %d on %s (home %s, second %s)", turn, who, home, second)
		require.False(t, second != "" && who != second, "turn %d on %s (home %s, second %s)", turn, who, home, second)
		second = who
	}
	n := dead.calls.Load()
	require.Equal(t, int64(1+DefaultEjectAfter), n, "the dead upstream was tried %d times; want %d (one success, then until ejected)", n, 1+DefaultEjectAfter)
	st := stats(b, home)
	require.False(t, st.Healthy, "dead upstream stats %+v", st)
	require.Equal(t, uint64(1), st.Ejections, "dead upstream stats %+v", st)
	require.Equal(t, uint64(DefaultEjectAfter), st.Failures, "dead upstream stats %+v", st)
	if st := stats(b, second); st.Failures != 0 {
		t.Errorf("second choice stats %+v", st)
	}
	// Back after EjectFor.
	dead.startErr = nil
	clk.add(DefaultEjectFor)
	if who, err := serve(t, b, session); err != nil || who != home {
		t.Errorf("after recovery: %q, %v; want %s", who, err, home)
	}
	if st := stats(b, home); !st.Healthy {
		t.Errorf("recovered upstream stats %+v", st)
	}
	checkIdle(t, b)
}

func stats(b *Balancer, name string) Stats {
	for _, s := range b.Stats() {
		if s.Name == name {
			return s
		}
	}
	return Stats{}
}

// TestRetry: which failures move a request to another upstream (only
// before its first output), and what the client sees.
func TestRetry(t *testing.T) {
	cases := []struct {
		name      string
		startErr  error // the upstream ranked first fails Generate,
		firstErr  error // its first Next,
		midErr    error // or its second Next
		wantWho   string
		wantErr   error
		wantCalls int64 // on the second upstream
	}{
		{"refused", errRefused, nil, nil, "second", nil, 1},
		{"connect timeout", errConnect, nil, nil, "second", nil, 1},
		{"overloaded", errOverloaded, nil, nil, "second", nil, 1},
		{"dropped before the first output", nil, errDropped, nil, "second", nil, 1},
		{"context length: not retried", errTooLong, nil, nil, "", errTooLong, 0},
		{"first-token timeout: not retried", nil, errFirstToken, nil, "", errFirstToken, 0},
		{"dropped after the first output: never replayed", nil, nil, errDropped, "first", errDropped, 0},
		{"a non-engine error: not retried", errCustom, nil, nil, "", errCustom, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			first := &fake{name: "first", startErr: tc.startErr, firstErr: tc.firstErr, midErr: tc.midErr}
			second := &fake{name: "second"}
			b, _ := newBalancer(t, LeastInFlight, first, second)
			b.turn.Store(uint64(len(b.ups) - 1)) // ties go round: the next request ranks "first" first
			who, err := serve(t, b, "")
			require.Equal(t, tc.wantWho, who, "answered by %q; want %q", who, tc.wantWho)
			require.False(t, tc.wantErr != nil && !errors.Is(err, tc.wantErr), "error %v; want %v", err, tc.wantErr)
			require.False(t, tc.wantErr == nil && tc.wantWho != "" && err != nil, "error %v; want %v", err, tc.wantErr)
			n := second.calls.Load()
			require.Equal(t, tc.wantCalls, n, "second upstream called %d times; want %d", n, tc.wantCalls)
			require.Equal(t, int64(1), first.calls.Load(), "first upstream called %d times", first.calls.Load())
			checkIdle(t, b)
		})
	}
}

// TestImagesNotConfiguredKeepsHealth: an upstream without vLLM's image
// endpoint passes image requests on to the next upstream and is never
// ejected for it (it serves every other request).
func TestImagesNotConfiguredKeepsHealth(t *testing.T) {
	noImages := fmt.Errorf("%w: %w", &engine.Error{Kind: engine.ErrorUpstream, Status: 404, Message: "no /inference/v1/generate"}, engine.ErrImagesNotConfigured)
	first := &fake{name: "first", startErr: noImages}
	second := &fake{name: "second"}
	b, _ := newBalancer(t, LeastInFlight, first, second)
	for i := range DefaultEjectAfter + 2 {
		b.turn.Store(uint64(len(b.ups) - 1)) // rank "first" first
		who, err := serve(t, b, "")
		require.NoError(t, err, "request %d: answered by %q, %v; want second", i, who, err)
		require.Equal(t, "second", who, "request %d: answered by %q, %v; want second", i, who, err)
	}
	st := stats(b, "first")
	require.True(t, st.Healthy, "upstream without the image endpoint: %+v; want healthy, never ejected, every failed attempt counted", st)
	require.Equal(t, uint64(0), st.Ejections, "upstream without the image endpoint: %+v; want healthy, never ejected, every failed attempt counted", st)
	require.Equal(t, uint64(DefaultEjectAfter+2), st.Failures, "upstream without the image endpoint: %+v; want healthy, never ejected, every failed attempt counted", st)
	checkIdle(t, b)
}

// TestAllFail: the last error answers, after Attempts upstreams.
func TestAllFail(t *testing.T) {
	fs := fakes("a", "b", "c", "d")
	for _, f := range fs {
		f.startErr = errOverloaded
	}
	b, _ := newBalancer(t, Affinity, fs...)
	_, err := serve(t, b, "s")
	require.ErrorIs(t, err, errOverloaded, "error %v; want overloaded", err)
	var calls int64
	for _, f := range fs {
		calls += f.calls.Load()
	}
	require.Equal(t, int64(DefaultAttempts), calls, "%d attempts; want %d", calls, DefaultAttempts)
	for _, s := range b.Stats() {
		require.True(t, s.Healthy, "%s ejected for overload", s.Name)
	}
	checkIdle(t, b)
}

// TestCanceled: the caller's cancellation is not retried and does not
// count against the upstream.
func TestCanceled(t *testing.T) {
	a := &fake{name: "a", block: make(chan struct{})}
	b2 := &fake{name: "b", block: make(chan struct{})}
	b, _ := newBalancer(t, LeastInFlight, a, b2)
	ctx, cancel := context.WithCancel(context.Background())
	st, err := b.Generate(ctx, &engine.Request{MaxTokens: 1})
	require.NoError(t, err)
	cancel()
	if _, err := st.Next(); !errors.Is(err, context.Canceled) {
		t.Errorf("error %v", err)
	}
	st.Close()
	require.Equal(t, int64(1), a.calls.Load()+b2.calls.Load(), "retried after cancellation")
	for _, s := range b.Stats() {
		require.Equal(t, uint64(0), s.Failures, "%+v", s)
	}
	checkIdle(t, b)
}

// TestLeastInFlight: a new request goes to the upstream with the fewest
// requests in flight.
func TestLeastInFlight(t *testing.T) {
	fs := fakes("a", "b", "c")
	for _, f := range fs {
		f.block = make(chan struct{})
	}
	b, _ := newBalancer(t, LeastInFlight, fs...)
	var open []engine.Stream
	for range 6 {
		st, err := b.Generate(context.Background(), &engine.Request{MaxTokens: 1, SessionID: "ignored"})
		require.NoError(t, err)
		open = append(open, st)
	}
	for _, s := range b.Stats() {
		require.Equal(t, int64(2), s.InFlight, "%s: %d in flight; want 2 each", s.Name, s.InFlight)
	}
	open[0].Close() // frees one slot of its upstream
	open = open[1:]
	st, err := b.Generate(context.Background(), &engine.Request{MaxTokens: 1})
	require.NoError(t, err)
	open = append(open, st)
	for _, s := range b.Stats() {
		require.Equal(t, int64(2), s.InFlight, "%s: %d in flight; want the freed one refilled", s.Name, s.InFlight)
	}
	for _, s := range open {
		s.Close()
	}
	checkIdle(t, b)
}

// TestAffinityWithoutSession: requests without a session id are spread
// by load under Affinity too.
func TestAffinityWithoutSession(t *testing.T) {
	fs := fakes("a", "b")
	b, _ := newBalancer(t, Affinity, fs...)
	for range 10 {
		_, err := serve(t, b, "")
		require.NoError(t, err)
	}
	a, c := fs[0].calls.Load(), fs[1].calls.Load()
	require.Equal(t, int64(5), a, "calls %d, %d; want 5 each (ties go round)", a, c)
	require.Equal(t, int64(5), c, "calls %d, %d; want 5 each (ties go round)", a, c)
}

// TestConfig rejects what cannot work.
func TestConfig(t *testing.T) {
	f := &fake{name: "a"}
	for _, cfg := range []Config{
		{},
		{Upstreams: []Upstream{{Name: "a"}}},
		{Upstreams: []Upstream{{Name: "a", Engine: f}, {Name: "a", Engine: f}}},
		{Upstreams: make([]Upstream, MaxUpstreams+1)},
	} {
		_, err := New(cfg)
		require.Error(t, err, "New(%d upstreams) succeeded", len(cfg.Upstreams))
	}
	for _, s := range []string{"affinity", "least-in-flight"} {
		p, err := ParsePolicy(s)
		require.NoError(t, err, "ParsePolicy(%q) = %v, %v", s, p, err)
		require.Equal(t, s, p.String(), "ParsePolicy(%q) = %v, %v", s, p, err)
	}
	_, err := ParsePolicy("random")
	require.Error(t, err, "ParsePolicy(random) succeeded")
}

// TestMetrics: the per-upstream series.
func TestMetrics(t *testing.T) {
	fs := fakes("http://a/v1", `we"ird`)
	fs[0].startErr = errRefused
	b, _ := newBalancer(t, LeastInFlight, fs...)
	b.turn.Store(uint64(len(b.ups) - 1))
	who, err := serve(t, b, "")
	require.NoError(t, err, "%v %v", who, err)
	require.Equal(t, `we"ird`, who, "%v %v", who, err)
	var sb strings.Builder
	if _, err := b.WriteTo(&sb); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range strings.Split(sb.String(), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			got = append(got, l)
		}
	}
	want := []string{
		`agentwire_upstream_requests_total{upstream="http://a/v1"} 1`,
		`agentwire_upstream_requests_total{upstream="we\"ird"} 1`,
		`agentwire_upstream_failures_total{upstream="http://a/v1"} 1`,
		`agentwire_upstream_failures_total{upstream="we\"ird"} 0`,
		`agentwire_upstream_retries_total{upstream="http://a/v1"} 1`,
		`agentwire_upstream_retries_total{upstream="we\"ird"} 0`,
		`agentwire_upstream_ejections_total{upstream="http://a/v1"} 0`,
		`agentwire_upstream_ejections_total{upstream="we\"ird"} 0`,
		`agentwire_upstream_probe_failures_total{upstream="http://a/v1"} 0`,
		`agentwire_upstream_probe_failures_total{upstream="we\"ird"} 0`,
		`agentwire_upstream_in_flight{upstream="http://a/v1"} 0`,
		`agentwire_upstream_in_flight{upstream="we\"ird"} 0`,
		`agentwire_upstream_healthy{upstream="http://a/v1"} 1`,
		`agentwire_upstream_healthy{upstream="we\"ird"} 1`,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("metrics (-want +got):\n%s", d)
	}
}

// TestNextAllocs: a started stream passes outputs through without
// allocating.
func TestNextAllocs(t *testing.T) {
	b, _ := newBalancer(t, Affinity, fakes("a", "b")...)
	st, err := b.Generate(context.Background(), &engine.Request{SessionID: "s"})
	require.NoError(t, err)
	defer st.Close()
	s := st.(*stream)
	if _, err := s.Next(); err != nil {
		t.Fatal(err)
	}
	inner := s.s.(*fakeStream)
	allocs := testing.AllocsPerRun(100, func() {
		inner.n = 1
		if _, err := s.Next(); err != nil {
			t.Fatal(err)
		}
	})
	require.Equal(t, float64(0), allocs, "%v allocs per Next", allocs)
}

// TestConcurrent: many requests at once, some upstreams failing; no slot
// is left held (run with -race).
func TestConcurrent(t *testing.T) {
	fs := fakes("a", "b", "c")
	fs[1].firstErr = errDropped
	b, _ := newBalancer(t, Affinity, fs...)
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := serve(t, b, fmt.Sprint("s", i%16)); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	checkIdle(t, b)
}

func BenchmarkGenerate(b *testing.B) {
	bal, err := New(Config{Upstreams: []Upstream{{Name: "a", Engine: &fake{name: "a"}}, {Name: "b", Engine: &fake{name: "b"}}, {Name: "c", Engine: &fake{name: "c"}}}})
	require.NoError(b, err)
	req := &engine.Request{SessionID: "99bc91c6-7413-4039-84a7-fc0f5a6a5891"}
	b.ReportAllocs()
	for b.Loop() {
		st, err := bal.Generate(context.Background(), req)
		if err != nil { // not require inside the measured loop: its b.Helper walks the stack
			b.Fatal(err)
		}
		st.Close()
	}
}

// TestTerminalErrorOnce: Next after a stream's end answers the same again,
// and the failure is counted once.
func TestTerminalErrorOnce(t *testing.T) {
	f := &fake{name: "a", midErr: errDropped}
	b, _ := newBalancer(t, Affinity, f)
	st, err := b.Generate(context.Background(), &engine.Request{SessionID: "s"})
	require.NoError(t, err)
	if _, err := st.Next(); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := st.Next(); !errors.Is(err, errDropped) {
			t.Fatalf("error %v", err)
		}
	}
	st.Close()
	if _, err := st.Next(); !errors.Is(err, errDropped) {
		t.Errorf("after Close: %v", err)
	}
	s := stats(b, "a")
	require.Equal(t, uint64(1), s.Failures, "failures %d; want 1", s.Failures)
	checkIdle(t, b)
}

// TestProbe: a failed probe ejects an upstream before any request pays
// for it; a passing probe readmits it; Run stops with its context.
func TestProbe(t *testing.T) {
	fs := fakes("a", "b", "c")
	var mu sync.Mutex
	down := map[string]bool{}
	probes := atomic.Int64{}
	c := &clock{t: time.Unix(1e9, 0)}
	var ups []Upstream
	for _, f := range fs {
		ups = append(ups, Upstream{Name: f.name, Engine: f})
	}
	b, err := New(Config{Upstreams: ups, Policy: Affinity, Now: c.now, ProbeInterval: time.Millisecond,
		Probe: func(_ context.Context, u Upstream) error {
			probes.Add(1)
			mu.Lock()
			defer mu.Unlock()
			if down[u.Name] {
				return errRefused
			}
			return nil
		}})
	require.NoError(t, err)
	home, err := serve(t, b, "s")
	require.NoError(t, err)
	mu.Lock()
	down[home] = true
	mu.Unlock()
	b.ProbeAll(context.Background())
	st := stats(b, home)
	require.False(t, st.Healthy, "after a failed probe: %+v", st)
	require.Equal(t, uint64(1), st.ProbeFailures, "after a failed probe: %+v", st)
	require.Equal(t, uint64(1), st.Ejections, "after a failed probe: %+v", st)
	calls := fs[0].calls.Load() + fs[1].calls.Load() + fs[2].calls.Load()
	if who, err := serve(t, b, "s"); err != nil || who == home {
		t.Fatalf("served by %q, %v; the ejected home is %s", who, err, home)
	}
	got := fs[0].calls.Load() + fs[1].calls.Load() + fs[2].calls.Load()
	require.Equal(t, calls+1, got, "%d attempts; want 1 (the ejected upstream not tried)", got-calls)
	mu.Lock()
	down[home] = false
	mu.Unlock()
	b.ProbeAll(context.Background())
	if who, err := serve(t, b, "s"); err != nil || who != home {
		t.Errorf("after a passing probe: %q, %v; want %s", who, err, home)
	}
	// Run probes until its context ends.
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	before := probes.Load()
	go func() { b.Run(ctx); close(done) }()
	for probes.Load() < before+6 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not stop")
	}
	// Without a Probe, Run returns at once.
	b2, _ := newBalancer(t, Affinity, fakes("x")...)
	b2.Run(context.Background())
}
