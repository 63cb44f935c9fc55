package parsers

// nemotron_deci is the Llama-Nemotron (Deci) grammar (PARSER_CASES.md):
//
//	call-block = "<TOOLCALL>" *WS body *WS "</TOOLCALL>"
//	body       = "[" [ call-object *( "," call-object ) ] "]" / call-object
//
// It is the hermes machine with other tags. The model writes a JSON array of
// call objects; a bare call object is accepted too (PARSER_CASES.md: Dynamo
// tries both shapes in every JSON config). Blocks repeat; text around them is
// content.
func init() { registerArrayWrapped("<TOOLCALL>", "</TOOLCALL>", "nemotron_deci") }
