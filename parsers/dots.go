package parsers

// dots is rednote-hilab dots' tool-call grammar: a <dots_function_call>
// block whose body is either invoke XML in the minimax_m2 shape or, as a
// fallback the peers accept, one JSON call object.
//
//	<dots_function_call>
//	<invoke name="search">
//	<parameter name="query">weather in Shanghai</parameter>
//	</invoke>
//	</dots_function_call>
//	<dots_function_call>{"name": "search", "arguments": {"query": "tables"}}</dots_function_call>
//
// The first non-whitespace byte of a block decides: '{' starts a JSON body,
// read by the hermes machine (hermes.go: the model's own JSON, "arguments"
// or "parameters", a closed object is a call even without its closer, a
// broken body dropped up to the closer); anything else is invoke XML, read
// by the tag machine (tagcalls.go) as minimax_m2 reads it — several invokes
// per block, both close tags required, the name's quotes stripped, values
// typed by the tool's schema (PARSER_CASES.md, "Schema-typed values") and
// fully trimmed, without entity decoding (the peers decode none). A bare
// <invoke name=…> without the block is a call too (the tag machine's
// back-off). Unknown tools are emitted (the peers keep only declared ones).
// Reasoning is Qwen3's <think> (reasoning parser dots, an alias of qwen3).
type dots struct {
	xml  *tagCalls
	json *hermes
	st   dotsState
}

type dotsState uint8

const (
	dotsOpen dotsState = iota // a block opened; its body's first byte not seen yet
	dotsXML                   // invoke XML (or a bare invoke, or junk): the tag machine
	dotsJSON                  // a JSON call object: the hermes machine
)

var dotsStateNames = [...]string{"dotsOpen", "dotsXML", "dotsJSON"}

func (s dotsState) String() string { return enumName(dotsStateNames[:], s, "dotsState") }

var dotsSpec = tagSpec{
	blockOpen:  []string{"<dots_function_call>"},
	blockClose: "</dots_function_call>",
	fnOpen:     "<invoke name=",
	fnClose:    "</invoke>",
	parOpen:    "<parameter name=",
	parClose:   "</parameter>",
	trim:       trimFull,
	conv:       convXML,
}

func init() {
	registerTool(ToolInfo{
		Malformed: "a block whose body starts with '{' is hermes JSON: a body that is not a call object is markup, dropped up to " +
			"its closer (or the next opener); any other body is invoke XML as in minimax_m2: a block without an invoke is " +
			"markup (dropped up to its closer); an invoke whose name or key tag lacks its '>' is abandoned and dropped up to " +
			"</invoke>; an empty name parses and drops the invoke; a parameter outside an invoke is dropped up to </invoke>; " +
			"a value that cannot take its schema type stays a string",
		Truncated: "a JSON body is a call once its object closed, even without </dots_function_call>, and abandoned when cut " +
			"inside it; an invoke needs </invoke> and each value its </parameter>, one cut anywhere before is abandoned; " +
			"</dots_function_call> may be missing after a complete invoke",
	}, newDots,
		"dots", // vLLM, SGLang
	)
	registerReasoning(qwen3Think, "dots") // SGLang: its dots reasoning parser is the Qwen3 detector
}

func newDots(out *sink) toolGrammar {
	return &dots{
		xml:  newTagCalls(out, &dotsSpec),
		json: newWrappedJSON(out, dotsSpec.blockOpen[0], dotsSpec.blockClose),
	}
}

// textMarkers are the tag machine's: the block opener and closer are the
// JSON body's too.
func (g *dots) textMarkers() []marker { return g.xml.textMarkers() }

func (g *dots) open(arg int) {
	g.xml.open(arg)
	g.st = dotsXML
	if arg == tagOpenBlock {
		g.st = dotsOpen
	}
}

func (g *dots) feed(b []byte, final bool) (int, blockStatus) {
	switch g.st {
	case dotsXML:
		return g.xml.feed(b, final)
	case dotsJSON:
		return g.json.feed(b, final)
	}
	// Whitespace before the body is markup inside the block.
	i := spaceLen(b)
	if i == len(b) {
		return i, blockMore
	}
	var n int
	var st blockStatus
	if b[i] == '{' {
		g.st = dotsJSON
		g.json.open(0)
		n, st = g.json.feed(b[i:], final)
	} else {
		g.st = dotsXML
		n, st = g.xml.feed(b[i:], final)
	}
	return i + n, st
}

func (g *dots) finish() {
	switch g.st {
	case dotsXML:
		g.xml.finish()
	case dotsJSON:
		g.json.finish()
	}
	g.st = dotsOpen
}

func (g *dots) reset() {
	g.xml.reset()
	g.json.reset()
	g.st = dotsOpen
}
