// Package balance spreads generation requests over several engine
// replicas without a router: a Balancer is an engine.Engine over up to 64
// upstream engines (2–8 in practice: the example server's repeated
// -upstream), for small deployments. Larger ones, or ones whose replicas
// come and go, belong behind a real router (examples/server/README.md,
// "Several replicas, and behind a router").
//
// # Choosing an upstream
//
// Policy Affinity keeps a session on one replica, where its KV cache is:
// the upstreams are ranked by rendezvous hashing of
// engine.Request.SessionID (highest random weight: the score of an
// upstream is a hash of the session id and the upstream's name), so every
// turn of a session goes to the same replica while it is healthy, and
// when it is not, to the same second choice; removing or adding an
// upstream moves only the sessions that ranked it first. Requests without
// a session id go to the upstream with the fewest requests in flight.
// Policy LeastInFlight always does that (ties: in turn). Ejected
// upstreams rank after every healthy one.
//
// # Failures
//
// A request is retried on the next upstream of its ranking only before
// its first output — when Generate fails or the stream fails before it
// yields anything — and only for failures that leave the request
// unanswered: the engine unreachable or failing (engine.ErrorUpstream: a
// refused or dropped connection, a 5xx), overloaded (503, 529, queue
// full) or rate-limited (429), or no connection within the connect
// timeout (engine.ErrConnectTimeout). A stream that has yielded an output
// is never replayed: its failure is the client's (in the API's in-stream
// error shape). A request the engine refused (a 4xx, the context length),
// a first-token or idle timeout and the caller's cancellation are not
// retried. At most Config.Attempts upstreams are tried; the last error is
// the answer.
//
// Health: Config.EjectAfter consecutive failures of an upstream
// (ErrorUpstream or a connect timeout; overload and rate limits do not
// count, nor an upstream not set up for images, engine.ErrImagesNotConfigured) eject it for Config.EjectFor. An ejected upstream is tried only
// after every healthy one; once EjectFor has passed it takes requests
// again, and its next failure ejects it again at once. With Config.Probe,
// Balancer.Run also checks every upstream each ProbeInterval: a failed
// probe ejects it (so a replica that stopped answering costs no client
// its connect timeout), a passing one readmits it. Every request holds
// exactly one in-flight slot of the upstream serving it, released when
// its stream is closed or its start failed.
//
// # Metrics
//
// Balancer.WriteTo writes per-upstream series in the Prometheus text
// format: agentwire_upstream_requests_total (attempts started),
// agentwire_upstream_failures_total, agentwire_upstream_ejections_total,
// agentwire_upstream_probe_failures_total, agentwire_upstream_in_flight,
// agentwire_upstream_healthy, and agentwire_upstream_retries_total
// (attempts that moved a request to another upstream), all labelled
// upstream="<name>".
package balance

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentwire/agentwire/preprocess/engine"
)

// Policy chooses the upstream of a request.
type Policy int

const (
	// Affinity ranks upstreams by rendezvous hashing of the session id
	// (least in flight for requests without one).
	Affinity Policy = iota
	// LeastInFlight sends each request to the upstream with the fewest
	// requests in flight.
	LeastInFlight
)

// String returns the policy's flag name.
func (p Policy) String() string {
	if p == LeastInFlight {
		return "least-in-flight"
	}
	return "affinity"
}

// ParsePolicy parses a policy's flag name: "affinity" or
// "least-in-flight".
func ParsePolicy(s string) (Policy, error) {
	switch s {
	case "affinity":
		return Affinity, nil
	case "least-in-flight":
		return LeastInFlight, nil
	}
	return 0, fmt.Errorf("balance: policy %q: want affinity or least-in-flight", s)
}

// MaxUpstreams bounds Config.Upstreams.
const MaxUpstreams = 64

// Defaults of Config.
const (
	DefaultAttempts   = 3
	DefaultEjectAfter = 2
	DefaultEjectFor   = 10 * time.Second

	DefaultProbeInterval = 5 * time.Second
)

// Upstream is one engine replica.
type Upstream struct {
	// Name labels the upstream in metrics and logs and seeds its
	// rendezvous hash (use its URL: stable across restarts, so sessions
	// keep their replica). Names are unique.
	Name   string
	Engine engine.Engine
}

// Config configures a Balancer.
type Config struct {
	Upstreams []Upstream // 1 to MaxUpstreams
	Policy    Policy

	// Attempts bounds the upstreams one request tries before its first
	// output (0: DefaultAttempts; at most the number of upstreams).
	Attempts int
	// EjectAfter consecutive failures eject an upstream for EjectFor
	// (0: DefaultEjectAfter, DefaultEjectFor).
	EjectAfter int
	EjectFor   time.Duration

	// Probe, when not nil, checks one upstream's health for Run (the
	// example server asks GET /health): an error ejects the upstream for
	// EjectFor (a blackholed replica then costs no client its connect
	// timeout), a success after an ejection readmits it. ProbeInterval is
	// the time between two rounds (0: DefaultProbeInterval); a probe
	// should end within it.
	Probe         func(ctx context.Context, up Upstream) error
	ProbeInterval time.Duration

	// Now is the clock (nil: time.Now); tests set it.
	Now func() time.Time
}

// upstream is one upstream's state.
type upstream struct {
	name     string
	eng      engine.Engine
	probes   Upstream // what Config.Probe is given
	seed     uint64   // the rendezvous seed: a hash of name
	inFlight atomic.Int64

	requests, failures, ejections, retries, probeFailures atomic.Uint64

	mu           sync.Mutex
	consecutive  int       // failures since the last success
	ejectedUntil time.Time // zero: healthy
}

// Balancer is an engine.Engine over several upstream engines. It is safe
// for concurrent use.
type Balancer struct {
	ups        []*upstream
	policy     Policy
	attempts   int
	ejectAfter int
	ejectFor   time.Duration
	now        func() time.Time
	turn       atomic.Uint64 // rotates ties of least-in-flight
	probe      func(context.Context, Upstream) error
	interval   time.Duration
}

// New returns a Balancer for cfg.
func New(cfg Config) (*Balancer, error) {
	n := len(cfg.Upstreams)
	if n == 0 || n > MaxUpstreams {
		return nil, fmt.Errorf("balance: %d upstreams; want 1 to %d", n, MaxUpstreams)
	}
	b := &Balancer{policy: cfg.Policy, attempts: cfg.Attempts, ejectAfter: cfg.EjectAfter, ejectFor: cfg.EjectFor, now: cfg.Now}
	if b.attempts <= 0 {
		b.attempts = DefaultAttempts
	}
	b.attempts = min(b.attempts, n)
	if b.ejectAfter <= 0 {
		b.ejectAfter = DefaultEjectAfter
	}
	if b.ejectFor <= 0 {
		b.ejectFor = DefaultEjectFor
	}
	if b.now == nil {
		b.now = time.Now
	}
	b.probe, b.interval = cfg.Probe, cfg.ProbeInterval
	if b.interval <= 0 {
		b.interval = DefaultProbeInterval
	}
	seen := map[string]bool{}
	for _, u := range cfg.Upstreams {
		if u.Engine == nil {
			return nil, fmt.Errorf("balance: upstream %q has no engine", u.Name)
		}
		if seen[u.Name] {
			return nil, fmt.Errorf("balance: upstream name %q is not unique", u.Name)
		}
		seen[u.Name] = true
		b.ups = append(b.ups, &upstream{name: u.Name, eng: u.Engine, seed: hashString(u.Name), probes: u})
	}
	return b, nil
}

// Generate starts req on the first upstream of its ranking that accepts
// it (see the package documentation). The stream retries on the next
// upstream if it fails before its first output.
func (b *Balancer) Generate(ctx context.Context, req *engine.Request) (engine.Stream, error) {
	s := &stream{b: b, ctx: ctx, req: req}
	s.n = b.rank(req.SessionID, &s.order)
	if err := s.open(); err != nil {
		return nil, err
	}
	return s, nil
}

// rank writes the upstreams to try, best first, into order and returns
// how many (b.attempts): healthy ones by the policy, then ejected ones.
func (b *Balancer) rank(session string, order *[MaxUpstreams]uint8) int {
	n := len(b.ups)
	now := b.now()
	var score [MaxUpstreams]uint64
	var healthy [MaxUpstreams]bool
	if b.policy == Affinity && session != "" {
		h := hashString(session)
		for i, u := range b.ups {
			score[i] = ^mix(h ^ u.seed) // ascending order below: the highest weight first
		}
	} else {
		start := int(b.turn.Add(1) % uint64(n))
		for i, u := range b.ups {
			// in flight first, then the turn: ties go round.
			score[i] = uint64(u.inFlight.Load())<<8 | uint64((i-start+n)%n)
		}
	}
	for i, u := range b.ups {
		order[i] = uint8(i)
		healthy[i] = u.healthy(now)
	}
	// Insertion sort: n is small, and no allocation.
	less := func(a, c uint8) bool {
		if healthy[a] != healthy[c] {
			return healthy[a]
		}
		return score[a] < score[c]
	}
	for i := 1; i < n; i++ {
		for j := i; j > 0 && less(order[j], order[j-1]); j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	return b.attempts
}

func (u *upstream) healthy(now time.Time) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.ejectedUntil.IsZero() || !now.Before(u.ejectedUntil)
}

// succeeded records a request that got its first output (or finished).
func (b *Balancer) succeeded(u *upstream) {
	u.mu.Lock()
	u.consecutive, u.ejectedUntil = 0, time.Time{}
	u.mu.Unlock()
}

// failed records a failure of u; health failures count towards ejection.
func (b *Balancer) failed(u *upstream, err error) {
	u.failures.Add(1)
	if !healthFailure(err) {
		return
	}
	now := b.now()
	u.mu.Lock()
	u.consecutive++
	if u.consecutive >= b.ejectAfter {
		if u.ejectedUntil.IsZero() || !now.Before(u.ejectedUntil) {
			u.ejections.Add(1)
		}
		u.ejectedUntil = now.Add(b.ejectFor)
	}
	u.mu.Unlock()
}

// Run probes every upstream with Config.Probe every ProbeInterval until
// ctx ends (at once when there is no Probe). The probes of one round run
// one after another.
func (b *Balancer) Run(ctx context.Context) {
	if b.probe == nil {
		return
	}
	t := time.NewTicker(b.interval)
	defer t.Stop()
	for {
		b.ProbeAll(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// ProbeAll runs one round of Config.Probe over the upstreams (none
// without a Probe).
func (b *Balancer) ProbeAll(ctx context.Context) {
	if b.probe == nil {
		return
	}
	for _, u := range b.ups {
		if ctx.Err() != nil {
			return
		}
		if err := b.probe(ctx, u.probes); err != nil {
			if ctx.Err() != nil {
				return
			}
			u.probeFailures.Add(1)
			now := b.now()
			u.mu.Lock()
			if u.ejectedUntil.IsZero() || !now.Before(u.ejectedUntil) {
				u.ejections.Add(1)
			}
			u.consecutive = max(u.consecutive, b.ejectAfter)
			u.ejectedUntil = now.Add(b.ejectFor)
			u.mu.Unlock()
			continue
		}
		u.mu.Lock()
		if !u.ejectedUntil.IsZero() {
			u.consecutive, u.ejectedUntil = 0, time.Time{}
		}
		u.mu.Unlock()
	}
}

// retryable reports whether a failure before the first output may be
// retried on another upstream: the engine did not take the request.
func retryable(err error) bool {
	var e *engine.Error
	if !errors.As(err, &e) {
		return false
	}
	switch e.Kind {
	case engine.ErrorUpstream, engine.ErrorOverloaded, engine.ErrorRateLimited:
		return true
	case engine.ErrorTimeout:
		return errors.Is(err, engine.ErrConnectTimeout)
	}
	return false
}

// healthFailure reports whether err says the upstream is unwell
// (unreachable, failing, not accepting connections). An upstream that
// only lacks what one request needs (engine.ErrImagesNotConfigured: vLLM
// without its token-in endpoint) is not: the request moves on to the next
// upstream, and the upstream keeps serving every other request.
func healthFailure(err error) bool {
	var e *engine.Error
	if !errors.As(err, &e) || errors.Is(err, engine.ErrImagesNotConfigured) {
		return false
	}
	return e.Kind == engine.ErrorUpstream || e.Kind == engine.ErrorTimeout && errors.Is(err, engine.ErrConnectTimeout)
}

// stream is a request's stream on its current upstream; before its first
// output it moves to the next upstream of its ranking on a retryable
// failure.
type stream struct {
	b       *Balancer
	ctx     context.Context
	req     *engine.Request
	order   [MaxUpstreams]uint8
	n, next int       // the ranking's length and the next to try
	cur     *upstream // holds an in-flight slot of cur while not nil
	s       engine.Stream
	started bool  // an output was returned: never retried from here on
	ended   bool  // the stream ended (err): Next answers err again
	err     error // the terminal error (io.EOF after the end)
}

// open starts the request on the next upstreams of the ranking until one
// accepts it; it returns the last error when none does.
func (s *stream) open() error {
	var last error
	for s.next < s.n {
		u := s.b.ups[s.order[s.next]]
		if s.next > 0 {
			s.b.ups[s.order[s.next-1]].retries.Add(1)
		}
		s.next++
		u.inFlight.Add(1)
		u.requests.Add(1)
		st, err := u.eng.Generate(s.ctx, s.req)
		if err == nil {
			s.cur, s.s = u, st
			return nil
		}
		u.inFlight.Add(-1)
		last = err
		if s.ctx.Err() != nil {
			break // the caller's, not the upstream's
		}
		s.b.failed(u, err)
		if !retryable(err) {
			break
		}
	}
	s.err = last
	return last
}

// Next implements engine.Stream.
func (s *stream) Next() (*engine.Output, error) {
	for {
		if s.s == nil || s.ended {
			return nil, s.err
		}
		out, err := s.s.Next()
		if err == nil || err == io.EOF {
			if !s.started {
				s.started = true
				s.b.succeeded(s.cur)
			}
			if err == io.EOF {
				s.ended, s.err = true, io.EOF
			}
			return out, err
		}
		if s.started || s.ctx.Err() != nil || !retryable(err) || s.next >= s.n {
			if s.ctx.Err() == nil && (!s.started || healthFailure(err)) {
				s.b.failed(s.cur, err)
			}
			s.ended, s.err = true, err // recorded once, answered again
			return nil, err
		}
		// Nothing reached the client: try the next upstream.
		s.b.failed(s.cur, err)
		s.release()
		if s.open() != nil {
			return nil, s.err
		}
	}
}

// release closes the current upstream's stream and frees its slot.
func (s *stream) release() {
	if s.s != nil {
		s.s.Close()
		s.s = nil
	}
	if s.cur != nil {
		s.cur.inFlight.Add(-1)
		s.cur = nil
	}
}

// Close implements engine.Stream.
func (s *stream) Close() error {
	if !s.ended && s.s != nil {
		s.ended, s.err = true, &engine.Error{Kind: engine.ErrorCanceled, Message: "engine stream closed"}
	}
	s.release()
	return nil
}

// Stats is one upstream's counters.
type Stats struct {
	Name                                                  string
	Healthy                                               bool
	InFlight                                              int64
	Requests, Failures, Ejections, Retries, ProbeFailures uint64
}

// Stats returns every upstream's counters, in Config order.
func (b *Balancer) Stats() []Stats {
	now := b.now()
	out := make([]Stats, len(b.ups))
	for i, u := range b.ups {
		out[i] = Stats{Name: u.name, Healthy: u.healthy(now), InFlight: u.inFlight.Load(), Requests: u.requests.Load(),
			Failures: u.failures.Load(), Ejections: u.ejections.Load(), Retries: u.retries.Load(), ProbeFailures: u.probeFailures.Load()}
	}
	return out
}

// WriteTo writes the per-upstream series in the Prometheus text format.
func (b *Balancer) WriteTo(w io.Writer) (int64, error) {
	var sb strings.Builder
	stats := b.Stats()
	series := []struct {
		name, typ, help string
		v               func(Stats) string
	}{
		{"agentwire_upstream_requests_total", "counter", "Attempts started on the upstream.", func(s Stats) string { return fmt.Sprint(s.Requests) }},
		{"agentwire_upstream_failures_total", "counter", "Attempts on the upstream that failed.", func(s Stats) string { return fmt.Sprint(s.Failures) }},
		{"agentwire_upstream_retries_total", "counter", "Requests moved from the upstream to another before their first output.", func(s Stats) string { return fmt.Sprint(s.Retries) }},
		{"agentwire_upstream_ejections_total", "counter", "Times the upstream was ejected for consecutive failures or a failed probe.", func(s Stats) string { return fmt.Sprint(s.Ejections) }},
		{"agentwire_upstream_probe_failures_total", "counter", "Health probes of the upstream that failed.", func(s Stats) string { return fmt.Sprint(s.ProbeFailures) }},
		{"agentwire_upstream_in_flight", "gauge", "Requests in flight on the upstream.", func(s Stats) string { return fmt.Sprint(s.InFlight) }},
		{"agentwire_upstream_healthy", "gauge", "1 unless the upstream is ejected.", func(s Stats) string {
			if s.Healthy {
				return "1"
			}
			return "0"
		}},
	}
	for _, m := range series {
		sb.WriteString("# HELP " + m.name + " " + m.help + "\n# TYPE " + m.name + " " + m.typ + "\n")
		for _, s := range stats {
			sb.WriteString(m.name + `{upstream="` + labelEscaper.Replace(s.Name) + `"} ` + m.v(s) + "\n")
		}
	}
	n, err := io.WriteString(w, sb.String())
	return int64(n), err
}

var labelEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)

// hashString is FNV-1a, 64 bits.
func hashString(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// mix is the SplitMix64 finalizer: every input bit affects every output
// bit, so the scores of one session over the upstreams are independent.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}
