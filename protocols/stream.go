package protocols

// FinishReason is why generation of a choice ended, in the engine-neutral
// vocabulary the emitters take. Each emitter maps it to its API's value
// (chat finish_reason, Anthropic stop_reason, Responses status).
type FinishReason uint8

const (
	// FinishStop: the model ended its turn (EOS, a stop token, or a stop
	// string). Emitters turn it into tool_calls / tool_use when the turn
	// completed at least one tool call.
	FinishStop FinishReason = iota
	// FinishLength: the token limit was reached.
	FinishLength
	// FinishContentFilter: the engine filtered the output.
	FinishContentFilter
	// FinishToolCalls: the engine itself reported tool_calls.
	FinishToolCalls
	// FinishStopSequence: a stop string from the request matched (Anthropic
	// reports it as stop_sequence; other APIs as a normal stop).
	FinishStopSequence
)

var finishNames = [...]string{
	FinishStop:          "stop",
	FinishLength:        "length",
	FinishContentFilter: "content_filter",
	FinishToolCalls:     "tool_calls",
	FinishStopSequence:  "stop_sequence",
}

func (r FinishReason) String() string {
	if int(r) < len(finishNames) {
		return finishNames[r]
	}
	return "FinishReason(?)"
}

// ParseFinishReason maps an engine's finish reason to a FinishReason:
// eos/stop/cancelled/abort → FinishStop, length → FinishLength,
// content_filter → FinishContentFilter, tool_calls/function_call →
// FinishToolCalls. Unknown reasons report ok=false (an engine error such as
// "error: …" is not a finish reason; send it with the emitter's Fail).
func ParseFinishReason(s string) (r FinishReason, ok bool) {
	switch s {
	case "stop", "eos", "cancelled", "abort", "end_turn":
		return FinishStop, true
	case "length", "max_tokens":
		return FinishLength, true
	case "content_filter":
		return FinishContentFilter, true
	case "tool_calls", "function_call", "tool_use":
		return FinishToolCalls, true
	case "stop_sequence":
		return FinishStopSequence, true
	}
	return FinishStop, false
}

// Usage is the token accounting of one response, engine-neutral. Emitters
// map it to each API's usage object.
type Usage struct {
	PromptTokens     int64 // all prompt tokens, cached included
	CompletionTokens int64 // generated tokens, reasoning included
	CachedTokens     int64 // prompt tokens served from the prefix cache
	ReasoningTokens  int64 // generated tokens that were reasoning
}

// TopLogprob is one alternative token at one position of a choice.
type TopLogprob struct {
	TokenID uint32 // the token's id, when the engine reports it
	Token   []byte // the token's text (bytes; not necessarily valid UTF-8)
	Logprob float64
}

// Logprob is the log probability of one generated token and of its most
// likely alternatives.
type Logprob struct {
	TokenID uint32
	Token   []byte
	Logprob float64
	Top     []TopLogprob
}

// Emitter turns the neutral event sequence of one generated choice into the
// wire bytes of one API. Every method that takes dst appends to it and
// returns the extended slice; the emitter never retains dst. Byte-slice
// arguments are read during the call only (so they may alias a parser's
// buffers), except the log probabilities given to SetLogprobs, which are
// read until the next FlushLogprobs.
//
// Call sequence, for the emitter of one choice:
//
//	[SetUsage] [Start] { Content | Reasoning | ToolCallStart { ToolCallArgs } ( ToolCallEnd | ToolCallAbandoned ) | SetLogprobs … FlushLogprobs } end
//
// where end is Finish for a response of one choice, or FinishChoice on the
// emitter of every choice and then Done on one of them (a response of n > 1
// choices, one emitter per choice); or, instead of either, Fail or
// FailError. Methods called after the end append nothing. Tool calls are
// numbered 0, 1, … in order of their start; the fragments of different
// calls do not interleave. An API with one output per response (Anthropic
// Messages, Responses) shows only the first choice; its emitter's Done
// appends nothing. Emitters are not safe for concurrent use; use one per
// stream and reuse it with its Reset.
type Emitter interface {
	// SetUsage records the usage known before the end: the prompt's
	// counts reported when generation starts (Anthropic's message_start
	// carries them; chat streams with continuous usage write them on
	// every chunk). Finish, FinishChoice and Done take the final usage.
	SetUsage(u Usage)
	// Start appends the events a stream opens with, once (Anthropic
	// message_start and ping, Responses response.created and
	// response.in_progress); nothing for chat and completions, whose first
	// chunk opens the stream. The event methods call it first where the
	// API needs it, so calling it is needed only to send the envelope
	// before the first event.
	Start(dst []byte) []byte
	// Content appends the events for a piece of user-visible text.
	Content(dst, text []byte) []byte
	// Reasoning appends the events for a piece of reasoning text.
	Reasoning(dst, text []byte) []byte
	// ToolCallStart opens tool call index with the call id (as produced by
	// the parser) and the function name.
	ToolCallStart(dst []byte, index int, id, name []byte) []byte
	// ToolCallArgs appends a fragment of call index's JSON arguments.
	ToolCallArgs(dst []byte, index int, fragment []byte) []byte
	// ToolCallEnd closes call index: its arguments are complete and valid.
	ToolCallEnd(dst []byte, index int) []byte
	// ToolCallAbandoned closes call index without completing it.
	ToolCallAbandoned(dst []byte, index int) []byte
	// SetLogprobs gives the log probabilities of the tokens of one engine
	// step, before the step's events: an API that carries them with the
	// text (Completions) writes them with the step's first text.
	SetLogprobs(lps []Logprob)
	// FlushLogprobs appends the log probabilities given to SetLogprobs
	// that no event carried, after the step's events: a chunk of their own
	// (chat), a frame without text (Completions), nothing for APIs without
	// log probabilities.
	FlushLogprobs(dst []byte) []byte
	// Finish ends a response of one choice with the reason and the final
	// usage: FinishChoice followed by Done.
	Finish(dst []byte, reason FinishReason, usage Usage) []byte
	// FinishChoice ends this choice with the reason, the stop sequence
	// that ended it (nil when none did; reported where the API reports
	// one, as Anthropic's stop_sequence) and the final usage.
	FinishChoice(dst []byte, reason FinishReason, stop []byte, usage Usage) []byte
	// Done ends the response once every choice has finished: the usage
	// and the stream's terminator where the API has them (chat and
	// completions: the usage chunk and [DONE]).
	Done(dst []byte, usage Usage) []byte
	// Fail ends the stream with an error event carrying message (the
	// API's generic server error).
	Fail(dst []byte, message string) []byte
	// FailError ends the stream with err in the API's shape: its
	// in-stream error event (Responses: response.failed with the output
	// so far).
	FailError(dst []byte, err *Error) []byte
}
