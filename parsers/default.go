package parsers

// defaultJSON is Dynamo's "default" tool-call parser (PARSER_CASES.md): the
// basic JSON parser with two start tokens,
//
//	<TOOLCALL>[…]</TOOLCALL>        JSON in wrapper tags (the nemotron_deci machine)
//	<|python_tag|>{…}               closer-less JSON (the llama3_json machine)
//
// and bare JSON at the start of the output. Library rule: bare JSON counts
// only at the start of the output (after whitespace) and only with the call
// shape; otherwise it is content (Dynamo slices from the first '{' or '['
// anywhere, so prose containing JSON becomes a call). After <|python_tag|>
// the llama3_json rules apply unchanged (a JSON value that is not a call is
// markup, PARSER_CASES.md; text that is not JSON is content, the tag
// removed).
type defaultJSON struct {
	wrapped *hermes
	tagged  *llama3JSON
	cur     toolGrammar
}

// defaultArgWrapped is the opener argument of <TOOLCALL>; the others are the
// llama3JSON ones.
const defaultArgWrapped = 0

func init() {
	registerTool(ToolInfo{
		Malformed: "wrapped: a body that is not a call (array) is markup, dropped up to its closer or the next opener; " +
			"after the python tag: JSON that is not a call is markup, a broken body is dropped up to the next opener, text " +
			"that is not JSON is content with the tag removed; bare JSON at the start of the output is a call only with a " +
			"string `name` and an `arguments`/`parameters` key, otherwise it is released as content",
		Truncated: "a closed body is a call even without its closer; in an unclosed array every closed element is a call; " +
			"a committed call cut mid-value is abandoned and dropped; an undecided bare object is content",
	}, newDefaultJSON, "default")
}

// defaultTaggedSpec is llama3_json's syntax without its release of a
// broken bare body.
var defaultTaggedSpec = l3Spec{tags: llama3Spec.tags, bare: llama3Spec.bare}

func newDefaultJSON(out *sink) toolGrammar {
	g := &defaultJSON{
		wrapped: newWrappedJSON(out, "<TOOLCALL>", "</TOOLCALL>"),
		tagged:  newLlama3(out, &defaultTaggedSpec, "<TOOLCALL>"),
	}
	g.cur = g.wrapped
	return g
}

func (g *defaultJSON) textMarkers() []marker {
	return append(g.wrapped.textMarkers(), g.tagged.textMarkers()...)
}

func (g *defaultJSON) open(arg int) {
	if arg == defaultArgWrapped {
		g.cur = g.wrapped
	} else {
		g.cur = g.tagged
	}
	g.cur.open(arg)
}

func (g *defaultJSON) feed(b []byte, final bool) (int, blockStatus) { return g.cur.feed(b, final) }

func (g *defaultJSON) finish() { g.cur.finish() }

func (g *defaultJSON) reset() {
	g.wrapped.reset()
	g.tagged.reset()
	g.cur = g.wrapped
}
