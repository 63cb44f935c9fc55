package parsers

// step3 is StepFun Step-3's tool-call grammar ("steptml"): DeepSeek-style
// section tokens around an invoke in the minimax_m2 shape.
//
//	<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="get_weather">
//	<steptml:parameter name="city">Tokyo</steptml:parameter>
//	</steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>
//
// The bars are U+FF5C. It runs the tag machine (tagcalls.go): the section
// opener and each call's <｜tool_call_begin｜> open a block, in which
// everything before <steptml:invoke name=…> is markup — the call type
// "function", <｜tool_sep｜> and whatever the model writes after it (vLLM's
// test shows the name again and a newline); the type is not checked (Step-3
// writes only "function"). </steptml:invoke> ends a call; a per-call
// <｜tool_call_end｜>, <｜tool_sep｜> between calls and <｜tool_calls_end｜>
// are orphan closers after it, removed. A bare <steptml:invoke name=…> is a
// call too (the tag machine's back-off).
//
// Values are typed by the tool's schema (PARSER_CASES.md, "Schema-typed
// values") without entity decoding: string values are verbatim, untrimmed
// (vLLM keeps the whitespace around a string, which an edit tool's
// old_string needs), values of other types are trimmed and converted; a
// value without a schema is a string. </steptml:parameter> and
// </steptml:invoke> are both required, as in minimax_m2. Reasoning is the
// step3 reasoning parser (forced <think>, reasoning.go).
var step3Spec = tagSpec{
	blockOpen:  []string{"<｜tool_calls_begin｜>", "<｜tool_call_begin｜>"},
	blockClose: "<｜tool_calls_end｜>",
	closers:    []string{"<｜tool_call_end｜>", "<｜tool_sep｜>"},
	fnOpen:     "<steptml:invoke name=",
	fnClose:    "</steptml:invoke>",
	parOpen:    "<steptml:parameter name=",
	parClose:   "</steptml:parameter>",
	trim:       trimNone,
	conv:       convXML,
}

func init() {
	registerTool(ToolInfo{
		Malformed: "a block (section or call opener) without an invoke is markup, dropped up to <｜tool_calls_end｜>; " +
			"the call type and <｜tool_sep｜> before the invoke are markup; an invoke whose name or key tag lacks its '>' " +
			"is abandoned and dropped up to </steptml:invoke>; an empty name parses and drops the invoke; a parameter " +
			"outside an invoke is dropped up to </steptml:invoke>; a value that cannot take its schema type stays a string",
		Truncated: "an invoke needs </steptml:invoke> and each value its </steptml:parameter>; one cut anywhere before is " +
			"abandoned; <｜tool_call_end｜> and <｜tool_calls_end｜> may be missing",
	}, func(out *sink) toolGrammar { return newTagCalls(out, &step3Spec) },
		"step3", // vLLM, SGLang
	)
}
