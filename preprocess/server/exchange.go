package server

import (
	"cmp"
	"context"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"

	"github.com/agentwire/agentwire/preprocess"
	"github.com/agentwire/agentwire/preprocess/api"
	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/agentwire/agentwire/preprocess/pipeline"
	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/anthropic"
)

// exchange is one request in flight. It is the http.ResponseWriter the
// handlers write to (it records the status) and, for generation routes,
// the pipeline's Trace: it times the first engine output and the gaps
// between outputs, and takes the request's usage as the answer reports it
// (the pipeline counts tokens, once). One exchange is allocated per
// request; observing a step allocates nothing.
type exchange struct {
	http.ResponseWriter
	flusher http.Flusher

	route    int
	api      api.API // the API errors are answered in
	id       string  // minted here: the engine's request id
	clientID string  // the client's X-Request-Id, when usable
	session  string  // the session id sent upstream (SessionID)
	model    string
	stream   bool
	start    time.Time

	status int
	wrote  bool
	err    error // the error answered, or the pipeline's

	generating   bool // the request reached the pipeline
	trace        pipeline.Trace
	steps        int
	first, last  time.Time
	genTokens    int64
	promptTokens int64

	m *Metrics
}

// maxRequestIDLen bounds a client-supplied X-Request-Id.
const maxRequestIDLen = 128

// begin starts an exchange. Its id is minted here, unique per request: it
// is the engine's request id (vLLM keys aborts on it, so two clients
// sending one X-Request-Id must not share it), the Anthropic request-id
// header and the log's request_id. The client's own X-Request-Id, when
// usable, is echoed back in X-Request-Id and logged as client_request_id.
func (s *Server) begin(w http.ResponseWriter, r *http.Request, route int, a api.API) *exchange {
	s.active.Add(1)
	x := &exchange{ResponseWriter: w, route: route, api: a, start: time.Now(), m: s.metrics}
	x.flusher, _ = w.(http.Flusher)
	var b [32]byte
	x.id = string(strconv.AppendUint(strconv.AppendUint(append(b[:0], "req_"...), rand.Uint64(), 36), rand.Uint64()>>32, 36))
	if id := r.Header.Get("X-Request-Id"); validRequestID(id) {
		x.clientID = id
	}
	h := w.Header()
	h.Set("X-Request-Id", cmp.Or(x.clientID, x.id))
	a.SetHeader(h, x.id)
	return x
}

func validRequestID(id string) bool {
	if id == "" || len(id) > maxRequestIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; c <= ' ' || c >= 0x7f {
			return false
		}
	}
	return true
}

// fail answers err in the exchange's API shape (before the first byte).
func (x *exchange) fail(err error) {
	x.err = err
	if !x.wrote {
		api.WriteError(x, x.api, err)
	}
}

// end records the metrics and writes the log record.
func (s *Server) end(x *exchange) {
	defer s.active.Add(-1)
	d := time.Since(x.start)
	status := x.status
	if !x.wrote {
		// nothing written: the pipeline saw the client go away (or the
		// handler wrote nothing, which net/http answers with 200)
		status = http.StatusOK
		if x.err != nil {
			status, _ = x.api.ErrorBody(x.err)
		}
	}
	failed := x.err != nil
	s.metrics.done(x.route, status, failed)
	if x.route < numAPIs && x.generating {
		a := x.route
		s.metrics.promptTokens[a].Add(uint64(max(x.promptTokens, 0)))
		s.metrics.genTokens[a].Add(uint64(max(x.genTokens, 0)))
		s.metrics.duration[a].observe(seconds(d))
	}

	level := slog.LevelInfo
	switch {
	case !failed, status == api.StatusClientClosed:
	case status >= 500 && status != http.StatusServiceUnavailable && status != anthropic.StatusOverloaded:
		// the server's own failure (an engine it cannot use, a bug): the
		// client read the API's standard text, the detail is here
		level = slog.LevelError
	default:
		level = slog.LevelWarn
	}
	if !s.log.Enabled(context.Background(), level) {
		return
	}
	attrs := make([]slog.Attr, 0, 14)
	attrs = append(attrs,
		slog.String("request_id", x.id),
		slog.String("route", routeNames[x.route]),
		slog.Int("status", status),
		slog.Duration("duration", d))
	if x.clientID != "" {
		attrs = append(attrs, slog.String("client_request_id", x.clientID))
	}
	if x.session != "" {
		attrs = append(attrs, slog.String("session_id", x.session))
	}
	if x.model != "" {
		attrs = append(attrs, slog.String("model", truncate(x.model, maxModelNameBytes)))
	}
	if x.route < numAPIs {
		attrs = append(attrs, slog.Bool("stream", x.stream))
	}
	if x.generating {
		attrs = append(attrs,
			slog.Int64("prompt_tokens", x.promptTokens),
			slog.Int64("completion_tokens", x.genTokens))
		if !x.first.IsZero() {
			attrs = append(attrs, slog.Duration("ttft", x.first.Sub(x.start)))
		}
	} else if x.route == routeCountTokens || x.route == routeTokenize {
		attrs = append(attrs, slog.Int64("prompt_tokens", x.promptTokens))
	}
	if x.err != nil {
		attrs = append(attrs, slog.String("error", truncate(x.err.Error(), 512)))
	}
	s.log.LogAttrs(context.Background(), level, "request", attrs...)
}

// ---- http.ResponseWriter ----

func (x *exchange) WriteHeader(status int) {
	if !x.wrote {
		x.status, x.wrote = status, true
	}
	x.ResponseWriter.WriteHeader(status)
}

func (x *exchange) Write(p []byte) (int, error) {
	if !x.wrote {
		x.status, x.wrote = http.StatusOK, true
	}
	return x.ResponseWriter.Write(p)
}

// Flush sends buffered bytes to the client (one flush per engine step).
func (x *exchange) Flush() {
	if x.flusher != nil {
		x.flusher.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (x *exchange) Unwrap() http.ResponseWriter { return x.ResponseWriter }

// ---- pipeline.Trace ----

// serve runs prep on eng through the pipeline with the exchange as its
// ResponseWriter and Trace.
func (x *exchange) serve(ctx context.Context, eng engine.Engine, prep *preprocess.Prepared, opts pipeline.Options) error {
	x.promptTokens = int64(prep.Response.PromptTokens) // until the pipeline's usage
	x.generating = true
	x.trace = pipeline.Trace{Output: x.output, Usage: x.usage}
	opts.Trace = &x.trace
	return pipeline.ServeWith(ctx, x, eng, prep, opts)
}

// output meters an engine output: the first one's time is the time to
// first token, later ones feed the inter-token histogram.
func (x *exchange) output(*engine.Output) {
	now := time.Now()
	a := x.route
	if x.steps == 0 {
		x.first = now
		x.m.ttft[a].observe(seconds(now.Sub(x.start)))
	} else {
		x.m.itl[a].observe(seconds(now.Sub(x.last)))
	}
	x.last = now
	x.steps++
}

// usage takes the request's usage as the answer reports it.
func (x *exchange) usage(u protocols.Usage) {
	x.promptTokens, x.genTokens = u.PromptTokens, u.CompletionTokens
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
