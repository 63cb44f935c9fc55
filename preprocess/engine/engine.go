// Package engine is the contract between agentwire and an inference engine.
// Start at the adapter of your engine (NewVLLM, below): its Generate takes
// a Request (preprocess.Prepared.Engine) and returns a Stream of Outputs.
//
// The request half (package preprocess) builds the Request, an adapter
// yields the Output steps, and the response pipeline consumes the Stream;
// every adapter (vLLM, SGLang, TensorRT-LLM, OpenAI-compatible chat, the
// in-process replay engine) implements Engine and Stream.
//
// Ownership: an Output returned by Stream.Next, and every slice in it, is
// owned by the stream and valid until the next call to Next or Close. An
// adapter reuses its buffers, so a steady stream allocates nothing per step.
//
// # Adapters
//
//	NewVLLM               vLLM /v1/completions, streamed (token ids in the stream)
//	NewSGLang             SGLang native /generate, streamed
//	NewSGLangCompletions  SGLang /v1/completions
//	NewTRTLLM             TensorRT-LLM trtllm-serve /v1/completions
//	NewChat               any OpenAI-compatible /v1/chat/completions whose engine
//	                      parses its own output (reasoning and tool calls passed through)
//	ImageRouter           requests with images to a chat adapter, the rest to another
//	Replay                in-process: recorded or scripted output (Source, chosen
//	                      per request by Replay.Select), paced, with the
//	                      engine's limits, stops, n > 1 and prefix-cache hits
//
// The completions adapters expect the engine to run without its own
// reasoning and tool parsers, so the markup reaches agentwire's parsers.
//
// # Where each mapping is written
//
// Each adapter documents its wire mapping beside its code:
//
//	request members       NewVLLM (vllm.go), NewSGLangCompletions and NewSGLang
//	                      (sglang.go), NewTRTLLM (trtllm.go), NewChat (chat.go)
//	response chunks       Completions (vllm.go), SGLang (sglang.go), Chat (chat.go)
//	images                the comment at the top of images.go, ImageRouter
//	prefix-cache hits     Usage
//	HTTP behaviour        Config (http.go): headers, cancellation, timeouts,
//	                      bounds, what the stream reader skips
//	errors                Error (errors.go): status and message to ErrorKind
//	replay                Replay (replay.go), Recording and ParseRecording
//	                      (recording.go)
package engine

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/agentwire/agentwire/protocols"
)

// MaxChoices is the most choices (n) a request may ask for: the one
// limit of the library (the response pipeline refuses more with a 400;
// every adapter refuses more, and takes no choice index beyond it from an
// engine).
const MaxChoices = 128

// Request is one generation request as an engine sees it: a prompt that is
// already rendered (and usually tokenized), stop conditions already
// assembled, and explicit limits. It is engine-neutral; each adapter maps it
// to its wire protocol.
type Request struct {
	// Model is the model name the engine serves (its --served-model-name).
	Model string

	// Prompt is the rendered prompt text. PromptIDs are its token ids when
	// the request half tokenized it (nil otherwise). Adapters that can send
	// ids send PromptIDs; others send Prompt.
	Prompt    string
	PromptIDs []uint32

	// MaxTokens is always explicit (> 0): engines' own defaults are tiny
	// (vLLM's completions default is 16 tokens). MinTokens defers stop
	// conditions until that many tokens were generated.
	MaxTokens int
	MinTokens int

	// N is the number of choices (0 and 1 both mean one), at most
	// MaxChoices.
	N int

	Sampling Sampling
	Stop     Stop

	// SkipSpecialTokens is the decided value (PRE.1); the request half
	// always sets it explicitly.
	SkipSpecialTokens bool

	// IgnoreEOS: generate past EOS (PRE.5 already cleared the stops).
	IgnoreEOS bool

	// Logprobs asks for per-token logprobs; TopLogprobs for that many
	// alternatives per token.
	Logprobs    bool
	TopLogprobs int

	// Guided is the guided-decoding constraint (tool_choice required/named,
	// response_format), or nil.
	Guided *Guided

	// ExtraArgs is a JSON object of backend-specific members merged into
	// the engine request as they are (vLLM/SGLang pass-through fields,
	// Dynamo extra_args such as reasoning_parser_kwargs). nil for none.
	ExtraArgs json.RawMessage

	// RequestID identifies the request in engine logs (optional).
	RequestID string

	// SessionID identifies the conversation the request belongs to (the
	// same on every turn of an agent session; "" when unknown). The HTTP
	// adapters do not send it themselves: a router in front of several
	// engines keys its affinity on it (package balance), and the caller
	// puts it into Header under the names its router reads.
	SessionID string

	// Header holds request headers for this request only (session and
	// routing hints for a router in front of the engines), sent after
	// Config.Header, whose values of the same names they replace. nil for
	// none. Values must be valid header values (no control bytes).
	Header http.Header

	// CacheSalt, when not empty, isolates the request's prefix-cache
	// entries from those of requests with another salt (vLLM's
	// cache_salt: a tenant never hits blocks another tenant computed).
	// Sent by the vLLM adapter and by the chat adapter unless Strict; the
	// SGLang and trtllm-serve adapters have no such member and ignore it.
	CacheSalt string

	// Images are the request's images in prompt order: the prompt holds
	// one placeholder for each (the template's own), which the engine's
	// multimodal processor expands. An adapter that cannot send images
	// refuses a request that has any (ErrorBadRequest, "this deployment
	// does not accept images") rather than dropping them.
	Images []Image

	// Chat (added) is for adapters that call an OpenAI-compatible chat
	// endpoint, whose engine renders the template and parses the output
	// itself: a JSON object of chat-completions members (at least
	// "messages"; "tools", "tool_choice", "response_format",
	// "chat_template_kwargs", …) sent as they are. The other fields of
	// Request (limits, sampling, stops) are added to it. Prompt and
	// PromptIDs are not used by those adapters.
	Chat json.RawMessage
}

// Image is one image of a request as the engine receives it.
type Image struct {
	// URL is the image as the client sent it: a data: URL with the bytes
	// (base64) or an http(s) URL the engine fetches.
	URL string

	// MediaType is the image's type ("image/png"), "" when unknown (a
	// remote URL).
	MediaType string

	// Hash identifies the image: the hex SHA-256 of its bytes (of the URL
	// for a remote image). Engines that take one use it as the image's
	// multimodal cache key, so a screenshot sent again on every turn is
	// processed once.
	Hash string

	// Bytes is the size of the decoded image (0 for a remote URL); Width
	// and Height its dimensions in pixels (0 when not known).
	Bytes         int
	Width, Height int
}

// Sampling holds the sampling options; nil pointers are "engine default".
type Sampling struct {
	Temperature       *float64
	TopP              *float64
	TopK              *int
	MinP              *float64
	PresencePenalty   *float64
	FrequencyPenalty  *float64
	RepetitionPenalty *float64
	Seed              *int64
}

// Stop holds the assembled stop conditions: hidden vs visible stop ids and stop strings.
type Stop struct {
	// Strings are stop strings. They are hidden (not part of the output)
	// unless IncludeStrings is set.
	Strings        []string
	IncludeStrings bool

	// HiddenIDs stop generation and are not emitted: the model's EOS ids
	// (PRE.5) and the request's stop_token_ids.
	HiddenIDs []uint32

	// VisibleIDs stop generation and are emitted: tool-call end tokens that
	// are also EOS tokens (Harmony <|call|>), so the parser sees them.
	VisibleIDs []uint32
}

// Guided is a guided-decoding constraint. Exactly one member is set.
type Guided struct {
	JSONSchema    json.RawMessage // a JSON schema the output must match
	Regex         string
	Choice        []string
	Grammar       string          // EBNF / lark grammar text
	StructuralTag json.RawMessage // vLLM/SGLang structural_tag object
}

// Finish is why a choice ended, as the engine reported it, normalised.
type Finish uint8

const (
	FinishNone          Finish = iota // not finished (more steps follow)
	FinishEOS                         // end of sequence / stop token
	FinishStop                        // a stop string or stop id matched (StopReason says which)
	FinishLength                      // max_tokens or the context limit
	FinishCancelled                   // aborted by the engine or the client
	FinishContentFilter               // filtered
	FinishError                       // the engine failed this choice (Output.Err says why)
)

// Usage is the engine's token accounting, usually on the final step.
//
// Prefix-cache hits (CachedTokens) come from the engine's usage:
//
//	vLLM            usage.prompt_tokens_details.cached_tokens on the final
//	                usage chunk, sent only when the server runs with
//	                --enable-prompt-tokens-details and the count is > 0
//	SGLang OpenAI   usage.prompt_tokens_details.cached_tokens (null unless
//	                the server runs with --enable-cache-report)
//	SGLang native   meta_info.cached_tokens, on every event: the first
//	                event's prompt_tokens and cached_tokens are reported
//	                at once (an Output whose Usage has no completion
//	                tokens), the finishing event's again with the rest
//	trtllm-serve    usage.prompt_tokens_details.cached_tokens, always
//	                present on the final usage chunk (0 without KV
//	                cache block reuse)
//	chat            usage.prompt_tokens_details.cached_tokens, as the
//	                engine behind it sends it
//	Replay          with a PrefixCache, what a prefix-caching engine
//	                would report (see Replay)
//
// An engine that does not report them leaves CachedTokens 0.
type Usage struct {
	PromptTokens     int64
	CompletionTokens int64
	CachedTokens     int64
}

// TopLogprob is one alternative at one position (the emitters' type: the
// pipeline hands the engine's values to them as they are).
type TopLogprob = protocols.TopLogprob

// Logprob is the logprob of one generated token and its alternatives.
type Logprob = protocols.Logprob

// Output is one step of one choice, with delta semantics: TokenIDs and Text
// are what is new since the previous step of the same choice. Adapters whose
// engine sends cumulative text or ids diff them before filling an Output.
type Output struct {
	// Index is the choice index (n > 1).
	Index int

	// TokenIDs are the new token ids, when the engine sends ids.
	TokenIDs []uint32

	// Text is the new decoded text, when the engine sends text. When both
	// are present the pipeline uses Text and counts TokenIDs for usage.
	// HasText distinguishes an empty text delta from "no text sent".
	Text    []byte
	HasText bool

	// Reasoning and ToolCalls are set only by adapters whose engine already
	// parsed the output (an OpenAI-compatible chat endpoint with its own
	// parsers): the pipeline passes them through and does not re-parse.
	Reasoning []byte
	ToolCalls []ToolCallDelta

	// Logprobs are the logprobs of this step's tokens, when requested.
	Logprobs []Logprob

	// Finish is set on the last step of the choice. StopReason is the
	// matched stop string, when the engine reported one; StopTokenID the
	// matched stop token id (HasStopTokenID says it is set).
	Finish         Finish
	StopReason     []byte
	StopTokenID    uint32
	HasStopTokenID bool

	// Usage is the engine's usage, when this step carries it (nil if not).
	Usage *Usage

	// Err is set with FinishError: the engine's own error for this choice.
	Err error
}

// ToolCallDelta is an already-parsed tool-call fragment in OpenAI chat
// delta shape (pass-through engines only).
type ToolCallDelta struct {
	Index     int
	ID        []byte
	Name      []byte
	Arguments []byte
}

// Engine starts generations. Implementations are safe for concurrent use.
type Engine interface {
	// Generate starts req. Canceling ctx stops the generation upstream (a
	// client disconnect stops the engine) and makes Next return ctx.Err()
	// (the adapters of this package return an *Error of kind ErrorCanceled,
	// or ErrorTimeout for an expired deadline, that unwraps to it).
	// Errors before the first step (connection refused, an HTTP error
	// status) are returned here as *Error when the engine gave a reason.
	Generate(ctx context.Context, req *Request) (Stream, error)
}

// Stream is one running generation. It is used by one goroutine.
type Stream interface {
	// Next returns the next step. It returns io.EOF after every choice has
	// finished, and an *Error (or ctx.Err()) when the stream failed. The
	// returned Output is valid until the next call to Next or Close.
	Next() (*Output, error)
	// Close releases the stream; it stops the generation if it is still
	// running. Close is safe to call more than once.
	Close() error
}
