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
//	Replay                in-process: recorded or scripted output (Source), paced
//
// The completions adapters expect the engine to run without its own
// reasoning and tool parsers, so the markup reaches agentwire's parsers.
//
// # HTTP behaviour (every HTTP adapter)
//
// Config carries the base URL, the *http.Client, the API key (sent as a
// Bearer token), extra headers and the limits. Request.RequestID is also
// sent as X-Request-Id, and Request.Header (per-request session and
// routing headers) after Config.Header. The caller's context cancels the upstream request:
// a client that goes away stops the generation, and so does Close. Three
// timeouts, each an ErrorTimeout: connect (until a connection is obtained),
// first token (from the connection to the first event) and idle (between
// two reads of the stream). Reads are bounded: a line or an event over
// MaxLineBytes / MaxEventBytes fails the stream with ErrorMalformed, and at
// most MaxErrorBytes of an error body are read; messages are cut to 512
// bytes. The body is read by a small SSE reader that reuses its buffer
// (protocols/sse is a general reader; this one only keeps the data of an
// event, bounds events as well as lines and never copies a line twice).
// Upstream JSON is decoded with github.com/valyala/fastjson, one reused
// Parser per stream: Next allocates nothing per chunk after warm-up. The
// completions adapters first try a hand-written scanner for the chunk the
// engines send for almost every token (one or more choices with text,
// token ids and a finish reason; null logprobs and usage); it gives up on
// anything else, which fastjson then decodes, and a fuzz target checks
// that both decode every chunk the scanner accepts identically.
//
// Error mapping (Error.Kind; Error.Status is the engine's HTTP status):
//
//	an HTTP 4xx whose message is a context-length message  ErrorContextLength
//	  (vLLM "maximum context length is N tokens … (P in the messages",
//	  "request has P input tokens"; SGLang "The input (P tokens) is longer
//	  than the model's context length (N tokens)"; PromptTokens and
//	  MaxContext are filled when the message states them)
//	429                                                    ErrorRateLimited
//	503, 529, "overloaded" / "queue is full" messages      ErrorOverloaded
//	401, 403, 404, 405 (the server's key, URL or model
//	  name is wrong: not the client's fault)               ErrorUpstream
//	other 4xx                                              ErrorBadRequest
//	5xx, refused connection, dropped connection,
//	  stream ended with a choice unfinished (with or
//	  without [DONE])                                      ErrorUpstream
//	undecodable JSON, a line or event over the limits      ErrorMalformed
//	connect / first-token / idle timeout, caller deadline  ErrorTimeout
//	the caller canceled                                    ErrorCanceled
//
// The stream reader tolerates what engines and gateways send besides
// data: comments, events with empty data, events named "ping", and chunks
// without choices ("{}") are skipped.
//
// Errors the engine sends inside the stream ({"error": {...}} or
// {"object": "error", ...} events, SGLang aborts with a status) are mapped
// the same way. The caller's cancellation and deadline unwrap to the
// context's error (errors.Is(err, context.Canceled) holds).
//
// # Request mapping: vLLM /v1/completions
//
//	Model                 model
//	PromptIDs | Prompt    prompt (ids when present, else text)
//	MaxTokens, MinTokens  max_tokens, min_tokens (when > 0)
//	N                     n (when > 1)
//	Sampling              temperature, top_p, top_k, min_p, presence_penalty,
//	                      frequency_penalty, repetition_penalty, seed (when set)
//	Stop.Strings          stop
//	Stop.HiddenIDs+VisibleIDs  stop_token_ids (not with IgnoreEOS)
//	Stop.IncludeStrings   include_stop_str_in_output; also set for visible
//	                      stop ids when there is no hidden stop string (vLLM
//	                      only keeps a stop token's text with it)
//	IgnoreEOS             ignore_eos
//	SkipSpecialTokens     skip_special_tokens (always sent);
//	                      spaces_between_special_tokens false when not skipping
//	Logprobs, TopLogprobs logprobs = TopLogprobs
//	Guided                structured_outputs {json | regex | choice | grammar |
//	                      structural_tag (JSON text)}; guided_json, guided_regex,
//	                      guided_choice, guided_grammar with LegacyGuidedDecoding
//	RequestID             request_id
//	CacheSalt             cache_salt (when set)
//	(always)              stream true, stream_options.include_usage true,
//	                      return_token_ids true (unless NoTokenIDs)
//	ExtraArgs             merged last: its members override the above
//
// With VLLMConfig.TokenIDsOnly (and SGLangConfig.TokenIDsOnly) the outputs
// carry only the token ids of chunks that have them, so the response
// pipeline detokenizes and applies the stops itself — the preferred mode
// when the pipeline has the tokenizer: exact stop strings, and visible
// stop ids keep their text (a text engine drops a stop token's text
// unless include_stop_str_in_output is set, which would keep the hidden
// ones' too).
//
// Read per chunk: choices[].index, text, token_ids, logprobs (tokens,
// token_logprobs, top_logprobs), finish_reason and stop_reason (a string:
// the stop string, FinishStop; a number: the stop token id, FinishStop
// with HasStopTokenID; null with "stop": FinishEOS), and usage
// (prompt_tokens, completion_tokens, prompt_tokens_details.cached_tokens)
// on the usage-only chunk, which becomes an Output with only Usage set
// (Index 0). finish_reason: length → FinishLength, abort → FinishCancelled,
// content_filter → FinishContentFilter, error → FinishError.
//
// Prefix-cache hits (Usage.CachedTokens) come from the engine's usage:
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
//
// An engine that does not report them leaves CachedTokens 0.
//
// # Request mapping: SGLang /v1/completions
//
// As vLLM, except: include_stop_str_in_output → no_stop_trim; guided
// decoding → json_schema (JSON text), regex (a choice as a regex), ebnf,
// response_format (a structural tag); RequestID → rid; no return_token_ids
// (the stream has text only). The stop reason is read from matched_stop.
//
// # Request mapping: trtllm-serve /v1/completions
//
// As vLLM, except (trtllm-serve rejects unknown members): no
// return_token_ids and no request_id; guided decoding → response_format
// ({type: json, schema}, {type: regex, regex} — a choice as a regex —,
// {type: ebnf, ebnf}, or the structural tag as it is); top_k only when > 0
// (trtllm's "all tokens" is 0); logprobs at least 1, clamped to
// TRTLLMConfig.MaxTopLogprobs.
//
// # Request mapping: SGLang /generate
//
//	PromptIDs | Prompt    input_ids | text
//	Images                image_data (the URLs, in order)
//	MaxTokens, MinTokens  sampling_params.max_new_tokens, min_new_tokens
//	N                     sampling_params.n
//	Sampling              sampling_params.temperature, top_p, top_k, min_p,
//	                      presence_penalty, frequency_penalty,
//	                      repetition_penalty, sampling_seed
//	Stop                  sampling_params.stop, stop_token_ids, no_stop_trim
//	                      (as include_stop_str_in_output above), ignore_eos
//	SkipSpecialTokens     sampling_params.skip_special_tokens,
//	                      spaces_between_special_tokens
//	Guided                sampling_params.json_schema, regex, ebnf, structural_tag
//	Logprobs, TopLogprobs return_logprob, top_logprobs_num, logprob_start_len -1
//	RequestID             rid
//	(always)              stream true; ExtraArgs merged last
//
// Read per event: index, text (the text so far unless
// SGLangConfig.IncrementalText: the adapter sends what is new, and fails
// with ErrorMalformed when a chunk does not extend what it saw), output_ids
// and meta_info.output_token_logprobs / output_top_logprobs (cumulative
// when their length equals meta_info.completion_tokens, else increments),
// meta_info.finish_reason (stop with matched string → FinishStop +
// StopReason, with matched id → FinishStop + StopTokenID, without →
// FinishEOS; length → FinishLength; abort → FinishCancelled, or
// FinishError when it carries a status_code ≥ 400 or a context-length
// message) and, on each finishing event, Usage from prompt_tokens,
// cached_tokens and the choices' completion_tokens (on the first event
// that has cached_tokens, Usage with the prompt's two counts only).
//
// # Images
//
// Request.Images travel beside the prompt, which holds one placeholder
// per image (the chat template's own); the engine's multimodal processor
// expands them:
//
//	vLLM          POST /inference/v1/generate, vLLM's token-in endpoint
//	              (vllm serve --enable-scale-out from vLLM 0.30,
//	              VLLM_ENABLE_SCALE_OUT_ENDPOINTS=1 before): token_ids,
//	              content_parts [{"type":"image_url","url","uuid": Hash}]
//	              (the hash is the image's multimodal cache key), the
//	              sampling members above under sampling_params, stream,
//	              stream_options, request_id, cache_salt, ExtraArgs; Header
//	              as on every request. Its stream carries token ids only
//	              (read as TokenIDsOnly). A 404 names the flag to enable;
//	              logprobs are refused.
//	SGLang        /generate: image_data, the URLs in order ([[…]] when
//	              n > 1); no cache key
//	SGLang OpenAI, trtllm-serve   a 400 (ErrNoImages): their completions
//	              APIs take text only
//	chat          the images stay in Request.Chat's messages; ImageRouter
//	              sends requests with images there, the rest to another
//	              adapter (preprocess.Options.ImagesViaChat)
//
// # Request mapping: OpenAI-compatible chat
//
// Request.Chat's members (messages, tools, tool_choice, …) first; then
// model, max_tokens, n, the sampling fields, stop, logprobs/top_logprobs,
// and unless ChatConfig.Strict the vLLM extensions (min_tokens,
// stop_token_ids, include_stop_str_in_output, ignore_eos,
// skip_special_tokens false, structured_outputs, cache_salt); stream and
// stream_options.include_usage; ExtraArgs last. Read: delta.content →
// Text, delta.reasoning_content (or delta.reasoning) → Reasoning,
// delta.tool_calls → ToolCalls, chat logprobs, finish_reason, vLLM's
// stop_reason, usage.
//
// # Replay engine
//
// Replay streams a Recording for each request, chosen by the caller's
// Select function; a Source builds the Recording (a *Recording is a
// Source; a scripted agent is a Source that reads the request). Loaders
// read the capture formats of testdata/engine-streams (see
// ParseRecording) and raw text or token-id lists. The replay applies
// MaxTokens, stop strings (never partially sent), stop ids and MinTokens
// as an engine would, interleaves n > 1 choices, and paces steps with
// FirstToken / PerToken. With a PrefixCache it reports the cached prompt
// tokens a prefix-caching engine would (the whole blocks the prompt
// shares with earlier prompts; bounded memory, see PrefixCache).
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

// ErrorKind classifies an engine failure in the library's one error
// vocabulary (protocols.ErrorKind), which each API renders in its own
// shape. The kinds an engine failure has:
type ErrorKind = protocols.ErrorKind

const (
	ErrorUpstream      = protocols.ErrorUpstream      // any other engine failure (5xx, a refused connection)
	ErrorContextLength = protocols.ErrorContextLength // the prompt (plus max_tokens) exceeds the context
	ErrorOverloaded    = protocols.ErrorOverloaded    // the engine is out of capacity (503, queue full)
	ErrorRateLimited   = protocols.ErrorRateLimited   // 429
	ErrorBadRequest    = protocols.ErrorBadRequest    // the engine rejected the request (4xx)
	ErrorTimeout       = protocols.ErrorTimeout       // connect, first-token or idle timeout
	ErrorMalformed     = protocols.ErrorMalformed     // the engine's stream could not be decoded
	ErrorCanceled      = protocols.ErrorCanceled      // the client went away
)

// Error is an engine failure with its kind, the HTTP status the engine
// answered (0 if none) and its message (bounded in length).
type Error struct {
	Kind    ErrorKind
	Status  int
	Message string
	// PromptTokens and MaxContext are set for ErrorContextLength when known.
	PromptTokens int
	MaxContext   int
	// Err is the underlying cause, when there is one (added): the
	// caller's context error for ErrorCanceled and for ErrorTimeout from the
	// caller's deadline, so errors.Is(err, context.Canceled) holds. Error
	// unwraps to it.
	Err error
}

func (e *Error) Error() string { return e.Message }
