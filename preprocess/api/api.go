package api

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/convert"
	"github.com/agentwire/agentwire/protocols/openai"
	"github.com/agentwire/agentwire/protocols/responses"
)

// API is one harness API: everything in which the APIs differ. A server
// route holds one API value and carries it, in the request, to the bytes;
// no other code decides anything by the API. Implementations are
// stateless and safe for concurrent use; they are comparable (map keys).
type API interface {
	// String is the API's short name: "chat", "completions", "messages",
	// "responses" (metric labels, logs).
	String() string
	// Path is the route the API is served on ("/v1/chat/completions").
	Path() string

	// Decode decodes a request body. Errors are the API's own (400, 413).
	Decode(body []byte, opts DecodeOptions) (Request, error)

	// RawText reports whether answers carry the engine's text as it is,
	// with no gate, parser or whitespace framing (Completions).
	RawText() bool
	// NewWriter returns a writer of this API's answers (a response
	// pipeline keeps one per API and reuses it).
	NewWriter() Writer

	// SetHeader sets the API's own response headers for a request
	// (Anthropic's request-id).
	SetHeader(h http.Header, requestID string)
	// ErrorBody returns the status and JSON body that answer err before
	// the first byte of the response: an error already in an API's shape
	// (protocols.APIError: the decoders' errors) as it is, any other in
	// this API's shape for what a client may read of it
	// (protocols.ErrorOf). The in-stream form is the emitters' FailError.
	ErrorBody(err error) (status int, body []byte)
	// APIError returns e as this API's error value (*openai.APIError,
	// *anthropic.APIError, *responses.APIError), for errors that unwrap
	// to the API's own.
	APIError(e *protocols.Error) protocols.APIError
}

// DecodeOptions configure API.Decode.
type DecodeOptions struct {
	// Strict rejects request members the protocol types do not model
	// (each API's own 400), instead of keeping them.
	Strict bool
	// MaxBytes is the largest body accepted (the API's 413 beyond it): 0
	// means protocols.MaxRequestBytes, a negative value no limit.
	MaxBytes int
}

// Request is one decoded request of one API (its own protocol type,
// wrapped).
type Request interface {
	// API is the API the request arrived on.
	API() API
	// Model is the model the client asked for; Stream whether it asked
	// for a stream.
	Model() string
	Stream() bool
	// Check applies the checks every request of the API passes before it
	// is prepared, each failure the API's 400: something to answer (chat
	// messages, a completions prompt, Responses input; Anthropic's own
	// rules run at decoding) and output limits and choice counts of at
	// least 1 when given (max_tokens, max_completion_tokens,
	// max_output_tokens, n).
	Check() error
	// Translate narrows the request to what the preprocessor works on
	// (see Translation). Errors are the API's own.
	Translate(opts TranslateOptions) (*Translation, error)
	// SessionKey is the conversation identity the body carries, the same
	// on every turn of a session: the API's own field (Messages
	// metadata.user_id, Claude Code's session_id inside it; Chat and
	// Responses prompt_cache_key), else a hash of the conversation's
	// first turn (FirstTurnPrefix and hex digits: the text of the system
	// prompt and of the messages up to and including the first user
	// message, 64 KiB of each string at most), else ""
	// (Completions: a prompt has no turns). Not bounded or sanitized: the
	// caller does that before sending it anywhere.
	SessionKey() string
}

// TranslateOptions configure Request.Translate: the translation of the
// Anthropic and Responses APIs to the chat request.
type TranslateOptions struct {
	Anthropic convert.AnthropicOptions
	Responses convert.ResponsesOptions
}

// Translation is a request narrowed to what the preprocessor works on:
// the chat completion request every chat-shaped API narrows to before the
// chat template (the hourglass), or the completions request whose prompt
// is sent as it is; and what the answer needs of the original request.
type Translation struct {
	// Exactly one of Chat and Completion is set.
	Chat       *openai.ChatRequest
	Completion *openai.CompletionRequest

	// Stream says whether the client asked for a stream; Model, when not
	// empty, is the model name the answer echoes (else Chat's).
	Stream bool
	Model  string

	// Anthropic and Responses are the translation contexts of requests
	// that arrived on those APIs: their answers need them (model, tool
	// declarations, namespaces, reasoning passback).
	Anthropic *convert.AnthropicContext
	Responses *convert.ResponsesContext

	// HideReasoning: the answer parses and counts reasoning but does not
	// show it (Anthropic without thinking enabled).
	HideReasoning bool

	// ReplayToolArgs: the client holds tool-call arguments as objects and
	// sends them back re-serialised (Anthropic), so the preprocessor
	// replays the argument text the server emitted for each call id, and
	// the answer records it (WriterConfig.ToolArgs).
	ReplayToolArgs bool
}

// Writer writes the answers of one API: it owns the emitters of a
// response's choices and builds the unary answer. One writer serves one
// request at a time; Reset prepares it for the next, keeping its buffers.
type Writer interface {
	// Reset prepares the writer for a request. cfg is read during the
	// call and by the calls that follow until the next Reset.
	Reset(cfg *WriterConfig)
	// Emitter returns the emitter of choice i (0 ≤ i < cfg.N), reset for
	// the request: a stream's emitter, or an aggregator for a unary
	// answer. Choices an API cannot carry (past the first on Anthropic
	// Messages and Responses) get an emitter that writes nothing.
	Emitter(i int) protocols.Emitter
	// Unary returns the unary answer, built from what the choices'
	// emitters aggregated, once every choice has finished
	// (FinishChoice): *openai.ChatResponse, *openai.CompletionResponse,
	// *anthropic.Response or *responses.Response.
	Unary(usage protocols.Usage) any
}

// WriterConfig is what a writer needs of one request.
type WriterConfig struct {
	// RequestID names the response (chat and completions ids); when empty
	// one is minted from IDs.
	RequestID string
	// Model is the model name the answer reports; Created its Unix time.
	Model   string
	Created int64
	// N is the number of choices; Stream whether the answer is streamed.
	N      int
	Stream bool

	// IncludeUsage sends the usage chunk (chat and completions
	// stream_options.include_usage); Logprobs passes log probabilities
	// through (chat and completions).
	IncludeUsage bool
	Logprobs     bool
	// PromptTokens and CachedTokens are the prompt counts known before
	// generation (Anthropic's message_start).
	PromptTokens int64
	CachedTokens int64

	// IDs mints the ids of the answer; Now is the clock (Responses'
	// created_at and completed_at).
	IDs protocols.IDSource
	Now func() time.Time

	// Reasoning is the server's reasoning policy on the Responses API;
	// ToolCallDispatch adds the tool_call_dispatch side channel to chat
	// streams (openai.EmitterConfig).
	Reasoning        responses.ReasoningPolicy
	ToolCallDispatch bool

	// Anthropic and Responses are Translation's contexts.
	Anthropic *convert.AnthropicContext
	Responses *convert.ResponsesContext
	// ToolArgs, when not nil, receives the argument text the answer
	// emitted for each tool call id it minted (Translation.ReplayToolArgs).
	ToolArgs ToolArgs
}

// requestID returns the id the answer is named after.
func (c *WriterConfig) requestID() string {
	if c.RequestID != "" {
		return c.RequestID
	}
	return c.IDs.New("")
}

// ToolArgs records the argument text an answer emitted under each tool
// call id it minted (preprocess.ToolArgs).
type ToolArgs interface {
	Put(id string, args []byte)
}

// MaxToolArgsBytes bounds the argument text recorded for one call: longer
// texts are not kept (their call falls back to the client's object).
const MaxToolArgsBytes = 64 << 10

// All returns the registered APIs, in the order of their metric labels.
// Adding an API is a file in this package and a line here.
func All() []API { return []API{Chat, Completions, Messages, Responses} }

// WriteError answers err in a's shape (status and body; see
// API.ErrorBody). Use it only before the first byte of the response was
// written. A client that went away (StatusClientClosed) gets nothing.
func WriteError(w http.ResponseWriter, a API, err error) {
	status, body := a.ErrorBody(err)
	if status == StatusClientClosed {
		return // nobody is listening
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// StatusClientClosed is the status every API records (never sends: the
// client is gone) for a request whose client went away, as nginx logs it.
const StatusClientClosed = 499

// errorBody is ErrorBody for an API whose neutral errors shape renders.
func errorBody(err error, shape func(*protocols.Error) (int, []byte)) (int, []byte) {
	var ae protocols.APIError
	if errors.As(err, &ae) {
		return ae.StatusBody()
	}
	return shape(protocols.ErrorOf(err))
}

// badRequest is a request check's 400.
func badRequest(msg string) error {
	return &protocols.Error{Kind: protocols.ErrorBadRequest, Message: msg}
}

// limit is a request member that must be at least 1 when given.
type limit struct {
	name string
	v    protocols.Opt[int]
}

// checkLimits returns the 400 of the first limit below 1.
func checkLimits(lims ...limit) error {
	for _, lim := range lims {
		if v, ok := lim.v.Get(); ok && v <= 0 {
			return badRequest(lim.name + " must be at least 1, got " + strconv.Itoa(v))
		}
	}
	return nil
}
