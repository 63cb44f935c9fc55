package server

import (
	"context"
	"crypto/subtle"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/agentwire/agentwire/preprocess"
	"github.com/agentwire/agentwire/preprocess/pipeline"
)

// DefaultMaxBodyBytes is the request body limit when Config.MaxBodyBytes
// is 0: 32 MiB, the Anthropic Messages API's own limit. Real agent
// requests are 50–500 KB; long sessions with images reach a few MB.
const DefaultMaxBodyBytes = 32 << 20

// Config configures a Server. Only Backend is required.
type Config struct {
	Backend Backend

	// APIKey, when not empty, makes every API route require
	// "Authorization: Bearer KEY" or "x-api-key: KEY" (compared in
	// constant time); others get 401 in the API's error shape. /health
	// and /metrics stay open (as vLLM's --api-key leaves them).
	APIKey string

	// MaxBodyBytes limits request bodies (413 in the API's shape); 0 means
	// DefaultMaxBodyBytes, < 0 no limit.
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

	// DrainTimeout bounds how long Serve waits for in-flight requests
	// (streams included) after its context is canceled before it closes
	// the remaining connections (0: 30 s).
	DrainTimeout time.Duration
}

// Server is the harness-facing HTTP server: the OpenAI, Anthropic and
// Responses routes over a Backend, with access control, limits, metrics
// and logs. It is an http.Handler; Serve runs it with graceful shutdown.
type Server struct {
	cfg      Config
	mux      *http.ServeMux
	log      *slog.Logger
	metrics  *Metrics
	sem      chan struct{}
	key      []byte
	maxBody  int64
	draining atomic.Bool
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
	s.routes()
	return s, nil
}

// Metrics returns the server's metric registry.
func (s *Server) Metrics() *Metrics { return s.metrics }

// ServeHTTP dispatches to the routes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// routes is the route table. Generation routes are POST; /v1/models/{id...}
// takes slashed ids (Qwen/Qwen3-32B).
func (s *Server) routes() {
	s.mux.Handle("POST /v1/chat/completions", s.generate(routeChat, preprocess.APIChat))
	s.mux.Handle("POST /v1/completions", s.generate(routeCompletions, preprocess.APICompletions))
	s.mux.Handle("POST /v1/messages", s.generate(routeMessages, preprocess.APIMessages))
	s.mux.Handle("POST /v1/responses", s.generate(routeResponses, preprocess.APIResponses))
	s.mux.Handle("POST /v1/messages/count_tokens", s.handle(routeCountTokens, preprocess.APIMessages, s.countTokens))
	s.mux.Handle("GET /v1/models", s.handle(routeModels, preprocess.APIChat, s.listModels))
	s.mux.Handle("GET /v1/models/{id...}", s.handle(routeModels, preprocess.APIChat, s.getModel))
	s.mux.Handle("POST /tokenize", s.handle(routeTokenize, preprocess.APIChat, s.tokenize))
	s.mux.Handle("POST /detokenize", s.handle(routeDetokenize, preprocess.APIChat, s.detokenize))
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
// included) run to their end for up to Config.DrainTimeout, and the
// connections still open after that are closed (their engines stop).
// It returns nil after a graceful shutdown.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 30 * time.Second,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
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
		s.log.Warn("drain timed out; closing connections", "in_flight", s.metrics.Running())
		_ = hs.Close()
	}
	<-errc
	if errors.Is(err, context.DeadlineExceeded) {
		return nil
	}
	return err
}
