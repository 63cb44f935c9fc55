package parsers

// apertus is the Swiss AI Apertus tool-call grammar (PARSER_CASES.md, "JSON
// arguments"): a JSON array of single-key objects, the key naming the tool,
// between two special tokens.
//
//	<|tools_prefix|>[{"get_weather": {"city": "Paris"}}, {"get_time": {}}]<|tools_suffix|>
//
// It is the hermes machine (hermes.go) with Apertus' tokens and a call
// object whose first key is the name and that key's value the arguments (an
// object, or a JSON string holding one); later keys are ignored, {} is no
// call, and a non-object value abandons the call. A block whose body is not
// JSON is markup (dropped up to <|tools_suffix|>); a closed body is a call
// even without its closer; text after the block is content (vLLM and SGLang
// keep it too). Calls to undeclared tools are emitted (SGLang drops them).
//
// Reasoning is <|inner_prefix|>…<|inner_suffix|> (reasoning parser apertus):
// not forced, and a <|tools_prefix|> block inside the span ends it, as in
// ollama's Apertus 1.5 parser (SGLang keeps reasoning after the block;
// here the text after it is content).
var apertusThink = &reasoningSpec{name: "apertus", starts: []string{"<|inner_prefix|>"}, ends: []string{"<|inner_suffix|>"},
	toolStarts: []string{"<|tools_prefix|>"}}

func init() {
	registerTool(ToolInfo{
		Malformed: "a body that is not an array of {\"NAME\": {arguments}} objects (or one such object) is markup: the " +
			"call is abandoned and the block is dropped up to <|tools_suffix|> (or up to the next <|tools_prefix|>); " +
			"elements that are not call objects are skipped; non-whitespace after a closed body is content",
		Truncated: "a closed body is a call even without <|tools_suffix|>; in an unclosed array every closed element " +
			"is a call and the truncated one is abandoned; a body cut mid-value is abandoned and its markup dropped",
	}, func(out *sink) toolGrammar {
		h := newWrappedJSON(out, "<|tools_prefix|>", "<|tools_suffix|>")
		h.body.nameKeyed = true
		return h
	},
		"apertus",     // vLLM
		"apertus2509", // SGLang
	)
	registerReasoning(apertusThink, "apertus", "apertus2509")
}
