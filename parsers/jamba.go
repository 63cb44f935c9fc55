package parsers

// jamba is AI21 Jamba's grammar (PARSER_CASES.md):
//
//	call-block = "<tool_calls>" *WS body *WS "</tool_calls>"
//	body       = "[" [ call-object *( "," call-object ) ] "]" / call-object
//
// It is the hermes machine with other tags: a JSON array of call objects
// (a bare call object is accepted too, PARSER_CASES.md).
func init() { registerArrayWrapped("<tool_calls>", "</tool_calls>", "jamba") }
