package parsers

import (
	"bytes"
	"encoding/json"
	"strings"
)

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
// Values, typed from the request's tool schemas: a parameter whose
// schema admits strings and not null streams as a JSON string as it arrives
// (entities decoded); every other value is buffered (bounded) and converted
// at its close tag: nested NS<child> tags become an object (repeated tags an
// array, text mixed with children under "$text", NS<item> children an array
// when the schema says array); scalars are entity-decoded, then null when
// the schema permits null, the string verbatim (untrimmed) without a schema
// or for string types, else integer / number / boolean / object / array by
// the schema when the trimmed value parses as one, else the string.
//
// The schema-typing helpers here are local to MiniMax M3 (they also resolve
// nested properties/items/additionalProperties); they overlap the XML
// families' schema code and should be consolidated with it.
type minimaxM3 struct {
	out    *sink
	ns     matcher
	schema map[string]*m3Tool // tool name → schema (from Config.Tools)

	// scanning state; reset by open
	st     m3State
	from   m3State // m3Tag: the state the tag appeared in
	tag    []byte  // m3Tag: the tag bytes from '<'
	bare   bool    // the block is a bare invoke (ends with it)
	inCall bool    // a call is started
	nArgs  int     // parameters emitted in the open call
	tool   *m3Tool // the open call's schema (nil: none)
	key    []byte  // m3Value: the parameter name
	node   any     // m3Value: the parameter's schema node (nil: none)
	stream bool    // m3Value: the value streams as a JSON string
	dead   bool    // m3Value: the buffered value outgrew the limit
	val    []byte  // m3Value: the buffered value
	ent    []byte  // m3Value (streaming): a held entity prefix
	tmp    []byte
	tmp2   []byte
	kids   []m3Kid
	vs     jsonScan
}

// m3Tool is one declared tool's parameter schema.
type m3Tool struct {
	root  any            // the parameters schema (for local $refs)
	props map[string]any // its properties (nil: none)
}

// m3Kid is one child element of a nested value: its tag name and content,
// as offsets into the value.
type m3Kid struct {
	tag0, tag1 int
	c0, c1     int
}

func init() {
	registerTool(ToolInfo{
		Openers: []string{m3NS + "<tool_call>", m3NS + "<invoke"},
		Closers: []string{m3NS + "</tool_call>", m3NS + "</invoke>"},
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
	m := &minimaxM3{out: out, ns: newMatcher(marker{text: m3NS})}
	m.schema = m3Schemas(out.cfg.Tools)
	return m
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
	m.st, m.bare, m.inCall = m3Block, false, false
	if arg == 1 {
		// A bare invoke: its tag is being read.
		m.bare = true
		m.st, m.from = m3Tag, m3Block
		m.tag = append(m.tag[:0], "<invoke"...)
	}
}

func (m *minimaxM3) reset() {
	m.open(0)
	m.tag = shrink(m.tag)
	m.val = shrink(m.val)
	m.tmp = shrink(m.tmp)
	m.tmp2 = shrink(m.tmp2)
}

// finish ends the stream inside a block: an open invoke is abandoned.
func (m *minimaxM3) finish() {
	if m.inCall {
		m.out.abandonCall()
		m.inCall = false
	}
}

func (m *minimaxM3) feed(b []byte, final bool) (int, blockStatus) {
	i := 0
	for i < len(b) {
		var n int
		st := blockMore
		switch m.st {
		case m3Tag:
			n, st = m.scanTag(b[i:])
		default:
			n, st = m.scanNS(b[i:], final)
		}
		i += n
		if st != blockMore {
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
		m.value(b[:pos])
	}
	if mi < 0 {
		if pos < len(b) {
			return pos, blockHold
		}
		return pos, blockMore
	}
	m.from, m.st = m.st, m3Tag
	m.tag = m.tag[:0]
	return pos + len(m3NS), blockMore
}

// scanTag reads a tag after the namespace token up to its '>'.
func (m *minimaxM3) scanTag(b []byte) (int, blockStatus) {
	if len(m.tag) == 0 && b[0] != '<' {
		// Not a tag: the token alone.
		m.notTag()
		return 0, blockMore
	}
	end := bytes.IndexByte(b, '>')
	n := len(b)
	if end >= 0 {
		n = end + 1
	}
	if len(m.tag)+n > m3MaxTag {
		m.notTag()
		return 0, blockMore
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
		m.value(m3NSBytes)
		m.value(m.out.copyBytes(m.tag))
	}
	m.tag = m.tag[:0]
}

// dispatch acts on a complete tag (m.tag, from '<' to '>') in state m.st.
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
			return blockMore
		}
		// Nested markup or text: part of the value.
		m.value(m3NSBytes)
		m.value(m.out.copyBytes(t))
		return blockMore
	case m3Invoke:
		switch {
		case string(t) == "</invoke>":
			return m.endInvoke()
		case string(t) == "</tool_call>":
			m.finish() // the invoke never closed
			return blockDone
		case bytes.HasPrefix(t, []byte("<invoke")) && m3IsInvokeTag(t):
			m.finish()
			m.startInvoke(t)
		default:
			if key, ok := m3OpenName(t); ok && string(key) != "tool_call" {
				m.startParam(key)
			}
		}
		return blockMore
	}
	// m3Block
	switch {
	case string(t) == "</tool_call>":
		return blockDone
	case bytes.HasPrefix(t, []byte("<invoke")) && m3IsInvokeTag(t):
		m.startInvoke(t)
	case m.bare:
		// A bare invoke tag that is not one: not a call.
		return blockDone
	}
	return blockMore
}

// m3IsInvokeTag reports whether t is "<invoke>" or "<invoke" + whitespace….
func m3IsInvokeTag(t []byte) bool {
	return len(t) > len("<invoke") && (t[len("<invoke")] == '>' || isSpace(t[len("<invoke")]))
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
	m.nArgs = 0
	name := m3NameAttr(t[len("<invoke") : len(t)-1])
	if len(name) == 0 {
		return
	}
	m.tool = m.schema[string(name)]
	m.out.startCall(name, nil)
	m.inCall = true
}

// endInvoke completes the open call at NS</invoke>.
func (m *minimaxM3) endInvoke() blockStatus {
	if m.inCall {
		argsClose(&m.out.emitter, m.nArgs)
		m.out.endCall()
		m.inCall = false
	}
	m.st = m3Block
	if m.bare {
		return blockDone
	}
	return blockMore
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
	m.val, m.ent, m.dead = m.val[:0], m.ent[:0], false
	m.node = nil
	if m.tool != nil && m.tool.props != nil {
		m.node = m.tool.props[string(key)]
	}
	set, _ := m3Types(m.root(), m.node, 0)
	m.stream = m.node != nil && set&tyString != 0 && set&tyNull == 0
	if !m.inCall {
		return
	}
	argsKey(&m.out.emitter, m.nArgs == 0, key)
	m.nArgs++
	if m.stream {
		m.out.argsString(`"`)
	}
}

func (m *minimaxM3) root() any {
	if m.tool == nil {
		return nil
	}
	return m.tool.root
}

// value handles value bytes: streamed (entities decoded, JSON-escaped) or
// buffered up to the limit.
func (m *minimaxM3) value(b []byte) {
	if len(b) == 0 || !m.inCall {
		return
	}
	if !m.stream {
		if m.dead {
			return
		}
		if len(m.val)+len(b) > m.out.limit {
			m.dead = true
			m.out.abandonCall()
			m.inCall = false
			return
		}
		m.val = append(m.val, b...)
		return
	}
	if len(m.ent) == 0 && bytes.IndexByte(b, '&') < 0 {
		m.argsEscaped(b)
		return
	}
	// Entities: decode into the arena, holding a possible entity prefix at
	// the end for the next bytes.
	m.tmp2 = append(m.tmp2[:0], m.ent...)
	m.tmp2 = append(m.tmp2, b...)
	m.ent = m.ent[:0]
	keep := m3EntityTail(m.tmp2)
	m.ent = append(m.ent, m.tmp2[len(m.tmp2)-keep:]...)
	e := m.out
	start := len(e.arena)
	e.arena = m3AppendUnescaped(e.arena, m.tmp2[:len(m.tmp2)-keep], true)
	if len(e.arena) > start {
		m.out.args(e.arena[start:len(e.arena):len(e.arena)])
	}
}

// argsEscaped streams b as the inside of a JSON string (see kimiK3).
func (m *minimaxM3) argsEscaped(b []byte) {
	j := 0
	for j < len(b) && b[j] >= 0x20 && b[j] != '"' && b[j] != '\\' {
		j++
	}
	if j == len(b) {
		m.out.args(b)
		return
	}
	e := m.out
	start := len(e.arena)
	e.arena = appendEscaped(append(e.arena, b[:j]...), b[j:])
	m.out.args(e.arena[start:len(e.arena):len(e.arena)])
}

// endValue completes the value at its close tag.
func (m *minimaxM3) endValue() {
	if !m.inCall {
		return
	}
	if m.stream {
		if len(m.ent) > 0 {
			// A held entity prefix: decoded as far as it goes (&amp; is
			// complete; an unfinished one is text).
			e := m.out
			start := len(e.arena)
			e.arena = m3AppendUnescaped(e.arena, m.ent, true)
			m.out.args(e.arena[start:len(e.arena):len(e.arena)])
			m.ent = m.ent[:0]
		}
		m.out.argsString(`"`)
		return
	}
	m.tmp = m.convert(m.tmp[:0], m.val, m.node, 0)
	m.out.args(m.out.copyBytes(m.tmp))
}

// Types a schema admits (bit set).
const (
	tyString uint8 = 1 << iota
	tyInteger
	tyNumber
	tyBoolean
	tyObject
	tyArray
	tyNull
)

// m3Schemas indexes the declared tools' parameter schemas (setup time; it
// allocates).
func m3Schemas(tools []Tool) map[string]*m3Tool {
	idx := map[string]*m3Tool{}
	for _, t := range tools {
		var root any
		if len(t.Parameters) > 0 {
			if err := json.Unmarshal(t.Parameters, &root); err != nil {
				root = nil
			}
		}
		mt := &m3Tool{root: root}
		if obj, ok := m3Deref(root, root).(map[string]any); ok {
			if props, ok := obj["properties"].(map[string]any); ok {
				mt.props = props
			} else {
				mt.props = obj // §5.2 step 3: parameters itself as the property map
			}
		}
		idx[t.Name] = mt
	}
	return idx
}

// m3Deref follows local "$ref"s (#/a/b) from node, at most 16 hops.
func m3Deref(root, node any) any {
	for hops := 0; hops < 16; hops++ {
		obj, ok := node.(map[string]any)
		if !ok {
			return node
		}
		ref, ok := obj["$ref"].(string)
		if !ok || len(ref) < 1 || ref[0] != '#' {
			return node
		}
		cur := root
		for rest := ref[1:]; rest != ""; {
			part := rest
			if i := strings.IndexByte(rest, '/'); i >= 0 {
				part, rest = rest[:i], rest[i+1:]
			} else {
				rest = ""
			}
			if part == "" {
				continue
			}
			m, ok := cur.(map[string]any)
			if !ok {
				return nil
			}
			cur = m[part]
		}
		node = cur
	}
	return nil
}

// m3Types returns the set of types a schema node admits: type (string or
// array of strings, names as in §5.2's table), nullable, enum values, and
// the union of anyOf/oneOf/allOf branches.
func m3Types(root, node any, depth int) (set uint8, constrained bool) {
	if depth > m3MaxDepth {
		return 0, false
	}
	obj, ok := m3Deref(root, node).(map[string]any)
	if !ok {
		return 0, false
	}
	switch t := obj["type"].(type) {
	case string:
		set |= m3TypeName(t)
	case []any:
		for _, e := range t {
			if s, ok := e.(string); ok {
				set |= m3TypeName(s)
			}
		}
	}
	if n, ok := obj["nullable"].(bool); ok && n {
		set |= tyNull
	}
	if _, ok := obj["type"]; !ok {
		if enum, ok := obj["enum"].([]any); ok {
			for _, v := range enum {
				set |= m3ValueType(v)
			}
		}
	}
	for _, k := range [...]string{"anyOf", "oneOf", "allOf"} {
		if branches, ok := obj[k].([]any); ok {
			for _, br := range branches {
				s, _ := m3Types(root, br, depth+1)
				set |= s
			}
		}
	}
	return set, set != 0
}

// m3TypeName maps a schema type name to its type bit (§5.2's table).
func m3TypeName(s string) uint8 {
	low := strings.ToLower(s) // no allocation for lower-case names
	switch low {
	case "string", "str", "text", "varchar", "char", "enum":
		return tyString
	case "boolean", "bool", "binary":
		return tyBoolean
	case "object":
		return tyObject
	case "array", "arr":
		return tyArray
	case "null":
		return tyNull
	}
	switch {
	case strings.HasPrefix(low, "int"), strings.HasPrefix(low, "uint"), strings.HasPrefix(low, "long"),
		strings.HasPrefix(low, "short"), strings.HasPrefix(low, "unsigned"):
		return tyInteger
	case strings.HasPrefix(low, "num"), strings.HasPrefix(low, "float"), strings.HasPrefix(low, "double"):
		return tyNumber
	case strings.HasPrefix(low, "dict"):
		return tyObject
	case strings.HasPrefix(low, "list"):
		return tyArray
	}
	return 0
}

// m3ValueType is the type bit of a decoded JSON value (enum members).
func m3ValueType(v any) uint8 {
	switch x := v.(type) {
	case string:
		return tyString
	case float64:
		if x == float64(int64(x)) {
			return tyInteger | tyNumber
		}
		return tyNumber
	case bool:
		return tyBoolean
	case nil:
		return tyNull
	case map[string]any:
		return tyObject
	case []any:
		return tyArray
	}
	return 0
}

// m3Child returns the schema of child tag of an object node (properties,
// then an object additionalProperties), looking into anyOf/oneOf branches.
func m3Child(root, node any, tag []byte, depth int) any {
	obj, ok := m3Deref(root, node).(map[string]any)
	if !ok || depth > m3MaxDepth {
		return nil
	}
	if props, ok := obj["properties"].(map[string]any); ok {
		if c, ok := props[string(tag)]; ok {
			return c
		}
	}
	if ap, ok := obj["additionalProperties"].(map[string]any); ok {
		return ap
	}
	for _, k := range [...]string{"anyOf", "oneOf", "allOf"} {
		if branches, ok := obj[k].([]any); ok {
			for _, br := range branches {
				if c := m3Child(root, br, tag, depth+1); c != nil {
					return c
				}
			}
		}
	}
	return nil
}

// m3Items returns the items schema of an array node (also in branches).
func m3Items(root, node any, depth int) any {
	obj, ok := m3Deref(root, node).(map[string]any)
	if !ok || depth > m3MaxDepth {
		return nil
	}
	if it, ok := obj["items"]; ok {
		return it
	}
	for _, k := range [...]string{"anyOf", "oneOf", "allOf"} {
		if branches, ok := obj[k].([]any); ok {
			for _, br := range branches {
				if c := m3Items(root, br, depth+1); c != nil {
					return c
				}
			}
		}
	}
	return nil
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
	root := m.root()
	kids := len(m.kids)
	set, _ := m3Types(root, node, 0)
	allItems := true
	for k := base; k < kids; k++ {
		if string(v[m.kids[k].tag0:m.kids[k].tag1]) != "item" {
			allItems = false
			break
		}
	}
	if set&tyArray != 0 && set&tyObject == 0 && allItems {
		items := m3Items(root, node, 0)
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
			dst = m3AppendTextJSON(dst, v[prev:m.kids[k].tag0-len(m3NS)-1])
			prev = m.kids[k].c1 + len(m3NS) + 2 + (m.kids[k].tag1 - m.kids[k].tag0) + 1
		}
		dst = m3AppendTextJSON(dst, v[prev:])
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
		dst = append(dst, '"')
		dst = appendEscaped(dst, tag)
		dst = append(dst, '"', ':')
		child := m3Child(root, node, tag, 0)
		if n == 1 {
			dst = m.convert(dst, v[kd.c0:kd.c1], child, depth+1)
			continue
		}
		// Repeated tags become an array.
		elem := child
		if cs, _ := m3Types(root, child, 0); cs&tyArray != 0 {
			elem = m3Items(root, child, 0)
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

// m3AppendTextJSON appends entity-decoded text as the inside of a JSON
// string.
func m3AppendTextJSON(dst, t []byte) []byte {
	return m3AppendUnescaped(dst, t, true)
}

// scalar appends the JSON value of scalar text v under schema node.
func (m *minimaxM3) scalar(dst, v []byte, node any) []byte {
	u := m3AppendUnescaped(m.tmp2[:0], v, false)
	m.tmp2 = u
	set, constrained := m3Types(m.root(), node, 0)
	t := trimSpace(u)
	str := func() []byte {
		dst = append(dst, '"')
		dst = appendEscaped(dst, u)
		return append(dst, '"')
	}
	if node == nil {
		return str()
	}
	if bytes.EqualFold(t, []byte("null")) && (set&tyNull != 0 || !constrained) {
		return append(dst, "null"...)
	}
	if !constrained || set&tyString != 0 {
		return str()
	}
	if set&tyInteger != 0 && m3IsInt(t) {
		return m3AppendInt(dst, t)
	}
	if set&tyNumber != 0 && (m3IsInt(t) || isJSONNumber(t)) {
		if m3IsInt(t) {
			return m3AppendInt(dst, t)
		}
		return append(dst, t...)
	}
	if set&tyBoolean != 0 {
		switch {
		case bytes.EqualFold(t, []byte("true")), string(t) == "1":
			return append(dst, "true"...)
		case bytes.EqualFold(t, []byte("false")), string(t) == "0":
			return append(dst, "false"...)
		}
	}
	if set&tyObject != 0 {
		if len(t) == 0 {
			return append(dst, "{}"...)
		}
		if t[0] == '{' && isJSONValue(t, &m.vs) {
			return appendCompacted(dst, t)
		}
	}
	if set&tyArray != 0 {
		if len(t) == 0 {
			return append(dst, "[]"...)
		}
		if t[0] == '[' && isJSONValue(t, &m.vs) {
			return appendCompacted(dst, t)
		}
	}
	return str()
}

// m3IsInt reports whether t is an integer literal: optional sign, digits.
func m3IsInt(t []byte) bool {
	if len(t) > 0 && (t[0] == '-' || t[0] == '+') {
		t = t[1:]
	}
	if len(t) == 0 {
		return false
	}
	for _, c := range t {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// m3AppendInt appends an integer literal as a JSON number (no '+', no
// leading zeros), at any length.
func m3AppendInt(dst, t []byte) []byte {
	if t[0] == '+' {
		t = t[1:]
	} else if t[0] == '-' {
		t = t[1:]
		for len(t) > 1 && t[0] == '0' {
			t = t[1:]
		}
		if string(t) == "0" {
			return append(dst, '0')
		}
		dst = append(dst, '-')
	}
	for len(t) > 1 && t[0] == '0' {
		t = t[1:]
	}
	return append(dst, t...)
}

// m3Entities is §5.2's entity table as an equivalent single left-to-right
// pass: plain replacement of &lt; &gt; &amp; &quot; &#x27; &#39; in that
// order decodes &amp;quot; (and &amp;#x27;, &amp;#39;) fully, and
// &amp;lt; / &amp;gt; only to &lt; / &gt;.
var m3Entities = [...]struct {
	from string
	to   byte
}{
	{"&amp;quot;", '"'}, {"&amp;#x27;", '\''}, {"&amp;#39;", '\''},
	{"&lt;", '<'}, {"&gt;", '>'}, {"&amp;", '&'}, {"&quot;", '"'}, {"&#x27;", '\''}, {"&#39;", '\''},
}

// m3AppendUnescaped appends v with entities decoded; with json set, the
// result is escaped as the inside of a JSON string.
func m3AppendUnescaped(dst, v []byte, json bool) []byte {
	for i := 0; i < len(v); {
		// Copy the run up to the next byte that needs work.
		j := i
		for j < len(v) && v[j] != '&' && !(json && (v[j] < 0x20 || v[j] == '"' || v[j] == '\\')) {
			j++
		}
		dst = append(dst, v[i:j]...)
		if j == len(v) {
			break
		}
		c, n := v[j], 1
		if c == '&' {
			for _, e := range m3Entities {
				if bytes.HasPrefix(v[j:], []byte(e.from)) {
					c, n = e.to, len(e.from)
					break
				}
			}
		}
		switch {
		case !json:
			dst = append(dst, c)
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case c < 0x20:
			dst = append(dst, ctrlEscape(c)...)
		default:
			dst = append(dst, c)
		}
		i = j + n
	}
	return dst
}

// m3EntityTail returns how many bytes at the end of b may start an entity
// that more bytes could complete (held while streaming).
func m3EntityTail(b []byte) int {
	for k := min(len(b), len("&amp;#x27;")-1); k > 0; k-- {
		tail := b[len(b)-k:]
		if tail[0] != '&' {
			continue
		}
		for _, e := range m3Entities {
			if len(tail) < len(e.from) && e.from[:len(tail)] == string(tail) {
				return k
			}
		}
	}
	return 0
}
