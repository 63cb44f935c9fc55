package parsers

// olmo3 is Ai2 Olmo 3's tool-call grammar (PARSER_CASES.md, "Pythonic
// arguments"): Python-style calls, one per line, between two tags that are
// ordinary text.
//
//	<function_calls>
//	get_weather(city='New York', units='celsius')
//	get_time(tz=null)
//	</function_calls>
//
// The calls are the pythonic grammar's (pythonic.go), run with a wrapper
// and without the list's brackets; the template writes string values raw in
// single quotes and null, true and false in JSON spelling, so those words
// are literals and a line break inside a quoted value is the value's. Each
// call is emitted, whole, when its ')' closes. The calls may also be
// separated by ',' or come inside [ ] (the block then ends at the ']', as in
// lfm2). A body that does not parse is markup:
// the rest of it is dropped up to </function_calls> (or the next
// <function_calls>); the calls that closed before the error stand (vLLM
// returns the whole output as content). Calls without the tags are content
// (vLLM's buffered path also tries the whole output as calls; its streaming
// path does not). </function_calls> met in content is removed.
//
// Reasoning: Olmo-3-Think's template opens <think> in the prompt, so the
// olmo3 reasoning parser starts inside reasoning (the forced <think> parser,
// as vLLM's streaming path and ollama's olmo3-think do).
var olmo3Spec = pySpec{open: "<function_calls>", close: "</function_calls>", bare: true, jsonWords: true}

func init() {
	registerTool(ToolInfo{
		Malformed: "a body that is not Python calls (one per line, or separated by ',', or in a [ ] list) is markup: " +
			"the calls that closed before the error stand, the rest is dropped up to </function_calls> (or the next " +
			"<function_calls>); positional arguments and keyword values outside the literal subset are skipped and " +
			"the call kept; calls without the tags are content",
		Truncated: "each call is emitted when its ')' closes, so the calls before the cut stand; a call cut before " +
			"its ')' is dropped with the rest of the block; </function_calls> may be missing",
	}, func(out *sink) toolGrammar { return newPyGrammar(out, &olmo3Spec) },
		"olmo3", // vLLM, ollama
	)
	registerReasoning(thinkForced, "olmo3", "olmo3-think", "olmo3_think")
}
