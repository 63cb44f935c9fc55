package parsers

import "unicode/utf8"

// jsonCalls reads a JSON call body — one call object, or an array of them —
// incrementally, and turns it into call events (PARSER_CASES.md):
//
//   - the envelope is an object with a string "name" and an "arguments" or
//     "parameters" object, keys in any order (plus optional extra keys);
//   - the call starts when the name string closes; arguments seen before the
//     name are held (bounded) and released at the start;
//   - arguments stream as the model's own bytes, trimmed of surrounding
//     whitespace, with raw control characters inside strings escaped;
//   - arguments given as a JSON string holding an object are unwrapped;
//   - a missing arguments key means {};
//   - anything else (non-object arguments, no or empty name) is not a call:
//     an object that started is abandoned, one that did not is dropped;
//   - in an array every element is a call on its own; elements that are not
//     call objects are skipped, [] is zero calls.
//
// It owns no framing: the grammar around it finds the opener and closer.
type jsonCalls struct {
	out *sink

	// configuration
	allowObject bool     // a bare call object is a body
	allowArray  bool     // an array of call objects is a body
	argKeys     []string // keys holding the arguments
	nameKey     string   // key holding the name ("" = "name")
	idKey       string   // key holding a model-given call id ("" = none)
	// requireArgs: an object without an arguments key is not a call, and the
	// start waits until the arguments begin (an object arguments value) or
	// are unwrapped (a string one). For bare JSON that may still turn out to
	// be content (llama3_json without <|python_tag|>).
	requireArgs bool
	// idWait (with idKey): the start waits for the id key while at most
	// idWait bytes of arguments are held (Mistral writes the id after the
	// arguments); past that, or when the object closes, the call starts with
	// a minted id. 0: start as soon as the name is known.
	idWait int
	// nameKeyed: a call object is {"NAME": ARGUMENTS} (Apertus): its first
	// key is the name and that key's value the arguments (an object, or a
	// JSON string holding one); later keys are ignored.
	nameKeyed bool

	starts int // calls started so far (never reset): lets a grammar see a commit
	ends   int // calls ended so far (never reset)

	st      jcState
	inArray bool
	vs      jsonScan

	// current object
	key      [16]byte // current key (first 16 bytes)
	keyLen   int      // its length (may exceed len(key))
	keyEsc   bool     // key contains an escape: never matches
	keyKind  keyKind
	bad      bool   // the object is not a call
	haveName bool   // a name was read
	haveArgs bool   // arguments were read
	argsOK   bool   // the arguments began as an object or were unwrapped from a string
	ending   bool   // the object closed: start now or never
	pending  []byte // arguments read before the name (escaped, ready to emit)
	raw      []byte // captured raw string value (name, string arguments, id)
	name     []byte
	id       []byte
	tmp      []byte
}

type jcState uint8

const (
	jcBody     jcState = iota // expecting the body: object or array
	jcArrFirst                // after '[': element or ']'
	jcArrElem                 // after ',' in the array: element
	jcArrAfter                // after an element: ',' or ']'
	jcSkipElem                // skipping a non-object element
	jcObjFirst                // after '{': key or '}'
	jcObjKey                  // after ',': key
	jcKey                     // inside a key string
	jcKeyEsc                  // after '\' in a key
	jcColon                   // after a key: ':'
	jcValue                   // expecting a value (dispatch on the key)
	jcName                    // scanning the name value (captured)
	jcNameKey                 // nameKeyed: scanning the first key, the name (captured)
	jcArgs                    // scanning object arguments (streamed or pending)
	jcArgsStr                 // scanning string arguments (captured)
	jcID                      // scanning the id value (captured)
	jcSkip                    // scanning a value nobody needs
	jcObjAfter                // after a value: ',' or '}'
	jcDone                    // the body is complete
	jcErr                     // syntax error: the body is broken
)

var jcStateNames = [...]string{"jcBody", "jcArrFirst", "jcArrElem", "jcArrAfter", "jcSkipElem", "jcObjFirst", "jcObjKey", "jcKey", "jcKeyEsc", "jcColon", "jcValue", "jcName", "jcNameKey", "jcArgs", "jcArgsStr", "jcID", "jcSkip", "jcObjAfter", "jcDone", "jcErr"}

func (s jcState) String() string { return enumName(jcStateNames[:], s, "jcState") }

type keyKind uint8

const (
	kOther keyKind = iota
	kName
	kArgs
	kID
)

var keyKindNames = [...]string{"kOther", "kName", "kArgs", "kID"}

func (k keyKind) String() string { return enumName(keyKindNames[:], k, "keyKind") }

// jcResult is what a JSON sub-machine's feed stopped at (jsonCalls, jsonArgs).
// It is not a blockStatus: a body has no closer or text of its own to stop
// at but can break, and the grammar around it decides what a broken body is.
type jcResult uint8

const (
	jcMore jcResult = iota // all consumed, body incomplete
	jcEnd                  // body complete after n bytes
	jcBad                  // syntax error after n bytes; open call abandoned
	jcNext                 // state methods only: n consumed, keep scanning
)

var jcResultNames = [...]string{"jcMore", "jcEnd", "jcBad", "jcNext"}

func (r jcResult) String() string { return enumName(jcResultNames[:], r, "jcResult") }

// begin expects a new body; each call object is reset at its '{'
// (objectStart).
func (j *jsonCalls) begin() { j.st, j.inArray = jcBody, false }

// objectStart begins a call object.
func (j *jsonCalls) objectStart() {
	j.st = jcObjFirst
	j.bad, j.haveName, j.haveArgs = false, false, false
	j.argsOK, j.ending = false, false
	j.pending = j.pending[:0]
	j.raw = j.raw[:0]
	j.name = j.name[:0]
	j.id = j.id[:0]
}

// fail abandons an open call and stops the body at a syntax error after n
// bytes.
func (j *jsonCalls) fail(n int) (int, jcResult) {
	j.out.abandonCall()
	j.st = jcErr
	return n, jcBad
}

// finish is the end of the stream inside the body: an open call cannot
// complete and is abandoned.
func (j *jsonCalls) finish() { j.out.abandonCall() }

// objectEnd completes a call object.
func (j *jsonCalls) objectEnd() {
	if !j.out.inCall && !j.bad && j.haveName {
		// A start that waited (for an id, or for the arguments) happens now,
		// or never.
		j.ending = true
		j.startIfReady()
	}
	switch {
	case j.out.inCall && j.bad:
		j.out.abandonCall()
	case j.out.inCall:
		if !j.haveArgs {
			j.out.argsString("{}")
		}
		j.out.endCall()
		j.ends++
	}
	if j.inArray {
		j.st = jcArrAfter
	} else {
		j.st = jcDone
	}
}

// markBad records that the current object is not a call.
func (j *jsonCalls) markBad() {
	j.out.abandonCall()
	j.bad = true
	j.pending = j.pending[:0]
}

// startIfReady emits the call start once the name is known.
func (j *jsonCalls) startIfReady() {
	if j.out.inCall || j.bad || !j.haveName {
		return
	}
	if j.requireArgs && !j.argsOK {
		return
	}
	if j.idWait > 0 && len(j.id) == 0 && !j.ending && len(j.pending) <= j.idWait {
		return
	}
	var id []byte
	if len(j.id) > 0 {
		id = j.id
	}
	j.out.startCall(j.name, id)
	j.starts++
	if len(j.pending) > 0 {
		j.out.args(j.out.copyBytes(j.pending))
		j.pending = j.pending[:0]
	}
}

// feed consumes body bytes: one state method per state, each consuming n
// bytes of its input and reporting what follows (jcNext: keep scanning).
func (j *jsonCalls) feed(b []byte) (int, jcResult) {
	i := 0
	if j.st == jcArgs && len(b) > 0 {
		// Hot path, before the loop: argument bytes of a started call.
		m, sr := j.vs.scan(b)
		if sr == scanMore && j.out.inCall && !j.bad {
			j.out.args(b[:m])
			return m, jcMore
		}
		var r jcResult
		if i, r = j.argsScanned(b, m, sr); r != jcNext {
			return i, r
		}
	}
	for i < len(b) {
		var n int
		var r jcResult
		switch j.st {
		case jcArgs:
			m, sr := j.vs.scan(b[i:])
			n, r = j.argsScanned(b[i:], m, sr)
		case jcDone:
			return i, jcEnd
		case jcErr:
			return i, jcBad
		case jcBody:
			n, r = j.body(b[i])
		case jcArrFirst, jcArrElem:
			n, r = j.arrElem(b[i])
		case jcSkipElem:
			n, r = j.skipValue(b[i:], jcArrAfter)
		case jcArrAfter:
			n, r = j.arrAfter(b[i])
		case jcObjFirst, jcObjKey:
			n, r = j.objKey(b[i])
		case jcKey:
			n, r = j.keyText(b[i:])
		case jcKeyEsc:
			n, r = j.keyEscape(b[i])
		case jcColon:
			n, r = j.colon(b[i])
		case jcValue:
			n, r = j.value(b[i])
		case jcName, jcNameKey, jcArgsStr, jcID:
			n, r = j.captured(b[i:])
		case jcSkip:
			n, r = j.skipValue(b[i:], jcObjAfter)
		case jcObjAfter:
			n, r = j.objAfter(b[i])
		}
		i += n
		if r != jcNext {
			return i, r
		}
	}
	if j.st == jcDone {
		return i, jcEnd
	}
	return i, jcMore
}

// argsScanned handles the object arguments the scan of b stopped in after n
// bytes with result sr (feed streams the common case itself).
func (j *jsonCalls) argsScanned(b []byte, n int, sr scanResult) (int, jcResult) {
	frag := b[:n]
	if sr == scanCtrl {
		frag = frag[:n-1]
	}
	j.argBytes(frag)
	switch sr {
	case scanCtrl:
		j.argEscape(b[n-1])
	case scanDone:
		j.st = jcObjAfter
	case scanErr:
		return j.fail(n)
	}
	return n, jcNext
}

// body expects the body: an object or (when allowed) an array.
func (j *jsonCalls) body(c byte) (int, jcResult) {
	switch {
	case isSpace(c):
	case c == '{' && j.allowObject:
		j.objectStart()
	case c == '[' && j.allowArray:
		j.inArray = true
		j.st = jcArrFirst
	default:
		return j.fail(0)
	}
	return 1, jcNext
}

// arrElem expects an array element (or ']' right after '['); a non-object
// element is skipped.
func (j *jsonCalls) arrElem(c byte) (int, jcResult) {
	switch {
	case isSpace(c):
	case c == ']' && j.st == jcArrFirst:
		j.st = jcDone
		return 1, jcEnd
	case c == '{':
		j.objectStart()
	default:
		j.vs.reset()
		j.st = jcSkipElem
		return 0, jcNext
	}
	return 1, jcNext
}

// skipValue scans a value nobody needs; then the state is next.
func (j *jsonCalls) skipValue(b []byte, next jcState) (int, jcResult) {
	n, r := j.vs.scan(b)
	switch r {
	case scanDone:
		j.st = next
	case scanErr:
		return j.fail(n)
	}
	return n, jcNext
}

// arrAfter expects ',' or ']' after an array element.
func (j *jsonCalls) arrAfter(c byte) (int, jcResult) {
	switch {
	case isSpace(c):
	case c == ',':
		j.st = jcArrElem
	case c == ']':
		j.st = jcDone
		return 1, jcEnd
	default:
		return j.fail(0)
	}
	return 1, jcNext
}

// objKey expects a key (or '}' right after '{').
func (j *jsonCalls) objKey(c byte) (int, jcResult) {
	switch {
	case isSpace(c):
	case c == '"' && j.nameKeyed && j.st == jcObjFirst:
		// The first key is the name: captured as a string value is.
		j.vs.reset()
		j.raw = j.raw[:0]
		j.st = jcNameKey
		return 0, jcNext
	case c == '"':
		j.keyLen, j.keyEsc = 0, false
		j.st = jcKey
	case c == '}' && j.st == jcObjFirst:
		return j.objClosed()
	default:
		return j.fail(0)
	}
	return 1, jcNext
}

// objClosed completes the object at its '}'.
func (j *jsonCalls) objClosed() (int, jcResult) {
	j.objectEnd()
	if j.st == jcDone {
		return 1, jcEnd
	}
	return 1, jcNext
}

// keyText reads a key string up to its closing quote or an escape.
func (j *jsonCalls) keyText(b []byte) (int, jcResult) {
	i := 0
	for i < len(b) && !strStop[b[i]] {
		if j.keyLen < len(j.key) {
			j.key[j.keyLen] = b[i]
		}
		j.keyLen++
		i++
	}
	if i == len(b) {
		return i, jcMore
	}
	switch b[i] {
	case '"':
		j.keyKind = j.classifyKey()
		j.st = jcColon
	case '\\':
		j.keyEsc = true
		j.st = jcKeyEsc
	default:
		return j.fail(i)
	}
	return i + 1, jcNext
}

// keyEscape: escaped keys never match a known key; validate loosely by
// resuming the string (a bad escape is caught nowhere else, so check the
// common forms here).
func (j *jsonCalls) keyEscape(c byte) (int, jcResult) {
	switch c {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't', 'u':
		j.st = jcKey
		return 1, jcNext
	}
	return j.fail(0)
}

// colon expects the ':' after a key.
func (j *jsonCalls) colon(c byte) (int, jcResult) {
	switch {
	case isSpace(c):
	case c == ':':
		j.st = jcValue
	default:
		return j.fail(0)
	}
	return 1, jcNext
}

// value dispatches on the key at the first byte of its value (not consumed:
// the next state scans the value from it).
func (j *jsonCalls) value(c byte) (int, jcResult) {
	if isSpace(c) {
		return 1, jcNext
	}
	j.vs.reset()
	j.st = jcSkip
	switch j.keyKind {
	case kName:
		if !j.haveName && c == '"' {
			j.raw = j.raw[:0]
			j.st = jcName
		} else if !j.haveName {
			j.markBad() // name is not a string
		}
	case kArgs:
		if j.haveArgs {
			break // a repeated arguments key: the first wins
		}
		j.haveArgs = true
		switch {
		case j.bad:
		case c == '{':
			j.st = jcArgs
			j.argsOK = true
			j.startIfReady()
		case c == '"':
			j.raw = j.raw[:0]
			j.st = jcArgsStr
		default:
			j.markBad() // arguments must be an object
		}
	case kID:
		if len(j.id) == 0 && c == '"' {
			j.raw = j.raw[:0]
			j.st = jcID
		}
	}
	return 0, jcNext
}

// captured scans a value that is kept (name, string arguments, id), bounded
// by the per-call limit.
func (j *jsonCalls) captured(b []byte) (int, jcResult) {
	n, r := j.vs.scan(b)
	over := len(j.raw)+n > j.out.limit
	if over {
		j.markBad() // past the per-call buffer limit
	} else {
		j.raw = append(j.raw, b[:n]...)
	}
	switch {
	case r == scanErr:
		return j.fail(n)
	case r == scanDone:
		st := j.st
		if !over {
			j.valueCaptured()
		}
		j.st = jcObjAfter
		if st == jcNameKey {
			// The name's value is the arguments.
			j.keyKind = kArgs
			j.st = jcColon
		}
	case over && j.st != jcNameKey: // (a name key past the limit is scanned to its end: a value follows it)
		j.st = jcSkip
	}
	return n, jcNext
}

// objAfter expects ',' or '}' after a value.
func (j *jsonCalls) objAfter(c byte) (int, jcResult) {
	switch {
	case isSpace(c):
	case c == ',':
		j.st = jcObjKey
	case c == '}':
		return j.objClosed()
	default:
		return j.fail(0)
	}
	return 1, jcNext
}

func (j *jsonCalls) classifyKey() keyKind {
	if j.keyEsc || j.keyLen > len(j.key) || j.nameKeyed {
		return kOther
	}
	k := string(j.key[:j.keyLen])
	if k == j.nameKey || j.nameKey == "" && k == "name" {
		return kName
	}
	for _, a := range j.argKeys {
		if k == a {
			return kArgs
		}
	}
	if j.idKey != "" && k == j.idKey {
		return kID
	}
	return kOther
}

// argBytes passes object-argument bytes on: streamed once the call started,
// held until the name otherwise.
func (j *jsonCalls) argBytes(b []byte) {
	if len(b) == 0 || j.bad {
		return
	}
	if j.out.inCall {
		j.out.args(b)
		return
	}
	if len(j.pending)+len(b) > j.out.limit {
		j.markBad()
		return
	}
	j.pending = appendHeld(j.pending, b, j.out.limit)
	if j.idWait > 0 && len(j.pending) > j.idWait {
		j.startIfReady()
	}
}

// argEscape passes on the escape of a raw control character in a string.
func (j *jsonCalls) argEscape(c byte) {
	if j.bad {
		return
	}
	if j.out.inCall {
		j.out.argsString(ctrlEscape(c))
		return
	}
	j.pending = append(j.pending, ctrlEscape(c)...)
	if j.idWait > 0 && len(j.pending) > j.idWait {
		j.startIfReady()
	}
}

// valueCaptured handles a complete captured value in j.raw.
func (j *jsonCalls) valueCaptured() {
	switch j.st {
	case jcName, jcNameKey:
		j.name = appendUnquoted(j.name[:0], j.raw)
		if len(j.name) == 0 {
			j.markBad() // an empty name is not a call
			return
		}
		j.haveName = true
		j.startIfReady()
	case jcID:
		j.id = appendUnquoted(j.id[:0], j.raw)
		j.startIfReady()
	case jcArgsStr:
		// Arguments as a JSON string: unwrap it when it holds an object.
		j.tmp = appendUnquoted(j.tmp[:0], j.raw)
		obj := trimSpace(j.tmp)
		if len(obj) == 0 || obj[0] != '{' || !isJSONValue(obj, &j.vs) {
			j.markBad()
			return
		}
		j.argsOK = true
		if j.out.inCall {
			j.out.args(j.out.copyBytes(escapeCtrl(j.raw[:0], obj)))
			return
		}
		j.pending = escapeCtrl(j.pending[:0], obj)
		j.startIfReady()
	}
}

// escapeCtrl appends b, a JSON value, to dst with the raw control
// characters inside its strings escaped. Outside strings they are
// whitespace between tokens (b was checked to be a JSON value) and stay as
// they are: escaping them there would make the arguments invalid JSON.
func escapeCtrl(dst, b []byte) []byte {
	inStr, esc := false, false
	for _, c := range b {
		switch {
		case esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case c == '"':
			inStr = !inStr
		case inStr && c < 0x20:
			dst = append(dst, ctrlEscape(c)...)
			continue
		}
		dst = append(dst, c)
	}
	return dst
}

// trimSpace trims JSON whitespace (space, \t, \n, \r) on both sides.
func trimSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// appendUnquoted appends the value of the JSON string literal q (with its
// quotes) to dst. The literal has been validated by jsonScan; invalid
// surrogates become U+FFFD.
func appendUnquoted(dst, q []byte) []byte {
	if len(q) < 2 {
		return dst
	}
	q = q[1 : len(q)-1]
	for i := 0; i < len(q); i++ {
		c := q[i]
		if c != '\\' || i+1 >= len(q) {
			dst = append(dst, c)
			continue
		}
		i++
		switch q[i] {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, n := decodeU(q[i+1:])
			i += n
			if r >= 0xD800 && r < 0xDC00 && i+2 < len(q) && q[i+1] == '\\' && q[i+2] == 'u' {
				if r2, n2 := decodeU(q[i+3:]); r2 >= 0xDC00 && r2 < 0xE000 {
					r = (r-0xD800)<<10 + (r2 - 0xDC00) + 0x10000
					i += 2 + n2
				}
			}
			dst = utf8.AppendRune(dst, r)
		default:
			dst = append(dst, q[i])
		}
	}
	return dst
}

// decodeU decodes the four hex digits of a \u escape.
func decodeU(b []byte) (rune, int) {
	if len(b) < 4 {
		return utf8.RuneError, len(b)
	}
	if h, ok := hex4(b); ok {
		return rune(h), 4
	}
	return utf8.RuneError, 4
}
