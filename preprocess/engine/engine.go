// Package engine is the contract between agentwire and an inference engine:
// the Request the request half (package preprocess) builds, the Output steps
// an engine adapter yields, and the Engine and Stream interfaces every
// adapter (vLLM, SGLang, TensorRT-LLM, OpenAI-compatible chat, the in-process
// replay engine) implements. The response pipeline consumes Streams.
//
// Ownership: an Output returned by Stream.Next, and every slice in it, is
// owned by the stream and valid until the next call to Next or Close. An
// adapter reuses its buffers, so a steady stream allocates nothing per step.
package engine

import (
	"context"
	"encoding/json"
)

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

	// N is the number of choices (0 and 1 both mean one).
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

	// Chat (added) is for adapters that call an OpenAI-compatible chat
	// endpoint, whose engine renders the template and parses the output
	// itself: a JSON object of chat-completions members (at least
	// "messages"; "tools", "tool_choice", "response_format",
	// "chat_template_kwargs", …) sent as they are. The other fields of
	// Request (limits, sampling, stops) are added to it. Prompt and
	// PromptIDs are not used by those adapters.
	Chat json.RawMessage
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

// Stop holds the assembled stop conditions (PREPROCESS §6.1).
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

// TopLogprob is one alternative at one position.
type TopLogprob struct {
	TokenID uint32
	Token   []byte
	Logprob float64
}

// Logprob is the logprob of one generated token and its alternatives.
type Logprob struct {
	TokenID uint32
	Token   []byte
	Logprob float64
	Top     []TopLogprob
}

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
	// client disconnect stops the engine) and makes Next return ctx.Err().
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

// ErrorKind classifies an engine failure so that each API can answer in
// its own error shape.
type ErrorKind uint8

const (
	ErrUpstream      ErrorKind = iota // any other engine failure (5xx, a refused connection)
	ErrContextLength                  // the prompt (plus max_tokens) exceeds the context
	ErrOverloaded                     // the engine is out of capacity (503, queue full)
	ErrRateLimited                    // 429
	ErrBadRequest                     // the engine rejected the request (4xx)
	ErrTimeout                        // connect, first-token or idle timeout
	ErrMalformed                      // the engine's stream could not be decoded
	ErrCanceled                       // the client went away
)

// Error is an engine failure with its kind, the HTTP status the engine
// answered (0 if none) and its message (bounded in length).
type Error struct {
	Kind    ErrorKind
	Status  int
	Message string
	// PromptTokens and MaxContext are set for ErrContextLength when known.
	PromptTokens int
	MaxContext   int
	// Err is the underlying cause, when there is one (added): the
	// caller's context error for ErrCanceled and for ErrTimeout from the
	// caller's deadline, so errors.Is(err, context.Canceled) holds. Error
	// unwraps to it.
	Err error
}

func (e *Error) Error() string { return e.Message }
