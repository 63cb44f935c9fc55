package parsers

// qwen3Coder is the Qwen3-Coder XML grammar (PARSER_CASES.md), also used by
// Nemotron Nano:
//
//	<tool_call>
//	<function=get_weather>
//	<parameter=location>
//	San Francisco
//	</parameter>
//	</function>
//	</tool_call>
//
// Values are typed from the tool's schema: strings stream as they
// arrive without one framing newline on each side; typed values are
// converted at </parameter>. A value whose </parameter> is missing ends at
// </function> or at a newline immediately followed by <parameter=,
// where the next parameter starts (a string value containing exactly that
// text is cut there: the accepted loss). <function=…> without the wrapper is a call (back-off).
var qwen3CoderSpec = tagSpec{
	blockOpen:    []string{"<tool_call>"},
	blockClose:   "</tool_call>",
	fnOpen:       "<function=",
	fnClose:      "</function>",
	parOpen:      "<parameter=",
	parClose:     "</parameter>",
	fnEndsVal:    true,
	nlParEndsVal: true,
	trim:         trimFraming,
	ents:         &htmlEntities,
	conv:         convXML,
}

func init() {
	registerTool(ToolInfo{
		Malformed: "a wrapper without a function is markup (dropped up to its closer); a function whose name or key tag " +
			"lacks its '>' is abandoned and dropped up to </function>; an empty name parses and drops the function; a " +
			"parameter outside a function (bare <parameter=) is dropped up to </function>; a value that cannot take its " +
			"schema type stays a string",
		Truncated: "a function needs </function> (a value without </parameter> ends there, or at a newline immediately followed by " +
			"<parameter=, where the next parameter starts); one cut anywhere before it " +
			"is abandoned, even after a complete parameter; </tool_call> may be missing",
	}, func(out *sink) toolGrammar { return newTagCalls(out, &qwen3CoderSpec) },
		"qwen3_coder",
		"nemotron_nano", // Dynamo
		"qwen3_xml",     // vLLM
		"mimo",          // vLLM, SGLang: Xiaomi MiMo-V2, the same tags
		"step3p5",       // vLLM, SGLang: StepFun Step-3.5, the same tags
	)
}
