package server

import (
	"bufio"
	"io"
	"math"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentwire/agentwire/preprocess/api"
)

// The metrics are written in the Prometheus text exposition format
// (version 0.0.4) by a small registry of fixed-label counters and
// histograms. Observing is allocation-free: every series exists from the
// start (labels are small enums), values are atomics.
//
// Why not github.com/prometheus/client_golang: it is served by the module
// proxy, but it needs go 1.26 in the requiring module and brings a dozen
// modules (protobuf, procfs, klauspost/compress, …) into every program
// that imports this package, for the dozen series below. The text format
// is small and stable; a team that runs client_golang scrapes /metrics
// like any other target.

// The routes (requests_total labels): first the generation route of every
// registered API (api.All, in order: route i is API i, whose name labels
// the per-API series), then the other routes.
var (
	numAPIs          = len(api.All())
	routeCountTokens = numAPIs
	routeModels      = numAPIs + 1
	routeTokenize    = numAPIs + 2
	routeDetokenize  = numAPIs + 3
	numRoutes        = numAPIs + 4
	routeNames       = func() []string {
		var names []string
		for _, a := range api.All() {
			names = append(names, a.String())
		}
		return append(names, "count_tokens", "models", "tokenize", "detokenize")
	}()
)

// statusCodes are the HTTP statuses counted by value; others count as
// their class ("2xx", "4xx", "5xx").
var statusCodes = [...]int{200, 400, 401, 404, 405, 413, 429, 499, 500, 502, 503, 504, 529}

const numCodes = len(statusCodes) + 3

func codeIndex(status int) int {
	for i, c := range statusCodes {
		if c == status {
			return i
		}
	}
	switch {
	case status < 400:
		return len(statusCodes)
	case status < 500:
		return len(statusCodes) + 1
	}
	return len(statusCodes) + 2
}

func codeLabel(i int) string {
	if i < len(statusCodes) {
		return strconv.Itoa(statusCodes[i])
	}
	return [...]string{"2xx", "4xx", "5xx"}[i-len(statusCodes)]
}

// Bucket upper bounds in seconds. Time to first token and duration follow
// vLLM's buckets with finer ones at the low end (the replay engine answers
// in microseconds); inter-token latency likewise.
var (
	ttftBuckets = []float64{0.0005, 0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 20, 40, 80, 160, 640}
	itlBuckets  = []float64{0.0001, 0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 20, 40, 80}
	durBuckets  = []float64{0.001, 0.01, 0.1, 0.3, 0.5, 0.8, 1, 1.5, 2, 2.5, 5, 10, 15, 20, 30, 40, 50, 60, 120, 240, 480, 960, 1920}
)

// histogram is a fixed-bucket Prometheus histogram.
type histogram struct {
	bounds []float64
	counts []atomic.Uint64 // one per bound, plus +Inf
	sum    atomic.Uint64   // float64 bits
}

func newHistogram(bounds []float64) *histogram {
	return &histogram{bounds: bounds, counts: make([]atomic.Uint64, len(bounds)+1)}
}

// observe records v (seconds). It does not allocate.
func (h *histogram) observe(v float64) {
	i := 0
	for i < len(h.bounds) && v > h.bounds[i] {
		i++
	}
	h.counts[i].Add(1)
	for {
		old := h.sum.Load()
		if h.sum.CompareAndSwap(old, math.Float64bits(math.Float64frombits(old)+v)) {
			return
		}
	}
}

// Metrics is the server's metric registry. All methods are safe for
// concurrent use.
type Metrics struct {
	requests     [][numCodes]atomic.Uint64 // by route
	errors       []atomic.Uint64           // by route: status >= 400, or a stream that failed after its first byte
	promptTokens []atomic.Uint64           // by API
	genTokens    []atomic.Uint64
	running      atomic.Int64
	rejected     atomic.Uint64 // turned away by the concurrency limit
	ttft         []*histogram  // by API
	itl          []*histogram
	duration     []*histogram

	extraMu sync.Mutex
	extra   []io.WriterTo // more series, written after the server's (Add)
}

// Add appends w's series (Prometheus text format: HELP, TYPE and
// samples of metric names of its own) to every scrape of /metrics, after
// the server's: a balance.Balancer's per-upstream series, for one.
func (m *Metrics) Add(w io.WriterTo) {
	m.extraMu.Lock()
	m.extra = append(m.extra, w)
	m.extraMu.Unlock()
}

// NewMetrics returns an empty registry.
func NewMetrics() *Metrics {
	m := &Metrics{
		requests: make([][numCodes]atomic.Uint64, numRoutes), errors: make([]atomic.Uint64, numRoutes),
		promptTokens: make([]atomic.Uint64, numAPIs), genTokens: make([]atomic.Uint64, numAPIs),
		ttft: make([]*histogram, numAPIs), itl: make([]*histogram, numAPIs), duration: make([]*histogram, numAPIs),
	}
	for i := range numAPIs {
		m.ttft[i] = newHistogram(ttftBuckets)
		m.itl[i] = newHistogram(itlBuckets)
		m.duration[i] = newHistogram(durBuckets)
	}
	return m
}

// Requests returns the number of finished requests on route (a label such
// as "messages") answered with status, for tests and dashboards in-process.
func (m *Metrics) Requests(route string, status int) uint64 {
	for i, n := range routeNames {
		if n == route {
			return m.requests[i][codeIndex(status)].Load()
		}
	}
	return 0
}

// Running returns the number of generation requests in flight.
func (m *Metrics) Running() int64 { return m.running.Load() }

func (m *Metrics) done(route, status int, failed bool) {
	m.requests[route][codeIndex(status)].Add(1)
	if failed || status >= 400 {
		m.errors[route].Add(1)
	}
}

// WriteTo writes every series in the Prometheus text format.
func (m *Metrics) WriteTo(w io.Writer) (int64, error) {
	cw := &countWriter{w: w}
	b := bufio.NewWriter(cw)
	help := func(name, typ, text string) {
		b.WriteString("# HELP " + name + " " + text + "\n# TYPE " + name + " " + typ + "\n")
	}
	u := func(v uint64) string { return strconv.FormatUint(v, 10) }

	help("agentwire_requests_total", "counter", "Finished HTTP requests by route and status code.")
	for r := range numRoutes {
		for c := range numCodes {
			if v := m.requests[r][c].Load(); v > 0 {
				b.WriteString(`agentwire_requests_total{route="` + routeNames[r] + `",code="` + codeLabel(c) + `"} ` + u(v) + "\n")
			}
		}
	}
	help("agentwire_request_errors_total", "counter", "Requests answered with an error status or failed mid-stream, by route.")
	for r := range numRoutes {
		b.WriteString(`agentwire_request_errors_total{route="` + routeNames[r] + `"} ` + u(m.errors[r].Load()) + "\n")
	}
	help("agentwire_requests_rejected_total", "counter", "Requests turned away by the concurrency limit (overloaded).")
	b.WriteString("agentwire_requests_rejected_total " + u(m.rejected.Load()) + "\n")
	help("agentwire_requests_running", "gauge", "Generation requests in flight.")
	b.WriteString("agentwire_requests_running " + strconv.FormatInt(m.running.Load(), 10) + "\n")
	help("agentwire_prompt_tokens_total", "counter", "Prompt tokens of finished generation requests, by API.")
	for a := range numAPIs {
		b.WriteString(`agentwire_prompt_tokens_total{api="` + routeNames[a] + `"} ` + u(m.promptTokens[a].Load()) + "\n")
	}
	help("agentwire_generation_tokens_total", "counter", "Generated tokens, by API.")
	for a := range numAPIs {
		b.WriteString(`agentwire_generation_tokens_total{api="` + routeNames[a] + `"} ` + u(m.genTokens[a].Load()) + "\n")
	}
	writeHist := func(name, text string, hs []*histogram) {
		help(name, "histogram", text)
		for a := range numAPIs {
			h := hs[a]
			var cum uint64
			for i, bound := range h.bounds {
				cum += h.counts[i].Load()
				b.WriteString(name + `_bucket{api="` + routeNames[a] + `",le="` + strconv.FormatFloat(bound, 'g', -1, 64) + `"} ` + u(cum) + "\n")
			}
			cum += h.counts[len(h.bounds)].Load()
			b.WriteString(name + `_bucket{api="` + routeNames[a] + `",le="+Inf"} ` + u(cum) + "\n")
			b.WriteString(name + `_sum{api="` + routeNames[a] + `"} ` + strconv.FormatFloat(math.Float64frombits(h.sum.Load()), 'g', -1, 64) + "\n")
			b.WriteString(name + `_count{api="` + routeNames[a] + `"} ` + u(cum) + "\n")
		}
	}
	writeHist("agentwire_time_to_first_token_seconds", "Time from request arrival to the first engine output.", m.ttft)
	writeHist("agentwire_inter_token_latency_seconds", "Time between consecutive engine outputs of one request.", m.itl)
	writeHist("agentwire_request_duration_seconds", "Time from request arrival to the end of the answer.", m.duration)
	m.extraMu.Lock()
	extra := m.extra
	m.extraMu.Unlock()
	for _, e := range extra {
		if _, err := e.WriteTo(b); err != nil {
			return cw.n, err
		}
	}
	err := b.Flush()
	return cw.n, err
}

// ServeHTTP answers GET /metrics.
func (m *Metrics) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	_, _ = m.WriteTo(w)
}

func seconds(d time.Duration) float64 { return d.Seconds() }

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
