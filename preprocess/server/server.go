package server

import (
	"context"
	"crypto/subtle"
	"errors"
	"log/slog"
	"math"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/agentwire/agentwire/preprocess/api"
	"github.com/agentwire/agentwire/preprocess/pipeline"
	"github.com/agentwire/agentwire/protocols"
)

// DefaultMaxBodyBytes is the request body limit when Config.MaxBodyBytes
// is 0: the decoders' default, protocols.MaxRequestBytes (32 MiB, the
// Anthropic Messages API's own limit). Real agent requests are 50–500 KB;
// long sessions with images reach a few MB.
const DefaultMaxBodyBytes = protocols.MaxRequestBytes

// Config configures a Server. Only Backend is required.
type Config struct {
	Backend Backend

	// APIKey, when not empty, makes every API route require
	// "Authorization: Bearer KEY" or "x-api-key: KEY" (compared in
	// constant time); others get 401 in the API's error shape. /health
	// and /metrics stay open (as vLLM's --api-key leaves them).
	APIKey string

	// MaxBodyBytes limits request bodies (413 in the API's shape); 0 means
	// DefaultMaxBodyBytes, < 0 no limit. It is the one body limit: the
	// request decoders are given it in place of their own default.
	MaxBodyBytes int64

	// RequestTimeout bounds one request from arrival to its last byte (0:
	// none). A stream that runs past it ends with the API's in-stream
	// error event; a request that has not answered yet gets 504.
	RequestTimeout time.Duration

	// MaxConcurrent bounds the generation requests in flight (0: no
	// limit). Requests past it are answered at once with the API's
	// overloaded error: Anthropic 529 overloaded_error (Claude Code
	// retries it), OpenAI and Responses 503.
	MaxConcurrent int

	// Strict rejects request members the protocol types do not model
	// (each API's own 400), instead of keeping them.
	Strict bool

	// Logger receives one record per request (nil: slog.Default()).
	Logger *slog.Logger

	// Metrics is the registry served on /metrics (nil: a new one).
	Metrics *Metrics

	// Pipeline configures the response pipeline.
	Pipeline pipeline.Options

	// Session configures the session id, session and routing headers and
	// cache salt sent to the engine (SessionConfig; the zero value sends
	// none of them).
	Session SessionConfig

	// DrainTimeout bounds how long Serve waits for in-flight requests
	// (streams included) after its context is canceled; the streams still
	// running then end with the API's error event (overloaded: the
	// clients retry elsewhere) and the remaining connections are closed
	// (0: 30 s).
	DrainTimeout time.Duration

	// BodyTimeout bounds the time a request body takes to arrive, from
	// the handler's start (0: DefaultBodyTimeout, < 0: none). A body still
	// arriving then is answered 408 in the API's shape. The concurrency
	// slot is taken only once the body is in, so a slow upload holds a
	// connection, never a slot.
	BodyTimeout time.Duration

	// WriteTimeout bounds every write to the client (0:
	// DefaultWriteTimeout, < 0: none): a client that stops reading its
	// stream blocks the server's writes once the connection's buffers are
	// full; after WriteTimeout the stream ends and its engine request is
	// canceled (pipeline.Options.WriteTimeout, unless Pipeline sets one).
	WriteTimeout time.Duration

	// ReadHeaderTimeout, IdleTimeout and MaxHeaderBytes configure the
	// http.Server that Serve runs (0: DefaultReadHeaderTimeout,
	// DefaultIdleTimeout, DefaultMaxHeaderBytes; < 0: none, net/http's
	// default for MaxHeaderBytes): the time to send a request's headers,
	// how long an idle keep-alive connection stays open, the size of the
	// headers. A Server used as an http.Handler in another http.Server
	// takes that server's values instead.
	ReadHeaderTimeout time.Duration
	IdleTimeout       time.Duration
	MaxHeaderBytes    int

	// MaxConnections bounds the client connections Serve holds open at
	// once (0: DefaultMaxConnections, < 0: none). At the bound Serve stops
	// accepting: new connections wait in the kernel's listen queue until
	// one closes (an idle keep-alive connection within IdleTimeout, one
	// that is slow to send its headers within ReadHeaderTimeout). A client
	// that opens connections without end thus cannot take the process's
	// file descriptors, which the connections to the engine need too.
	MaxConnections int
}

// Defaults of Config.
const (
	DefaultBodyTimeout       = 60 * time.Second
	DefaultWriteTimeout      = 60 * time.Second
	DefaultReadHeaderTimeout = 10 * time.Second
	DefaultIdleTimeout       = 120 * time.Second
	DefaultMaxHeaderBytes    = 64 << 10
	DefaultMaxConnections    = 4096
)

// maxModelNameBytes bounds the model name of a request: a name is echoed
// in every chunk of a stream and in the logs, so a longer one is answered
// 400 (real names are under 100 bytes).
const maxModelNameBytes = 256

// errShuttingDown ends the streams still running when the drain timeout
// expires: overloaded, which clients retry.
var errShuttingDown = &protocols.Error{Kind: protocols.ErrorOverloaded,
	Message: "The server is shutting down; retry the request."}

// Server is the harness-facing HTTP server: the OpenAI, Anthropic and
// Responses routes over a Backend, with access control, limits, metrics
// and logs. It is an http.Handler; Serve runs it with graceful shutdown.
type Server struct {
	cfg          Config
	mux          *http.ServeMux
	log          *slog.Logger
	metrics      *Metrics
	sem          chan struct{}
	key          []byte
	maxBody      int64 // 0: none
	decodeMax    int   // the decoders' MaxBytes: maxBody, or -1 for none
	bodyTimeout  time.Duration
	pipelineOpts pipeline.Options
	draining     atomic.Bool
	active       atomic.Int64 // API requests being handled
}

// New returns a Server for cfg.
func New(cfg Config) (*Server, error) {
	if cfg.Backend == nil {
		return nil, errors.New("server: Config.Backend is nil")
	}
	s := &Server{cfg: cfg, mux: http.NewServeMux(), log: cfg.Logger, metrics: cfg.Metrics}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.metrics == nil {
		s.metrics = NewMetrics()
	}
	if cfg.MaxConcurrent > 0 {
		s.sem = make(chan struct{}, cfg.MaxConcurrent)
	}
	if cfg.APIKey != "" {
		s.key = []byte(cfg.APIKey)
	}
	switch {
	case cfg.MaxBodyBytes == 0:
		s.maxBody = DefaultMaxBodyBytes
	case cfg.MaxBodyBytes > 0:
		s.maxBody = cfg.MaxBodyBytes
	}
	s.decodeMax = -1
	if s.maxBody > 0 && s.maxBody <= math.MaxInt {
		s.decodeMax = int(s.maxBody)
	}
	s.bodyTimeout = orDefault(cfg.BodyTimeout, DefaultBodyTimeout)
	s.pipelineOpts = cfg.Pipeline
	if s.pipelineOpts.WriteTimeout == 0 {
		s.pipelineOpts.WriteTimeout = orDefault(cfg.WriteTimeout, DefaultWriteTimeout)
	}
	s.routes()
	return s, nil
}

// orDefault resolves a Config duration or bound: 0 is def, negative is
// none (0).
func orDefault[T int | time.Duration](d, def T) T {
	switch {
	case d == 0:
		return def
	case d < 0:
		return 0
	}
	return d
}

// Metrics returns the server's metric registry.
func (s *Server) Metrics() *Metrics { return s.metrics }

// ServeHTTP dispatches to the routes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// routes is the route table. Generation routes are POST; /v1/models/{id...}
// takes slashed ids (Qwen/Qwen3-32B).
func (s *Server) routes() {
	for route, a := range api.All() {
		s.mux.Handle("POST "+a.Path(), s.generate(route, a))
	}
	s.mux.Handle("POST /v1/messages/count_tokens", s.handle(routeCountTokens, api.Messages, s.countTokens))
	s.mux.Handle("GET /v1/models", s.handle(routeModels, api.Chat, s.listModels))
	s.mux.Handle("GET /v1/models/{id...}", s.handle(routeModels, api.Chat, s.getModel))
	s.mux.Handle("POST /tokenize", s.handle(routeTokenize, api.Chat, s.tokenize))
	s.mux.Handle("POST /detokenize", s.handle(routeDetokenize, api.Chat, s.detokenize))
	s.mux.HandleFunc("GET /health", s.health)
	s.mux.Handle("GET /metrics", s.metrics)
}

// health answers 200 while serving and 503 while draining (so a load
// balancer stops sending new work during a graceful shutdown).
func (s *Server) health(w http.ResponseWriter, _ *http.Request) {
	if s.draining.Load() {
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	w.WriteHeader(http.StatusOK)
}

// authorized checks the API key: "Authorization: Bearer KEY" (OpenAI
// clients) or "x-api-key: KEY" (Anthropic clients), in constant time.
func (s *Server) authorized(r *http.Request) bool {
	if s.key == nil {
		return true
	}
	if v, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && subtle.ConstantTimeCompare([]byte(v), s.key) == 1 {
		return true
	}
	if v := r.Header.Get("X-Api-Key"); v != "" && subtle.ConstantTimeCompare([]byte(v), s.key) == 1 {
		return true
	}
	return false
}

// acquire takes a concurrency slot without waiting.
func (s *Server) acquire() bool {
	if s.sem == nil {
		return true
	}
	select {
	case s.sem <- struct{}{}:
		return true
	default:
		return false
	}
}

func (s *Server) release() {
	if s.sem != nil {
		<-s.sem
	}
}

// Serve serves on ln until ctx is canceled, then shuts down gracefully:
// /health turns 503, the listener closes, in-flight requests (streams
// included) run to their end for up to Config.DrainTimeout; the streams
// still running then end with the API's error event (overloaded, "the
// server is shutting down"), and the connections still open after a short
// grace are closed (their engines stop). The http.Server it runs has
// Config's ReadHeaderTimeout, IdleTimeout and MaxHeaderBytes, and holds
// at most Config.MaxConnections connections open. It returns
// nil after a graceful shutdown.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	base, stop := context.WithCancelCause(context.Background())
	defer stop(nil)
	hs := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: orDefault(s.cfg.ReadHeaderTimeout, DefaultReadHeaderTimeout),
		IdleTimeout:       orDefault(s.cfg.IdleTimeout, DefaultIdleTimeout),
		MaxHeaderBytes:    max(s.cfg.MaxHeaderBytes, 0),
		BaseContext:       func(net.Listener) context.Context { return base },
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	if s.cfg.MaxHeaderBytes == 0 {
		hs.MaxHeaderBytes = DefaultMaxHeaderBytes
	}
	if n := orDefault(s.cfg.MaxConnections, DefaultMaxConnections); n > 0 {
		ln = limitListener(ln, n)
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	s.draining.Store(true)
	drain := s.cfg.DrainTimeout
	if drain <= 0 {
		drain = 30 * time.Second
	}
	s.log.Info("draining", "in_flight", s.metrics.Running(), "timeout", drain)
	sctx, cancel := context.WithTimeout(context.Background(), drain)
	defer cancel()
	err := hs.Shutdown(sctx)
	if err != nil {
		// End the streams that are left with the API's error event, give
		// the handlers a moment to write it, then close what remains.
		s.log.Warn("drain timed out; ending the streams in flight", "in_flight", s.metrics.Running())
		stop(errShuttingDown)
		for deadline := time.Now().Add(drainGrace); s.active.Load() > 0 && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
		_ = hs.Close()
	}
	<-errc
	if errors.Is(err, context.DeadlineExceeded) {
		return nil
	}
	return err
}

// drainGrace is how long the handlers of streams ended at the drain
// timeout get to write their error event before their connections close.
const drainGrace = 2 * time.Second
