package parsers

import "bytes"

// glm47 is the GLM-4.5/4.6/4.7 grammar (PARSER_CASES.md), compact or with
// newlines between the tags:
//
//	block = "<tool_call>" NAME *( *WS "<arg_key>" KEY "</arg_key>" *WS "<arg_value>" VALUE "</arg_value>" ) *WS "</tool_call>"
//
// The name is everything before the first <arg_key> (or </tool_call>),
// trimmed; the call starts once it is complete and, when the request
// declares tools, only if it names one of them exactly — an undeclared name
// is not a call and the block is dropped (the documented exception to
// emitting unknown tools). Values follow PARSER_CASES.md, "GLM-4.7 values".
// A repeated key is
// emitted again (decoders keep the last value, as Dynamo does). There is no
// recovery at the end of the stream: a block without </tool_call> is
// abandoned. A bare body (NAME<arg_key>… without <tool_call>) is a
// call too: the text state holds a candidate name until <arg_key> confirms
// it (bareTail), and the end of the stream completes a bare body whose last
// value closed.
type glm47 struct {
	out    *sink
	schema *schemaIndex

	nameM  matcher // after <tool_call>: <arg_key> or </tool_call>
	keyM   matcher // </arg_key>
	kvM    matcher // <arg_value>
	pairsM matcher // after a value: <arg_key> or </tool_call>
	skipM  matcher // </tool_call>
	val    paramValue

	st    glmState
	bare  bool     // a bare body (no <tool_call>): recovered at the end of the stream
	loose bool     // text was dropped between pairs (the body is not well formed)
	names []string // declared tool names (bare-name candidates must prefix one)
	tool  toolSchema
	attr  []byte // name or key being read
}

type glmState uint8

const (
	glName  glmState = iota // reading the name
	glKey                   // reading a key up to </arg_key>
	glKV                    // whitespace between </arg_key> and <arg_value>
	glValue                 // in a value
	glPairs                 // after a value: whitespace until <arg_key> or </tool_call>
	glSkip                  // a malformed block, dropped up to </tool_call>
)

var glmStateNames = [...]string{"glName", "glKey", "glKV", "glValue", "glPairs", "glSkip"}

func (s glmState) String() string { return enumName(glmStateNames[:], s, "glmState") }

const (
	glmArgKey = iota
	glmClose
)

func init() {
	registerTool(ToolInfo{
		Malformed: "a block whose name is empty, contains whitespace, '>', braces, brackets or '\"', or (with declared tools) is not declared, is " +
			"not a call and is dropped; a '<' in the name or a key that does not start its tag, or text between " +
			"</arg_key> and <arg_value>, abandons the call and drops the block up to </tool_call>; a bare body NAME<arg_key>… (no <tool_call>; NAME a plain " +
			"identifier of at most 128 bytes, at the start of the output or after whitespace, optionally followed by whitespace; with declared tools a declared name) " +
			"is a call from NAME on: the candidate name is held until <arg_key> confirms it and never reaches content; any other <arg_key>/<arg_value> outside a block " +
			"has its arguments dropped up to </tool_call> (the text before it stays content); orphan closers are removed",
		Truncated: "no recovery: a block without </tool_call> is abandoned and its markup dropped; a bare body is recovered when its last value closed " +
			"and only whitespace follows it",
	}, newGLM47,
		"glm47",
		"glm45",       // vLLM, SGLang (GLM-4.5/4.6 spelling, newlines between tags)
		"glm",         // SGLang
		"ling3",       // vLLM, SGLang: inclusionAI Ling 3, GLM-4.5/4.7 tags
		"poolside_v1", // vLLM, SGLang: poolside Laguna, GLM-4.7 tags
		// SGLang: Spark 2.5 writes the GLM-4.7 tags (values typed by the schema)
		"spark25",
	)
}

func newGLM47(out *sink) toolGrammar {
	g := &glm47{out: out, schema: newSchemaIndex(out.cfg.Tools)}
	for _, t := range out.cfg.Tools {
		g.names = append(g.names, t.Name)
	}
	g.nameM = newMatcher(marker{text: "<arg_key>", arg: glmArgKey}, marker{text: "</tool_call>", arg: glmClose})
	g.keyM = newMatcher(marker{text: "</arg_key>"})
	g.kvM = newMatcher(marker{text: "<arg_value>"})
	g.pairsM = g.nameM
	g.skipM = newMatcher(marker{text: "</tool_call>"})
	g.val = paramValue{out: &out.emitter, limit: out.limit, ends: newMatcher(marker{text: "</arg_value>"}), ents: &xmlEntities,
		trim: trimNone, conv: convGLM}
	return g
}

// Opener args: the block, and an argument tag met outside a block (a bare
// body whose name was already emitted as content: its arguments are parsed
// and dropped up to </tool_call>, so they do not leak into content).
const (
	glmOpenBlock = iota
	glmOpenKey
	glmOpenValue
)

func (g *glm47) textMarkers() []marker {
	return []marker{
		{text: "<tool_call>", act: actToolOpen, arg: glmOpenBlock},
		{text: "<arg_key>", act: actToolOpen, arg: glmOpenKey},
		{text: "<arg_value>", act: actToolOpen, arg: glmOpenValue},
		{text: "</tool_call>", act: actToolClose},
		{text: "</arg_key>", act: actToolClose},
		{text: "</arg_value>", act: actToolClose},
	}
}

func (g *glm47) open(arg int) {
	g.st = glName
	g.bare, g.loose, g.tool = false, false, nil
	g.attr = g.attr[:0]
	switch arg {
	case glmOpenKey:
		g.st = glKey // no call: the arguments are dropped
	case glmOpenValue:
		g.st = glValue
		g.val.begin(paramType{free: true}, false, true)
	}
}

// Bare bodies: "NAME<arg_key>…"
// without <tool_call>, at the start of the output or after whitespace. The
// text state holds a trailing candidate name (a plain identifier of at most
// glmBareMax bytes, optionally followed by up to bareSpaceMax bytes of
// whitespace; with declared tools only a prefix of a declared name) until
// the next bytes show whether <arg_key> follows; then the body is a call
// from its name on, and the name never reaches content.
const (
	glmBareMax   = 128
	bareSpaceMax = 8
)

func isGLMNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-'
}

// bareTail implements bareNamer: the length of the suffix of text that is a
// bare-body name candidate (0: none). afterSpace says whether the output
// before text ends in whitespace or has no content yet. exact asks for a
// complete name (the <arg_key> is there) rather than a possible prefix.
func (g *glm47) bareTail(text []byte, afterSpace, exact bool) int {
	end := len(text)
	for end > 0 && isSpace(text[end-1]) && len(text)-end < bareSpaceMax {
		end--
	}
	if end > 0 && isSpace(text[end-1]) {
		return 0 // more whitespace than a name is followed by
	}
	start := end
	for start > 0 && isGLMNameByte(text[start-1]) && end-start <= glmBareMax {
		start--
	}
	switch {
	case start == end, end-start > glmBareMax:
		return 0
	case start > 0 && !isSpace(text[start-1]):
		return 0
	case start == 0 && !afterSpace:
		return 0
	}
	if len(g.names) > 0 {
		name, ok := text[start:end], false
		for _, n := range g.names {
			if exact && n == string(name) || !exact && len(n) >= len(name) && n[:len(name)] == string(name) {
				ok = true
				break
			}
		}
		if !ok {
			return 0
		}
	}
	return len(text) - start
}

func (g *glm47) bareArg() int { return glmOpenKey }

// openBare starts a bare body whose name (with trailing whitespace) was
// held by the text state and whose <arg_key> was just consumed.
func (g *glm47) openBare(name []byte) {
	g.open(glmOpenBlock)
	g.bare = true
	g.attr = append(g.attr[:0], name...)
	g.nameDone()
	g.st, g.attr = glKey, g.attr[:0]
}

func (g *glm47) feed(b []byte, final bool) (int, blockStatus) {
	i := 0
	if g.st == glValue {
		// The common chunk: one step of a value, usually all of b,
		// without the loop. A streamed chunk of a string value in
		// which no close tag and no entity can start and no framing
		// newline is to be held is passed on here, without feed's frame
		// (feed's first case, written out: too large to inline).
		if v := &g.val; v.st == pvString && v.lead == 2 && v.ends.none(b) && (v.ents == nil || !hasBytesWords(b, '&'*lo8, '&'*lo8)) &&
			(v.trim == trimNone || v.trim == trimFraming && len(v.nl) == 0 && b[len(b)-1] != '\n' && b[len(b)-1] != '\r') {
			g.val.out.argsEscaped(b)
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
		switch g.st {
		case glName, glKey:
			n, st := g.nameTag(b[i:], final)
			i += n
			if st != blockNext {
				return i, st
			}
		case glKV:
			pos, mi := g.kvM.find(b[i:], final)
			if hasNonSpace(b[i : i+pos]) {
				g.malformed() // text between </arg_key> and <arg_value>
				continue
			}
			if mi < 0 {
				return noMarker(b, i+pos)
			}
			i += pos + len(g.kvM.ms[mi].text)
			g.val.begin(g.tool.lookup(g.attr), false, !g.out.paramKey(g.attr))
			g.st = glValue
		case glValue:
			n, end, hold := g.val.feed(b[i:], final)
			i += n
			if st := g.valueStep(end, hold); st != blockNext {
				return i, st
			}
		case glPairs:
			// Text between pairs is dropped (Dynamo reads the pairs with a
			// global match, which skips it).
			pos, mi := g.pairsM.find(b[i:], final)
			if !g.loose && hasNonSpace(b[i:i+pos]) {
				g.loose = true
			}
			if mi < 0 {
				return noMarker(b, i+pos)
			}
			i += pos + len(g.pairsM.ms[mi].text)
			if g.pairsM.ms[mi].arg == glmClose {
				g.end()
				return i, blockDone
			}
			g.st, g.attr = glKey, g.attr[:0]
		case glSkip:
			pos, mi := g.skipM.find(b[i:], final)
			if mi < 0 {
				return noMarker(b, i+pos)
			}
			g.st = glName
			return i + pos + len(g.skipM.ms[mi].text), blockDone
		}
	}
	return i, blockMore
}

// valueStep acts on the outcome of a val.feed step (the end tag that ended
// the value, or -1; whether the rest is held): the status for feed to
// return, or blockNext to go on scanning between pairs.
func (g *glm47) valueStep(end int, hold bool) blockStatus {
	if g.val.over {
		g.out.abandonCall()
	}
	switch {
	case hold:
		return blockHold
	case end < 0:
		return blockMore // all of b
	}
	g.st = glPairs
	return blockNext
}

// nameTag reads a name or key up to its tag; any other '<' in it makes the
// block malformed (PARSER_CASES.md: KEY has no '<'; a name with '<' is no
// name either).
func (g *glm47) nameTag(b []byte, final bool) (int, blockStatus) {
	m := &g.nameM
	if g.st == glKey {
		m = &g.keyM
	}
	i, ok := readAttr(&g.attr, b, "<", g.out.limit)
	if !ok {
		g.malformed()
		return i, blockNext
	}
	if i == len(b) {
		return i, blockMore
	}
	mi, partial := m.at(b[i:], final)
	switch {
	case partial:
		return i, blockHold
	case mi < 0:
		g.malformed()
		return i, blockNext
	}
	i += len(m.ms[mi].text)
	if g.st == glKey {
		g.keyDone()
		return i, blockNext
	}
	g.nameDone()
	if m.ms[mi].arg == glmClose {
		g.end()
		return i, blockDone
	}
	g.st, g.attr = glKey, g.attr[:0]
	return i, blockNext
}

// nameDone decides whether the block is a call once its name is complete.
func (g *glm47) nameDone() {
	name := trimSpace(g.attr)
	if len(name) == 0 || bytes.ContainsAny(name, " \t\r\n>{}[]\"") {
		// No name, or text that cannot be one (library decision: like
		// DeepSeek's, a name with braces, brackets or quotes is rejected).
		return
	}
	var known bool
	g.tool, known = g.schema.tool(name)
	if g.schema.declared && !known {
		return // an undeclared tool is not a call (PARSER_CASES.md, "GLM-4.7 values")
	}
	g.out.startCall(name, nil)
}

// keyDone checks a complete key: trimmed, non-empty.
func (g *glm47) keyDone() {
	key := trimSpace(g.attr)
	if len(key) == 0 {
		g.malformed()
		return
	}
	g.attr = append(g.attr[:0], key...)
	g.st = glKV
}

// end completes the call at </tool_call>.
func (g *glm47) end() {
	g.out.endParams()
	g.st = glName
}

func (g *glm47) malformed() {
	g.out.abandonCall()
	g.st = glSkip
}

func (g *glm47) finish() {
	// No end-of-stream recovery for a GLM block; a bare body
	// whose last value closed, with only whitespace after it, is complete.
	if g.bare && g.out.inCall && g.st == glPairs && !g.loose {
		g.end()
		return
	}
	g.out.abandonCall()
	g.st = glName
}

func (g *glm47) reset() {
	g.open(0)
	g.val.st = pvIdle
}
