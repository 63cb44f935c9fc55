package parsers

// xlam is Salesforce xLAM's tool-call grammar (PARSER_CASES.md, "JSON
// arguments"): the whole answer is one JSON array of call objects, with no
// tag at all.
//
//	[{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "get_time", "arguments": {}}]
//
// It is the llama3_json machine (llama3_json.go) with only its bare body, and
// only '[': an array at the start of the output (after whitespace; after a
// reasoning span too) is held until it has the call shape — a string name
// and an "arguments" (or "parameters") key, as vLLM requires both — and
// released as content, unchanged, when it closes, breaks or outgrows the
// per-call limit first. Text after the array is content. vLLM also looks for
// calls in a ```json code block, after [TOOL_CALLS] and inside <tool_call>
// tags anywhere in the output; the library does not: those are heuristics
// for outputs the template never asks for, and JSON in prose or in a code
// block stays content.
var xlamSpec = l3Spec{bare: "[", releaseBroken: true}

func init() {
	registerTool(ToolInfo{
		Malformed: "an array at the start of the output is a call list only with call objects (a string `name` and an " +
			"`arguments`/`parameters` key): until that is decided it is held (up to the per-call limit) and released " +
			"as content when it closes, breaks or outgrows the limit; an array that became calls and then breaks " +
			"before any call ended is released as content unchanged; JSON anywhere else is content",
		Truncated: "a closed call object is a call; in an unclosed array every closed element is a call and the " +
			"truncated one is abandoned; an undecided array is content",
	}, func(out *sink) toolGrammar { return newLlama3(out, &xlamSpec) },
		"xlam", // vLLM
	)
}
