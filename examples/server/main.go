// Command server is the harness-facing server: the OpenAI Chat
// Completions, Completions and Responses APIs and the Anthropic Messages
// API over agentwire's request and response halves, on the embedded
// scripted/replay engine (no downloads, no GPU) or a real engine.
//
//	go run ./examples/server                       # 127.0.0.1:8080, embedded engine
//	go run ./examples/server -upstream http://127.0.0.1:8000/v1 -model-dir DIR
//
// See the package README (README text in the repository) for curl, SDK,
// Claude Code and Codex examples.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/agentwire/agentwire/preprocess/server"
	"github.com/agentwire/agentwire/preprocess/server/scripted"
)

type options struct {
	addr           string
	apiKey         string
	maxConcurrent  int
	maxBody        int64
	requestTimeout time.Duration
	drainTimeout   time.Duration
	tokenDelay     time.Duration
	logJSON        bool
	strict         bool
	stripPreamble  bool
	reasoningDef   bool
}

func parseFlags(args []string, stderr io.Writer) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.addr, "addr", "127.0.0.1:8080", "listen address")
	fs.StringVar(&o.apiKey, "api-key", os.Getenv("AGENTWIRE_API_KEY"), "require this key (Authorization: Bearer KEY or x-api-key: KEY) on API routes; default $AGENTWIRE_API_KEY")
	fs.IntVar(&o.maxConcurrent, "max-concurrent", 256, "generation requests in flight before answering overloaded (0: no limit)")
	fs.Int64Var(&o.maxBody, "max-body-bytes", server.DefaultMaxBodyBytes, "request body limit in bytes")
	fs.DurationVar(&o.requestTimeout, "request-timeout", 30*time.Minute, "per-request time limit (0: none)")
	fs.DurationVar(&o.drainTimeout, "drain-timeout", 30*time.Second, "on SIGINT/SIGTERM, wait this long for in-flight streams")
	fs.DurationVar(&o.tokenDelay, "token-delay", 5*time.Millisecond, "embedded engine: pause between tokens")
	fs.BoolVar(&o.logJSON, "log-json", false, "write JSON logs instead of text")
	fs.BoolVar(&o.strict, "strict", false, "reject request members the protocol types do not model")
	fs.BoolVar(&o.stripPreamble, "strip-anthropic-preamble", false, "remove Claude Code's per-session x-anthropic-billing-header line from the system prompt (keeps the prompt prefix cacheable)")
	fs.BoolVar(&o.reasoningDef, "responses-reasoning-summary", true, "Responses: show reasoning when the request asks for no summary (Codex's default)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	return o, nil
}

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "server:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stderr io.Writer) error {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	var h slog.Handler = slog.NewTextHandler(stderr, nil)
	if o.logJSON {
		h = slog.NewJSONHandler(stderr, nil)
	}
	log := slog.New(h)
	backend := &scripted.Backend{
		Engine:                  &scripted.Engine{TokenDelay: o.tokenDelay},
		StripBillingHeader:      o.stripPreamble,
		ReasoningSummaryDefault: o.reasoningDef,
	}
	srv, err := server.New(server.Config{
		Backend:        backend,
		APIKey:         o.apiKey,
		MaxBodyBytes:   o.maxBody,
		RequestTimeout: o.requestTimeout,
		MaxConcurrent:  o.maxConcurrent,
		Strict:         o.strict,
		Logger:         log,
		DrainTimeout:   o.drainTimeout,
	})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	log.Info("listening", "addr", "http://"+ln.Addr().String(), "engine", "embedded", "auth", o.apiKey != "")
	return srv.Serve(ctx, ln)
}
