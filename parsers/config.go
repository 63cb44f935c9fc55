package parsers

import "encoding/json"

// Config selects and configures the parsers for one output stream.
type Config struct {
	// ToolParser is a registered tool-call parser name (ToolParsers), or ""
	// for none: then tool-call markup is ordinary content.
	ToolParser string

	// ReasoningParser is a registered reasoning parser name
	// (ReasoningParsers), or "" for none.
	ReasoningParser string

	// Tools are the tools the request declared. JSON grammars keep the
	// model's argument bytes and do not need them; parameter grammars type
	// their values from the schemas. Calls to undeclared tools are still
	// emitted (PARSER_CASES.md) unless a grammar documents otherwise.
	Tools []Tool

	// InReasoning says the prompt already opened the reasoning block (the
	// chat template injected <think>; PRE.3), so the output starts inside
	// reasoning. Forced reasoning parsers start there regardless.
	InReasoning bool

	// Unforced starts a forced reasoning parser outside reasoning unless
	// InReasoning is set: the request half decided that this family's
	// model writes its reasoning opener itself when it thinks, so text
	// before an opener — a tool call, a plain answer — is not reasoning
	// (mistral: a Ministral 3 answer starting with [TOOL_CALLS]).
	Unforced bool

	// WholeCalls emits each tool call whole at its end (start, one argument
	// fragment, end, all in one Feed) instead of streaming the arguments as
	// they are generated. Abandoned calls are then invisible.
	WholeCalls bool

	// MaxCallBuffer bounds the bytes held for one call: arguments waiting for
	// a name that comes after them, arguments encoded as a JSON string, the
	// whole call in WholeCalls mode, and whitespace after a call. 0 means
	// DefaultMaxCallBuffer. Past the limit the call is abandoned and nothing
	// more of its markup is released (whitespace after a call is released as
	// content instead). Arguments streamed as fragments are never buffered
	// and not limited.
	//
	// The limit counts what a candidate holds, including what a grammar parsed
	// from it (pythonic's call records and converted arguments, gemma4's
	// converted arguments). What a whole stream retains is bounded by 4 ×
	// MaxCallBuffer (the held bytes with the slack of buffer growth, plus
	// buffers that once carried a limit-sized release to the caller), plus
	// output proportional to the largest chunk fed; a test checks this for
	// every tool grammar.
	MaxCallBuffer int

	// IDSeed seeds the ids the parser mints for calls whose model output
	// carries none ("call_" + 24 hex digits; 9 alphanumerics for Mistral).
	// 0, the default, draws a random seed for every stream (every New and
	// Reset), so ids are unique across streams. A non-zero seed makes every
	// stream of the parser mint the same ids in the same order — for
	// reproducible tests and golden files; two streams with one seed then
	// share ids, so never use it to serve independent requests. Ids the
	// model writes itself (mistral's [CALL_ID], Kimi's functions.name:N)
	// are passed through either way.
	IDSeed uint64
}

// DefaultMaxCallBuffer is the per-call buffer limit when
// Config.MaxCallBuffer is 0.
const DefaultMaxCallBuffer = 4 << 20

// Tool is a function the request declared: its name and the JSON schema of
// its parameters (the OpenAI "parameters" object), kept as raw JSON.
type Tool struct {
	Name       string
	Parameters json.RawMessage
}
