package parsers

// jamba is AI21 Jamba's grammar (PARSER_CASES.md):
//
//	call-block = "<tool_calls>" *WS body *WS "</tool_calls>"
//	body       = "[" [ call-object *( "," call-object ) ] "]" / call-object
//
// It is the hermes machine with other tags: a JSON array of call objects
// (a bare call object is accepted too, PARSER_CASES.md).
func init() {
	registerTool(ToolInfo{
		Openers: []string{"<tool_calls>"},
		Closers: []string{"</tool_calls>"},
		Malformed: "a body that is not an array of call objects (or one call object) is markup: the call is abandoned and " +
			"the block is dropped up to its closer (or up to the next opener); elements that are not call objects are " +
			"skipped; non-whitespace after a closed body is content",
		Truncated: "a closed body is recovered without its closer; in an unclosed array every closed element is a call and " +
			"the truncated one is abandoned; a body cut mid-value is abandoned and its markup dropped",
	}, newJamba, "jamba")
}

func newJamba(out *sink) toolGrammar {
	return newWrappedJSON(out, "<tool_calls>", "</tool_calls>", true, true)
}
