package parsers

// longcat is Meituan LongCat-Flash's tool-call grammar: the hermes machine
// (hermes.go) in LongCat's own wrapper tokens, one call object per block and
// blocks written back to back for parallel calls.
//
//	<longcat_tool_call>
//	{"name": "get_weather", "arguments": {"location": "Beijing"}}
//	</longcat_tool_call><longcat_tool_call>
//	{"name": "get_time", "arguments": {}}
//	</longcat_tool_call>
//
// Everything inside the wrapper follows hermes: the arguments are the
// model's own JSON ("arguments" or "parameters"), a closed body is a call
// even without its closer, a broken body is dropped up to the closer (or the
// next opener), an array of call objects is accepted, orphan closers are
// removed. "<tool_call>" is ordinary text here. Both peers (vLLM's longcat
// parser, a subclass of its hermes parser; SGLang's LongCat detector) read
// the same wrapper; SGLang writes it as "<longcat_tool_call>\n" …
// "\n</longcat_tool_call>", whose newlines are whitespace inside the block.
//
// Reasoning comes in <longcat_think>…</longcat_think> (reasoning parser
// longcat): forced, as vLLM's LongCat reasoning parser is — the chat
// template ends the generation prompt with the opener in thinking mode, so
// the output starts inside reasoning.
var longcatThink = &reasoningSpec{name: "longcat", starts: []string{"<longcat_think>"}, ends: []string{"</longcat_think>"}, forced: true}

func init() {
	registerTool(ToolInfo{
		Malformed: "as hermes: a body that is not a call object (or array of them) is markup: the call is abandoned and the block " +
			"is dropped up to its closer (or up to the next opener, which starts a new block); in an array, " +
			"elements that are not call objects are skipped; non-whitespace after a closed body is content",
		Truncated: "as hermes: a closed body is a call even without its closer; a body cut mid-value is abandoned and its markup " +
			"dropped; in an unclosed array, every closed element is a call; a held partial closer is text",
	}, func(out *sink) toolGrammar { return newWrappedJSON(out, "<longcat_tool_call>", "</longcat_tool_call>") },
		"longcat", // vLLM (SGLang ships the detector unregistered)
	)
	// vLLM ships LongcatReasoningParser (longcat_reasoning_parser.py) but
	// its registry lists no name for it yet; the library's is longcat.
	registerReasoning(longcatThink, "longcat")
}
