// Package server is the harness-facing HTTP layer around agentwire. Start
// at New: a Config with a Backend (ModelBackend: a preprocess.Preprocessor
// and an engine) gives a Server to serve with Serve or as an http.Handler.
//
// It is what a serving team would otherwise write by hand: the route table
// of the OpenAI, Anthropic and Responses APIs over a Backend (which
// prepares each request and names its engine) and the response pipeline,
// with the operations a production endpoint needs.
//
// # Routes
//
//	POST /v1/chat/completions      OpenAI Chat Completions (stream or not)
//	POST /v1/completions           OpenAI Completions
//	POST /v1/responses             OpenAI Responses (Codex)
//	POST /v1/messages              Anthropic Messages (Claude Code; ?beta=true is accepted)
//	POST /v1/messages/count_tokens Anthropic token count (the Backend's TokenCounter, else an estimate)
//	GET  /v1/models                model list: Anthropic shape when the request carries
//	                               anthropic-version, else OpenAI's
//	GET  /v1/models/{id...}        one model; ids may contain slashes (Qwen/Qwen3-32B)
//	POST /tokenize, /detokenize    vLLM's shapes (the Backend's Tokenizer, else 501)
//	GET  /health                   200, or 503 while draining
//	GET  /metrics                  Prometheus text format
//
// Generation requests are read (within BodyTimeout), given a concurrency
// slot, decoded and checked by their route's API (package
// preprocess/api: its decoder's own 400s, then a model name of at most
// 256 bytes, then api.Request.Check: messages, prompt or input
// present, max_tokens and n at least 1), handed to Backend.Prepare as a
// Job, and served by the response pipeline (package pipeline) on the
// engine Prepare names: streamed with one flush per engine step, or unary
// from the same events. The generation routes are api.All's; nothing here
// decides by the API.
//
// # Sessions and routers
//
// Every generation request gets a session id (SessionID): the harness's
// own session header (X-Dynamo-Session-ID; Claude Code's
// x-claude-code-agent-id for a subagent, else x-claude-code-session-id;
// OpenCode's x-session-affinity and x-session-id; Codex's session-id or
// session_id), else the identity its body carries
// (api.Request.SessionKey: metadata.user_id, prompt_cache_key, hashed so
// that a user id never leaves in clear), else a hash of the
// conversation's first turn. It is the same on every turn of
// an agent session, so a router in front of several engines can keep the
// session on the replica that holds its KV cache. The id is set as
// engine.Request.SessionID (package balance keys its affinity on it) and
// sent upstream under each of Config.Session.Headers
// (DefaultSessionHeaders: Dynamo's, llm-d's and SGLang's gateway's
// names), a subagent's parent session under Config.Session.ParentHeaders
// (SessionConfig says where its id comes from); client headers under Config.Session.ForwardPrefixes (x-dynamo-*,
// x-llm-d-*) pass through, credentials never; Config.Session.CacheSalt
// gives a request its vLLM cache_salt (one salt per tenant keeps tenants'
// prefix-cache blocks apart).
//
// # Operations
//
// Access control (Config.APIKey) works as vLLM's --api-key: every API
// route requires "Authorization: Bearer KEY" (OpenAI clients) or
// "x-api-key: KEY" (Anthropic clients), compared in constant time; a
// missing or wrong key is answered 401 in the route's error shape
// (Anthropic authentication_error, OpenAI invalid_api_key). /health and
// /metrics stay open.
//
// Limits: request bodies past Config.MaxBodyBytes get 413, bodies that
// have not arrived within Config.BodyTimeout 408; a request that runs past
// Config.RequestTimeout ends (504 before the first byte, the API's
// in-stream error event after); requests that work with the model
// (generation, count_tokens, /tokenize, /detokenize) past
// Config.MaxConcurrent are answered at once with the API's overloaded
// error (Anthropic 529 overloaded_error, which Claude Code retries;
// OpenAI and Responses 503) — the slot is taken once the body is in, so a
// slow upload never holds one. Every write to a client must complete
// within Config.WriteTimeout: a client that stops reading its stream is
// cut off and its engine request canceled, as is the engine request of a
// client that disconnects. Serve's http.Server closes connections whose
// headers take longer than ReadHeaderTimeout and keep-alive connections
// idle for IdleTimeout, and holds at most Config.MaxConnections open (the
// rest wait in the listen queue). A panic in a handler (a bug) is logged with its
// stack and answered 500 in the API's shape. examples/server/README.md
// has the resource model: what each limit bounds and the memory a request
// and a connection can hold.
//
// Errors: the server's own (401, 408, 413, 400, 501, overloaded) are
// protocols.Error values, rendered by the route's API like every other
// error (api.API.ErrorBody); the client reads the API's error shape with a
// message that never carries engine addresses, transport errors or parser
// and template internals (protocols.ErrorOf); engine answers that mean the server
// itself is misconfigured (401, 403, 404 from the engine) are 5xx to the
// client and logged at Error with the engine's detail.
//
// Graceful shutdown: Serve, when its context is canceled, turns /health
// to 503, stops accepting connections, lets in-flight requests (streams
// included) finish for up to Config.DrainTimeout, then ends the streams
// still running with the API's error event (overloaded: "the server is
// shutting down") and closes what is left.
//
// Logs: one log/slog record per request ("request") with request_id (minted
// by the server for every request and sent to the engine as its request
// id; Anthropic's request-id header), client_request_id (the client's
// X-Request-Id, echoed back in X-Request-Id), session_id, route, status, duration,
// model (at most 256 bytes), stream, prompt_tokens,
// completion_tokens, ttft and error. Failures log at Warn, the server's own
// failures (5xx other than overloaded) at Error.
//
// Metrics (the Prometheus text format, no client library):
// agentwire_requests_total{route,code}, agentwire_request_errors_total,
// agentwire_requests_rejected_total, agentwire_requests_running,
// agentwire_prompt_tokens_total and agentwire_generation_tokens_total by
// API, and histograms agentwire_time_to_first_token_seconds (arrival to
// the first engine output), agentwire_inter_token_latency_seconds (between
// engine outputs) and agentwire_request_duration_seconds by API. Tokens
// (and the log's prompt_tokens and completion_tokens) are the usage the
// answer reports, observed through pipeline.Options.Trace: the pipeline
// counts them once, for the client and the metrics alike. Metrics.Add
// appends series of others to every scrape (the per-upstream series of a
// balance.Balancer).
package server
