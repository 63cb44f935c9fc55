package parsers

// gigaChat35 is Sber GigaChat 3.5's tool-call grammar (PARSER_CASES.md,
// "GigaChat 3 / 3.5"): DeepSeek's DSML (dsml.go) in GigaChat's namespace,
// with one difference: a parameter without a string= attribute is a
// string.
//
//	<｜GCML｜tool_calls>
//	<｜GCML｜invoke name="get_weather">
//	<｜GCML｜parameter name="city" string="true">Paris</｜GCML｜parameter>
//	<｜GCML｜parameter name="days" string="false">3</｜GCML｜parameter>
//	</｜GCML｜invoke>
//	</｜GCML｜tool_calls>
//
// The newlines before the block opener are part of it; <|message_sep|> and
// the end token </s> are removed where they appear in content.
var gigaChat35Spec = func() tagSpec {
	open := "<｜GCML｜tool_calls>"
	return tagSpec{
		blockOpen:     []string{open, "\n" + open, "\n\n" + open},
		blockClose:    "</｜GCML｜tool_calls>",
		fnOpen:        "<｜GCML｜invoke name=",
		fnClose:       "</｜GCML｜invoke>",
		parOpen:       "<｜GCML｜parameter name=",
		parClose:      "</｜GCML｜parameter>",
		dsml:          true,
		stringDefault: true,
		trim:          trimNone,
		conv:          convDSML,
		closers:       []string{gcMessageSep + "\n\n", gcMessageSep, gcEOS},
	}
}()

func init() {
	registerTool(ToolInfo{
		Malformed: "as DSML (deepseek_v4): a block without an invoke is markup; an invoke whose name or parameter tag lacks its '>' is " +
			"abandoned and dropped up to its close; an empty name drops the invoke; a parameter outside an invoke is dropped " +
			"up to the invoke close; a string=\"false\" value that is not JSON is kept as the string written",
		Truncated: "an invoke needs its close tag (and each value its parameter close); one cut anywhere before is abandoned; the " +
			"block close may be missing",
	}, func(out *sink) toolGrammar { return newTagCalls(out, &gigaChat35Spec) },
		"gigachat35", // vLLM, SGLang
	)
}
