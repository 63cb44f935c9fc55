package parsers

// minicpm5 is OpenBMB MiniCPM5's XML tool-call grammar (PARSER_CASES.md,
// "Schema-typed values"):
//
//	<function name="get_weather"><param name="city">Paris</param><param name="notes"><![CDATA[a & <b>]]></param></function>
//
// It is the tag grammar of qwen3_coder and minimax_m2 (tagcalls.go) with
// MiniCPM5's tags, all special tokens of its tokenizer. Decisions:
//
//   - A function is a call from its name to </function>; calls may repeat,
//     with or without a <tool_call>…</tool_call> wrapper around them (ollama
//     treats the wrapper as transparent). An <arguments> element around the
//     parameters is skipped, as text between parameters is.
//   - Strict, as minimax_m2: only </param> ends a value and only
//     </function> ends a call; a function cut anywhere before its close is
//     abandoned.
//   - A value is trimmed and its XML entities (&lt; &gt; &amp; &quot;
//     &apos;) decoded, as the peers' XML parser does; a value that starts
//     with <![CDATA[ is the text up to ]]>, verbatim (no decoding, no
//     trimming; only whitespace may follow ]]> before </param>). Values are
//     typed by the tool's schema (a parameter that admits strings, or has
//     no schema, is a string).
//   - Parsing is separate from validation: a call naming an undeclared tool,
//     missing a required parameter or repeating one is emitted (vLLM and
//     SGLang return such a block as text; vLLM also renames a few tools of
//     its benchmark, which the library does not).
//
// Reasoning, when the model thinks, is <think>…</think> (a <think> parser:
// basic, or deepseek_r1 when the template opened the span).
var minicpm5Spec = tagSpec{
	blockOpen:  []string{"<tool_call>"},
	blockClose: "</tool_call>",
	fnOpen:     "<function name=",
	fnClose:    "</function>",
	parOpen:    "<param name=",
	parClose:   "</param>",
	cdata:      true,
	trim:       trimFull,
	ents:       &xmlEntities,
	conv:       convXML,
}

func init() {
	registerTool(ToolInfo{
		Malformed: "a wrapper without a function is markup (dropped up to its closer); a function whose name or key " +
			"tag lacks its '>' is abandoned and dropped up to </function>; an empty name parses and drops the function; " +
			"a parameter outside a function is dropped up to </function>; text after a CDATA section's ]]> other than " +
			"whitespace abandons the call; a value that cannot take its schema type stays a string; undeclared tools " +
			"are emitted",
		Truncated: "a function needs </function> and each value its </param> (strict); one cut anywhere before is " +
			"abandoned; </tool_call> may be missing",
	}, func(out *sink) toolGrammar { return newTagCalls(out, &minicpm5Spec) },
		"minicpm5", // vLLM, SGLang, ollama
	)
}
