package parsers

// nemotron_deci is the Llama-Nemotron (Deci) grammar (PARSER_CASES.md):
//
//	call-block = "<TOOLCALL>" *WS body *WS "</TOOLCALL>"
//	body       = "[" [ call-object *( "," call-object ) ] "]" / call-object
//
// It is the hermes machine with other tags. The model writes a JSON array of
// call objects; a bare call object is accepted too (PARSER_CASES.md: Dynamo
// tries both shapes in every JSON config). Blocks repeat; text around them is
// content.
func init() {
	registerTool(ToolInfo{
		Openers: []string{"<TOOLCALL>"},
		Closers: []string{"</TOOLCALL>"},
		Malformed: "a body that is not an array of call objects (or one call object) is markup: the call is abandoned and " +
			"the block is dropped up to its closer (or up to the next opener); elements that are not call objects are " +
			"skipped; non-whitespace after a closed body is content",
		Truncated: "a closed body is recovered without its closer; in an unclosed array every closed element is a call and " +
			"the truncated one is abandoned; a body cut mid-value is abandoned and its markup dropped",
	}, newNemotronDeci, "nemotron_deci")
}

func newNemotronDeci(out *sink) toolGrammar {
	return newWrappedJSON(out, "<TOOLCALL>", "</TOOLCALL>", true, true)
}
