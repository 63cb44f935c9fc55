package parsers

// seedOSS is ByteDance Seed-OSS's tool-call grammar: the Qwen3-Coder XML
// grammar (qwen3_coder.go) inside its own wrapper tokens.
//
//	<seed:tool_call>
//	<function=get_weather>
//	<parameter=location>Barcelona, Spain</parameter>
//	</function>
//	</seed:tool_call>
//
// Everything inside the wrapper follows qwen3_coder: values typed by the
// tool's schema, strings streamed without one framing newline on each side,
// <function=…> without the wrapper is a call (back-off). "<tool_call>" is
// ordinary text here. Reasoning comes in <seed:think>…</seed:think>
// (reasoning parser seed_oss; not forced: a template that opens the span in
// the prompt sets Config.InReasoning). The model's budget notes inside the
// span (<seed:cot_budget_reflect>…</seed:cot_budget_reflect>) are reasoning
// text, as in vLLM.
var seedOSSSpec = func() tagSpec {
	s := qwen3CoderSpec
	s.blockOpen = []string{"<seed:tool_call>"}
	s.blockClose = "</seed:tool_call>"
	return s
}()

// seedOSSThink is the seed_oss reasoning parser.
var seedOSSThink = &reasoningSpec{name: "seed_oss", starts: []string{"<seed:think>"}, ends: []string{"</seed:think>"}}

func init() {
	registerTool(ToolInfo{
		Malformed: "as qwen3_coder: a wrapper without a function is markup (dropped up to its closer); a function whose name or key tag " +
			"lacks its '>' is abandoned and dropped up to </function>; an empty name parses and drops the function; a " +
			"parameter outside a function is dropped up to </function>; a value that cannot take its schema type stays a string",
		Truncated: "as qwen3_coder: a function needs </function> (a value without </parameter> ends there, or at a newline " +
			"immediately followed by <parameter=); one cut anywhere before it is abandoned; </seed:tool_call> may be missing",
	}, func(out *sink) toolGrammar { return newTagCalls(out, &seedOSSSpec) },
		"seed_oss", // vLLM, SGLang
	)
	registerReasoning(seedOSSThink, "seed_oss")
}
