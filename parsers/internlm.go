package parsers

// internlm is the InternLM2 / Intern-S1 tool-call grammar (PARSER_CASES.md,
// "JSON arguments"): one JSON call object in an action block of the plugin
// kind.
//
//	I'll check.<|action_start|><|plugin|>
//	{"name": "get_weather", "parameters": {"city": "Tokyo"}}<|action_end|>
//
// It is the hermes machine (hermes.go) with <|action_start|> and
// <|action_end|> as its tags and <|plugin|> required after the opener
// (whitespace before it is allowed: Intern-S1 writes "<|action_start|>
// <|plugin|>"). The body is a call object ("parameters" or "arguments"; an
// array of them is accepted too) and blocks repeat. A block of another kind
// (InternLM2's <|interpreter|> code) is not a call and is dropped up to
// <|action_end|>, as any block whose body is not a call. Calls to undeclared
// tools are emitted (vLLM's Intern-S1 parser and SGLang drop them).
//
// Reasoning (Intern-S1): <think>…</think>; an action block met inside the
// span ends it (reasoning parser interns1), where vLLM moves the block out
// of the reasoning and keeps reasoning after it: here the text after the
// block is content.
var internThink = &reasoningSpec{name: "interns1", starts: []string{"<think>"}, ends: []string{"</think>"},
	toolStarts: []string{"<|action_start|>"}}

func init() {
	registerTool(ToolInfo{
		Malformed: "a block whose opener is not followed by <|plugin|> (after optional whitespace), or whose body is not " +
			"a call object (or array of them), is markup: the call is abandoned and the block dropped up to " +
			"<|action_end|> (or up to the next <|action_start|>); non-whitespace after a closed body is content",
		Truncated: "a closed body is a call even without <|action_end|>; a body cut mid-value is abandoned and its " +
			"markup dropped",
	}, func(out *sink) toolGrammar {
		h := newWrappedJSON(out, "<|action_start|>", "<|action_end|>")
		h.lead = "<|plugin|>"
		return h
	},
		"internlm",  // vLLM (InternLM2)
		"interns1",  // SGLang
		"intern-s1", // vLLM
	)
	registerReasoning(internThink, "interns1", "intern-s1", "intern_s1")
}
