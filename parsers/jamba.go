package parsers

// jamba is AI21 Jamba's grammar (PARSER_CASES.md):
//
//	call-block = "<tool_calls>" *WS body *WS "</tool_calls>"
//	body       = "[" [ call-object *( "," call-object ) ] "]" / call-object
//
// It is the hermes machine with other tags: a JSON array of call objects
// (a bare call object is accepted too, PARSER_CASES.md). Tencent
// Hunyuan-A13B writes the same (vLLM's hunyuan_a13b).
func init() {
	registerArrayWrapped("<tool_calls>", "</tool_calls>",
		"jamba",
		"hunyuan_a13b", // vLLM (Hunyuan-A13B)
	)
}
