package parsers

import "bytes"

// glm47 is the GLM-4.5/4.6/4.7 grammar (GRAMMARS.md §6.9), compact or with
// newlines between the tags:
//
//	block = "<tool_call>" NAME *( *WS "<arg_key>" KEY "</arg_key>" *WS "<arg_value>" VALUE "</arg_value>" ) *WS "</tool_call>"
//
// The name is everything before the first <arg_key> (or </tool_call>),
// trimmed; the call starts once it is complete and, when the request
// declares tools, only if it names one of them exactly — an undeclared name
// is not a call and the block is dropped (the documented exception to
// emitting unknown tools, §1 goal 7). Values follow §5.3. A repeated key is
// emitted again (decoders keep the last value, as Dynamo does). There is no
// recovery at the end of the stream: a block without </tool_call> is
// abandoned (§4.4).
type glm47 struct {
	out    *emitter
	limit  int
	schema *schemaIndex

	nameM  matcher // after <tool_call>: <arg_key> or </tool_call>
	keyM   matcher // </arg_key>
	kvM    matcher // <arg_value>
	pairsM matcher // after a value: <arg_key> or </tool_call>
	skipM  matcher // </tool_call>
	val    paramValue

	st      glmState
	drop    bool // the block yields no call (empty or undeclared name, abandoned)
	started bool
	nparams int
	tool    toolSchema
	attr    []byte // name or key being read
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

const (
	glmArgKey = iota
	glmClose
)

func init() {
	registerTool(ToolInfo{
		Openers: []string{"<tool_call>", "<arg_key>", "<arg_value>"},
		Closers: []string{"</tool_call>", "</arg_key>", "</arg_value>"},
		Malformed: "a block whose name is empty, contains whitespace, '>', braces, brackets or '\"', or (with declared tools) is not declared, is " +
			"not a call and is dropped; a '<' in the name or a key that does not start its tag, or text between " +
			"</arg_key> and <arg_value>, abandons the call and drops the block up to </tool_call>; <arg_key>/<arg_value> outside a block start a bare body whose " +
			"arguments are dropped up to </tool_call> (the name before them stays content); orphan closers are removed",
		Truncated: "no recovery: a block without </tool_call> is abandoned and its markup dropped",
	}, newGLM47,
		"glm47",
		"glm45", // vLLM, SGLang (GLM-4.5/4.6 spelling, newlines between tags)
		"glm",   // SGLang
	)
}

func newGLM47(p *Parser) toolGrammar {
	g := &glm47{out: &p.out, limit: p.limit, schema: newSchemaIndex(p.cfg.Tools)}
	g.nameM = newMatcher(marker{text: "<arg_key>", arg: glmArgKey}, marker{text: "</tool_call>", arg: glmClose})
	g.keyM = newMatcher(marker{text: "</arg_key>"})
	g.kvM = newMatcher(marker{text: "<arg_value>"})
	g.pairsM = g.nameM
	g.skipM = newMatcher(marker{text: "</tool_call>"})
	g.val = paramValue{out: &p.out, limit: p.limit, ends: newMatcher(marker{text: "</arg_value>"}), ents: &xmlEntities,
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
	g.drop, g.started, g.nparams, g.tool = false, false, 0, nil
	g.attr = g.attr[:0]
	switch arg {
	case glmOpenKey:
		g.st, g.drop = glKey, true
	case glmOpenValue:
		g.st, g.drop = glValue, true
		g.val.begin(paramType{free: true}, false, true)
	}
}

// maxHold is the most feed ever asks the driver to hold (tests).
func (g *glm47) maxHold() int {
	return max(g.nameM.maxLen, g.keyM.maxLen, g.kvM.maxLen, g.val.maxLen())
}

func (g *glm47) feed(b []byte, final bool) (int, blockStatus) {
	i := 0
	for i < len(b) {
		switch g.st {
		case glName, glKey:
			// A name or key runs to its tag; any other '<' in it makes the
			// block malformed (GRAMMARS.md §6.9: KEY has no '<'; a name
			// with '<' is no name either).
			m := &g.nameM
			if g.st == glKey {
				m = &g.keyM
			}
			j := bytes.IndexByte(b[i:], '<')
			if j < 0 {
				j = len(b) - i
			}
			if room := g.limit - len(g.attr); j > room {
				// Past the limit at the first byte that does not fit,
				// wherever the chunks split the name.
				i += room
				g.malformed()
				continue
			}
			g.attr = append(g.attr, b[i:i+j]...)
			i += j
			if i == len(b) {
				return i, blockMore
			}
			mi, partial := m.at(b[i:], final)
			if partial {
				return i, blockHold
			}
			if mi < 0 {
				g.malformed()
				continue
			}
			i += len(m.ms[mi].text)
			if g.st == glKey {
				g.keyDone()
				continue
			}
			g.nameDone()
			if m.ms[mi].arg == glmClose {
				g.end()
				return i, blockDone
			}
			g.st, g.attr = glKey, g.attr[:0]
		case glKV:
			pos, mi := g.kvM.find(b[i:], final)
			if hasNonSpace(b[i : i+pos]) {
				g.malformed() // text between </arg_key> and <arg_value>
				continue
			}
			if mi < 0 {
				if i+pos < len(b) {
					return i + pos, blockHold
				}
				return len(b), blockMore
			}
			i += pos + len(g.kvM.ms[mi].text)
			if !g.drop {
				argsKey(g.out, g.nparams == 0, g.attr)
				g.nparams++
			}
			g.val.begin(g.tool.lookup(g.attr), false, g.drop)
			g.st = glValue
		case glValue:
			n, end, hold := g.val.feed(b[i:], final)
			i += n
			if g.val.over {
				g.abandon()
			}
			if hold {
				return i, blockHold
			}
			if end >= 0 {
				g.st = glPairs
			}
		case glPairs:
			// Text between pairs is dropped (Dynamo reads the pairs with a
			// global match, which skips it).
			pos, mi := g.pairsM.find(b[i:], final)
			if mi < 0 {
				if i+pos < len(b) {
					return i + pos, blockHold
				}
				return len(b), blockMore
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
				if i+pos < len(b) {
					return i + pos, blockHold
				}
				return len(b), blockMore
			}
			g.st = glName
			return i + pos + len(g.skipM.ms[mi].text), blockDone
		}
	}
	return i, blockMore
}

// nameDone decides whether the block is a call once its name is complete.
func (g *glm47) nameDone() {
	name := trimAll(g.attr)
	if len(name) == 0 || bytes.ContainsAny(name, " \t\r\n>{}[]\"") {
		// No name, or text that cannot be one (library decision: like
		// DeepSeek's, a name with braces, brackets or quotes is rejected).
		g.drop = true
		return
	}
	var known bool
	g.tool, known = g.schema.tool(name)
	if g.schema.declared && !known {
		g.drop = true // §6.9: an undeclared tool is not a call
		return
	}
	g.out.startCall(name, nil)
	g.started = true
}

// keyDone checks a complete key: trimmed, non-empty.
func (g *glm47) keyDone() {
	key := trimAll(g.attr)
	if len(key) == 0 {
		g.malformed()
		return
	}
	g.attr = append(g.attr[:0], key...)
	g.st = glKV
}

// end completes the call at </tool_call>.
func (g *glm47) end() {
	if g.started {
		argsClose(g.out, g.nparams)
		g.out.endCall()
	}
	g.started = false
	g.st = glName
}

func (g *glm47) abandon() {
	if g.started {
		g.out.abandonCall()
	}
	g.started, g.drop = false, true
}

func (g *glm47) malformed() {
	g.abandon()
	g.st = glSkip
}

func (g *glm47) finish() {
	// No end-of-stream recovery for GLM (§4.4, §6.9).
	g.abandon()
	g.st = glName
}

func (g *glm47) reset() {
	g.open(0)
	g.val.st = pvIdle
}
