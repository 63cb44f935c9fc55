package parsers

// minimaxM2 is MiniMax-M2's invoke grammar (PARSER_CASES.md):
//
//	<minimax:tool_call>
//	<invoke name="get_weather">
//	<parameter name="location">San Francisco</parameter>
//	</invoke>
//	</minimax:tool_call>
//
// Strict: </parameter> ends a value (</invoke> inside one is text) and
// </invoke> ends a call; both are required (MiniMax's format requires the
// fence; PARSER_CASES.md, "Recover only what is provably complete").
// Values are typed from the schema; string values are fully trimmed.
// A bare <invoke name=…> without the wrapper is a call.
var minimaxM2Spec = tagSpec{
	blockOpen:  []string{"<minimax:tool_call>"},
	blockClose: "</minimax:tool_call>",
	fnOpen:     "<invoke name=",
	fnClose:    "</invoke>",
	parOpen:    "<parameter name=",
	parClose:   "</parameter>",
	trim:       trimFull,
	ents:       &htmlEntities,
	conv:       convXML,
}

func init() {
	registerTool(ToolInfo{
		Malformed: "a wrapper without an invoke is markup (dropped up to its closer); an invoke whose name or key tag " +
			"lacks its '>' is abandoned and dropped up to </invoke>; an empty name parses and drops the invoke; a " +
			"parameter outside an invoke is dropped up to </invoke>; a value that cannot take its schema type stays a string",
		Truncated: "an invoke needs </invoke> and each value its </parameter> (strict); one cut anywhere before is " +
			"abandoned; </minimax:tool_call> may be missing",
	}, func(out *sink) toolGrammar { return newTagCalls(out, &minimaxM2Spec) },
		"minimax_m2",
		"minimax-m2", // SGLang
	)
}
