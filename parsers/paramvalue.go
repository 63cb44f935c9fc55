package parsers

import "bytes"

// paramValue reads one parameter value of a tag grammar (qwen3_coder,
// minimax_m2, glm47, DSML, kimi_k3, minimax_m3) up to its close tag and
// writes it into the call's arguments as JSON (PARSER_CASES.md); grammars
// that find the close tag themselves (kimi_k3, minimax_m3) pass the value
// bytes to text and call end:
//
//   - XML-style values have no escaping: the first close tag ends the value;
//     every other marker inside it is text;
//   - entities are decoded first where the family does it (PARSER_CASES.md,
//     "Schema-typed values" and "GLM-4.7 values");
//   - a value typed as a string streams as it arrives, as a JSON string,
//     holding back only what may still turn out to be framing: a possible
//     close tag or entity (held by the driver, a few bytes), one trailing
//     newline (qwen3_coder) or a trailing whitespace run (minimax_m2, in an
//     own buffer bounded by the call limit);
//   - a string value whose parameter also admits null is buffered while it
//     may still be the word null (a few bytes);
//   - a typed value is buffered (bounded by the call limit) and converted at
//     its close tag (with rawTyped, by the grammar: minimax_m3's nested
//     elements, whose leaves it converts with appendScalar).
//
// A value whose buffer would pass the limit sets over; the grammar then
// abandons the call.
type paramValue struct {
	out   *emitter
	limit int
	ends  matcher  // close tags that end a value
	ents  *matcher // entity table (arg = decoded byte); nil: no decoding
	trim  trimRule // how string values are trimmed
	conv  convRule // how typed values are converted
	// rawTyped: typed values are buffered as written (entities not
	// decoded) and converted by the grammar (minimax_m3's nested elements,
	// whose leaves it converts with appendScalar).
	rawTyped bool

	// per value
	st     pvState
	typ    paramType
	jsonOK bool   // pending: JSON-looking text makes the value typed (glm47 unconstrained)
	over   bool   // a buffer passed the limit: the call must be abandoned
	lead   uint8  // leading trim progress: 0 start, 1 after a framing '\r', 2 done
	nl     []byte // trimFraming: a trailing "\n", "\r" or "\r\n" not yet emitted
	ws     []byte // trimFull: a trailing whitespace run not yet emitted
	run    int    // trimFull: length of the current whitespace run
	buf    []byte // pending or typed value bytes (decoded)
	nullN  uint8  // pending: letters of "null" matched
	trail  bool   // pending: whitespace seen after "null"

	tmp  []byte // conversion output
	tmp2 []byte // literal_eval scratch
	scan jsonScan
}

type pvState uint8

const (
	pvIdle    pvState = iota // no value, or a dropped one
	pvString                 // streaming a JSON string; the opening quote is out
	pvPending                // buffering while the value may still be null (or JSON, glm47)
	pvTyped                  // buffering the whole value for conversion at its close
)

var pvStateNames = [...]string{"pvIdle", "pvString", "pvPending", "pvTyped"}

func (s pvState) String() string { return enumName(pvStateNames[:], s, "pvState") }

// trimRule says how a string value's surrounding whitespace is treated.
type trimRule uint8

const (
	trimNone    trimRule = iota // verbatim (glm47 strings, DSML string="true", kimi_k3, minimax_m3)
	trimFraming                 // one leading and one trailing \n or \r\n (qwen3_coder)
	trimFull                    // all surrounding whitespace (minimax_m2)
)

var trimRuleNames = [...]string{"trimNone", "trimFraming", "trimFull"}

func (r trimRule) String() string { return enumName(trimRuleNames[:], r, "trimRule") }

// convRule says how a buffered value becomes JSON.
type convRule uint8

const (
	convXML  convRule = iota // PARSER_CASES.md, "Value conversion by type" (qwen3_coder, minimax_m2, minimax_m3)
	convGLM                  // PARSER_CASES.md, "GLM-4.7 values" (glm47)
	convDSML                 // JSON, else the string as written (DSML string="false" or absent, kimi_k3 typed values)
	// convATEM: convXML for a parameter the schema constrains, convDSML
	// for one it does not (muse_glimmer: the model's own value rule is
	// "JSON, else the string", the schema keeps a string a string).
	convATEM
)

var convRuleNames = [...]string{"convXML", "convGLM", "convDSML", "convATEM"}

func (r convRule) String() string { return enumName(convRuleNames[:], r, "convRule") }

// Entity tables: the one entity decoder is a table of entities (marker
// text, decoded byte as arg) read left to right, longest match first —
// streaming in paramValue.text, whole values with appendDecoded.
// htmlEntities reproduces Dynamo's plain replacements applied
// in order (&lt; &gt; &amp; &quot; &#x27; &#39;) in one left-to-right pass:
// because &amp; is replaced before the last three, "&amp;quot;" decodes
// twice (to "), while "&amp;lt;" decodes once (to &lt;).
var (
	htmlEntities = newMatcher(
		marker{text: "&lt;", arg: '<'},
		marker{text: "&gt;", arg: '>'},
		marker{text: "&amp;", arg: '&'},
		marker{text: "&amp;quot;", arg: '"'},
		marker{text: "&amp;#x27;", arg: '\''},
		marker{text: "&amp;#39;", arg: '\''},
		marker{text: "&quot;", arg: '"'},
		marker{text: "&#x27;", arg: '\''},
		marker{text: "&#39;", arg: '\''},
	)
	xmlEntities = newMatcher(
		marker{text: "&lt;", arg: '<'},
		marker{text: "&gt;", arg: '>'},
		marker{text: "&amp;", arg: '&'},
		marker{text: "&quot;", arg: '"'},
		marker{text: "&apos;", arg: '\''},
	)
	// xtmlAttrEntities are the escapes of Kimi K3 attribute values: &quot;
	// and &amp; (so an encoded "&amp;quot;" is "&quot;").
	xtmlAttrEntities = newMatcher(
		marker{text: "&quot;", arg: '"'},
		marker{text: "&amp;", arg: '&'},
	)
)

// appendDecoded appends v with the entities of table ents decoded; v is
// complete (a prefix of an entity at its end is text). With escape set, the
// result is escaped as the inside of a JSON string.
func appendDecoded(dst, v []byte, ents *matcher, escape bool) []byte {
	dst, _ = decodeUntil(dst, v, ents, escape, true)
	return dst
}

// decodeUntil is appendDecoded for a v that may go on (decided false): it
// stops before a final '&' that may still start an entity and returns how
// much of v it consumed.
func decodeUntil(dst, v []byte, ents *matcher, escape, decided bool) ([]byte, int) {
	n0 := len(v)
	for len(v) > 0 {
		j := 0
		for j < len(v) && v[j] != '&' && !(escape && strStop[v[j]]) {
			j++
		}
		dst = append(dst, v[:j]...)
		if j == len(v) {
			break
		}
		c, n := v[j], 1
		if c == '&' {
			mi, partial := ents.at(v[j:], decided)
			if partial {
				return dst, n0 - len(v) + j
			}
			if mi >= 0 {
				c, n = byte(ents.ms[mi].arg), len(ents.ms[mi].text)
			}
		}
		if escape && strStop[c] {
			dst = append(dst, jsonEscape(c)...)
		} else {
			dst = append(dst, c)
		}
		v = v[j+n:]
	}
	return dst, n0
}

// byteTab holds every byte value, so a decoded entity can be passed on as a
// slice that stays valid forever.
var byteTab = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
	}
	return t
}()

// begin starts a value of a parameter typed t. verbatim forces a plain
// streamed string (DSML string="true"); drop discards the value (a call that
// is not emitted).
func (v *paramValue) begin(t paramType, verbatim, drop bool) {
	v.typ, v.jsonOK, v.over = t, false, false
	v.lead, v.nullN, v.trail, v.run = 0, 0, false, 0
	if v.trim == trimNone {
		v.lead = 2 // nothing to strip at the start
	}
	v.nl, v.ws, v.buf = v.nl[:0], v.ws[:0], v.buf[:0]
	switch {
	case drop:
		v.st = pvIdle
	case verbatim:
		v.startString()
	case v.conv == convDSML, v.rawTyped, v.conv == convATEM && t.free:
		v.st = pvTyped
	case v.conv == convGLM && t.free:
		// PARSER_CASES.md, "GLM-4.7 values": no type means JSON-looking text is JSON, anything else the
		// raw string; null is admitted (no constraint).
		v.st, v.jsonOK = pvPending, true
	case v.conv == convGLM && t.set&tString != 0, (v.conv == convXML || v.conv == convATEM) && t.stringOK():
		if t.nullOK() {
			v.st = pvPending
		} else {
			v.startString()
		}
	default:
		v.st = pvTyped
	}
}

func (v *paramValue) startString() {
	v.st = pvString
	v.out.argsString(`"`)
}

// feed reads value bytes from b. It returns the bytes consumed and, when the
// value ended, the index of its close tag in ends (else -1). hold means b[n:]
// may start a close tag or an entity: present it again with more bytes.
func (v *paramValue) feed(b []byte, final bool) (n, end int, hold bool) {
	if v.st == pvString && v.lead == 2 && v.ends.none(b) && (v.ents == nil || !hasBytesWords(b, '&'*lo8, '&'*lo8)) {
		// A streamed chunk of a string value in which no close tag and
		// no entity can start: text's outcome for it, without the
		// matcher and the entity scan.
		switch c := b[len(b)-1]; {
		case v.trim == trimFull:
			if v.fullFrag(b) {
				return len(b), -1, false
			}
		case v.trim == trimFraming && (len(v.nl) > 0 || c == '\n' || c == '\r'):
			v.tailFraming(b)
			return len(b), -1, false
		default:
			v.out.argsEscaped(b)
			return len(b), -1, false
		}
	}
	return v.feedRest(b, final)
}

// feedRest is feed without its first case, for a grammar that has tested
// a streamed chunk of a string value as that case does (trimNone or
// trimFraming) and found a close tag's first byte or an '&': textOnly then
// decides what the first case would have.
func (v *paramValue) feedRest(b []byte, final bool) (n, end int, hold bool) {
	if (uint(len(b)-4) > 4 || v.ends.nfirst > 2) && v.st == pvString && v.lead == 2 && len(v.nl) == 0 &&
		v.plainRun(b) && v.fastString(b) {
		// (A streamed chunk that failed the test above holds a close
		// tag's first byte or an '&', or is a trimFull run that may pass
		// the limit: never one fastString takes.)
		return len(b), -1, false
	}
	pos, mi := -1, -1
	ok := false
	if v.st == pvString && v.lead == 2 {
		ok, pos, mi = v.textOnly(b, final)
	}
	if ok {
		// A close tag's first byte or an '&', but no close tag and no
		// entity (a '<' or "&&" in code): the first case's outcome,
		// repeated here because sharing it costs the common chunk a
		// call.
		switch c := b[len(b)-1]; {
		case v.trim == trimFull:
			if v.fullFrag(b) {
				return len(b), -1, false
			}
		case v.trim == trimFraming && (len(v.nl) > 0 || c == '\n' || c == '\r'):
			v.tailFraming(b)
			return len(b), -1, false
		default:
			v.out.argsEscaped(b)
			return len(b), -1, false
		}
	}
	if pos < 0 {
		pos, mi = v.ends.find(b, final)
	}
	// A close tag (or its prefix) starts with '<', which no entity
	// continues: an entity prefix before pos is decided.
	k := v.text(b[:pos], final || pos < len(b))
	switch {
	case k < pos:
		return k, -1, true
	case mi >= 0:
		v.end()
		return pos + len(v.ends.ms[mi].text), mi, false
	case pos < len(b):
		return pos, -1, true
	}
	return pos, -1, false
}

// plainRun reports whether b can be passed on as string content without
// decoding or escaping: no '<' (a close tag), no '&' (an entity, when
// decoding) and no byte that needs a JSON escape.
func (v *paramValue) plainRun(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if strStop[c] || c == '<' || (c == '&' && v.ents != nil) {
			return false
		}
	}
	return true
}

// fastString streams a plain run (the common case of a string value's
// chunk); under trimFull its trailing spaces are held. It reports false,
// having done nothing, when the general path must decide (a whitespace run
// that may pass the limit).
func (v *paramValue) fastString(b []byte) bool {
	if v.trim != trimFull {
		if len(v.ws) > 0 {
			return false
		}
		v.out.args(b)
		return true
	}
	if v.run+len(b) > v.limit {
		return false
	}
	k := len(b)
	for k > 0 && b[k-1] == ' ' {
		k--
	}
	if k == 0 {
		v.run += len(b)
	} else {
		if len(v.ws) > 0 {
			// The held run and this text go out as one fragment (one
			// event instead of two).
			e := v.out
			start := len(e.arena)
			e.arena = append(appendEscaped(e.arena, v.ws), b[:k]...)
			e.args(e.arena[start:len(e.arena):len(e.arena)])
			v.ws = v.ws[:0]
		} else {
			v.out.args(b[:k])
		}
		v.run = len(b) - k
	}
	v.ws = append(v.ws, b[k:]...)
	return true
}

// textOnly reports, for a streamed chunk (4 to 8 bytes) in which a close
// tag's first byte or an '&' occurs, that b still holds no close tag, no
// entity and no prefix of either (a '<' or "&&" in code): all of it is
// value text. pos and mi are then ends.find's outcome for b, as they are
// when a close tag (or its prefix) stopped the walk; pos is -1 when an
// entity stopped it or b is not a streamed chunk (find must decide).
func (v *paramValue) textOnly(b []byte, final bool) (ok bool, pos, mi int) {
	if uint(len(b)-4) > 4 {
		return false, -1, -1
	}
	for i, c := range b {
		switch {
		case c == '&' && v.ents != nil:
			if i+1 < len(b) && v.ents.second[b[i+1]] == 0 && !v.ents.wide {
				continue // at's outcome: no entity has this second byte ("&&")
			}
			if mi, partial := v.ents.at(b[i:], final); mi >= 0 || partial {
				return false, -1, -1 // an entity (or a prefix of one) to decode
			}
		case v.ends.first[c]:
			if i+1 < len(b) && v.ends.second[b[i+1]] == 0 && !v.ends.wide {
				continue // at's outcome: no marker has this second byte
			}
			if mi, partial := v.ends.at(b[i:], final); mi >= 0 || partial {
				return false, i, mi // find's outcome
			}
		}
	}
	return true, len(b), -1
}

// fullFrag is strPiece's trimFull case for a streamed chunk (the leading
// whitespace already stripped): the trailing whitespace run is held, a held
// run goes out with the text after it as one fragment. It reports false,
// having done nothing, when the run may pass the limit (strPiece decides).
func (v *paramValue) fullFrag(b []byte) bool {
	if v.run+len(b) > v.limit {
		return false
	}
	k := len(b)
	for k > 0 && isSpace(b[k-1]) {
		k--
	}
	if k == 0 {
		v.run += len(b)
		v.ws = append(v.ws, b...)
		return true
	}
	if len(v.ws) > 0 {
		v.out.argsEscapedPair(v.ws, b[:k])
		v.ws = v.ws[:0]
	} else {
		v.out.argsEscaped(b[:k])
	}
	v.run = len(b) - k
	if k < len(b) {
		v.ws = append(v.ws, b[k:]...)
	}
	return true
}

// text decodes entities in seg and passes the pieces on. It returns how much
// of seg it consumed: less than len(seg) only when seg ends inside a possible
// entity and decided is false.
func (v *paramValue) text(seg []byte, decided bool) int {
	switch {
	case v.st == pvString && v.trim == trimNone && (v.ents == nil ||
		uint(len(seg)-4) <= 4 && !hasBytesWords(seg, '&'*lo8, '&'*lo8) || bytes.IndexByte(seg, '&') < 0):
		v.out.argsEscaped(seg) // the common case: nothing to decode or trim
		return len(seg)
	case v.st == pvString && v.trim == trimNone:
		// Entities in a verbatim string: what is decided is decoded and
		// escaped into the arena, one fragment; a final '&' that more
		// bytes may make an entity is held.
		e := v.out
		start := len(e.arena)
		var k int
		e.arena, k = decodeUntil(e.arena, seg, v.ents, true, decided)
		e.args(e.arena[start:len(e.arena):len(e.arena)])
		return k
	case v.st == pvString && v.trim == trimFraming && v.lead == 2 && len(seg) > 0 && (v.ents == nil || bytes.IndexByte(seg, '&') < 0):
		v.tailFraming(seg) // piece's outcome: past the leading newline, nothing to decode
		return len(seg)
	case v.st == pvTyped && (v.ents == nil || v.rawTyped):
		v.bufPiece(seg)
		return len(seg)
	case v.ents == nil:
		v.piece(seg)
		return len(seg)
	}
	i := 0
	for i < len(seg) {
		j := bytes.IndexByte(seg[i:], '&')
		if j < 0 {
			v.piece(seg[i:])
			return len(seg)
		}
		v.piece(seg[i : i+j])
		i += j
		mi, partial := v.ents.at(seg[i:], decided)
		switch {
		case partial:
			return i
		case mi < 0:
			v.piece(seg[i : i+1])
			i++
		default:
			c := byte(v.ents.ms[mi].arg)
			v.piece(byteTab[c : c+1])
			i += len(v.ents.ms[mi].text)
		}
	}
	return i
}

// piece handles decoded value bytes. b stays valid until the next Feed.
func (v *paramValue) piece(b []byte) {
	if len(b) == 0 {
		return
	}
	switch v.st {
	case pvString:
		v.strPiece(b)
	case pvPending:
		// Only the bytes before the decision are buffered, so the limit
		// applies to the same bytes however the value is chunked.
		switch j, d := v.decide(b); d {
		case decPending:
			v.bufPiece(b)
		case decString:
			if v.bufPiece(b[:j]) {
				v.toString()
				if len(b) > j {
					v.strPiece(b[j:])
				}
			}
		case decTyped:
			v.st = pvTyped
			v.bufPiece(b)
		}
	case pvTyped:
		v.bufPiece(b)
	}
}

// bufPiece buffers b, within the limit.
func (v *paramValue) bufPiece(b []byte) bool {
	if len(v.buf)+len(b) > v.limit {
		v.over, v.st = true, pvIdle
		return false
	}
	v.buf = append(v.buf, b...)
	return true
}

// Outcomes of decide.
const (
	decPending = iota // the value may still be null (or JSON-looking)
	decString         // the value is a string from byte j on
	decTyped          // JSON-looking text starts the value: buffer and convert it
)

// decide looks at new pending bytes b: the value stays pending while it may
// still be the word null (surrounded by whitespace), becomes typed when
// JSON-looking text starts it (jsonOK), and is a string as soon as anything
// else comes (at b[j]).
func (v *paramValue) decide(b []byte) (j, d int) {
	for j, c := range b {
		switch {
		case isSpace(c):
			switch {
			case v.nullN == 0:
			case v.nullN == 4:
				v.trail = true
			default:
				return j, decString
			}
		case v.jsonOK && v.nullN == 0 && (c == '{' || c == '[' || c == '"'):
			return j, decTyped
		case !v.trail && v.nullN < 4 && c|0x20 == "null"[v.nullN]:
			v.nullN++
		default:
			return j, decString
		}
	}
	return len(b), decPending
}

// toString turns a pending value into a streamed string.
func (v *paramValue) toString() {
	v.startString()
	b := v.out.copyBytes(v.buf)
	v.buf = v.buf[:0]
	v.strPiece(b)
}

// strPiece streams string bytes b (valid until the next Feed), applying the
// trim rule at both ends.
func (v *paramValue) strPiece(b []byte) {
	switch v.trim {
	case trimFraming:
		for v.lead < 2 && len(b) > 0 {
			switch {
			case v.lead == 1:
				// After a leading '\r': "\r\n" is framing, a lone '\r' text.
				if b[0] == '\n' {
					b = b[1:]
				} else {
					v.out.argsString(`\r`)
				}
				v.lead = 2
			case b[0] == '\n':
				b, v.lead = b[1:], 2
			case b[0] == '\r':
				b, v.lead = b[1:], 1
			default:
				v.lead = 2
			}
		}
		if len(b) > 0 {
			v.tailFraming(b)
		}
	case trimFull:
		if v.lead == 0 {
			for len(b) > 0 && isSpace(b[0]) {
				b = b[1:]
			}
			if len(b) == 0 {
				return
			}
			v.lead = 2
		}
		k := len(b)
		for k > 0 && isSpace(b[k-1]) {
			k--
		}
		// A whitespace run longer than the limit abandons the call, wherever
		// the chunks split it (the trailing one is held, inner ones are not:
		// count both, so the outcome does not depend on chunking).
		if v.run+len(b) > v.limit {
			if r := v.longRun(b); r >= 0 {
				// The text before the run is released as it would be
				// with any other chunking; the call is then abandoned.
				if r > 0 {
					if len(v.ws) > 0 {
						v.out.argsEscapedPair(v.ws, nil) // copied: ws is reused
					}
					v.out.argsEscaped(b[:r])
				}
				v.over, v.st = true, pvIdle
				return
			}
		}
		switch {
		case k > 0 && len(v.ws) > 0:
			v.run = len(b) - k
			v.out.argsEscapedPair(v.ws, b[:k]) // the held run, then the text
			v.ws = v.ws[:0]
		case k > 0:
			v.run = len(b) - k
			v.out.argsEscaped(b[:k])
		default:
			v.run += len(b)
		}
		if k < len(b) {
			v.ws = append(v.ws, b[k:]...)
		}
	default:
		v.out.argsEscaped(b)
	}
}

// longRun returns where, in b, a whitespace run that passes the limit
// starts (0 when it continues the held run), or -1 if none does.
func (v *paramValue) longRun(b []byte) int {
	run, start := v.run, 0
	for j, c := range b {
		if !isSpace(c) {
			run, start = 0, j+1
		} else if run++; run > v.limit {
			return start
		}
	}
	return -1
}

// tailFraming streams b (non-empty) keeping back a trailing newline, which is
// framing if the close tag follows it.
func (v *paramValue) tailFraming(b []byte) {
	if len(v.nl) > 0 {
		if len(v.nl) == 1 && v.nl[0] == '\r' && b[0] == '\n' {
			// "\r" + "\n" split across pieces is one newline.
			if len(b) == 1 {
				v.nl = append(v.nl, '\n')
				return
			}
			v.out.argsString(`\r\n`)
			b = b[1:]
		} else {
			v.out.argsEscapedPair(v.nl, nil) // copied: nl is reused
		}
		v.nl = v.nl[:0]
	}
	n := len(b)
	switch {
	case n >= 2 && b[n-2] == '\r' && b[n-1] == '\n':
		v.nl = append(v.nl, '\r', '\n')
		b = b[:n-2]
	case b[n-1] == '\n' || b[n-1] == '\r':
		v.nl = append(v.nl, b[n-1])
		b = b[:n-1]
	}
	v.out.argsEscaped(b)
}

// end finishes the value at its close tag.
func (v *paramValue) end() {
	switch v.st {
	case pvString:
		v.endString()
	case pvPending:
		if v.nullN == 4 {
			v.out.argsString("null")
			break
		}
		v.toString()
		v.endString()
	case pvTyped:
		v.tmp = v.appendScalar(v.tmp[:0], v.buf, v.typ)
		v.out.args(v.out.copyBytes(v.tmp))
	}
	v.st = pvIdle
}

// takeRaw ends a value buffered raw (rawTyped) and returns its bytes (valid
// until the next begin) for the grammar to convert; false, with nothing
// done, for any other value (call end).
func (v *paramValue) takeRaw() ([]byte, bool) {
	if !v.rawTyped || v.st != pvTyped {
		return nil, false
	}
	v.st = pvIdle
	return v.buf, true
}

// endString drops the trailing framing and closes the JSON string.
func (v *paramValue) endString() {
	if v.trim == trimFraming {
		if v.lead == 1 {
			v.out.argsString(`\r`) // the value was a lone '\r'
		}
		if len(v.nl) == 1 && v.nl[0] == '\r' {
			v.out.argsString(`\r`) // a trailing '\r' is not a newline
		}
	}
	v.nl, v.ws = v.nl[:0], v.ws[:0]
	v.out.argsString(`"`)
}

// appendScalar appends the JSON of value raw (entities decoded) of a
// parameter typed typ, under the value's conversion and trim rules.
func (v *paramValue) appendScalar(dst, raw []byte, typ paramType) []byte {
	t := trimSpace(raw)
	set := typ.set
	var ok bool
	conv := v.conv
	if conv == convATEM {
		conv = convXML
		if typ.free {
			conv = convDSML
		}
	}
	switch conv {
	case convDSML:
		// PARSER_CASES.md, "DSML values": JSON (trimmed, lexically compacted), else the string as
		// written.
		if dst, ok = appendCompactJSON(dst, t, 0, &v.scan); ok {
			return dst
		}
		return appendJSONString(dst, raw)
	case convGLM:
		if typ.nullOK() && isNullWord(t) {
			return append(dst, "null"...)
		}
		if len(t) > 0 && (t[0] == '{' || t[0] == '[' || t[0] == '"') {
			if dst, ok = appendCompactJSON(dst, t, 0, &v.scan); ok {
				return dst
			}
		}
		if set&tInteger != 0 {
			if dst, ok = appendInteger(dst, t); ok {
				return dst
			}
		}
		if set&tNumber != 0 {
			if dst, ok = appendNumber(dst, t); ok {
				return dst
			}
		}
		if set&tBoolean != 0 {
			if dst, ok = appendBool(dst, t, true); ok {
				return dst
			}
		}
		if set&tArray != 0 {
			return appendCommaList(dst, t)
		}
		if set&tNull != 0 && (len(t) == 0 || string(t) == "None") {
			return append(dst, "null"...)
		}
		return appendJSONString(dst, raw) // the raw value, untrimmed
	}
	// convXML (PARSER_CASES.md, "Value conversion by type"): null where
	// admitted, the string where a string is admitted (or nothing is
	// constrained), else integer → number → boolean → object/array, the
	// first the value satisfies. (Streamed and pending values settle the
	// first two before they get here; minimax_m3's buffered leaves do not.)
	if typ.nullOK() && isNullWord(t) {
		return append(dst, "null"...)
	}
	if typ.stringOK() {
		return v.appendString(dst, raw, t)
	}
	if set&tInteger != 0 {
		if dst, ok = appendInteger(dst, t); ok {
			return dst
		}
	}
	if set&tNumber != 0 {
		if dst, ok = appendNumber(dst, t); ok {
			return dst
		}
	}
	if set&tBoolean != 0 {
		if dst, ok = appendBool(dst, t, false); ok {
			return dst
		}
	}
	if set&(tObject|tArray|tOther) != 0 {
		want := set & (tObject | tArray)
		if set&tOther != 0 {
			want = 0
		}
		if dst, ok = appendCompactJSON(dst, t, want, &v.scan); ok {
			return dst
		}
		if dst, ok = appendLiteralEval(dst, t, want, &v.scan, &v.tmp2); ok {
			return dst
		}
	}
	// Not convertible: the value stays the string it would have been.
	return v.appendString(dst, raw, t)
}

// appendString appends raw as the JSON string a streamed value would have
// been (trimmed by the trim rule; t is raw trimmed of all whitespace).
func (v *paramValue) appendString(dst, raw, t []byte) []byte {
	switch v.trim {
	case trimFraming:
		raw = stripFraming(raw)
	case trimFull:
		raw = t
	}
	return appendJSONString(dst, raw)
}

// appendCommaList appends v split on commas into trimmed strings, as a JSON
// array (PARSER_CASES.md, array fallback).
func appendCommaList(dst, v []byte) []byte {
	dst = append(dst, '[')
	for i := 0; ; i++ {
		j := bytes.IndexByte(v, ',')
		item := v
		if j >= 0 {
			item = v[:j]
		}
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendJSONString(dst, trimSpace(item))
		if j < 0 {
			break
		}
		v = v[j+1:]
	}
	return append(dst, ']')
}

// argsClose ends an arguments object built with argsKey: "{}" when no key
// was emitted, "}" otherwise.
func argsClose(e *emitter, keys int) {
	if keys == 0 {
		e.argsString("{}")
	} else {
		e.argsString("}")
	}
}

// argsKey emits the start of parameter key in the call's arguments: `{"key":`
// for the first parameter, `,"key":` after.
func argsKey(e *emitter, first bool, key []byte) {
	start := len(e.arena)
	if first {
		e.arena = append(e.arena, '{')
	} else {
		e.arena = append(e.arena, ',')
	}
	e.arena = appendJSONString(e.arena, key)
	e.arena = append(e.arena, ':')
	e.args(e.arena[start:len(e.arena):len(e.arena)])
}
