package parsers

import (
	"bytes"
	"strconv"
)

// Kimi K3 XTML markers (reserved control tokens; PRE.1 keeps them).
const (
	k3Open  = "<|open|>"
	k3Close = "<|close|>"
	k3Sep   = "<|sep|>"
	k3EOM   = "<|end_of_msg|>"
)

// Marker kinds (marker.arg) of the Kimi K3 matchers.
const (
	kkOpen     = iota // <|open|>: an opening tag header follows
	kkClose           // <|close|>: a closing tag header follows
	kkSep             // <|sep|>: ends a tag header (orphan elsewhere)
	kkEOM             // <|end_of_msg|>: end of the turn
	kkThinkEnd        // <|close|>think<|sep|> (canonical only)
	kkValueEnd        // the close tag of the current argument value
)

// k3State is where the Kimi K3 machine is in the output.
type k3State uint8

const (
	k3Out      k3State = iota // top level: plain text is content
	k3Resp                    // inside response: content
	k3Think                   // inside think: reasoning
	k3Tools                   // inside tools, between calls: markup
	k3Call                    // inside a call, between arguments: markup
	k3Arg                     // an argument value, up to its close tag
	k3JSONPre                 // a json element before its object
	k3JSON                    // the json element's object (string-aware)
	k3JSONPost                // after the object (or a broken one): up to the close tag
	k3Header                  // a tag header after <|open|> / <|close|>, up to <|sep|>
	k3Epilogue                // after the message end: dropped
)

var k3StateNames = [...]string{"k3Out", "k3Resp", "k3Think", "k3Tools", "k3Call", "k3Arg", "k3JSONPre", "k3JSON", "k3JSONPost", "k3Header", "k3Epilogue"}

func (s k3State) String() string { return enumName(k3StateNames[:], s, "k3State") }

// kimiK3 is the Kimi K3 XTML machine (PARSER_CASES.md, Moonshot's
// encoding_k3.py). It frames the whole output, so one machine serves the
// kimi_k3 tool parser and the kimi_k3 reasoning parser:
//
//	<|open|>response<|sep|>TEXT<|close|>response<|sep|>
//	<|open|>think<|sep|>REASONING<|close|>think<|sep|>
//	<|open|>tools<|sep|> { <|open|>call tool="N" index="I"<|sep|>
//	    { <|open|>argument key="K" type="T"<|sep|>VALUE<|close|>argument<|sep|> }
//	    | <|open|>json<|sep|>{…}<|close|>json<|sep|>
//	<|close|>call<|sep|> } <|close|>tools<|sep|>
//	<|close|>message<|sep|><|end_of_msg|>
//
// Tag headers are trimmed, so the spaced variants some detokenizers produce
// (`<|open|> tools <|sep|>`) are the same tags; the reasoning close counts
// only in canonical form, but any <|open|>, <|close|> or <|end_of_msg|> ends
// reasoning. Content is plain top-level text and the response channel's
// text; everything after the message end is epilogue (dropped); unknown and
// orphan tags are removed. Calls start at the call tag's <|sep|>; arguments
// are compact JSON in argument order (string values streamed, typed values at
// their close tag; a repeated key is emitted again, last wins), or the json
// element's object verbatim. A call ends at <|close|>call<|sep|>; at the end
// of the stream (or a tools/message close) an unclosed call is recovered
// only when its body ends with a complete argument or json element.
//
// With calls off (the kimi_k3 reasoning parser without the tool parser) a
// tools section, or a bare call, is forwarded to content as its raw bytes so
// a downstream kimi_k3 tool parser can act on it.
type kimiK3 struct {
	out   *sink
	calls bool

	mText   matcher // top level and response
	mThink  matcher // reasoning
	mHeader matcher // inside a tag header
	mValue  matcher // an argument value: its close tag variants

	// scanning state; reset by open(-1)
	st        k3State
	ctx       k3State // k3Header: the state the tag appeared in
	hdrOpen   bool    // k3Header: an opening tag (else closing)
	hdr       []byte  // k3Header: raw tag bytes from the marker
	overflow  bool    // k3Header: the tag outgrew the buffer limit
	thinkFrom k3State // the state to return to when think closes
	callFrom  k3State // the state to return to when the call closes
	raw       bool    // forwarding a tools section or bare call to content
	rawCall   bool    // the raw span is a bare call (ends with the call)
	closed    bool    // the call body ends with a complete element
	// k3Arg: the value: a string streamed verbatim, a typed one buffered
	// (bounded) until its close tag, then its JSON compacted or, when it is
	// not JSON, the string as written
	val paramValue
	vs  jsonScan
	tmp []byte
	id  []byte
}

func init() {
	registerFraming(&framingSpec{
		tool: ToolInfo{
			Openers: []string{k3Open + "tools" + k3Sep, k3Open + "call"},
			Closers: []string{k3Close + "call" + k3Sep, k3Close + "tools" + k3Sep},
			Malformed: "a call without a tool attribute is consumed and produces no call; an argument without a key is skipped; " +
				"a json element that is not one JSON object (or mixed with argument elements) abandons the call; " +
				"unknown and orphan tags are removed; text after the message end is dropped",
			Truncated: "a call without its close tag is recovered only when its body ends with a complete argument or json " +
				"element; a value cut by the end of stream abandons the call; complete calls before it survive; " +
				"an unfinished tag is dropped",
		},
		reasoning: kimiK3Reasoning,
		build:     func(out *sink, calls bool) framingGrammar { return newKimiK3(out, calls) },
	}, []string{
		"kimi_k3",
		"kimi-k3",
	}, []string{"kimi_k3", "kimi-k3"})
}

// kimiK3Reasoning is the kimi_k3 reasoning parser: the XTML machine, with
// tool calls when the kimi_k3 tool parser is configured, forwarding tool
// sections raw to content when no tool parser is.
var kimiK3Reasoning = &reasoningSpec{
	name:       "kimi_k3",
	starts:     []string{k3Open + "think" + k3Sep},
	ends:       []string{k3Close + "think" + k3Sep},
	toolStarts: []string{k3Open, k3Close, k3EOM},
}

func newKimiK3(out *sink, calls bool) *kimiK3 {
	base := []marker{
		{text: k3Open, arg: kkOpen},
		{text: k3Close, arg: kkClose},
		{text: k3Sep, arg: kkSep},
		{text: k3EOM, arg: kkEOM},
	}
	return &kimiK3{
		out:     out,
		calls:   calls,
		val:     paramValue{out: &out.emitter, limit: out.limit, trim: trimNone, conv: convDSML},
		mText:   newMatcher(base...),
		mThink:  newMatcher(append([]marker{{text: k3Close + "think" + k3Sep, arg: kkThinkEnd}}, base...)...),
		mHeader: newMatcher(base...),
		mValue: newMatcher(
			marker{text: k3Close + "argument" + k3Sep, arg: kkValueEnd},
			marker{text: k3Close + " argument" + k3Sep, arg: kkValueEnd},
			marker{text: k3Close + "argument " + k3Sep, arg: kkValueEnd},
			marker{text: k3Close + " argument " + k3Sep, arg: kkValueEnd},
		),
	}
}

func (k *kimiK3) textMarkers() []marker { return nil }

// matchers: the tag delimiters (mText) are the markup; every longer marker
// (the think and argument closers) contains one of them. mHeader scans for
// the same markers as mText.
func (k *kimiK3) matchers() []*matcher { return []*matcher{&k.mText, &k.mThink, &k.mValue} }

func (k *kimiK3) open(int) {
	k.st = k3Out
	if k.out.cfg.InReasoning {
		k.st, k.thinkFrom = k3Think, k3Out
	}
	k.hdr = k.hdr[:0]
	k.raw, k.rawCall = false, false
	k.val.buf = k.val.buf[:0]
}

func (k *kimiK3) reset() {
	k.open(-1)
	k.hdr = shrink(k.hdr)
	k.val.buf = shrink(k.val.buf)
}

func (k *kimiK3) feed(b []byte, final bool) (int, blockStatus) {
	if k.st == k3Arg && k.mValue.none(b) {
		// The common chunk: value bytes in which no close tag starts
		// (scanValue's outcome, without the loop and the scan).
		k.value(b)
		return len(b), blockMore
	}
	i := 0
	if k.st == k3JSON {
		// The json element's object, usually all of b, without the loop.
		n, st := k.scanJSON(b)
		if st != blockNext {
			return n, st
		}
		i = n
	}
	for i < len(b) {
		var n int
		st := blockNext
		switch k.st {
		case k3Epilogue:
			n = len(b) - i
		case k3Arg:
			n, st = k.scanValue(b[i:], final)
		case k3JSONPre:
			n = k.scanJSONPre(b[i:])
		case k3JSON:
			n, st = k.scanJSON(b[i:])
		case k3Header:
			n, st = k.scanHeader(b[i:], final)
		default:
			n, st = k.scanMarkers(b[i:], final)
		}
		i += n
		if st != blockNext {
			return i, st
		}
	}
	return i, blockMore
}

// finish ends the stream: an unclosed call is recovered when its body ends
// with a complete element, abandoned otherwise; an unfinished tag is dropped.
func (k *kimiK3) finish() {
	st := k.st
	if st == k3Header {
		st = k.ctx
	}
	k.endOpenCall(st == k3Call)
	k.open(-1)
}

// endOpenCall ends a call that never got its close tag: recovered when
// recover is set and its body ends with a complete element, else abandoned.
func (k *kimiK3) endOpenCall(recover bool) {
	if recover && k.closed {
		k.out.endParams()
	} else {
		k.out.abandonCall()
	}
}

// emitRaw forwards markup of a raw span to content.
func (k *kimiK3) emitRaw(b []byte) {
	if k.raw {
		k.out.content(b)
	}
}

// scanMarkers handles the text-like states: top level, response, think,
// tools, call, and the rest of a json element.
func (k *kimiK3) scanMarkers(b []byte, final bool) (int, blockStatus) {
	m := &k.mText
	if k.st == k3Think {
		m = &k.mThink
	}
	pos, mi := m.find(b, final)
	k.text(b[:pos])
	if mi < 0 {
		return noMarker(b, pos)
	}
	mk := &m.ms[mi]
	switch mk.arg {
	case kkThinkEnd:
		k.st = k.thinkFrom
	case kkOpen, kkClose:
		if k.st == k3Think {
			k.st = k.thinkFrom // any tag ends reasoning
		}
		k.beginHeader(mk)
	case kkEOM:
		k.emitRaw(b[pos : pos+len(mk.text)])
		k.endOpenCall(k.st == k3Call)
		k.st = k3Epilogue
		k.raw, k.rawCall = false, false
	case kkSep:
		k.emitRaw(b[pos : pos+len(mk.text)]) // orphan: markup
	}
	return pos + len(mk.text), blockNext
}

// text routes non-marker bytes of a text-like state.
func (k *kimiK3) text(b []byte) {
	if len(b) == 0 {
		return
	}
	switch k.st {
	case k3Out, k3Resp:
		k.out.content(b)
	case k3Think:
		k.out.reasoning(b)
	case k3Call:
		k.emitRaw(b)
		if hasNonSpace(b) {
			k.closed = false // the body no longer ends with an element
		}
	default: // k3Tools, k3JSONPost: markup
		k.emitRaw(b)
	}
}

// beginHeader starts a tag header at its marker.
func (k *kimiK3) beginHeader(mk *marker) {
	k.ctx = k.st
	k.st = k3Header
	k.hdrOpen = mk.arg == kkOpen
	k.hdr = append(k.hdr[:0], mk.text...)
	k.overflow = false
}

// scanHeader buffers a tag header up to <|sep|>. Another tag marker or
// <|end_of_msg|> before it drops the unfinished tag.
func (k *kimiK3) scanHeader(b []byte, final bool) (int, blockStatus) {
	pos, mi := k.mHeader.find(b, final)
	if !k.overflow {
		if len(k.hdr)+pos > k.out.limit {
			k.overflow = true
		} else {
			k.hdr = append(k.hdr, b[:pos]...)
		}
	}
	if mi < 0 {
		return noMarker(b, pos)
	}
	mk := &k.mHeader.ms[mi]
	k.st = k.ctx
	if mk.arg != kkSep {
		// An unfinished tag: dropped; the marker is read again in the
		// tag's context.
		return pos, blockNext
	}
	if !k.overflow {
		k.tag()
	} else {
		// A tag we cannot read (inside a call: the call is malformed).
		k.out.abandonCall()
	}
	return pos + len(mk.text), blockNext
}

// tag acts on a complete tag header (k.hdr, without its <|sep|>), in
// context k.st.
func (k *kimiK3) tag() {
	var body []byte
	if k.hdrOpen {
		body = k.hdr[len(k3Open):]
	} else {
		body = k.hdr[len(k3Close):]
	}
	name, attrs := xtmlTag(body)
	ctx := k.st
	if !k.hdrOpen {
		k.closeTag(string(name), ctx)
		return
	}
	if ctx == k3Call {
		k.closed = false // an element closing sets it again
	}
	top := ctx == k3Out || ctx == k3Resp
	switch {
	case string(name) == "think" && top:
		k.thinkFrom, k.st = ctx, k3Think
	case string(name) == "response" && ctx == k3Out:
		k.st = k3Resp
	case string(name) == "tools" && top:
		k.raw = !k.calls
		k.rawTag()
		k.st = k3Tools
	case string(name) == "call" && (top || ctx == k3Tools):
		if !k.raw && !k.calls {
			k.raw, k.rawCall = true, true
		}
		k.rawTag()
		k.startCall(attrs)
		k.callFrom, k.st = ctx, k3Call
	case string(name) == "argument" && ctx == k3Call:
		k.rawTag()
		k.startArg(attrs)
	case string(name) == "json" && ctx == k3Call:
		k.rawTag()
		k.startJSON()
	default:
		// message (a leading <|open|>message…<|sep|> is stripped), unknown
		// tags and tags out of place are markup.
		k.rawTag()
	}
}

// rawTag forwards the current tag header and its <|sep|> in a raw span.
func (k *kimiK3) rawTag() {
	if k.raw {
		k.out.contentCopy(k.hdr)
		k.out.contentString(k3Sep)
	}
}

// closeTag acts on a closing tag in context ctx. In a raw span every close
// tag is forwarded first (no raw span is open in a response, so this holds
// for </response> too); orphan or mismatched close tags are only markup.
func (k *kimiK3) closeTag(name string, ctx k3State) {
	k.rawTag()
	switch {
	case name == "response" && ctx == k3Resp:
		k.st = k3Out
	case name == "call" && ctx == k3Call:
		k.out.endParams()
		k.st = k.callFrom
		if k.rawCall {
			k.raw, k.rawCall = false, false
		}
	case name == "json" && ctx == k3JSONPost:
		k.st = k3Call
		k.closed = true
	case name == "tools" && (ctx == k3Tools || ctx == k3Call && k.callFrom == k3Tools):
		k.endOpenCall(ctx == k3Call)
		k.st = k3Out
		k.raw, k.rawCall = false, false
	case name == "message":
		k.endOpenCall(ctx == k3Call)
		k.st = k3Epilogue
	}
}

// startCall begins a call from its tag attributes: the id is tool:(index-1)
// for an integer index, tool:index otherwise, tool without one. No tool
// attribute: the call is consumed and produces nothing.
func (k *kimiK3) startCall(attrs []byte) {
	k.closed = false
	if k.raw {
		return
	}
	k.tmp = k.tmp[:0]
	name, ok := xtmlAttr(attrs, "tool", &k.tmp)
	if !ok || len(name) == 0 {
		return
	}
	nameLen := len(k.tmp)
	idx, hasIdx := xtmlAttr(attrs, "index", &k.tmp)
	k.id = append(k.id[:0], k.tmp[:nameLen]...)
	if hasIdx {
		k.id = append(k.id, ':')
		if v, ok := smallInt(idx); ok {
			k.id = strconv.AppendInt(k.id, v-1, 10)
		} else {
			k.id = append(k.id, idx...)
		}
	}
	k.out.startCall(k.tmp[:nameLen], k.id)
}

// startArg begins an argument element: its key is emitted at once, a
// string value streams, a typed value is buffered until its close tag.
// Without a call or a key the element is skipped.
func (k *kimiK3) startArg(attrs []byte) {
	k.st = k3Arg
	k.closed = false
	if k.out.params < 0 {
		k.out.abandonCall() // mixed with a json element: malformed
	}
	k.tmp = k.tmp[:0]
	key, ok := xtmlAttr(attrs, "key", &k.tmp)
	typ, hasType := xtmlAttr(attrs, "type", &k.tmp)
	k.val.begin(paramType{}, !hasType || string(typ) == "string", !ok || !k.out.paramKey(key))
}

// startJSON begins a json element (the whole arguments as one object).
func (k *kimiK3) startJSON() {
	k.closed = false
	if k.out.params != 0 {
		k.out.abandonCall() // mixed or repeated elements: malformed
	}
	k.st = k3JSONPre
}

// scanValue streams or buffers an argument value up to its close tag (no
// escaping: the first close tag ends the value).
func (k *kimiK3) scanValue(b []byte, final bool) (int, blockStatus) {
	pos, mi := k.mValue.find(b, final)
	k.value(b[:pos])
	if mi < 0 {
		return noMarker(b, pos)
	}
	mk := &k.mValue.ms[mi]
	k.emitRaw(b[pos : pos+len(mk.text)])
	if k.out.inCall {
		k.val.end()
	}
	k.st = k3Call
	k.closed = true
	return pos + len(mk.text), blockNext
}

// value handles value bytes.
func (k *kimiK3) value(b []byte) {
	if len(b) == 0 {
		return
	}
	if k.raw {
		k.out.content(b)
		return
	}
	k.val.text(b, true)
	if k.val.over {
		k.out.abandonCall()
	}
}

// scanJSONPre skips whitespace before a json element's object.
func (k *kimiK3) scanJSONPre(b []byte) int {
	i := spaceLen(b)
	k.emitRaw(b[:i])
	if i < len(b) {
		if b[i] == '{' {
			k.vs.reset()
			k.out.wholeArgs()
			k.st = k3JSON
		} else {
			// Not an object (or an empty element): malformed.
			k.out.abandonCall()
			k.st = k3JSONPost
		}
	}
	return i
}

// scanJSON streams the json element's object as the call's arguments.
func (k *kimiK3) scanJSON(b []byte) (int, blockStatus) {
	n, r := k.vs.scan(b)
	switch {
	case k.raw:
		k.out.content(b[:n])
	case r == scanCtrl:
		k.out.ctrlArgs(b[:n])
	default:
		k.out.args(b[:n])
	}
	switch r {
	case scanMore:
		return n, blockMore // all of b
	case scanDone:
		k.st = k3JSONPost
	case scanErr:
		k.out.abandonCall()
		k.st = k3JSONPost
	}
	return n, blockNext
}

// xtmlTag splits a tag header into its name and attributes (trimmed).
func xtmlTag(b []byte) (name, attrs []byte) {
	b = trimSpace(b)
	i := 0
	for i < len(b) && !isSpace(b[i]) {
		i++
	}
	return b[:i], b[i:]
}

// xtmlAttr finds attribute key="value" in attrs and appends its unescaped
// value (&quot; and &amp;, xtmlAttrEntities) to *buf, returning the
// appended part.
func xtmlAttr(attrs []byte, key string, buf *[]byte) ([]byte, bool) {
	for len(attrs) > 0 {
		attrs = bytes.TrimLeft(attrs, " \t\r\n")
		eq := bytes.IndexByte(attrs, '=')
		if eq < 0 || eq+1 >= len(attrs) || attrs[eq+1] != '"' {
			return nil, false
		}
		k := bytes.TrimSpace(attrs[:eq])
		rest := attrs[eq+2:]
		end := bytes.IndexByte(rest, '"')
		if end < 0 {
			return nil, false
		}
		if string(k) == key {
			start := len(*buf)
			*buf = appendDecoded(*buf, rest[:end], &xtmlAttrEntities, false)
			return (*buf)[start:], true
		}
		attrs = rest[end+1:]
	}
	return nil, false
}
