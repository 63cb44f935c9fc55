package parsers

// gemma4 is the Gemma 4 tool-call grammar (PARSER_CASES.md):
//
//	<|tool_call>call:get_weather{location:<|"|>Tokyo<|"|>,count:42,opts:{deep:true},tags:[<|"|>a<|"|>]}<tool_call|>
//
//	args    = "{" [ entry { "," entry } ] "}"
//	entry   = key ":" value
//	key     = 1*( ALPHA / DIGIT / "_" / "." / "-" )
//	value   = string / number / literal / object / array / empty
//	string  = <|"|> *any <|"|>
//	number  = [ "-" ] 1*DIGIT [ "." 1*DIGIT ]
//	literal = true / false / null / none / nil      ; case-insensitive, word-bounded
//	empty   = ""                                    ; "k:" before "," or "}" is ""
//
// The call starts at the '{' after the name and its arguments stream as
// JSON: strings as they arrive, numbers and literals at their end. Numbers
// are the model's literal with leading zeros removed (no float round trip);
// none/nil are null.
//
// Library rules and decisions:
//
//   - An argument parse error abandons the call (Dynamo emits it with {});
//     the rest of the call is dropped up to <tool_call|> outside strings (or
//     the next <|tool_call>, which starts a new call).
//   - The closer is found string-aware: <tool_call|> inside <|"|>…<|"|> is
//     text. A body that is not a call (no "call:" or no valid name) is markup.
//   - End of stream: a call whose argument object closed is recovered (a
//     partial closer after it is text); otherwise it is abandoned and its
//     markup dropped.
//   - Bare body: "call:NAME{…}" without the opener, at the start of
//     the output (no content yet) or after whitespace (the last content
//     byte, or whitespace after a call), is held (bounded by the per-call
//     limit) and becomes a call, emitted whole, when its object closes and
//     <tool_call|> follows after optional whitespace; anything else (another
//     byte after the object, a parse error, the end of the stream, the
//     limit) releases it as content, verbatim.
//   - Whitespace is tolerated around the tokens of the arguments, after the
//     opener and before '{' (the grammar is silent; models do not emit it).
//   - Whitespace between calls is markup; <|"|> and <tool_call|> met in
//     content are removed.
//
// FunctionGemma runs the same machine with its own tokens (gemmaSpec,
// functiongemma.go).
type gemma4 struct {
	// immutable after construction
	out    *sink
	spec   *gemmaSpec
	delim  matcher // <|"|>
	skipMs matcher // a broken call: closer, opener, string delimiter

	// call state; reset by begin
	st    gmState
	bare  bool      // no opener: held until <tool_call|> proves the call
	inStr bool      // skipping: inside <|"|>…<|"|>
	cand  candidate // bare: the held bytes (content if it is not a call)
	conv  []byte    // bare: converted arguments
	ws    []byte    // whitespace between the object and the closer
	name  []byte
	callN int // bytes of "call:" matched after the opener
	stk   []gmCont

	// token state
	numNZ   bool // a non-zero integer digit was written
	numFrac int  // 0: integer part, 1: after '.', 2: fraction digits
	numAny  bool // an integer digit was seen
	lit     [5]byte
	litN    int
}

// gmCont is an open container of the arguments.
type gmCont struct {
	kind byte // '{' or '['
	n    int  // entries or elements completed
}

// gmState is where the gemma4 machine is.
type gmState uint8

const (
	gmOpen      gmState = iota // after <|tool_call>: "call:"
	gmName                     // the name, up to '{'
	gmAfterName                // whitespace before '{'
	gmKey                      // after '{' or ',': a key ('}' right after '{')
	gmKeyChars                 // in a key
	gmColon                    // after a key: ':'
	gmVal                      // a value
	gmStr                      // inside <|"|>…<|"|>
	gmNum                      // a number
	gmLit                      // a literal word
	gmAfterVal                 // after a value: ',' or a closer
	gmClose                    // after the arguments: whitespace, then <tool_call|>
	gmSkip                     // a broken call, dropped up to <tool_call|>
	gmText                     // a "call:" that is text: back to the text state
)

var gmStateNames = [...]string{"gmOpen", "gmName", "gmAfterName", "gmKey", "gmKeyChars", "gmColon", "gmVal",
	"gmStr", "gmNum", "gmLit", "gmAfterVal", "gmClose", "gmSkip", "gmText"}

func (s gmState) String() string { return enumName(gmStateNames[:], s, "gmState") }

// gemmaSpec is what tells the grammars that run the gemma4 machine apart:
// their tokens, and whether a body may come without its opener.
type gemmaSpec struct {
	open, close string // the call's opener and closer
	quote       string // the string delimiter; it starts with '<' (gmStrStop)
	bare        bool   // "call:NAME{…}" without the opener is a candidate body
}

// gemma4Spec is Gemma 4's.
var gemma4Spec = gemmaSpec{open: "<|tool_call>", close: "<tool_call|>", quote: `<|"|>`, bare: true}

// gemmaCall prefixes the name after the opener.
const gemmaCall = "call:"

// Text-state opener args.
const (
	openGemmaCall = iota // <|tool_call>
	openGemmaBare        // "call:" (a bare body if at the start of the output or after whitespace)
)

// gmStrStop marks the bytes that end the fast path inside a string: a JSON
// string's (strStop) and '<', which may start the string delimiter (<|"|>,
// functiongemma's <escape>).
var gmStrStop = func() (t [256]bool) { t = strStop; t['<'] = true; return t }()

func init() {
	registerTool(ToolInfo{
		Malformed: "an argument parse error abandons the call (Dynamo: arguments {}) and drops it up to <tool_call|> " +
			"outside strings; a body without call:NAME{ is markup; a bare call:NAME{…} (no opener; at the start of " +
			"the output or after whitespace) is held and is content unless <tool_call|> follows its closed " +
			"object after optional whitespace",
		Truncated: "a call whose argument object closed is recovered without its closer (a partial closer is " +
			"text); otherwise it is abandoned and its markup dropped (Dynamo echoes it); a bare body cut by " +
			"the end of the stream is content",
	}, newGemma4, "gemma4", "gemma-4")
}

func newGemma4(out *sink) toolGrammar { return newGemmaGrammar(out, &gemma4Spec) }

// newGemmaGrammar builds the gemma4 machine for spec.
func newGemmaGrammar(out *sink, spec *gemmaSpec) *gemma4 {
	if spec.quote[0] != '<' {
		panic("parsers: a gemma string delimiter must start with '<' (gmStrStop)")
	}
	return &gemma4{out: out, spec: spec,
		delim: newMatcher(marker{text: spec.quote, act: actNone}),
		skipMs: newMatcher(marker{text: spec.close, act: actClose}, marker{text: spec.open, act: actOpen},
			marker{text: spec.quote, act: actNone}),
	}
}

func (g *gemma4) textMarkers() []marker {
	ms := []marker{{text: g.spec.open, act: actToolOpen, arg: openGemmaCall}}
	if g.spec.bare {
		ms = append(ms, marker{text: gemmaCall, act: actToolOpen, arg: openGemmaBare})
	}
	return append(ms,
		marker{text: g.spec.close, act: actToolClose},
		marker{text: g.spec.quote, act: actToolClose, arg: closeInText})
}

// open starts a call after a text-state marker. A bare "call:" counts only
// at the start of the output (no content yet) or after whitespace (content,
// or whitespace after a call: the whitespace is then held with it); its
// bytes are kept for the content fallback.
func (g *gemma4) open(arg int) {
	if arg == openGemmaCall {
		g.begin(false)
		return
	}
	if !g.out.afterSpace() {
		// "recall:", or "call:" right after a call: text.
		g.out.contentString(gemmaCall)
		g.st = gmText
		return
	}
	g.begin(true)
	g.cand.begin(g.out.ws, gemmaCall)
}

// begin starts a call: after its opener ("call:" follows), or a bare one
// at its name.
func (g *gemma4) begin(bare bool) {
	g.bare, g.inStr = bare, false
	g.cand.begin(nil, "")
	g.conv = g.conv[:0]
	g.name = g.name[:0]
	g.stk = g.stk[:0]
	g.callN = 0
	g.st = gmOpen
	if bare {
		g.st = gmName
	}
}

func (g *gemma4) reset() {
	g.st = gmText
	g.bare = false
	g.ws = shrink(g.ws)
	g.cand.buf = shrink(g.cand.buf)
	g.conv = shrink(g.conv)
	g.name = shrink(g.name)
	g.stk = g.stk[:0]
}

// finish ends the stream inside a call: a call whose object closed is
// recovered, any other is abandoned; a bare body is content.
func (g *gemma4) finish() {
	switch {
	case g.st == gmText:
	case g.bare:
		g.cand.release(g.out)
	case g.st == gmClose:
		g.endCall()
	default:
		g.abandon()
	}
	g.bare = false
	g.st = gmText
}

// put writes converted argument bytes: gathered for the open call (flushed
// as one fragment per Feed), or kept for a bare body. String values are
// converted piecewise (an escape between runs), so aliasing the input would
// cut the arguments into a fragment per escape.
func (g *gemma4) put(b []byte) {
	if !g.cand.released {
		g.conv = appendHeld(g.conv, b, g.out.limit)
	}
}

func (g *gemma4) putS(s string) {
	if !g.cand.released {
		g.conv = append(g.conv, s...)
	}
}

// flush emits the converted bytes gathered for the open call.
func (g *gemma4) flush() {
	if !g.bare && len(g.conv) > 0 {
		if g.out.inCall {
			g.out.args(g.out.copyBytes(g.conv))
		}
		g.conv = g.conv[:0]
	}
}

// endCall completes the open call.
func (g *gemma4) endCall() {
	g.flush()
	g.out.endCall()
}

// abandon abandons the open call, if any (after the fragments it already
// produced, so that the events do not depend on where Feed boundaries fell).
func (g *gemma4) abandon() {
	g.flush()
	g.out.abandonCall()
}

// malformed ends a call that cannot complete at b[i] (not consumed): an
// opened call is abandoned and skipped to its closer; a bare body is
// released as content and b[i] is scanned again as text.
func (g *gemma4) malformed(b []byte, i int) (int, blockStatus) {
	if g.bare {
		g.bare = false
		return i, g.cand.releaseWith(g.out, b[:i])
	}
	g.abandon()
	g.inStr = false
	g.st = gmSkip
	return i, blockNext
}

// startArgs handles the '{' after the name.
func (g *gemma4) startArgs() bool {
	if len(g.name) == 0 {
		return false
	}
	if !g.bare {
		g.out.startCall(g.name, nil)
	}
	g.putS("{")
	g.stk = append(g.stk[:0], gmCont{kind: '{'})
	g.st = gmKey
	return true
}

// complete moves past a complete value.
func (g *gemma4) complete() {
	g.stk[len(g.stk)-1].n++
	g.st = gmAfterVal
}

// feed runs scan, keeps what a bare body consumed (held, or content once
// the body outgrew the limit: the raw bytes and the arguments converted from
// them both count) and flushes the open call's converted arguments.
func (g *gemma4) feed(b []byte, final bool) (int, blockStatus) {
	if g.st == gmStr && !g.bare && g.out.inCall && gmStrRun(b) == len(b) {
		// Hot path: a chunk of an open call's string text streams as it
		// is (what flush would emit, without the copies).
		g.out.args(b)
		return len(b), blockMore
	}
	n, st := g.scan(b, final)
	if g.bare && (st == blockMore || st == blockHold) && g.cand.keep(g.out, g.out.limit, b[:n], len(g.conv)) {
		g.conv = g.conv[:0]
	}
	g.flush()
	return n, st
}

// scan runs the machine over b (see feed): one method per state, each
// taking the position i in b and returning the next position and blockNext
// to go on (or the status scan returns).
func (g *gemma4) scan(b []byte, final bool) (int, blockStatus) {
	i := 0
	for i < len(b) {
		st := blockNext
		switch g.st {
		case gmText:
			return i, blockText
		case gmOpen:
			i, st = g.opener(b, i)
		case gmName:
			i, st = g.nameChars(b, i)
		case gmAfterName:
			i, st = g.afterName(b, i)
		case gmKey:
			i, st = g.key(b, i)
		case gmKeyChars:
			i = g.keyChars(b, i)
		case gmColon:
			i, st = g.colon(b, i)
		case gmVal:
			i, st = g.value(b, i, final)
		case gmStr:
			i, st = g.str(b, i, final)
		case gmNum:
			i, st = g.num(b, i)
		case gmLit:
			i, st = g.literal(b, i)
		case gmAfterVal:
			i, st = g.afterVal(b, i)
		case gmClose:
			i, st = g.close(b, i, final)
		case gmSkip:
			i, st = g.skip(b, i, final)
		}
		if st != blockNext {
			return i, st
		}
	}
	return i, blockMore
}

// opener reads "call:" after the opener.
func (g *gemma4) opener(b []byte, i int) (int, blockStatus) {
	switch c := b[i]; {
	case g.callN == 0 && isSpace(c):
		return i + 1, blockNext
	case c == gemmaCall[g.callN]:
		if g.callN++; g.callN == len(gemmaCall) {
			g.st = gmName
		}
		return i + 1, blockNext
	}
	return g.malformed(b, i)
}

// nameChars reads the function name.
func (g *gemma4) nameChars(b []byte, i int) (int, blockStatus) {
	j := i
	for j < len(b) && isGLMNameByte(b[j]) {
		j++
	}
	if len(g.name)+j-i > g.out.limit {
		return g.malformed(b, j)
	}
	g.name = append(g.name, b[i:j]...)
	if j < len(b) {
		g.st = gmAfterName
	}
	return j, blockNext
}

// afterName expects the '{' of the arguments.
func (g *gemma4) afterName(b []byte, i int) (int, blockStatus) {
	c := b[i]
	if isSpace(c) && len(g.name) > 0 {
		return i + 1, blockNext
	}
	if c != '{' || !g.startArgs() {
		return g.malformed(b, i)
	}
	return i + 1, blockNext
}

// key expects a key (or '}' of an empty object).
func (g *gemma4) key(b []byte, i int) (int, blockStatus) {
	c := b[i]
	if isSpace(c) {
		return i + 1, blockNext
	}
	top := &g.stk[len(g.stk)-1]
	if c == '}' && top.n == 0 {
		g.closeContainer()
		return i + 1, blockNext
	}
	if !isGLMNameByte(c) {
		return g.malformed(b, i)
	}
	if top.n > 0 {
		g.putS(`,"`)
	} else {
		g.putS(`"`)
	}
	g.st = gmKeyChars
	return i, blockNext
}

// keyChars reads a key.
func (g *gemma4) keyChars(b []byte, i int) int {
	j := i
	for j < len(b) && isGLMNameByte(b[j]) {
		j++
	}
	g.put(b[i:j])
	if j < len(b) {
		g.putS(`"`)
		g.st = gmColon
	}
	return j
}

// colon expects the ':' after a key.
func (g *gemma4) colon(b []byte, i int) (int, blockStatus) {
	switch c := b[i]; {
	case isSpace(c):
		return i + 1, blockNext
	case c == ':':
		g.putS(":")
		g.st = gmVal
		return i + 1, blockNext
	}
	return g.malformed(b, i)
}

// str reads a <|"|>-delimited string value, escaping it for JSON.
func (g *gemma4) str(b []byte, i int, final bool) (int, blockStatus) {
	if j := i + gmStrRun(b[i:]); j > i {
		g.put(b[i:j])
		return j, blockNext
	}
	switch c := b[i]; c {
	case '<':
		mi, partial := g.delim.at(b[i:], final)
		if partial {
			return i, blockHold
		}
		if mi >= 0 {
			g.putS(`"`)
			g.complete()
			return i + len(g.spec.quote), blockNext
		}
		g.putS("<")
	default:
		g.putS(jsonEscape(c))
	}
	return i + 1, blockNext
}

// gmStrRun is the length of the text at the start of b that a string
// value copies as it is (no gmStrStop byte).
func gmStrRun(b []byte) int {
	j := 0
	for j < len(b) && !gmStrStop[b[j]] {
		j++
	}
	return j
}

// num reads a number (leading zeros dropped, "1." malformed).
func (g *gemma4) num(b []byte, i int) (int, blockStatus) {
	switch c := b[i]; {
	case c >= '0' && c <= '9':
		if g.numFrac > 0 {
			g.numFrac = 2
			g.put(b[i : i+1])
		} else {
			g.numAny = true
			if c != '0' || g.numNZ {
				g.numNZ = true
				g.put(b[i : i+1])
			}
		}
		return i + 1, blockNext
	case c == '.' && g.numFrac == 0 && g.numAny:
		if !g.numNZ {
			g.putS("0")
		}
		g.putS(".")
		g.numFrac = 1
		return i + 1, blockNext
	case !g.numAny || g.numFrac == 1 || c == '.' || c == '_' || isASCIILetter(c):
		return g.malformed(b, i)
	}
	if g.numFrac == 0 && !g.numNZ {
		g.putS("0")
	}
	g.complete()
	return i, blockNext
}

// literal reads a bare word: true, false, null (none, nil).
func (g *gemma4) literal(b []byte, i int) (int, blockStatus) {
	c := b[i]
	if isASCIILetter(c) {
		if g.litN == len(g.lit) {
			return g.malformed(b, i)
		}
		g.lit[g.litN] = c | 0x20
		g.litN++
		return i + 1, blockNext
	}
	lit := ""
	switch string(g.lit[:g.litN]) {
	case "true":
		lit = "true"
	case "false":
		lit = "false"
	case "null", "none", "nil":
		lit = "null"
	}
	if lit == "" || c == '_' || (c >= '0' && c <= '9') {
		return g.malformed(b, i)
	}
	g.putS(lit)
	g.complete()
	return i, blockNext
}

// afterVal expects ',' or the container's closer after a value.
func (g *gemma4) afterVal(b []byte, i int) (int, blockStatus) {
	c := b[i]
	if isSpace(c) {
		return i + 1, blockNext
	}
	top := &g.stk[len(g.stk)-1]
	switch {
	case c == ',' && top.kind == '{':
		g.st = gmKey
	case c == ',':
		g.putS(",")
		g.st = gmVal
	case c == closerOf(top.kind):
		g.closeContainer()
	default:
		return g.malformed(b, i)
	}
	return i + 1, blockNext
}

// close expects <tool_call|> after the arguments (whitespace before it is
// held: markup if the closer follows).
func (g *gemma4) close(b []byte, i int, final bool) (int, blockStatus) {
	if c := b[i]; isSpace(c) {
		if !g.bare {
			if len(g.ws) >= g.out.limit {
				return g.malformed(b, i)
			}
			g.ws = append(g.ws, c)
		}
		return i + 1, blockNext
	}
	rest, closer := b[i:], g.spec.close
	if len(rest) >= len(closer) && string(rest[:len(closer)]) == closer {
		return g.closed(b, i)
	}
	if len(rest) < len(closer) && string(rest) == closer[:len(rest)] {
		if !final {
			return i, blockHold
		}
		if !g.bare {
			// The stream ended inside the closer: the call is
			// complete; the partial closer is text.
			g.endCall()
			g.out.contentCopy(g.ws)
			g.out.content(rest)
			return len(b), blockText
		}
	}
	return g.malformed(b, i)
}

// skip drops a broken call up to its closer (or the next opener), tracking
// strings so that a closer inside one does not end it.
func (g *gemma4) skip(b []byte, i int, final bool) (int, blockStatus) {
	pos, mi := g.skipMs.find(b[i:], final)
	if mi < 0 {
		if i+pos < len(b) {
			return i + pos, blockHold
		}
		return len(b), blockMore
	}
	i += pos + len(g.skipMs.ms[mi].text)
	switch act := g.skipMs.ms[mi].act; {
	case act == actNone: // the string delimiter
		g.inStr = !g.inStr
	case g.inStr:
	case act == actClose:
		return i, blockDone
	case act == actOpen:
		g.begin(false)
	}
	return i, blockNext
}

// value handles the first byte of a value (gmVal).
func (g *gemma4) value(b []byte, i int, final bool) (int, blockStatus) {
	c := b[i]
	top := &g.stk[len(g.stk)-1]
	switch {
	case isSpace(c):
		return i + 1, blockNext
	case c == '<':
		mi, partial := g.delim.at(b[i:], final)
		if partial {
			return i, blockHold
		}
		if mi < 0 {
			return g.malformed(b, i)
		}
		g.putS(`"`)
		g.st = gmStr
		return i + len(g.spec.quote), blockNext
	case c == '{' || c == '[':
		if len(g.stk) >= maxJSONDepth {
			return g.malformed(b, i)
		}
		g.put(b[i : i+1])
		g.stk = append(g.stk, gmCont{kind: c})
		if c == '{' {
			g.st = gmKey
		}
		return i + 1, blockNext
	case c == ']' && top.kind == '[' && top.n == 0:
		g.closeContainer()
		return i + 1, blockNext
	case (c == ',' || c == '}') && top.kind == '{':
		// "key:" with nothing before the delimiter: an empty string.
		g.putS(`""`)
		g.complete()
		return i, blockNext
	case c == '-' || (c >= '0' && c <= '9'):
		g.numNZ, g.numFrac, g.numAny = false, 0, false
		g.st = gmNum
		if c == '-' {
			g.putS("-")
			return i + 1, blockNext
		}
		return i, blockNext
	case isASCIILetter(c):
		g.litN = 0
		g.st = gmLit
		return i, blockNext
	}
	return g.malformed(b, i)
}

// closeContainer closes the innermost container.
func (g *gemma4) closeContainer() {
	top := g.stk[len(g.stk)-1]
	g.stk = g.stk[:len(g.stk)-1]
	g.putS(string(closerOf(top.kind)))
	if len(g.stk) == 0 {
		g.ws = g.ws[:0]
		g.st = gmClose
		return
	}
	g.complete()
}

// closed handles <tool_call|> at b[i] after the arguments.
func (g *gemma4) closed(b []byte, i int) (int, blockStatus) {
	if !g.bare {
		g.endCall()
		return i + len(g.spec.close), blockDone
	}
	if g.cand.released || len(g.cand.buf)+len(g.conv)+i > g.out.limit {
		// Held past the limit: content, like any bare body that is
		// not proven; the closer is then an orphan.
		return g.malformed(b, i)
	}
	out := g.out
	out.startCall(g.name, nil)
	out.args(out.copyBytes(g.conv))
	out.endCall()
	g.bare = false
	return i + len(g.spec.close), blockDone
}
