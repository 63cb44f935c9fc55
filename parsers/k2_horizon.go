package parsers

// k2Horizon is IFM K2 Horizon's tool-call grammar (PARSER_CASES.md, "K2
// Horizon"): the GLM-4.7 machine (glm47.go) with the <ifm|…> tags, an
// optional type element per argument, and JSON call bodies:
//
//	<ifm|tool_calls><ifm|tool_call>lookup<ifm|arg_key>query</ifm|arg_key><ifm|arg_value>weather</ifm|arg_value></ifm|tool_call></ifm|tool_calls>
//	<ifm|tool_call>lookup<ifm|arg_key>limit</ifm|arg_key><ifm|arg_type>integer</ifm|arg_type><ifm|arg_value>2</ifm|arg_value></ifm|tool_call>
//	<ifm|tool_call>{"name": "lookup", "arguments": {"limit": 2}}</ifm|tool_call>
//
// The three spellings are the chat template's tool_call_format values
// (xml, xml_typed, json); the parser accepts all of them in one stream.
// Values are verbatim and typed by the schema, narrowed by a written type
// element; a JSON body's arguments are the model's JSON. Inside the wrapper
// everything but calls is markup; a call without its </ifm|tool_call> is
// abandoned. Unknown tools are emitted.
var k2HorizonSpec = glmSpec{
	wrap: "<ifm|tool_calls>", wrapClose: "</ifm|tool_calls>",
	call: "<ifm|tool_call>", callClose: "</ifm|tool_call>",
	key: "<ifm|arg_key>", keyClose: "</ifm|arg_key>",
	typ: "<ifm|arg_type>", typClose: "</ifm|arg_type>",
	val: "<ifm|arg_value>", valClose: "</ifm|arg_value>",
	conv:     convXML,
	jsonBody: true,
}

// k2HorizonThink is the k2_horizon reasoning parser: forced (DeepSeek-R1
// style), ended by the end marker of any reasoning effort or by the
// <ifm|tool_calls> opener, which goes on to the tool parser. The start
// marker, when the model echoes it, is dropped.
var k2HorizonThink = &reasoningSpec{name: "k2_horizon",
	starts:     []string{"<ifm|think>", "<ifm|think_fast>", "<ifm|think_faster>"},
	ends:       []string{"</ifm|think>", "</ifm|think_fast>", "</ifm|think_faster>"},
	forced:     true,
	toolStarts: []string{"<ifm|tool_calls>"},
}

func init() {
	registerTool(ToolInfo{
		Malformed: "as glm47 (a name that is empty or holds whitespace, '>', braces, brackets or '\"' is not a call; a '<' in the " +
			"name, key or type that does not start its tag, or text between a key and its value, abandons the call up to " +
			"</ifm|tool_call>), but undeclared tools are calls; a JSON body that is not one call object is abandoned and " +
			"dropped up to </ifm|tool_call>; inside the wrapper everything outside calls is markup",
		Truncated: "no recovery: a call without </ifm|tool_call> is abandoned and its markup dropped; </ifm|tool_calls> may be missing",
	}, func(out *sink) toolGrammar { return newGLM(out, &k2HorizonSpec) },
		"k2_horizon", // vLLM, SGLang
	)
	registerReasoning(k2HorizonThink, "k2_horizon")
}
