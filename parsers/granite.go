package parsers

// granite is IBM Granite 3.x's tool-call grammar (PARSER_CASES.md, "JSON
// arguments"): a JSON array of call objects after a tag, with no closer.
//
//	<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Boston"}}]
//
// Granite 3.0 writes the special token <|tool_call|>, Granite 3.1 and later
// the text <tool_call>; the array may also start the output bare. It is the
// llama3_json machine (llama3_json.go) with Granite's tags: after a tag the
// JSON value is a call body (an array of call objects, or one object;
// "arguments" or "parameters"), JSON that is not a call is markup, a body
// that breaks abandons its call and is dropped up to the next tag, and text
// after a tag that is not JSON is content with the tag removed. A '[' at the
// start of the output (after whitespace) is held until it has the call shape
// and released as content when it cannot (vLLM parses the whole output as
// calls when it starts with '['). A </tool_call> after the array (or
// anywhere in content) is removed. Text after the calls is content (vLLM
// drops it).
//
// This is vLLM's granite tool parser; granite4 (Granite 4, hermes' grammar)
// is another one. The granite reasoning parser (its "Here's my thought
// process:" phrases) is registered apart.
var graniteSpec = l3Spec{tags: []string{"<|tool_call|>", "<tool_call>"}, bare: "[", closers: []string{"</tool_call>"},
	releaseBroken: true}

func init() {
	registerTool(ToolInfo{
		Malformed: "after a tag: JSON that is not a call is markup, a body that breaks abandons its call and is dropped " +
			"up to the next tag (or the end), text that is not JSON is content with the tag removed; a bare `[` at the " +
			"start of the output is a call only with a string `name` and an `arguments`/`parameters` key: until that " +
			"is decided it is held (up to the per-call limit) and released as content when it closes, breaks or " +
			"outgrows the limit; </tool_call> in content is removed",
		Truncated: "a closed object is a call; in an unclosed array every closed element is a call and the truncated one " +
			"is abandoned; an undecided bare array is content",
	}, func(out *sink) toolGrammar { return newLlama3(out, &graniteSpec) },
		"granite", // vLLM (Granite 3.0-3.3)
	)
}
