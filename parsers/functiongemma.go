package parsers

// functiongemma is Google FunctionGemma's tool-call grammar (PARSER_CASES.md,
// "Gemma 4 arguments"): Gemma 4's call syntax with other tokens.
//
//	<start_function_call>call:get_weather{location:<escape>Tokyo, Japan<escape>,days:3}<end_function_call>
//
// It is the gemma4 machine (gemma4.go) with <start_function_call>,
// <end_function_call> and the string delimiter <escape> (all special tokens
// of the tokenizer): bare keys, strings between two <escape> tokens,
// numbers, true/false/null (none, nil), nested objects and arrays; the call
// starts at the '{' after its name and its arguments stream as JSON. Calls
// are concatenated; whitespace between them is markup. Decisions, as for
// gemma4:
//
//   - An argument error (a bare word, text after the object) abandons the
//     call and drops it up to <end_function_call> outside strings (ollama
//     reads a bare word as a string; vLLM keeps only the <escape>d pairs).
//   - A string value is the string written, never decoded as JSON (vLLM
//     json-decodes it, so <escape>42<escape> would become a number).
//   - <end_function_call> inside <escape>…<escape> is text.
//   - End of stream: a call whose object closed is recovered without its
//     closer; otherwise it is abandoned.
//   - Unlike gemma4, "call:…" without the opener is text.
//   - <escape> and <end_function_call> met in content are removed.
var functionGemmaSpec = gemmaSpec{open: "<start_function_call>", close: "<end_function_call>", quote: "<escape>"}

func init() {
	registerTool(ToolInfo{
		Malformed: "as gemma4: an argument parse error abandons the call and drops it up to <end_function_call> " +
			"outside strings; a body without call:NAME{ is markup; call:… without the opener is text",
		Truncated: "as gemma4: a call whose argument object closed is recovered without its closer (a partial closer " +
			"is text); otherwise it is abandoned and its markup dropped",
	}, func(out *sink) toolGrammar { return newGemmaGrammar(out, &functionGemmaSpec) },
		"functiongemma", // vLLM, ollama
	)
}
