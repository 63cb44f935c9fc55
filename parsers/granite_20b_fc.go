package parsers

// granite20bFC is IBM granite-20b-functioncalling's grammar (PARSER_CASES.md,
// "JSON arguments"): one JSON call object after each <function_call> tag,
// with no closer.
//
//	Let me check.<function_call> {"name": "get_weather", "arguments": {"city": "Boston"}}
//	<function_call> {"name": "get_time", "arguments": {}}
//
// It is the llama3_json machine (llama3_json.go) with the one tag
// <function_call> and no bare body: after the tag the JSON value is a call
// body (one object, or an array of them; "arguments" or "parameters"), JSON
// that is not a call is markup, a body that breaks abandons its call and is
// dropped up to the next tag, and text after a tag that is not JSON is
// content with the tag removed. The text before the first tag and after the
// calls is content (vLLM keeps only the text before). The template asks the
// model to call "no_function" when no function fits; that is a call like any
// other.
var granite20bFCSpec = l3Spec{tags: []string{"<function_call>"}}

func init() {
	registerTool(ToolInfo{
		Malformed: "after <function_call>: JSON that is not a call is markup, a body that breaks abandons its call and " +
			"is dropped up to the next tag (or the end), text that is not JSON is content with the tag removed",
		Truncated: "a closed object is a call; a call cut mid-value is abandoned and dropped",
	}, func(out *sink) toolGrammar { return newLlama3(out, &granite20bFCSpec) },
		"granite_20b_fc",
		"granite-20b-fc", // vLLM
	)
}
