// Command server is the harness-facing server: the OpenAI Chat
// Completions, Completions and Responses APIs and the Anthropic Messages
// API over agentwire's request and response halves, on the embedded
// scripted/replay engine (no downloads, no GPU) or a real engine.
//
//	go run ./examples/server                       # 127.0.0.1:8080, embedded engine
//	go run ./examples/server -upstream http://127.0.0.1:8000/v1 -model-dir DIR
//	go run ./examples/server -upstream http://10.0.0.1:8000/v1 -upstream http://10.0.0.2:8000/v1 -model-dir DIR
//
// The embedded engine serves the scripted agent under any model name (it
// calls a declared tool, preferring a shell tool with "echo hello", and
// answers once the result is back) and replays the captured engine
// streams of testdata/engine-streams as models "replay/<path>" (run from
// the repository root, or point -captures at them). With -upstream and
// -model-dir the server renders the model's chat template, tokenizes, and
// streams from the engine's completions API (vLLM by default; the engine
// runs without its own reasoning and tool parsers). With several -upstream
// (replicas of one model, no router) it spreads the requests over them
// with package balance: every turn of a session on one replica
// (-balance affinity) or the least busy (-balance least-in-flight). The
// session id goes upstream under -session-header for a router in front
// of the engines; README.md, "Several replicas, and behind a router", has
// the routers.
package main

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/agentwire/agentwire/preprocess"
	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/agentwire/agentwire/preprocess/engine/balance"
	"github.com/agentwire/agentwire/preprocess/pipeline"
	"github.com/agentwire/agentwire/preprocess/server"
	"github.com/agentwire/agentwire/preprocess/server/scripted"
	"github.com/agentwire/agentwire/protocols/convert"
	"github.com/agentwire/agentwire/protocols/responses"
)

type options struct {
	addr, apiKey                   string
	upstreams                      stringList
	modelDir, engine               string
	balance, sessionHeaders        string
	healthInterval                 time.Duration
	forwardPrefixes, saltHeader    string
	servedName, toolParser         string
	reasoningParser, captures      string
	maxConcurrent, maxModelLen     int
	maxConnections                 int
	maxBody, prefixCacheBytes      int64
	requestTimeout, drainTimeout   time.Duration
	bodyTimeout, writeTimeout      time.Duration
	idleTimeout, headerTimeout     time.Duration
	tokenDelay                     time.Duration
	logJSON, strict, stripPreamble bool
	reasoningSummary, anyModel     bool
	reasoningPassback              bool
	showThinking, toolDispatch     bool
	maxImages, maxImageBytes       int
	imageTokens                    int
	imagesViaChat                  bool
}

func parseFlags(args []string, stderr io.Writer) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.addr, "addr", "127.0.0.1:8080", "listen address")
	fs.Var(&o.upstreams, "upstream", "engine API root, e.g. http://127.0.0.1:8000/v1 (none: the embedded engine; \"scripted\": the scripted agent behind vLLM's protocol on a loopback port, to try the real-engine path without an engine); repeat it for several replicas of one model without a router (2–8; see -balance)")
	fs.StringVar(&o.balance, "balance", "affinity", "with several -upstream: affinity (every turn of a session on one replica, by rendezvous hash of the session id; least in flight without one) or least-in-flight")
	fs.DurationVar(&o.healthInterval, "health-interval", balance.DefaultProbeInterval, "with several -upstream: how often each replica's GET /health is checked (a failing one is ejected until it passes; 0: only failed requests eject)")
	fs.StringVar(&o.sessionHeaders, "session-header", strings.Join(server.DefaultSessionHeaders, ","), "comma-separated header names the session id is sent upstream under (for a router in front of the engines; \"none\": none)")
	fs.StringVar(&o.forwardPrefixes, "forward-header-prefix", strings.Join(server.DefaultForwardPrefixes, ","), "comma-separated prefixes of client headers passed through to the engine as they are (routing hints; \"none\": none)")
	fs.StringVar(&o.saltHeader, "cache-salt-header", "", "request header naming the tenant (set by the gateway in front): its hash becomes the request's vLLM cache_salt, so tenants never share prefix-cache blocks")
	fs.StringVar(&o.modelDir, "model-dir", "", "Hugging Face model directory (tokenizer.json, tokenizer_config.json, …); required with -upstream")
	fs.StringVar(&o.engine, "engine", "auto", "engine protocol: vllm (/v1/completions), sglang (native /generate), sglang-openai, trtllm; auto asks the upstream's /v1/models (owned_by) and falls back to vllm")
	fs.StringVar(&o.servedName, "served-model-name", "", "model name the engine serves and the server lists (default: the upstream's first model, else the model directory's name)")
	fs.StringVar(&o.toolParser, "tool-parser", "", "tool-call parser (default: the model family's; \"none\" disables)")
	fs.StringVar(&o.reasoningParser, "reasoning-parser", "", "reasoning parser (default: the model family's; \"none\" disables)")
	fs.IntVar(&o.maxModelLen, "max-model-len", 0, "context length (default: the model directory's config.json)")
	fs.StringVar(&o.captures, "captures", "testdata/engine-streams", "embedded engine: directory of captured engine streams served as models replay/<path>")
	fs.StringVar(&o.apiKey, "api-key", os.Getenv("AGENTWIRE_API_KEY"), "require this key (Authorization: Bearer KEY or x-api-key: KEY) on API routes; default $AGENTWIRE_API_KEY")
	fs.IntVar(&o.maxConcurrent, "max-concurrent", 256, "generation requests in flight before answering overloaded (0: no limit)")
	fs.Int64Var(&o.maxBody, "max-body-bytes", server.DefaultMaxBodyBytes, "request body limit in bytes, for reading and decoding alike (-1: none)")
	fs.DurationVar(&o.requestTimeout, "request-timeout", 30*time.Minute, "per-request time limit (0: none)")
	fs.DurationVar(&o.drainTimeout, "drain-timeout", 30*time.Second, "on SIGINT/SIGTERM, wait this long for in-flight streams, then end them with the API's error event")
	fs.DurationVar(&o.bodyTimeout, "body-timeout", server.DefaultBodyTimeout, "a request body must arrive within this (408 past it; the concurrency slot is taken after the body)")
	fs.DurationVar(&o.writeTimeout, "write-timeout", server.DefaultWriteTimeout, "each write to a client must complete within this: a client that stops reading is cut off and its engine request canceled")
	fs.IntVar(&o.maxConnections, "max-connections", server.DefaultMaxConnections, "client connections held open at once; past it new connections wait in the listen queue (0: no limit)")
	fs.DurationVar(&o.idleTimeout, "idle-timeout", server.DefaultIdleTimeout, "close keep-alive connections idle for this long")
	fs.DurationVar(&o.headerTimeout, "read-header-timeout", server.DefaultReadHeaderTimeout, "a request's headers must arrive within this")
	fs.Int64Var(&o.prefixCacheBytes, "prefix-cache-bytes", preprocess.DefaultPrefixCacheBytes, "with -model-dir: memory bound of the prompt prefix cache (token ids of recent accepted prompts)")
	fs.DurationVar(&o.tokenDelay, "token-delay", 5*time.Millisecond, "embedded engine: pause between tokens")
	fs.BoolVar(&o.logJSON, "log-json", false, "write JSON logs instead of text")
	fs.BoolVar(&o.strict, "strict", false, "reject request members the protocol types do not model")
	fs.BoolVar(&o.stripPreamble, "strip-anthropic-preamble", false, "remove Claude Code's per-session x-anthropic-billing-header line from the system prompt (keeps the prompt prefix cacheable)")
	fs.BoolVar(&o.reasoningSummary, "responses-reasoning-summary", true, "Responses: show reasoning summaries when the request asks for none (Codex's default)")
	fs.BoolVar(&o.reasoningPassback, "responses-reasoning-passback", true, "Responses: give every reasoning item its text as encrypted_content, asked for or not, so stateless clients (Qwen Code, OpenCode) send the reasoning back on the next turn")
	fs.BoolVar(&o.showThinking, "anthropic-thinking-default", false, "Anthropic: show thinking blocks to requests that do not set thinking (off: as the real API, reasoning is parsed and counted but not sent)")
	fs.BoolVar(&o.toolDispatch, "enable-streaming-tool-dispatch", false, "chat streams: add a tool_call_dispatch event as each tool call completes, so a harness can start the tool before the turn ends")
	fs.IntVar(&o.maxImageBytes, "max-image-bytes", preprocess.DefaultMaxImageBytes, "largest image a request may carry, decoded (Anthropic's limit: 5 MB); larger ones are the API's 400")
	fs.IntVar(&o.maxImages, "max-images", preprocess.DefaultMaxImages, "most images one request may carry (Anthropic's limit: 100)")
	fs.IntVar(&o.imageTokens, "image-tokens", 0, "with -model-dir: tokens reserved per image in the context check and the default max_tokens (0: the model family's; the engine expands each image's placeholder and reports the real count)")
	fs.BoolVar(&o.imagesViaChat, "images-via-chat", false, "with -upstream: send requests with images to the engine's own /v1/chat/completions (it renders, processes and parses them), for engines whose completions API takes no images (trtllm-serve, sglang-openai); other requests keep -engine's adapter")
	fs.BoolVar(&o.anyModel, "accept-any-model", true, "serve requests for any model name with the model (harnesses send their own names); false answers 404 as vLLM does")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if len(o.upstreams) > balance.MaxUpstreams {
		return nil, fmt.Errorf("%d upstreams: at most %d", len(o.upstreams), balance.MaxUpstreams)
	}
	if _, err := balance.ParsePolicy(o.balance); err != nil {
		return nil, fmt.Errorf("-balance: %w", err)
	}
	for _, name := range append(list(o.sessionHeaders), list(o.forwardPrefixes)...) {
		if !headerToken(name) {
			return nil, fmt.Errorf("header name %q: not an HTTP token", name)
		}
	}
	if (len(o.upstreams) == 0) != (o.modelDir == "") {
		return nil, errors.New("-upstream and -model-dir go together (the server renders and tokenizes with the model directory)")
	}
	return o, nil
}

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stderr, nil); err != nil {
		fmt.Fprintln(os.Stderr, "server:", err)
		os.Exit(1)
	}
}

// run serves until ctx is canceled or a signal arrives; ready, when not
// nil, receives the listening address.
func run(ctx context.Context, args []string, stderr io.Writer, ready chan<- string) error {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	var h slog.Handler = slog.NewTextHandler(stderr, nil)
	if o.logJSON {
		h = slog.NewJSONHandler(stderr, nil)
	}
	log := slog.New(h)
	metrics := server.NewMetrics()
	backend, desc, background, err := newBackend(o, log, metrics)
	if err != nil {
		return err
	}
	srv, err := server.New(server.Config{
		Metrics: metrics, Session: sessionConfig(o),
		Backend: backend, APIKey: o.apiKey, MaxBodyBytes: o.maxBody, RequestTimeout: o.requestTimeout,
		MaxConcurrent: o.maxConcurrent, Strict: o.strict, Logger: log, DrainTimeout: o.drainTimeout,
		BodyTimeout: noneIfZero(o.bodyTimeout), WriteTimeout: noneIfZero(o.writeTimeout),
		IdleTimeout: noneIfZero(o.idleTimeout), ReadHeaderTimeout: noneIfZero(o.headerTimeout),
		MaxConnections: noneIfZero(o.maxConnections),
		Pipeline:       pipeline.Options{Reasoning: responses.ReasoningPolicy{DefaultSummary: o.reasoningSummary, DefaultPassback: o.reasoningPassback}, ToolCallDispatch: o.toolDispatch},
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
	log.Info("listening", "addr", "http://"+ln.Addr().String(), "engine", desc, "auth", o.apiKey != "")
	if ready != nil {
		ready <- ln.Addr().String()
	}
	if background == nil {
		return srv.Serve(ctx, ln)
	}
	bg, bgStop := context.WithCancel(ctx)
	bgDone := make(chan struct{})
	go func() { defer close(bgDone); background(bg) }()
	err = srv.Serve(ctx, ln)
	bgStop()
	<-bgDone
	return err
}

// noneIfZero maps a flag's 0 ("none") to server.Config's "none" (< 0; 0
// there means the default).
func noneIfZero[T int | time.Duration](d T) T {
	if d == 0 {
		return -1
	}
	return d
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// list splits a comma-separated flag value ("none": empty).
func list(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" && s != "none" {
			out = append(out, s)
		}
	}
	return out
}

// headerToken reports whether name can be a header name (an HTTP token).
func headerToken(name string) bool {
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return false
		}
	}
	return name != ""
}

// sessionConfig is the server's session configuration from the flags.
func sessionConfig(o *options) server.SessionConfig {
	c := server.SessionConfig{Headers: list(o.sessionHeaders), ForwardPrefixes: list(o.forwardPrefixes)}
	if len(c.Headers) > 0 {
		c.ParentHeaders = server.DefaultParentHeaders
	}
	if h := o.saltHeader; h != "" {
		c.CacheSalt = func(r *server.Job) string {
			v := r.Header.Get(h)
			if v == "" {
				return ""
			}
			sum := sha256.Sum256([]byte(v))
			return hex.EncodeToString(sum[:16])
		}
	}
	return c
}

// newBackend builds the embedded backend or a model directory on one
// engine or, with several -upstream, on a balance.Balancer over them
// (whose per-upstream series are added to metrics, and whose health
// probes are the returned background function, run until its context
// ends; nil when there is none).
func newBackend(o *options, log *slog.Logger, metrics *server.Metrics) (server.Backend, string, func(context.Context), error) {
	if len(o.upstreams) == 0 {
		b := &scripted.Backend{PerToken: o.tokenDelay, StripBillingHeader: o.stripPreamble, ShowThinkingByDefault: o.showThinking,
			MaxImages: o.maxImages, MaxImageBytes: o.maxImageBytes}
		if o.captures != "" {
			recs, err := engine.LoadRecordings(o.captures)
			if err != nil {
				log.Warn("no replays", "captures", o.captures, "error", err)
			}
			b.Recordings = recs
		}
		return b, fmt.Sprintf("embedded (scripted agent, %d replays)", len(b.Models())-1), nil, nil
	}
	m, err := preprocess.LoadModel(o.modelDir, preprocess.ModelOptions{ToolParser: o.toolParser, ReasoningParser: o.reasoningParser,
		ContextLength: o.maxModelLen})
	if err != nil {
		return nil, "", nil, err
	}
	for i, u := range o.upstreams {
		if u != "scripted" {
			continue
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, "", nil, err
		}
		name := cmp.Or(o.servedName, m.Name)
		go func() { _ = http.Serve(ln, &scripted.VLLM{Tok: m.Tokenizer, Model: name}) }()
		o.upstreams[i] = "http://" + ln.Addr().String() + "/v1"
	}
	// Keep as many idle connections to the engine as requests may be in
	// flight (net/http keeps 2 per host: the rest would be reopened).
	cfg := engine.Config{APIKey: os.Getenv("AGENTWIRE_UPSTREAM_API_KEY"), MaxIdleConns: o.maxConcurrent}
	if o.maxConcurrent <= 0 {
		cfg.MaxIdleConns = 256
	}
	kind := o.engine
	if kind == "auto" || o.servedName == "" {
		var owner, id string
		for _, u := range o.upstreams { // the first that answers
			if owner, id = probe(u, cfg.APIKey); id != "" {
				break
			}
		}
		if kind == "auto" {
			kind = map[string]string{"sglang": "sglang-openai", "tensorrt_llm": "trtllm", "trtllm": "trtllm"}[owner]
			if kind == "" {
				kind = "vllm"
			}
		}
		if o.servedName == "" {
			o.servedName = id
		}
	}
	pre := preprocess.New(m, preprocess.Options{
		ServedModel:      o.servedName,
		PrefixCacheBytes: o.prefixCacheBytes,
		MaxImages:        o.maxImages,
		MaxImageBytes:    o.maxImageBytes,
		ImageTokens:      o.imageTokens,
		ImagesViaChat:    o.imagesViaChat,
		Anthropic:        convert.AnthropicOptions{StripBillingHeader: o.stripPreamble, ShowThinkingByDefault: o.showThinking},
		Warn:             func(msg string) { log.Warn(msg) },
	})
	var ups []balance.Upstream
	for _, u := range o.upstreams {
		cfg.BaseURL = u
		var eng engine.Engine
		switch kind {
		case "vllm":
			eng = engine.NewVLLM(engine.VLLMConfig{Config: cfg, TokenIDsOnly: true})
		case "sglang":
			eng = engine.NewSGLang(engine.SGLangConfig{Config: cfg, TokenIDsOnly: true})
		case "sglang-openai":
			eng = engine.NewSGLangCompletions(cfg)
		case "trtllm":
			eng = engine.NewTRTLLM(engine.TRTLLMConfig{Config: cfg})
		default:
			return nil, "", nil, fmt.Errorf("-engine %q: want auto, vllm, sglang, sglang-openai or trtllm", o.engine)
		}
		if o.imagesViaChat { // requests with images to this upstream's own chat endpoint
			eng = engine.ImageRouter{Engine: eng, Chat: engine.NewChat(engine.ChatConfig{Config: cfg})}
		}
		ups = append(ups, balance.Upstream{Name: u, Engine: eng})
	}
	if o.imagesViaChat {
		kind += " (images: chat)"
	}
	eng := ups[0].Engine
	where := ups[0].Name
	var background func(context.Context)
	if len(ups) > 1 {
		// Several replicas without a router: the hot path of one upstream
		// stays the adapter itself.
		policy, _ := balance.ParsePolicy(o.balance)
		bcfg := balance.Config{Upstreams: ups, Policy: policy}
		if o.healthInterval > 0 {
			bcfg.Probe, bcfg.ProbeInterval = healthProbe(cfg.APIKey, o.healthInterval), o.healthInterval
		}
		bal, err := balance.New(bcfg)
		if err != nil {
			return nil, "", nil, err
		}
		metrics.Add(bal)
		eng = bal
		if bcfg.Probe != nil {
			background = bal.Run
		}
		where = fmt.Sprintf("%d upstreams (%s: %s)", len(ups), o.balance, strings.Join(o.upstreams, ", "))
	}
	name := o.servedName
	if name == "" {
		name = m.Name
	}
	desc := fmt.Sprintf("%s at %s, model %s (tool parser %q, reasoning parser %q)", kind, where, name, m.ToolParser, m.ReasoningParser)
	return &server.ModelBackend{Preprocessor: pre, Engine: eng, Name: name, AcceptAnyModel: o.anyModel}, desc, background, nil
}

// healthProbe checks an upstream with GET <root>/health (vLLM, SGLang
// and trtllm-serve answer it): a transport error or a 5xx fails, anything
// else (a server without the route, 404) passes. Each probe ends within
// the interval, at most 2 s.
func healthProbe(key string, interval time.Duration) func(context.Context, balance.Upstream) error {
	timeout := min(interval, 2*time.Second)
	return func(ctx context.Context, u balance.Upstream) error {
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		root := strings.TrimSuffix(strings.TrimRight(u.Name, "/"), "/v1")
		req, err := http.NewRequestWithContext(ctx, "GET", root+"/health", nil)
		if err != nil {
			return err
		}
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
		resp.Body.Close()
		if resp.StatusCode >= 500 {
			return fmt.Errorf("health: %s", resp.Status)
		}
		return nil
	}
}

// probe asks the upstream's OpenAI-compatible /v1/models which server it
// is (owned_by: vllm, sglang, tensorrt_llm) and what it serves (the first
// id). Failures give empty answers: the flags' defaults apply.
func probe(base, key string) (owner, id string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", strings.TrimSuffix(strings.TrimSuffix(base, "/"), "/v1")+"/v1/models", nil)
	if err != nil {
		return "", ""
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", ""
	}
	defer resp.Body.Close()
	var list struct {
		Data []struct {
			ID      string `json:"id"`
			OwnedBy string `json:"owned_by"`
		} `json:"data"`
	}
	if resp.StatusCode != 200 || json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&list) != nil || len(list.Data) == 0 {
		return "", ""
	}
	return strings.ToLower(list.Data[0].OwnedBy), list.Data[0].ID
}
