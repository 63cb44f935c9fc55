package parsers

import "bytes"

// solarOpen2 is Upstage Solar Open 2's tool-call grammar, sentinel tokens
// around a name line and key/value pairs:
//
//	block = "<|tool_call:start|>" NAME "\n" *( *WS "<|tool_arg:start|>" KEY "<|tool_arg:value|>" VALUE "<|tool_arg:end|>" ) *WS "<|tool_call:end|>"
//
// The name is the rest of the opener's line, trimmed; the call starts at the
// newline. A name that is empty or holds whitespace, '<', '>', braces,
// brackets or '"' is no call (the block is read and its arguments dropped),
// and so is a block whose line is cut by <|tool_call:start|> (a new block
// starts there) or <|tool_call:end|> before its newline, as in vLLM. A key
// is the text up to <|tool_arg:value|>, trimmed; an argument whose key runs
// into a boundary (<|tool_arg:start|>, <|tool_call:end|>,
// <|tool_call:start|>) contributes nothing and the boundary acts. A value
// ends at <|tool_arg:end|> or, when the model dropped that token, at the
// next boundary, which then acts: the next argument starts, the call ends,
// or the call ends and a new block starts (the peers' recovery: a dropped
// end token never swallows what follows). Values are typed by the tool's
// schema (PARSER_CASES.md, "Schema-typed values") without entity decoding:
// strings are verbatim, untrimmed; typed values are trimmed and converted;
// a value without a schema is a string. A repeated key is emitted again
// (decoders keep the last value; vLLM keeps the first). Text between pairs
// is dropped. A call needs <|tool_call:end|> or the next block's opener: at
// the end of the stream it is abandoned, as vLLM leaves it unmatched.
// Unknown tools are emitted. Outside a block, the argument tokens and
// <|tool_call:end|> are orphan closers, removed.
//
// Reasoning is <|think:start|> … <|think:end|> (reasoning parser
// solar_open2), not forced: the template opens the span in the prompt for
// the default and higher efforts and closes it in the prompt for lower ones,
// so whether the output starts inside reasoning is the prompt's to say
// (Config.InReasoning). <|tool_call:start|> ends reasoning (vLLM treats a
// call in the span as its implicit end).
type solarOpen2 struct {
	out    *sink
	schema *schemaIndex

	nameM  matcher // a '<' in the name line: a boundary, or text
	keyM   matcher // a '<' in a key: <|tool_arg:value|>, a boundary, or text
	pairsM matcher // between pairs: <|tool_arg:start|> or a boundary
	skipM  matcher // a malformed block: <|tool_call:end|> or <|tool_call:start|>
	val    paramValue

	st   soState
	tool toolSchema
	attr []byte // name or key being read
}

type soState uint8

const (
	soName  soState = iota // reading the name line
	soPairs                // between pairs
	soKey                  // reading a key up to <|tool_arg:value|>
	soValue                // in a value
	soSkip                 // a malformed block, dropped up to a boundary
)

var soStateNames = [...]string{"soName", "soPairs", "soKey", "soValue", "soSkip"}

func (s soState) String() string { return enumName(soStateNames[:], s, "soState") }

// Solar Open 2's sentinels.
const (
	soCallStart = "<|tool_call:start|>"
	soCallEnd   = "<|tool_call:end|>"
	soArgStart  = "<|tool_arg:start|>"
	soArgValue  = "<|tool_arg:value|>"
	soArgEnd    = "<|tool_arg:end|>"
)

// Marker args of the grammar's matchers, and the order of the value's ends.
const (
	soAtArgEnd = iota
	soAtArgStart
	soAtCallEnd
	soAtCallStart
	soAtArgValue
)

// solarOpen2Think is the solar_open2 reasoning parser.
var solarOpen2Think = &reasoningSpec{name: "solar_open2", starts: []string{"<|think:start|>"}, ends: []string{"<|think:end|>"},
	toolStarts: []string{soCallStart}}

func init() {
	registerTool(ToolInfo{
		Malformed: "a block whose name line is empty, holds whitespace, '<', '>', braces, brackets or '\"', or is cut by " +
			"<|tool_call:start|> or <|tool_call:end|> before its newline is no call (its arguments are dropped); an argument whose " +
			"key runs into <|tool_arg:start|>, <|tool_call:end|> or <|tool_call:start|> is dropped and the boundary acts; a value " +
			"without <|tool_arg:end|> ends at the next of those boundaries; text between pairs is dropped; a name or key past " +
			"the buffer limit abandons the call up to the next boundary; orphan argument tokens and closers are removed",
		Truncated: "a call needs <|tool_call:end|> (or the next block's <|tool_call:start|>): one cut anywhere before, even after " +
			"a complete argument, is abandoned and its markup dropped",
	}, newSolarOpen2,
		"solar_open2", // vLLM
	)
	registerReasoning(solarOpen2Think, "solar_open2") // vLLM
}

func newSolarOpen2(out *sink) toolGrammar {
	g := &solarOpen2{out: out, schema: newSchemaIndex(out.cfg.Tools)}
	g.nameM = newMatcher(marker{text: soCallStart, arg: soAtCallStart}, marker{text: soCallEnd, arg: soAtCallEnd})
	g.keyM = newMatcher(marker{text: soArgValue, arg: soAtArgValue}, marker{text: soArgStart, arg: soAtArgStart},
		marker{text: soCallEnd, arg: soAtCallEnd}, marker{text: soCallStart, arg: soAtCallStart})
	g.pairsM = newMatcher(marker{text: soArgStart, arg: soAtArgStart}, marker{text: soCallEnd, arg: soAtCallEnd},
		marker{text: soCallStart, arg: soAtCallStart})
	g.skipM = g.nameM
	g.val = paramValue{out: &out.emitter, limit: out.limit, trim: trimNone, conv: convXML,
		ends: newMatcher(marker{text: soArgEnd}, marker{text: soArgStart}, marker{text: soCallEnd}, marker{text: soCallStart})}
	return g
}

func (g *solarOpen2) textMarkers() []marker {
	return []marker{
		{text: soCallStart, act: actToolOpen},
		{text: soCallEnd, act: actToolClose},
		{text: soArgStart, act: actToolClose},
		{text: soArgValue, act: actToolClose},
		{text: soArgEnd, act: actToolClose},
	}
}

func (g *solarOpen2) open(int) {
	g.st, g.tool = soName, nil
	g.attr = g.attr[:0]
}

func (g *solarOpen2) feed(b []byte, final bool) (int, blockStatus) {
	i := 0
	if g.st == soValue {
		// The common chunk: one step of a value, usually all of b,
		// without the loop. A streamed chunk of a string value in which
		// no sentinel can start is passed on here, without feed's frame.
		if v := &g.val; v.st == pvString && v.ends.none(b) {
			v.out.argsEscaped(b)
			return len(b), blockMore
		}
		n, end, hold := g.val.feedRest(b, final)
		if end < 0 && !hold && !g.val.over {
			return n, blockMore
		}
		if st := g.valueStep(end, hold); st != blockNext {
			return n, st
		}
		i = n
	}
	for i < len(b) {
		var n int
		st := blockNext
		switch g.st {
		case soName:
			n, st = g.name(b[i:], final)
		case soKey:
			n, st = g.key(b[i:], final)
		case soPairs:
			n, st = g.pairs(b[i:], final)
		case soValue:
			var end int
			var hold bool
			n, end, hold = g.val.feed(b[i:], final)
			st = g.valueStep(end, hold)
		case soSkip:
			n, st = g.skip(b[i:], final)
		}
		i += n
		if st != blockNext {
			return i, st
		}
	}
	return i, blockMore
}

// name reads the name line up to its newline; a '<' either starts a
// boundary (the block is no call) or is text of the line.
func (g *solarOpen2) name(b []byte, final bool) (int, blockStatus) {
	i, ok := readAttr(&g.attr, b, "\n<", g.out.limit)
	switch {
	case !ok:
		g.st = soSkip // a line past the limit: no call
		return i, blockNext
	case i == len(b):
		return i, blockMore
	case b[i] == '\n':
		g.nameDone()
		return i + 1, blockNext
	}
	mi, partial := g.nameM.at(b[i:], final)
	switch {
	case partial:
		return i, blockHold
	case mi < 0:
		// Text of the line (it makes the line no name).
		if !g.textLT() {
			g.st = soSkip
		}
		return i + 1, blockNext
	case g.nameM.ms[mi].arg == soAtCallStart:
		g.open(0) // the line never ended: a new block starts
		return i + len(soCallStart), blockNext
	}
	return i + len(soCallEnd), blockDone
}

// nameDone starts the call once its line is complete (a name that cannot be
// one starts none: the block's arguments are read and dropped).
func (g *solarOpen2) nameDone() {
	name := trimSpace(g.attr)
	g.st, g.attr = soPairs, g.attr[:0]
	if len(name) == 0 || bytes.ContainsAny(name, " \t\r\n<>{}[]\"") {
		return
	}
	g.tool, _ = g.schema.tool(name)
	g.out.startCall(name, nil)
}

// key reads a key up to <|tool_arg:value|>; a boundary before it drops the
// argument and acts; any other '<' is text of the key.
func (g *solarOpen2) key(b []byte, final bool) (int, blockStatus) {
	i, ok := readAttr(&g.attr, b, "<", g.out.limit)
	switch {
	case !ok:
		g.malformed()
		return i, blockNext
	case i == len(b):
		return i, blockMore
	}
	mi, partial := g.keyM.at(b[i:], final)
	switch {
	case partial:
		return i, blockHold
	case mi < 0:
		if !g.textLT() {
			g.malformed()
		}
		return i + 1, blockNext
	}
	i += len(g.keyM.ms[mi].text)
	if arg := g.keyM.ms[mi].arg; arg != soAtArgValue {
		return i, g.boundary(arg)
	}
	key := trimSpace(g.attr)
	drop := len(key) == 0 || !g.out.paramKey(key)
	g.val.begin(g.tool.lookup(key), false, drop)
	g.st = soValue
	return i, blockNext
}

// textLT appends a '<' that starts no sentinel to the name or key being
// read, or reports that it would outgrow the buffer limit.
func (g *solarOpen2) textLT() bool {
	if len(g.attr) >= g.out.limit {
		return false
	}
	g.attr = append(g.attr, '<')
	return true
}

// pairs drops what lies between pairs up to the next argument or boundary.
func (g *solarOpen2) pairs(b []byte, final bool) (int, blockStatus) {
	pos, mi := g.pairsM.find(b, final)
	if mi < 0 {
		return noMarker(b, pos)
	}
	return pos + len(g.pairsM.ms[mi].text), g.boundary(g.pairsM.ms[mi].arg)
}

// skip drops a malformed block up to <|tool_call:end|> or the next block's
// opener.
func (g *solarOpen2) skip(b []byte, final bool) (int, blockStatus) {
	pos, mi := g.skipM.find(b, final)
	if mi < 0 {
		return noMarker(b, pos)
	}
	return pos + len(g.skipM.ms[mi].text), g.boundary(g.skipM.ms[mi].arg)
}

// boundary acts on a consumed argument start or call boundary: the status
// for feed to return, or blockNext to go on scanning.
func (g *solarOpen2) boundary(arg int) blockStatus {
	switch arg {
	case soAtArgStart:
		g.st, g.attr = soKey, g.attr[:0]
		return blockNext
	case soAtCallStart:
		g.out.endParams()
		g.open(0)
		return blockNext
	}
	g.out.endParams()
	g.st = soName
	return blockDone
}

// valueStep acts on the outcome of a val.feed step (the end that ended the
// value, or -1; whether the rest is held): the status for feed to return,
// or blockNext to go on scanning.
func (g *solarOpen2) valueStep(end int, hold bool) blockStatus {
	if g.val.over {
		g.out.abandonCall() // a typed value past the limit; the block is still read
	}
	switch {
	case hold:
		return blockHold
	case end < 0:
		return blockMore
	case end == soAtArgEnd:
		g.st = soPairs
		return blockNext
	}
	return g.boundary(end)
}

// malformed abandons the call and drops the block up to a boundary.
func (g *solarOpen2) malformed() {
	g.out.abandonCall()
	g.st = soSkip
}

func (g *solarOpen2) finish() {
	g.out.abandonCall()
	g.st = soName
}

func (g *solarOpen2) reset() {
	g.open(0)
	g.val.st = pvIdle
}
