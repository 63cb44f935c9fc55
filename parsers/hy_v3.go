package parsers

// hyV3 is Tencent Hunyuan HY-V3's and HY-V4's tool-call grammar
// (PARSER_CASES.md, "Hunyuan HY-V3 / HY-V4 and A13B"): the GLM-4.7 machine
// (glm47.go) inside a wrapper, with a separator after the name (HY-V4
// writes none) and tags that may carry the tokenizer's suffix:
//
//	<tool_calls>
//	<tool_call>get_weather<tool_sep>
//	<arg_key>city</arg_key>
//	<arg_value>Paris</arg_value>
//	</tool_call>
//	</tool_calls>
//
// The shipping tokenizers spell every tag with a suffix
// (<tool_calls:opensource>, a per-checkpoint one for HY-V4): the suffix
// carried by the wrapper or call opener is learned and applies to every
// tag up to the next opener. Values are verbatim (no entities, no trimming)
// and typed by the tool's schema (PARSER_CASES.md, "Schema-typed values").
// Inside the wrapper everything but calls is markup; a call without its
// </tool_call> is abandoned; a <tool_call> without the wrapper is a call.
// Unknown tools are emitted.
var hyV3Spec = glmSpec{
	wrap: "<tool_calls>", wrapClose: "</tool_calls>",
	call: "<tool_call>", callClose: "</tool_call>",
	sep: "<tool_sep>",
	key: "<arg_key>", keyClose: "</arg_key>",
	val: "<arg_value>", valClose: "</arg_value>",
	conv:   convXML,
	suffix: true,
}

// hyV3Think is the hy_v3 reasoning parser: <think>…</think>, not forced (a
// template that opens the span sets Config.InReasoning; with reasoning off
// the model writes none). The shipping tokenizer's <think:opensource>
// spelling (and :hcu) counts too.
var hyV3Think = &reasoningSpec{name: "hy_v3",
	starts: []string{"<think>", "<think:opensource>", "<think:hcu>"},
	ends:   []string{"</think>", "</think:opensource>", "</think:hcu>"}}

// hunyuanA13BThink is the hunyuan_a13b reasoning parser: Hunyuan-A13B
// writes <think>\n…\n</think>\n<answer>\n…\n</answer>. The newlines
// inside the tags are framing, and the answer tags are markup: a stray one
// in content is dropped, and <answer> ends an unclosed reasoning span.
var hunyuanA13BThink = &reasoningSpec{name: "hunyuan_a13b",
	starts: []string{"<think>\n", "<think>"},
	ends:   []string{"\n</think>\n<answer>\n", "\n</think>\n", "</think>", "<answer>\n", "<answer>", "\n</answer>", "</answer>"}}

func init() {
	registerTool(ToolInfo{
		Malformed: "as glm47 (a name that is empty or holds whitespace, '>', braces, brackets or '\"' is not a call; a '<' in the " +
			"name or a key that does not start its tag, or text between </arg_key> and <arg_value>, abandons the call up to " +
			"</tool_call>), but undeclared tools are calls; inside the wrapper everything outside calls is markup; a suffixed " +
			"opener whose suffix is not up to 32 bytes without whitespace or '<' before its '>' is text",
		Truncated: "no recovery: a call without </tool_call> is abandoned and its markup dropped; </tool_calls> may be missing",
	}, func(out *sink) toolGrammar { return newGLM(out, &hyV3Spec) },
		"hy_v3",
		"hy_v4",   // vLLM
		"hunyuan", // SGLang
	)
	registerReasoning(hyV3Think, "hy_v3", "hy_v4", "hunyuan")
	registerReasoning(hunyuanA13BThink, "hunyuan_a13b")
}
