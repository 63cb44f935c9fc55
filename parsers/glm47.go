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
//
// The machine is shared, as a glmSpec, by the grammars of the same kind
// with other tags (Hunyuan HY-V3/V4: a <tool_calls> wrapper, <tool_sep>
// after the name, tag suffixes; K2 Horizon: a type element between a key
// and its value, and JSON call bodies read by the JSON call machine).
type glm47 struct {
	out    *sink
	spec   *glmSpec
	schema *schemaIndex

	plain   glmMarks // the spec's tags
	learned glmMarks // the tags with sfx (spec.suffix)
	sfx     []byte   // the suffix learned marks are built for (nil: none yet)
	cur     *glmMarks
	val     paramValue
	cand    candidate // glSuffix: the opener and the suffix read, content if they are not a tag
	body    jsonCalls // glJSON: a JSON call body (spec.jsonBody)

	st     glmState
	bare   bool     // a bare body (no <tool_call>): recovered at the end of the stream
	loose  bool     // text was dropped between pairs (the body is not well formed)
	inWrap bool     // inside the spec's wrapper: a call's end returns to it
	then   int      // glSuffix: the opener arg the suffix completes
	names  []string // declared tool names (bare-name candidates must prefix one)
	tool   toolSchema
	attr   []byte // name or key being read
	typ    []byte // the key's type element (spec.typ), read before its value
}

// glmSpec describes a grammar of the GLM-4.7 kind: its tags (PAR = a
// parameter's key, VAL its value), an optional wrapper around a group of
// calls, an optional separator after the name, the value rules, and the
// GLM-4.7-only behaviours.
type glmSpec struct {
	wrap, wrapClose string // wrapper around a group of calls ("": none)
	call, callClose string
	sep             string // ends the name like the first key opener ("": none)
	key, keyClose   string
	typ, typClose   string // an optional type element between a key and its value ("": none)
	val, valClose   string
	jsonBody        bool     // a call body may be a JSON object {"name": …, "arguments": {…}} instead of a name and pairs
	ents            *matcher // entity table of values (nil: none)
	conv            convRule
	bare            bool // bare bodies NAME<arg_key>… are calls (glm47)
	declaredOnly    bool // with declared tools, an undeclared name is not a call (glm47)
	// suffix: every tag may carry ":SUFFIX" before its '>' (a
	// tokenizer-specific spelling, Hunyuan's <tool_calls:opensource>); the
	// suffix is learned from the wrapper or call opener (or an orphan
	// closer) that carries it and applies to the tags until the next one.
	suffix bool
}

// glmMarks are a glmSpec's matchers for one spelling of its tags.
type glmMarks struct {
	wrapM  matcher // in the wrapper, before a call: the call opener, the wrapper closer
	nameM  matcher // after the call opener: the key opener, the call closer (and the separator)
	keyM   matcher // the key closer
	kvM    matcher // between a key and its value: the value opener (and the type opener)
	typM   matcher // the type closer
	pairsM matcher // after a value: the key opener, the call closer
	skipM  matcher // a malformed call: the call closer
	ends   matcher // a value: the value closer
}

// glmTag spells tag with suffix sfx (":x" in "<tool_call:x>").
func glmTag(tag string, sfx []byte) string {
	if len(sfx) == 0 || tag == "" {
		return tag
	}
	return tag[:len(tag)-1] + string(sfx) + ">"
}

func newGLMMarks(s *glmSpec, sfx []byte) glmMarks {
	t := func(tag string) string { return glmTag(tag, sfx) }
	name := []marker{{text: t(s.key), arg: glmArgKey}, {text: t(s.callClose), arg: glmClose}}
	if s.sep != "" {
		name = append(name, marker{text: t(s.sep), arg: glmSep})
	}
	m := glmMarks{
		nameM:  newMatcher(name...),
		keyM:   newMatcher(marker{text: t(s.keyClose)}),
		kvM:    newMatcher(marker{text: t(s.val)}),
		typM:   newMatcher(marker{text: t(s.typClose)}),
		pairsM: newMatcher(marker{text: t(s.key), arg: glmArgKey}, marker{text: t(s.callClose), arg: glmClose}),
		skipM:  newMatcher(marker{text: t(s.callClose)}),
		ends:   newMatcher(marker{text: t(s.valClose)}),
	}
	if s.wrap != "" {
		m.wrapM = newMatcher(marker{text: t(s.call), arg: glmArgKey}, marker{text: t(s.wrapClose), arg: glmClose})
	}
	if s.typ != "" {
		m.kvM = newMatcher(marker{text: t(s.val)}, marker{text: t(s.typ), arg: glmTyp})
	}
	return m
}

// glm47Spec is GLM-4.5/4.6/4.7's.
var glm47Spec = glmSpec{
	call: "<tool_call>", callClose: "</tool_call>",
	key: "<arg_key>", keyClose: "</arg_key>",
	val: "<arg_value>", valClose: "</arg_value>",
	ents: &xmlEntities, conv: convGLM,
	bare: true, declaredOnly: true,
}

type glmState uint8

const (
	glName     glmState = iota // reading the name
	glKey                      // reading a key up to </arg_key>
	glKV                       // whitespace between </arg_key> and <arg_value>
	glValue                    // in a value
	glPairs                    // after a value: whitespace until <arg_key> or </tool_call>
	glSkip                     // a malformed block, dropped up to </tool_call>
	glWrap                     // in the wrapper, before a call (spec.wrap)
	glSuffix                   // reading a tag suffix up to '>' (spec.suffix)
	glType                     // reading a key's type element up to its closer (spec.typ)
	glJSON                     // a JSON call body (spec.jsonBody)
	glJSONPost                 // after a JSON call body: dropped up to the call closer
)

var glmStateNames = [...]string{"glName", "glKey", "glKV", "glValue", "glPairs", "glSkip", "glWrap", "glSuffix", "glType", "glJSON", "glJSONPost"}

func (s glmState) String() string { return enumName(glmStateNames[:], s, "glmState") }

// Marker args of the glmMarks matchers.
const (
	glmArgKey = iota // the key opener (wrapM: the call opener)
	glmClose         // the call closer (wrapM: the wrapper closer)
	glmSep           // the separator after the name
	glmTyp           // kvM: the type opener
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

func newGLM47(out *sink) toolGrammar { return newGLM(out, &glm47Spec) }

// newGLM builds the GLM-kind machine for spec.
func newGLM(out *sink, spec *glmSpec) *glm47 {
	g := &glm47{out: out, spec: spec, schema: newSchemaIndex(out.cfg.Tools)}
	if spec.bare {
		for _, t := range out.cfg.Tools {
			g.names = append(g.names, t.Name)
		}
	}
	g.plain = newGLMMarks(spec, nil)
	g.cur = &g.plain
	g.val = paramValue{out: &out.emitter, limit: out.limit, ends: g.plain.ends, ents: spec.ents, trim: trimNone, conv: spec.conv}
	g.body = jsonCalls{out: out, allowObject: true, argKeys: []string{"arguments", "parameters"}}
	return g
}

// Opener args: the block, and an argument tag met outside a block (a bare
// body whose name was already emitted as content: its arguments are parsed
// and dropped up to </tool_call>, so they do not leak into content); the
// wrapper; and, with glmSfx set, the same tags spelled with a suffix (the
// opener ends at the ':'; glmOpenOrphan is a closer, dropped once its
// suffix is read).
const (
	glmOpenBlock = iota
	glmOpenKey
	glmOpenValue
	glmOpenWrap
	glmOpenOrphan
	glmSfx = 8
)

// glmSfxMax bounds a tag suffix (":" included).
const glmSfxMax = 32

func (g *glm47) textMarkers() []marker {
	s := g.spec
	ms := []marker{
		{text: s.call, act: actToolOpen, arg: glmOpenBlock},
		{text: s.key, act: actToolOpen, arg: glmOpenKey},
		{text: s.val, act: actToolOpen, arg: glmOpenValue},
	}
	if s.wrap != "" {
		ms = append(ms, marker{text: s.wrap, act: actToolOpen, arg: glmOpenWrap})
	}
	if s.suffix {
		// The tags that open a call group or close one, spelled with a
		// suffix: the suffix is read (and learned) by the grammar.
		for _, t := range []struct {
			tag string
			arg int
		}{{s.wrap, glmOpenWrap}, {s.call, glmOpenBlock}, {s.wrapClose, glmOpenOrphan}, {s.callClose, glmOpenOrphan}} {
			if t.tag != "" {
				ms = append(ms, marker{text: t.tag[:len(t.tag)-1] + ":", act: actToolOpen, arg: t.arg | glmSfx})
			}
		}
	}
	if s.wrapClose != "" {
		ms = append(ms, marker{text: s.wrapClose, act: actToolClose})
	}
	if s.typ != "" {
		ms = append(ms, marker{text: s.typ, act: actToolClose}, marker{text: s.typClose, act: actToolClose})
	}
	return append(ms,
		marker{text: s.callClose, act: actToolClose},
		marker{text: s.keyClose, act: actToolClose},
		marker{text: s.valClose, act: actToolClose})
}

func (g *glm47) open(arg int) {
	g.st = glName
	g.bare, g.loose, g.tool = false, false, nil
	g.attr, g.typ = g.attr[:0], g.typ[:0] // a type element cut by the end of the last call or stream is gone
	if arg&glmSfx != 0 {
		g.st, g.then = glSuffix, arg&^glmSfx
		g.cand.begin(g.out.ws, g.openerText(g.then))
		g.attr = append(g.attr, ':')
		return
	}
	g.use(&g.plain)
	g.openAs(arg)
}

// openAs enters the state opener arg starts, with the tags in use.
func (g *glm47) openAs(arg int) {
	g.st, g.inWrap = glName, false
	switch arg {
	case glmOpenKey:
		g.st = glKey // no call: the arguments are dropped
	case glmOpenValue:
		g.st = glValue
		g.val.begin(paramType{free: true}, false, true)
	case glmOpenWrap:
		g.st, g.inWrap = glWrap, true
	}
}

// openerText is the suffix opener text of opener arg (without the suffix).
func (g *glm47) openerText(arg int) string {
	tag := g.spec.callClose
	switch arg {
	case glmOpenWrap:
		tag = g.spec.wrap
	case glmOpenBlock:
		tag = g.spec.call
	}
	return tag[:len(tag)-1] + ":"
}

// use switches the tags in use (the value's close tag with them).
func (g *glm47) use(m *glmMarks) {
	if g.cur != m {
		g.cur = m
		g.val.ends = m.ends
	}
}

// scanSuffix reads a tag suffix up to its '>' (glSuffix; g.attr holds the
// suffix so far, ':' included): at most glmSfxMax bytes, none of them
// whitespace, '<' or '>'.
// Then the tags with that suffix are in use and the tag acts as its opener
// arg says (an orphan closer is dropped); anything else makes the opener
// and the bytes read text.
func (g *glm47) scanSuffix(b []byte, final bool) (int, blockStatus) {
	for i, c := range b {
		if c == '>' && len(g.attr) > 1 {
			g.learn(g.attr)
			g.cand.buf, g.attr = g.cand.buf[:0], g.attr[:0]
			if g.then == glmOpenOrphan {
				return i + 1, blockDone
			}
			g.openAs(g.then)
			return i + 1, blockNext
		}
		if isSpace(c) || c == '<' || c == '>' || len(g.attr) >= glmSfxMax {
			return i, g.cand.releaseWith(g.out, b[:i])
		}
		g.attr = append(g.attr, c)
	}
	if final {
		return len(b), g.cand.releaseWith(g.out, b)
	}
	g.cand.buf = append(g.cand.buf, b...)
	return len(b), blockMore
}

// learn puts the tags spelled with suffix sfx (":x") in use, building them
// when the suffix differs from the last one learned (an allocation only
// then: a stream's tags carry one suffix).
func (g *glm47) learn(sfx []byte) {
	if !bytes.Equal(sfx, g.sfx) {
		g.sfx = append(g.sfx[:0], sfx...)
		g.learned = newGLMMarks(g.spec, g.sfx)
		g.cur = nil
	}
	g.use(&g.learned)
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
			if g.st == glName && g.spec.jsonBody && !hasNonSpace(g.attr) {
				if j := i + spaceLen(b[i:]); j < len(b) && b[j] == '{' {
					g.st, i = glJSON, j // a JSON call body
					g.body.begin()
					continue
				}
			}
			n, st := g.nameTag(b[i:], final)
			i += n
			if st != blockNext {
				return i, st
			}
		case glKV:
			kvM := &g.cur.kvM
			pos, mi := kvM.find(b[i:], final)
			if hasNonSpace(b[i : i+pos]) {
				g.malformed() // text between </arg_key> and <arg_value>
				continue
			}
			if mi < 0 {
				return noMarker(b, i+pos)
			}
			i += pos + len(kvM.ms[mi].text)
			if kvM.ms[mi].arg == glmTyp {
				g.st, g.typ = glType, g.typ[:0]
				continue
			}
			t := g.tool.lookup(g.attr)
			if len(g.typ) > 0 {
				t = explicitType(t, g.typ)
			}
			g.val.begin(t, false, !g.out.paramKey(g.attr))
			g.st, g.typ = glValue, g.typ[:0]
		case glValue:
			n, end, hold := g.val.feed(b[i:], final)
			i += n
			if st := g.valueStep(end, hold); st != blockNext {
				return i, st
			}
		case glPairs:
			// Text between pairs is dropped (Dynamo reads the pairs with a
			// global match, which skips it).
			pairsM := &g.cur.pairsM
			pos, mi := pairsM.find(b[i:], final)
			if !g.loose && hasNonSpace(b[i:i+pos]) {
				g.loose = true
			}
			if mi < 0 {
				return noMarker(b, i+pos)
			}
			i += pos + len(pairsM.ms[mi].text)
			if pairsM.ms[mi].arg == glmClose {
				g.end()
				if st := g.callDone(); st != blockNext {
					return i, st
				}
				continue
			}
			g.st, g.attr = glKey, g.attr[:0]
		case glSkip:
			skipM := &g.cur.skipM
			pos, mi := skipM.find(b[i:], final)
			if mi < 0 {
				return noMarker(b, i+pos)
			}
			i += pos + len(skipM.ms[mi].text)
			g.st = glName
			if st := g.callDone(); st != blockNext {
				return i, st
			}
		case glWrap:
			// Inside the wrapper everything but the tags is markup.
			wrapM := &g.cur.wrapM
			pos, mi := wrapM.find(b[i:], final)
			if mi < 0 {
				return noMarker(b, i+pos)
			}
			i += pos + len(wrapM.ms[mi].text)
			if wrapM.ms[mi].arg == glmClose {
				g.inWrap = false
				return i, blockDone
			}
			g.st, g.attr = glName, g.attr[:0]
			g.bare, g.loose, g.tool = false, false, nil
		case glSuffix:
			n, st := g.scanSuffix(b[i:], final)
			i += n
			if st != blockNext {
				return i, st
			}
		case glType:
			n, st := g.typeTag(b[i:], final)
			i += n
			if st != blockNext {
				return i, st
			}
		case glJSON:
			// The JSON call machine ends the call when its object closes;
			// a broken body abandons it.
			n, r := g.body.feed(b[i:])
			i += n
			switch r {
			case jcMore:
				return i, blockMore
			case jcBad:
				g.malformed()
			default:
				g.st = glJSONPost
			}
		case glJSONPost:
			skipM := &g.cur.skipM
			pos, mi := skipM.find(b[i:], final)
			if mi < 0 {
				return noMarker(b, i+pos) // bytes after the object are dropped
			}
			i += pos + len(skipM.ms[mi].text)
			g.st = glName
			if st := g.callDone(); st != blockNext {
				return i, st
			}
		}
	}
	return i, blockMore
}

// typeTag reads a key's type element up to its closer (spec.typ); a '<'
// that does not start the closer makes the call malformed.
func (g *glm47) typeTag(b []byte, final bool) (int, blockStatus) {
	i, ok := readAttr(&g.typ, b, "<", g.out.limit)
	if !ok {
		g.malformed()
		return i, blockNext
	}
	if i == len(b) {
		return i, blockMore
	}
	m := &g.cur.typM
	mi, partial := m.at(b[i:], final)
	switch {
	case partial:
		return i, blockHold
	case mi < 0:
		g.malformed()
		return i, blockNext
	}
	g.st = glKV
	if len(trimSpace(g.typ)) == 0 {
		g.typ = g.typ[:0]
	}
	return i + len(m.ms[mi].text), blockNext
}

// explicitType is a value's type from the schema's t and the type the model
// wrote for it: without a schema the written type decides ("any" is a
// string); with one, a written type among several the schema admits narrows
// it to that one. A type name is its base, before any '[' ("array[string]").
func explicitType(t paramType, written []byte) paramType {
	w := trimSpace(written)
	if i := bytes.IndexByte(w, '['); i >= 0 {
		w = trimSpace(w[:i])
	}
	var buf [32]byte
	if len(w) == 0 || len(w) > len(buf) {
		return t
	}
	for i, c := range w {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	name := buf[:len(w)]
	if t.free {
		if string(name) == "any" {
			return paramType{set: tString}
		}
		return paramType{set: typeByName(string(name))}
	}
	if set := typeByName(string(name)); set&t.set == set && set != t.set && set != tOther {
		t.set = set
	}
	return t
}

// callDone is where a call's end (or a malformed call's close tag) leads:
// back into the wrapper the call was in (blockNext), or out of the block.
func (g *glm47) callDone() blockStatus {
	if g.inWrap {
		g.st = glWrap
		return blockNext
	}
	return blockDone
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
	m := &g.cur.nameM
	if g.st == glKey {
		m = &g.cur.keyM
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
	switch m.ms[mi].arg {
	case glmClose:
		g.end()
		return i, g.callDone()
	case glmSep:
		g.st = glPairs // the separator: whitespace, then the first key or the close
	default:
		g.st = glKey
	}
	g.attr = g.attr[:0]
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
	if g.spec.declaredOnly && g.schema.declared && !known {
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
	switch {
	case g.bare && g.out.inCall && g.st == glPairs && !g.loose:
		g.end()
		return
	case g.st == glSuffix:
		g.cand.release(g.out) // an opener whose suffix the stream cut: text
	case g.st == glJSON:
		g.body.finish()
	}
	g.out.abandonCall()
	g.st = glName
}

func (g *glm47) reset() {
	g.open(0)
	g.val.st = pvIdle
}
