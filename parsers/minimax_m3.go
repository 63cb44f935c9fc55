package parsers

import "bytes"

// m3NS is the MiniMax M3 namespace token that prefixes every tag (a special
// token; PRE.1 keeps it).
const m3NS = "]<]minimax[>["

// m3NSBytes is m3NS as bytes (read-only: events may alias it).
var m3NSBytes = []byte(m3NS)

// m3MaxTag bounds a tag read after the namespace token; m3MaxKids and
// m3MaxDepth bound the nested-value conversion (past them the value stays a
// string).
const (
	m3MaxTag   = 512
	m3MaxKids  = 1024
	m3MaxDepth = 32
)

// m3State is where the MiniMax M3 grammar is inside a call block.
type m3State uint8

const (
	m3Block  m3State = iota // inside NS<tool_call>, between invokes
	m3Invoke                // inside an invoke, between parameters
	m3Value                 // a parameter value, up to NS</KEY>
	m3Tag                   // a tag after the namespace token, up to '>'
)

var m3StateNames = [...]string{"m3Block", "m3Invoke", "m3Value", "m3Tag"}

func (s m3State) String() string { return enumName(m3StateNames[:], s, "m3State") }

// minimaxM3 is the MiniMax M3 namespaced-XML grammar (PARSER_CASES.md):
//
//	NS<tool_call> { NS<invoke name="N"> { NS<KEY>VALUE NS</KEY> } NS</invoke> } NS</tool_call>
//
// with NS = "]<]minimax[>[". A bare NS<invoke …> without the block opener is
// a call block of its own (it ends at NS</invoke>; a following block close is
// an orphan and removed). The call starts at the invoke tag's '>', with the
// name from name= (double or single quotes, or a bare word). A value ends at
// its own close tag (or at NS</invoke>); NS</invoke> is required
// (MiniMax's spec): an invoke cut by the end of stream is abandoned.
//
// Values, typed from the request's tool schemas (schema.go, the same typing
// as the XML families, with its child and items lookups for nested values):
// a parameter whose schema admits strings and not null streams as a JSON
// string as it arrives (entities decoded, paramValue); every other value is
// buffered (bounded) and converted at its close tag: nested NS<child> tags
// become an object (repeated tags an array, text mixed with children under
// "$text", NS<item> children an array when the schema says array); an empty
// element of an object or array type is {} or []; other leaves are
// entity-decoded and converted by paramValue's XML rule (null where the
// schema permits it, the string where it admits strings or does not
// constrain, else integer / number / boolean / object / array when the
// trimmed value reads as one, else the string, untrimmed). A parameter or
// child the schema does not name is the string verbatim.
type minimaxM3 struct {
	out    *sink
	ns     matcher
	schema *schemaIndex // the declared tools' parameters

	// scanning state; reset by open
	st   m3State
	from m3State    // m3Tag: the state the tag appeared in
	tag  []byte     // m3Tag: the tag bytes from '<'
	bare bool       // the block is a bare invoke (ends with it)
	tool toolSchema // the open call's parameters (nil: unknown tool)
	key  []byte     // m3Value: the parameter name
	node any        // m3Value: the parameter's schema node (nil: none)
	val  paramValue // m3Value: the value, streamed or buffered raw
	tmp  []byte
	dec  []byte // entity-decoded leaf text
	kids []m3Kid
}

// m3Kid is one child element of a nested value: its tag name and content,
// as offsets into the value.
type m3Kid struct {
	tag0, tag1 int
	c0, c1     int
}

func init() {
	registerTool(ToolInfo{
		Malformed: "an invoke without a name is consumed without a call; text between tags inside a block is markup; " +
			"a value buffered past the limit abandons the call; a value that does not convert to its schema type stays a string; " +
			"orphan block and invoke closers are removed, the text on both sides kept",
		Truncated: "an invoke without its close tag is abandoned (MiniMax requires it), even when its last value closed; " +
			"a missing block close is fine; calls that closed before survive; an unfinished tag is dropped",
	}, newMinimaxM3,
		"minimax_m3",
		"minimax-m3",
		"minimax_m3_nom",
		"minimax-m3-nom",
	)
	registerReasoning(minimaxM3Think, "minimax_m3", "minimax-m3")
}

// minimaxM3Think is the minimax_m3 reasoning parser: <mm:think> spans, not
// forced (PRE.3 detects a prompt ending in <mm:think>); the namespace token
// ends open reasoning and stays in the content stream for the tool parser.
var minimaxM3Think = &reasoningSpec{name: "minimax_m3", starts: []string{"<mm:think>"}, ends: []string{"</mm:think>"},
	toolStarts: []string{m3NS}}

func newMinimaxM3(out *sink) toolGrammar {
	return &minimaxM3{out: out, ns: newMatcher(marker{text: m3NS}), schema: newSchemaIndex(out.cfg.Tools),
		val: paramValue{out: &out.emitter, limit: out.limit, ents: &htmlEntities, trim: trimNone, conv: convXML, rawTyped: true}}
}

func (m *minimaxM3) textMarkers() []marker {
	return []marker{
		{text: m3NS + "<tool_call>", act: actToolOpen, arg: 0},
		{text: m3NS + "<invoke", act: actToolOpen, arg: 1},
		{text: m3NS + "</tool_call>", act: actToolClose},
		{text: m3NS + "</invoke>", act: actToolClose},
	}
}

func (m *minimaxM3) open(arg int) {
	m.st, m.bare = m3Block, arg == 1
	if m.bare {
		// A bare invoke: its tag is being read.
		m.st, m.from = m3Tag, m3Block
		m.tag = append(m.tag[:0], "<invoke"...)
	}
}

func (m *minimaxM3) reset() {
	m.open(0)
	m.tag = shrink(m.tag)
	m.val.buf = shrink(m.val.buf)
	m.tmp = shrink(m.tmp)
	m.dec = shrink(m.dec)
}

// finish ends the stream inside a block: an open invoke is abandoned.
func (m *minimaxM3) finish() { m.out.abandonCall() }

func (m *minimaxM3) feed(b []byte, final bool) (int, blockStatus) {
	if m.st == m3Value && m.ns.none(b) {
		// The common chunk: value bytes in which no namespace token
		// starts (scanNS's outcome, without the loop and the scan).
		if k := m.value(b, final); k < len(b) {
			return k, blockHold
		}
		return len(b), blockMore
	}
	i := 0
	for i < len(b) {
		var n int
		var st blockStatus
		if m.st == m3Tag {
			n, st = m.scanTag(b[i:])
		} else {
			n, st = m.scanNS(b[i:], final)
		}
		i += n
		if st != blockNext {
			return i, st
		}
	}
	return i, blockMore
}

// scanNS looks for the next namespace token; the bytes before it are value
// bytes in m3Value and markup elsewhere.
func (m *minimaxM3) scanNS(b []byte, final bool) (int, blockStatus) {
	pos, mi := m.ns.find(b, final)
	if m.st == m3Value {
		// The namespace token starts with ']', which no entity continues:
		// an entity prefix before it is decided.
		if k := m.value(b[:pos], final || pos < len(b)); k < pos {
			return k, blockHold
		}
	}
	if mi < 0 {
		return noMarker(b, pos)
	}
	m.from, m.st = m.st, m3Tag
	m.tag = m.tag[:0]
	return pos + len(m3NS), blockNext
}

// scanTag reads a tag after the namespace token up to its '>'.
func (m *minimaxM3) scanTag(b []byte) (int, blockStatus) {
	if len(m.tag) == 0 && b[0] != '<' {
		// Not a tag: the token alone.
		m.notTag()
		return 0, blockNext
	}
	end := bytes.IndexByte(b, '>')
	n := len(b)
	if end >= 0 {
		n = end + 1
	}
	if len(m.tag)+n > m3MaxTag {
		m.notTag()
		return 0, blockNext
	}
	m.tag = append(m.tag, b[:n]...)
	if end < 0 {
		return n, blockMore
	}
	m.st = m.from
	return n, m.dispatch()
}

// notTag handles a namespace token not followed by a tag: value text in a
// value (with what was read of the tag), markup elsewhere.
func (m *minimaxM3) notTag() {
	m.st = m.from
	if m.st == m3Value {
		m.value(m3NSBytes, true)
		m.value(m.out.copyBytes(m.tag), true)
	}
	m.tag = m.tag[:0]
}

// dispatch acts on a complete tag (m.tag, from '<' to '>') in state m.st:
// blockNext, or blockDone when the block ends with it.
func (m *minimaxM3) dispatch() blockStatus {
	t := m.tag
	switch m.st {
	case m3Value:
		if name, ok := m3CloseName(t); ok && (bytes.Equal(name, m.key) || string(name) == "invoke") {
			m.endValue()
			m.st = m3Invoke
			if string(name) == "invoke" && !bytes.Equal(name, m.key) {
				return m.endInvoke()
			}
			return blockNext
		}
		// Nested markup or text: part of the value.
		m.value(m3NSBytes, true)
		m.value(m.out.copyBytes(t), true)
		return blockNext
	case m3Invoke:
		switch {
		case string(t) == "</invoke>":
			return m.endInvoke()
		case string(t) == "</tool_call>":
			m.out.abandonCall() // the invoke never closed
			return blockDone
		case m3IsInvokeTag(t):
			m.out.abandonCall() // the invoke before it never closed
			m.startInvoke(t)
		default:
			if key, ok := m3OpenName(t); ok && string(key) != "tool_call" {
				m.startParam(key)
			}
		}
		return blockNext
	}
	// m3Block
	switch {
	case string(t) == "</tool_call>":
		return blockDone
	case m3IsInvokeTag(t):
		m.startInvoke(t)
	case m.bare:
		// A bare invoke tag that is not one: not a call.
		return blockDone
	}
	return blockNext
}

// m3IsInvokeTag reports whether t is "<invoke>" or "<invoke" + whitespace….
func m3IsInvokeTag(t []byte) bool {
	return len(t) > len("<invoke") && string(t[:len("<invoke")]) == "<invoke" &&
		(t[len("<invoke")] == '>' || isSpace(t[len("<invoke")]))
}

// m3CloseName returns NAME of a "</NAME>" tag.
func m3CloseName(t []byte) ([]byte, bool) {
	if len(t) < 4 || t[1] != '/' {
		return nil, false
	}
	return t[2 : len(t)-1], true
}

// m3OpenName returns KEY of a "<KEY>" tag (non-empty, no whitespace, no '/').
func m3OpenName(t []byte) ([]byte, bool) {
	k := t[1 : len(t)-1]
	if len(k) == 0 || k[0] == '/' {
		return nil, false
	}
	for _, c := range k {
		if isSpace(c) {
			return nil, false
		}
	}
	return k, true
}

// startInvoke starts a call from an invoke tag; no name: no call.
func (m *minimaxM3) startInvoke(t []byte) {
	m.st = m3Invoke
	name := m3NameAttr(t[len("<invoke") : len(t)-1])
	if len(name) == 0 {
		return
	}
	m.tool, _ = m.schema.tool(name)
	m.out.startCall(name, nil)
}

// endInvoke completes the open call at NS</invoke>.
func (m *minimaxM3) endInvoke() blockStatus {
	m.out.endParams()
	m.st = m3Block
	if m.bare {
		return blockDone
	}
	return blockNext
}

// m3NameAttr returns the value of name= in invoke attributes: double- or
// single-quoted, or a bare word; trimmed.
func m3NameAttr(attrs []byte) []byte {
	i := bytes.Index(attrs, []byte("name="))
	for i > 0 && !isSpace(attrs[i-1]) {
		j := bytes.Index(attrs[i+1:], []byte("name="))
		if j < 0 {
			return nil
		}
		i += 1 + j
	}
	if i < 0 {
		return nil
	}
	v := attrs[i+len("name="):]
	if len(v) > 0 && (v[0] == '"' || v[0] == '\'') {
		if end := bytes.IndexByte(v[1:], v[0]); end >= 0 {
			return trimSpace(v[1 : 1+end])
		}
		return nil
	}
	end := 0
	for end < len(v) && !isSpace(v[end]) && v[end] != '/' {
		end++
	}
	return trimSpace(v[:end])
}

// startParam begins parameter key: its JSON key is emitted at once; the
// value streams (string types) or is buffered.
func (m *minimaxM3) startParam(key []byte) {
	m.st = m3Value
	m.key = append(m.key[:0], key...)
	m.node, _ = m.tool.node(key)
	t := m.tool.lookup(key)
	stream := m.node != nil && !t.free && t.set&tString != 0 && t.set&tNull == 0
	m.val.begin(t, stream, !m.out.paramKey(key))
}

// value handles value bytes: streamed (entities decoded, JSON-escaped) or
// buffered up to the limit. It returns how much of b it consumed: less only
// when b ends inside a possible entity and decided is false.
func (m *minimaxM3) value(b []byte, decided bool) int {
	if !m.out.inCall {
		return len(b)
	}
	n := m.val.text(b, decided)
	if m.val.over {
		m.out.abandonCall()
	}
	return n
}

// endValue completes the value at its close tag.
func (m *minimaxM3) endValue() {
	if !m.out.inCall {
		return
	}
	raw, ok := m.val.takeRaw()
	if !ok {
		m.val.end() // a streamed string
		return
	}
	m.tmp = m.convert(m.tmp[:0], raw, m.node, 0)
	m.out.args(m.out.copyBytes(m.tmp))
}

// convert appends the JSON value of a buffered value v under schema node:
// nested tags when it holds NS<child>…NS</child>, a scalar otherwise.
func (m *minimaxM3) convert(dst, v []byte, node any, depth int) []byte {
	base := len(m.kids)
	defer func() { m.kids = m.kids[:base] }()
	if depth < m3MaxDepth && bytes.Contains(v, []byte(m3NS+"<")) && m.children(v) {
		return m.nested(dst, v, node, base, depth)
	}
	return m.scalar(dst, v, node)
}

// children appends v's child elements to m.kids; false when there are none
// (or too many).
func (m *minimaxM3) children(v []byte) bool {
	base := len(m.kids)
	open := []byte(m3NS + "<")
	for i := 0; i < len(v); {
		j := bytes.Index(v[i:], open)
		if j < 0 {
			break
		}
		at := i + j
		t0 := at + len(open)
		end := bytes.IndexByte(v[t0:], '>')
		if end <= 0 || v[t0] == '/' {
			i = t0
			continue
		}
		tag := v[t0 : t0+end]
		if bytes.ContainsAny(tag, " \t\r\n") {
			i = t0
			continue
		}
		c0 := t0 + end + 1
		c1, after := m3MatchClose(v, c0, tag)
		if c1 < 0 {
			i = t0
			continue
		}
		if len(m.kids)-base >= m3MaxKids {
			m.kids = m.kids[:base]
			return false
		}
		m.kids = append(m.kids, m3Kid{tag0: t0, tag1: t0 + end, c0: c0, c1: c1})
		i = after
	}
	return len(m.kids) > base
}

// m3MatchClose finds the close tag of element tag whose content starts at
// c0, counting nested elements of the same name; it returns the content end
// and the position after the close tag (-1 when unclosed).
func m3MatchClose(v []byte, c0 int, tag []byte) (int, int) {
	depth := 1
	for i := c0; i < len(v); {
		j := bytes.Index(v[i:], []byte(m3NS+"<"))
		if j < 0 {
			return -1, -1
		}
		at := i + j
		t := v[at+len(m3NS)+1:]
		switch {
		case len(t) > len(tag) && t[0] == '/' && bytes.HasPrefix(t[1:], tag) && len(t) > len(tag)+1 && t[len(tag)+1] == '>':
			depth--
			if depth == 0 {
				return at, at + len(m3NS) + 1 + len(tag) + 2
			}
		case bytes.HasPrefix(t, tag) && len(t) > len(tag) && t[len(tag)] == '>':
			depth++
		}
		i = at + len(m3NS) + 1
	}
	return -1, -1
}

// nested appends the JSON of a value whose children are m.kids[base:].
func (m *minimaxM3) nested(dst, v []byte, node any, base, depth int) []byte {
	kids := len(m.kids)
	set := m.tool.typeOf(node).set
	allItems := true
	for k := base; k < kids; k++ {
		if string(v[m.kids[k].tag0:m.kids[k].tag1]) != "item" {
			allItems = false
			break
		}
	}
	if set&tArray != 0 && set&tObject == 0 && allItems {
		items := m.tool.items(node)
		dst = append(dst, '[')
		for k := base; k < kids; k++ {
			if k > base {
				dst = append(dst, ',')
			}
			kd := m.kids[k]
			dst = m.convert(dst, v[kd.c0:kd.c1], items, depth+1)
		}
		return append(dst, ']')
	}
	dst = append(dst, '{')
	first := true
	// Text mixed with the children goes under "$text".
	if m3HasText(v, m.kids[base:kids]) {
		dst = append(dst, `"$text":"`...)
		prev := 0
		for k := base; k < kids; k++ {
			dst = appendDecoded(dst, v[prev:m.kids[k].tag0-len(m3NS)-1], &htmlEntities, true)
			prev = m.kids[k].c1 + len(m3NS) + 2 + (m.kids[k].tag1 - m.kids[k].tag0) + 1
		}
		dst = appendDecoded(dst, v[prev:], &htmlEntities, true)
		dst = append(dst, '"')
		first = false
	}
	for k := base; k < kids; k++ {
		kd := m.kids[k]
		tag := v[kd.tag0:kd.tag1]
		seen := false
		for e := base; e < k; e++ {
			if bytes.Equal(v[m.kids[e].tag0:m.kids[e].tag1], tag) {
				seen = true
				break
			}
		}
		if seen {
			continue
		}
		n := 0
		for e := k; e < kids; e++ {
			if bytes.Equal(v[m.kids[e].tag0:m.kids[e].tag1], tag) {
				n++
			}
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = append(appendJSONString(dst, tag), ':')
		child := m.tool.child(node, tag)
		if n == 1 {
			dst = m.convert(dst, v[kd.c0:kd.c1], child, depth+1)
			continue
		}
		// Repeated tags become an array.
		elem := child
		if m.tool.typeOf(child).set&tArray != 0 {
			elem = m.tool.items(child)
		}
		dst = append(dst, '[')
		for e, c := k, 0; e < kids; e++ {
			ke := m.kids[e]
			if !bytes.Equal(v[ke.tag0:ke.tag1], tag) {
				continue
			}
			if c > 0 {
				dst = append(dst, ',')
			}
			c++
			dst = m.convert(dst, v[ke.c0:ke.c1], elem, depth+1)
		}
		dst = append(dst, ']')
	}
	return append(dst, '}')
}

// m3HasText reports whether v has non-whitespace text outside its children.
func m3HasText(v []byte, kids []m3Kid) bool {
	prev := 0
	for _, k := range kids {
		if hasNonSpace(v[prev : k.tag0-len(m3NS)-1]) {
			return true
		}
		prev = k.c1 + len(m3NS) + 2 + (k.tag1 - k.tag0) + 1
	}
	return hasNonSpace(v[prev:])
}

// scalar appends the JSON value of leaf text v (entities not yet decoded)
// under schema node (nil: none).
func (m *minimaxM3) scalar(dst, v []byte, node any) []byte {
	m.dec = appendDecoded(m.dec[:0], v, &htmlEntities, false)
	if node == nil {
		return appendJSONString(dst, m.dec)
	}
	t := m.tool.typeOf(node)
	if !t.stringOK() && t.set&(tObject|tArray) != 0 && len(trimSpace(m.dec)) == 0 {
		// An empty element of a container type is the empty container.
		if t.set&tObject != 0 {
			return append(dst, "{}"...)
		}
		return append(dst, "[]"...)
	}
	return m.val.appendScalar(dst, m.dec, t)
}
