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

// Emitter turns the neutral event sequence of one generated choice into the
// wire bytes of one API. Every method appends to dst and returns the
// extended slice; the emitter never retains dst. Byte-slice arguments are
// read during the call only, so they may alias a parser's buffers.
//
// Call sequence:
//
//	{ Content | Reasoning | ToolCallStart { ToolCallArgs } ( ToolCallEnd | ToolCallAbandoned ) } ( Finish | Fail )
//
// Tool calls are numbered 0, 1, … in order of their start; the fragments of
// different calls do not interleave. Emitters are not safe for concurrent
// use; use one per stream and reuse it with Reset.
type Emitter interface {
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
	// Finish ends the stream with the reason and the final usage.
	Finish(dst []byte, reason FinishReason, usage Usage) []byte
	// Fail ends the stream with an error event carrying message.
	Fail(dst []byte, message string) []byte
}

// ErrorEmitter is implemented by the emitters that can end a stream with a
// typed error in their API's shape (anthropic.Emitter, openai.Emitter,
// responses.Emitter): FailError is Fail with the status-specific type and
// code of err (see Error). Callers holding an Emitter type-assert to it.
type ErrorEmitter interface {
	Emitter
	FailError(dst []byte, err *Error) []byte
}
