package parsers

import (
	"math/big"
	"math/bits"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// pythonic is the Python call-list grammar of Llama 3.2/4 and other models
// (PARSER_CASES.md):
//
//	[get_weather(city="San Francisco", days=3), get_time(tz='UTC')]
//	<|python_start|>[get_weather(city="SF")]<|python_end|>
//
//	calls   = "[" call { "," call } [","] "]"
//	call    = NAME "(" [ arg { "," arg } [","] ] ")"     ; NAME a plain identifier
//	arg     = IDENT "=" literal / expression            ; only keyword literals are kept
//	literal = str / int / float / True / False / None / list / tuple / dict
//
// A '[' anywhere in content is only a candidate. The candidate's bytes are
// held (bounded by Config.MaxCallBuffer) while they can still be a call list
// and released as content the moment they cannot; once the list has closed
// and parsed, its calls are emitted, each whole (start, one argument
// fragment, end): until then the list is not proven to be a call list, and a
// call already emitted could not be taken back. The conversion runs as the
// bytes arrive — each keyword value is converted to compact JSON when it is
// read, in keyword order — so closing the list costs no second pass.
//
// Library rules and decisions:
//
//   - A list that does not parse as calls (an element that is not NAME(…),
//     a syntax error the scan sees: unbalanced or mismatched brackets, an
//     unterminated string, an empty argument, a bad \x/\u escape) is content,
//     verbatim. Every complete call list is parsed; text after it is content.
//   - Keyword arguments only: positional arguments, *args and **kwargs are
//     skipped, the call is kept. A keyword value outside the literal subset
//     (a name, an operator expression, a call, a set, an f-string, a dict
//     with non-string keys, \N{…}) is skipped and the call kept (Dynamo).
//     Skipping is bracket- and string-aware; it does not validate Python.
//   - Integers of any size are emitted as JSON number literals (hex, octal
//     and binary converted to decimal; underscores removed; leading zeros
//     dropped); a unary minus (or plus) on a number is accepted. Floats are
//     normalised to JSON spelling (".5" → "0.5", "5." → "5.0") without a
//     float round trip. Tuples become arrays; "(x)" is x.
//   - Strings: single, double or triple quotes, r/u prefixes, Python escapes,
//     adjacent literals concatenated; the JSON keeps the characters (no
//     \uXXXX re-encoding) and escapes only what JSON requires.
//   - Insignificant whitespace (and comments) between all tokens.
//   - Whitespace between two call lists is markup; after the last list it is
//     dropped at the end of the stream, or content when text follows.
//   - <|python_start|> and <|python_end|> are markup and removed.
//
// The same machine runs the grammars whose calls come between wrapper
// tokens (lfm2, olmo3; pySpec): there the block is markup, so each call is
// emitted as soon as its ')' closes, a body that does not parse is dropped
// up to the closer (never content), the list's brackets may be missing
// (calls separated by ',' or line breaks), a line break inside a quoted
// string is the string's, and true, false and null may be literals.
type pythonic struct {
	// immutable after construction
	out     *sink
	limit   int
	spec    *pySpec
	wrapped bool    // spec.wrapped(), kept at hand for the hot paths
	endM    matcher // wrapped: the closer, between calls
	skipM   matcher // wrapped: the closer and the opener, while dropping a broken block

	// candidate state; reset by begin
	st       pyState   // pyAfter: no candidate list
	ret      pyState   // state to return to after a comment
	skipping bool      // the current argument is being skipped (no conversion)
	cand     candidate // the list's bytes kept so far, after the whitespace before it (content if it fails)
	conv     []byte    // converted arguments of the list's calls
	names    []byte    // the calls' names
	calls    []pyCall
	stk      []pyCont // containers open inside the current argument
	kw       []byte   // the current keyword's name
	kwStart  int      // conv offset where the current keyword argument starts
	kwN      int      // keyword arguments converted in the current call
	parens   bool     // conv holds a placeholder of a parenthesised value
	afterSep bool     // a ',' separated the previous element (list or arguments)
	list     bool     // wrapped: the block's calls are in a [ ] list

	// token state
	q       byte    // string quote
	triple  bool    // triple-quoted string
	rawStr  bool    // r-prefixed string
	qn      int     // closing quotes seen in a row (triple strings)
	esc     int     // hex/octal digits still expected (or allowed, for octal)
	escV    rune    // escape value so far
	word    [8]byte // identifier in value position
	wordN   int
	numNZ   bool // a non-zero integer digit was written
	numN    int  // digits written in the current part (fraction, exponent)
	radix   int
	radixV  uint64
	radixOv bool   // the radix literal overflowed uint64
	radixD  []byte // radix digits, kept for the overflow path
}

// pyCall locates one call of the list in names and conv.
type pyCall struct {
	n0, n1 int32 // name
	a0, a1 int32 // arguments
}

// pyCont is a container open inside an argument value.
type pyCont struct {
	kind  byte // '[', '(' or '{'
	n     int  // elements (entries) completed
	comma bool // the last token was a ','
	key   bool // dict: a key is expected (or being read)
	colon bool // dict: the key is complete, ':' is expected
	at    int  // '(': offset of its placeholder in conv
}

// pySpec is what tells the grammars that run the pythonic machine apart.
// Without a wrapper (pythonic) a call list is a candidate in content; with
// one (lfm2, olmo3) the block between the wrapper's tokens is markup, so its
// calls are emitted as each one closes and a block that does not parse is
// dropped, never content.
type pySpec struct {
	open, close string // the wrapper's tokens ("": the bare list grammar)
	// bare: inside the wrapper the calls may also come without the list's
	// brackets, one after another, separated by ',' or whitespace (line
	// breaks).
	bare bool
	// jsonWords: true, false and null are literals too (the JSON spellings
	// a template writes for non-string values).
	jsonWords bool
}

// wrapped reports whether the grammar's calls come inside wrapper tokens.
func (s *pySpec) wrapped() bool { return s.open != "" }

// pyState is where the pythonic machine is.
type pyState uint8

const (
	pyAfter        pyState = iota // between lists: feed returns blockDone (the driver's whitespace-after-a-call rule)
	pyListOpen                    // after '[' or ',' in the list: a callee
	pyCallee                      // in the callee name
	pyAfterCallee                 // after the callee: '('
	pyArgStart                    // after '(' or ',' in a call: an argument or ')'
	pyArgName                     // in an identifier at the start of an argument
	pyArgAfterName                // after it: '=' makes it a keyword
	pyArgEq                       // after '=': a value (unless "==")
	pyVal                         // a value (or a closer of an empty/trailing-comma container)
	pySign                        // after a unary sign: a number
	pyWord                        // an identifier in value position (True/False/None, string prefix)
	pyNumInt                      // decimal integer digits
	pyNumFrac                     // fraction digits
	pyNumFracFirst                // after a leading '.': a digit
	pyNumExpSign                  // after 'e': sign or digit
	pyNumExp                      // exponent digits
	pyNumRadix                    // hex/octal/binary digits
	pyStrOpen1                    // after an opening quote
	pyStrOpen2                    // after two quotes: a third makes a triple-quoted string
	pyStr                         // string content
	pyStrEsc                      // after '\'
	pyStrOct                      // octal escape digits
	pyStrHex                      // \x, \u, \U digits
	pyAfterStr                    // after a string: an adjacent string continues it
	pyAfterVal                    // after a value: ',', a closer, ':' in a dict
	pySkip                        // skipping an argument that is not a keyword literal
	pyAfterCall                   // after ')': ',' or ']' (wrapped: another call or the closer too)
	pyComment                     // '#' to the end of the line
	pyBlockStart                  // wrapped: after the opener, '[' or a call (or the closer)
	pySkipBlock                   // wrapped: a broken block, dropped up to its closer or the next opener
)

var pyStateNames = [...]string{"pyAfter", "pyListOpen", "pyCallee", "pyAfterCallee", "pyArgStart", "pyArgName",
	"pyArgAfterName", "pyArgEq", "pyVal", "pySign", "pyWord", "pyNumInt", "pyNumFrac", "pyNumFracFirst",
	"pyNumExpSign", "pyNumExp", "pyNumRadix", "pyStrOpen1", "pyStrOpen2", "pyStr", "pyStrEsc", "pyStrOct",
	"pyStrHex", "pyAfterStr", "pyAfterVal", "pySkip", "pyAfterCall", "pyComment", "pyBlockStart", "pySkipBlock"}

func (s pyState) String() string { return enumName(pyStateNames[:], s, "pyState") }

// pyWSStates are the states in which whitespace and comments are skipped.
var pyWSStates = [pySkipBlock + 1]bool{pyListOpen: true, pyAfterCallee: true, pyArgStart: true, pyArgAfterName: true,
	pyVal: true, pySign: true, pyAfterStr: true, pyAfterVal: true, pyAfterCall: true, pyBlockStart: true}

// pyStrStop marks the bytes that end the fast path inside a string: a JSON
// string's (strStop) and the other quote.
var pyStrStop = func() (t [256]bool) { t = strStop; t['\''] = true; return t }()

// pyEscapes are the JSON spellings of Python's one-character escapes (the
// byte after the backslash).
var pyEscapes = [256]string{'\\': `\\`, '\'': "'", '"': `\"`, 'a': `\u0007`, 'b': `\b`, 'f': `\f`, 'n': `\n`,
	'r': `\r`, 't': `\t`, 'v': `\u000b`}

// pyHexDigits is the number of hex digits of the \x, \u and \U escapes.
var pyHexDigits = [256]uint8{'x': 2, 'u': 4, 'U': 8}

// pyRadix is the radix of the 0x, 0o and 0b integer prefixes.
var pyRadix = [256]uint8{'x': 16, 'X': 16, 'o': 8, 'O': 8, 'b': 2, 'B': 2}

// maxPyDepth bounds container nesting inside one argument.
const maxPyDepth = 1000

const (
	pythonStart = "<|python_start|>"
	pythonEnd   = "<|python_end|>"
)

// Text-state opener args.
const (
	openList        = iota // '[' was consumed
	openPythonStart        // <|python_start|> was consumed
)

func init() {
	registerTool(ToolInfo{
		Malformed: "a list that does not parse as calls (an element that is not NAME(…), unbalanced or mismatched " +
			"brackets, an unterminated string, an empty argument) is content, verbatim; positional arguments and " +
			"keyword values outside the literal subset are skipped and the call kept; a list longer than the " +
			"per-call limit is content",
		Truncated: "an unclosed list is content (it was never proven to be a call list); calls are emitted only " +
			"when their list closed and parsed; whitespace after the last list is dropped",
	}, newPythonic, "pythonic", "llama4_pythonic")
}

// pythonicSpec is the bare call list's: no wrapper, Python literals only.
var pythonicSpec = pySpec{}

func newPythonic(out *sink) toolGrammar { return newPyGrammar(out, &pythonicSpec) }

// newPyGrammar builds the pythonic machine for spec.
func newPyGrammar(out *sink, spec *pySpec) *pythonic {
	g := &pythonic{out: out, limit: min(out.limit, pyMaxLimit), spec: spec, wrapped: spec.wrapped()}
	if spec.wrapped() {
		g.endM = newMatcher(marker{text: spec.close, act: actClose})
		g.skipM = newMatcher(marker{text: spec.close, act: actClose}, marker{text: spec.open, act: actOpen})
	}
	return g
}

func (g *pythonic) textMarkers() []marker {
	if g.wrapped {
		return []marker{{text: g.spec.open, act: actToolOpen}, {text: g.spec.close, act: actToolClose}}
	}
	return []marker{
		{text: "[", act: actToolOpen, arg: openList},
		{text: pythonStart, act: actToolOpen, arg: openPythonStart},
		{text: pythonEnd, act: actToolClose},
	}
}

// open starts a candidate list after its '[' (or nothing after
// <|python_start|>). After a list the driver passes the whitespace before
// the next '[' as markup; it is content again if the list turns out to be
// text.
func (g *pythonic) open(arg int) {
	if g.wrapped {
		g.skipping, g.parens, g.afterSep, g.list = false, false, false, false
		g.cand.released = false
		g.clearList()
		g.st = pyBlockStart
		return
	}
	if arg == openPythonStart {
		g.st = pyAfter
		return
	}
	g.st = pyListOpen
	g.skipping, g.parens, g.afterSep = false, false, false
	g.cand.begin(g.out.ws, "[")
	g.conv = g.conv[:0]
	g.names = g.names[:0]
	g.calls = g.calls[:0]
	g.stk = g.stk[:0]
}

func (g *pythonic) reset() {
	g.st = pyAfter
	g.cand.buf = shrink(g.cand.buf)
	g.conv = shrink(g.conv)
	g.names = shrink(g.names)
	g.kw = shrink(g.kw)
	g.radixD = shrink(g.radixD)
	g.calls = g.calls[:0]
	g.cand.released = false
	g.stk = g.stk[:0]
}

// finish ends the stream: an unclosed list is content; in a wrapped block
// the calls that closed were emitted and the rest is dropped.
func (g *pythonic) finish() {
	if g.st != pyAfter && !g.wrapped {
		g.cand.release(g.out)
	}
	g.clearList()
	g.st = pyAfter
}

// pyCallSize is what one parsed call costs in calls (four int32 offsets;
// the limit is clamped to pyMaxLimit so they cannot overflow).
const (
	pyCallSize = 16
	pyMaxLimit = 1 << 30
)

// held is what the candidate holds: its raw bytes (after the whitespace
// before them) and what was parsed from them (names, converted arguments,
// call records, open containers). The per-call limit bounds all of it, so a
// list of many small calls retains no more than the limit.
func (g *pythonic) held() int {
	return len(g.cand.buf) + len(g.conv) + len(g.names) + len(g.kw) + pyCallSize*len(g.calls) + 16*len(g.stk)
}

// fail releases the candidate as content; b[i] (not consumed) is where it
// stopped being a call list and is scanned again as text. A wrapped block
// is markup: the rest of it is dropped (pySkipBlock scans from b[i]).
func (g *pythonic) fail(b []byte, i int) (int, blockStatus) {
	if g.wrapped {
		g.clearList()
		g.st = pySkipBlock
		return i, blockNext
	}
	g.st = pyAfter
	return i, g.cand.releaseWith(g.out, b[:i])
}

// succeed emits the calls of the list that closed at b[i-1]; the block
// ends there (blockDone: whitespace, another list or a tag may follow).
func (g *pythonic) succeed(b []byte, i int) (int, blockStatus) {
	if g.cand.released || g.held()+i > g.limit {
		// Too long to have been held: it is content like any other
		// candidate past the limit.
		return g.fail(b, i)
	}
	g.emitCalls()
	g.st = pyAfter
	return i, blockDone
}

// emitCalls emits the parsed calls, each whole, and empties the buffers.
func (g *pythonic) emitCalls() {
	out := g.out
	for _, c := range g.calls {
		out.startCall(g.names[c.n0:c.n1], nil)
		out.args(g.argsCopy(g.conv[c.a0:c.a1]))
		out.endCall()
	}
	g.clearList()
}

// clearList empties what was parsed of the list.
func (g *pythonic) clearList() {
	g.conv = g.conv[:0]
	g.names = g.names[:0]
	g.calls = g.calls[:0]
	g.stk = g.stk[:0]
	g.parens = false
}

// closeAt handles a possible closer at b[i] in a wrapped block: the block
// ends after it; a prefix of it at the end of b is held; anything else
// breaks the block.
func (g *pythonic) closeAt(b []byte, i int, final bool) (int, blockStatus) {
	mi, partial := g.endM.at(b[i:], final)
	switch {
	case partial:
		return i, blockHold
	case mi >= 0:
		g.st = pyAfter
		return i + len(g.spec.close), blockDone
	}
	return g.fail(b, i)
}

// listClosed ends a wrapped block at its list's ']' (before i): as after a
// hermes body, the closer that follows is an orphan closer to the driver
// (removed, whitespace before it markup) and other text is content.
func (g *pythonic) listClosed(i int) (int, blockStatus) {
	g.st = pyAfter
	return i, blockDone
}

// blockStart expects what follows a wrapper's opener: '[' (a call list),
// a callee (calls without the list's brackets, where the grammar allows
// them) or the closer (an empty block).
func (g *pythonic) blockStart(b []byte, i int, final bool) (int, blockStatus) {
	switch c := b[i]; {
	case c == '[':
		g.list, g.afterSep = true, true // "[]" is an empty list
		g.st = pyListOpen
		return i + 1, blockNext
	case c == g.spec.close[0]:
		return g.closeAt(b, i, final)
	case g.spec.bare && identLen(b[i:], true) > 0:
		g.st = pyListOpen
		return i, blockNext
	}
	return g.fail(b, i)
}

// skipBlock drops a broken wrapped block up to its closer, or up to an
// opener that starts the next block.
func (g *pythonic) skipBlock(b []byte, i int, final bool) (int, blockStatus) {
	pos, mi := g.skipM.find(b[i:], final)
	if mi < 0 {
		return noMarker(b, i+pos)
	}
	i += pos + len(g.skipM.ms[mi].text)
	if g.skipM.ms[mi].act == actClose {
		g.st = pyAfter
		return i, blockDone
	}
	g.open(0)
	return i, blockNext
}

// argsCopy copies converted arguments into the arena, dropping the
// placeholders of parenthesised values.
func (g *pythonic) argsCopy(a []byte) []byte {
	if !g.parens {
		return g.out.copyBytes(a)
	}
	out := g.out
	start := len(out.arena)
	for _, c := range a {
		if c != 0 {
			out.arena = append(out.arena, c)
		}
	}
	return out.arena[start:len(out.arena):len(out.arena)]
}

// put appends converted bytes, unless the current argument is skipped.
func (g *pythonic) put(b ...byte) {
	if !g.skipping && !g.cand.released {
		g.conv = append(g.conv, b...)
	}
}

func (g *pythonic) putS(s string) {
	if !g.skipping && !g.cand.released {
		g.conv = append(g.conv, s...)
	}
}

// abort skips the current argument from here on: it is positional, or its
// value is not a keyword literal (what it wrote since kwStart is dropped).
func (g *pythonic) abort() {
	if !g.skipping {
		g.conv = g.conv[:g.kwStart]
		g.skipping = true
	}
	g.st = pySkip
}

// feed scans the candidate list: one method per state, each taking the
// position i in b and returning the next position and blockNext to go on
// (or the status feed returns).
func (g *pythonic) feed(b []byte, final bool) (int, blockStatus) {
	i := 0
	if g.st == pyStr && len(b) > 0 {
		// Hot path, before the loop: a step inside a string literal.
		var st blockStatus
		if i, st = g.strText(b, 0); st != blockNext {
			return i, st
		}
	}
	for i < len(b) {
		c := b[i]
		if pyWSStates[g.st] && (isSpace(c) || c == '#') {
			if c == '#' {
				g.ret, g.st = g.st, pyComment
			}
			i++
			continue
		}
		st := blockNext
		switch g.st {
		case pyAfter:
			return i, blockDone
		case pyComment:
			i++
			if c == '\n' {
				g.st = g.ret
			}
		case pyListOpen:
			i, st = g.listOpen(b, i, final)
		case pyCallee:
			i = g.callee(b, i)
		case pyAfterCallee:
			i, st = g.afterCallee(b, i)
		case pyArgStart:
			i, st = g.argStart(b, i)
		case pyArgName:
			i, st = g.argName(b, i)
		case pyArgAfterName:
			i = g.argAfterName(c, i)
		case pyArgEq:
			g.argEq(c)
		case pyVal:
			i, st = g.value(b, i)
		case pySign:
			i = g.sign(c, i)
		case pyWord:
			i = g.wordPart(b, i)
		case pyNumInt, pyNumFracFirst, pyNumFrac, pyNumExp, pyNumExpSign, pyNumRadix:
			i = g.number(b, i)
		case pyStrOpen1, pyStrOpen2, pyStr, pyStrEsc, pyStrOct, pyStrHex, pyAfterStr:
			i, st = g.stringLit(b, i)
		case pyAfterVal:
			i, st = g.afterValue(b, i)
		case pySkip:
			i, st = g.skip(b, i, final)
		case pyAfterCall:
			i, st = g.afterCall(b, i, final)
		case pyBlockStart:
			i, st = g.blockStart(b, i, final)
		case pySkipBlock:
			i, st = g.skipBlock(b, i, final)
		}
		if st != blockNext {
			return i, st
		}
	}
	if g.wrapped {
		if g.held() > g.limit {
			// A call too long to hold: nothing more of it is stored (the
			// guards on cand.released), but it is parsed on, so its
			// strings end where they end, and it is dropped with the rest
			// of the block at its ')' (endCall) or wherever the block
			// breaks — the same place whatever the chunking (switching to
			// pySkipBlock here would find a closer inside a string that
			// the whole feed reads as the string's).
			g.cand.released = true
		}
		return i, blockMore
	}
	// Everything the list holds counts against the limit (see held).
	g.cand.keep(g.out, g.limit, b[:i], g.held()-len(g.cand.buf))
	return i, blockMore
}

// listOpen expects a callee (or ']' after a trailing ','; in a wrapped
// block without brackets, the closer after a trailing ',').
func (g *pythonic) listOpen(b []byte, i int, final bool) (int, blockStatus) {
	switch {
	case b[i] == ']' && g.afterSep && g.wrapped:
		if !g.list {
			return g.fail(b, i)
		}
		return g.listClosed(i + 1)
	case b[i] == ']' && g.afterSep:
		return g.succeed(b, i+1)
	case g.wrapped && !g.list && b[i] == g.spec.close[0]:
		return g.closeAt(b, i, final)
	}
	n := identLen(b[i:], true)
	if n == 0 {
		return g.fail(b, i)
	}
	if !g.cand.released {
		g.calls = append(g.calls, pyCall{n0: int32(len(g.names))})
		g.names = append(g.names, b[i:i+n]...)
	}
	g.st = pyCallee
	return i + n, blockNext
}

// callee reads the rest of a (dotted) callee name.
func (g *pythonic) callee(b []byte, i int) int {
	if n := identLen(b[i:], false); n > 0 {
		if !g.cand.released {
			g.names = append(g.names, b[i:i+n]...)
		}
		return i + n
	}
	if !g.cand.released {
		g.calls[len(g.calls)-1].n1 = int32(len(g.names))
	}
	g.st = pyAfterCallee
	return i
}

// afterCallee expects the '(' of the argument list.
func (g *pythonic) afterCallee(b []byte, i int) (int, blockStatus) {
	if b[i] != '(' {
		return g.fail(b, i)
	}
	if !g.cand.released {
		g.calls[len(g.calls)-1].a0 = int32(len(g.conv))
	}
	g.putS("{")
	g.kwN, g.afterSep = 0, false
	g.st = pyArgStart
	return i + 1, blockNext
}

// argStart is the start of an argument (or the ')' that ends the call).
func (g *pythonic) argStart(b []byte, i int) (int, blockStatus) {
	switch b[i] {
	case ')':
		g.endCall()
		return i + 1, blockNext
	case ',':
		return g.fail(b, i) // an empty argument
	}
	g.afterSep = false
	g.skipping = false
	g.kwStart = len(g.conv)
	if n := identLen(b[i:], true); n > 0 {
		g.kw = append(g.kw[:0], b[i:i+n]...)
		g.st = pyArgName
		return i + n, blockNext
	}
	g.abort() // a positional argument, *args or **kwargs
	return i, blockNext
}

// argName reads the rest of a keyword argument's name.
func (g *pythonic) argName(b []byte, i int) (int, blockStatus) {
	if n := identLen(b[i:], false); n > 0 {
		if len(g.kw)+n > g.limit {
			return g.fail(b, i)
		}
		g.kw = append(g.kw, b[i:i+n]...)
		return i + n, blockNext
	}
	g.st = pyArgAfterName
	return i, blockNext
}

// argAfterName expects the '=' of a keyword argument.
func (g *pythonic) argAfterName(c byte, i int) int {
	if c == '=' {
		g.st = pyArgEq
		return i + 1
	}
	g.abort() // a positional expression that starts with a name
	return i
}

// argEq follows "name=": the key is emitted unless it is "name == …", a
// positional comparison. Nothing is consumed.
func (g *pythonic) argEq(c byte) {
	if c == '=' {
		g.abort()
		return
	}
	if g.kwN > 0 {
		g.putS(",")
	}
	g.putS(`"`)
	g.put(g.kw...)
	g.putS(`":`)
	g.st = pyVal
}

// sign starts a number's digits at c = b[i]: after a leading '-' or '+'
// (pySign), or as the value's first byte.
func (g *pythonic) sign(c byte, i int) int {
	switch {
	case c >= '0' && c <= '9':
		g.numNZ = false
		g.st = pyNumInt
	case c == '.':
		g.putS("0.")
		g.numN = 0
		g.st = pyNumFracFirst
		return i + 1
	default:
		g.abort()
	}
	return i
}

// wordPart reads a bare word (True, False, None, null …) up to its end.
func (g *pythonic) wordPart(b []byte, i int) int {
	if n := identLen(b[i:], false); n > 0 {
		if g.wordN+n <= len(g.word) {
			copy(g.word[g.wordN:], b[i:i+n])
		}
		g.wordN += n
		return i + n
	}
	return i + g.endWord(b[i])
}

// afterCall expects ',' (another call) or ']' (the list closes); in a
// wrapped block without brackets, another callee or the closer.
func (g *pythonic) afterCall(b []byte, i int, final bool) (int, blockStatus) {
	wrapped := g.wrapped
	switch c := b[i]; {
	case c == ',':
		g.afterSep = true
		g.st = pyListOpen
		return i + 1, blockNext
	case c == ']' && !wrapped:
		return g.succeed(b, i+1)
	case c == ']' && g.list:
		return g.listClosed(i + 1)
	case wrapped && !g.list && c == g.spec.close[0]:
		return g.closeAt(b, i, final)
	case wrapped && !g.list && identLen(b[i:], true) > 0:
		g.st = pyListOpen // the next call, on a line of its own
		return i, blockNext
	}
	return g.fail(b, i)
}

// number handles one step of a numeric literal at b[i] and returns where
// scanning goes on.
func (g *pythonic) number(b []byte, i int) int {
	c := b[i]
	switch g.st {
	case pyNumInt:
		switch {
		case c >= '0' && c <= '9':
			i++
			if c != '0' || g.numNZ {
				g.put(c)
				g.numNZ = true
			}
		case c == '_':
			i++
		case pyRadix[c] > 0 && !g.numNZ:
			i++
			g.radix, g.radixV, g.radixOv = int(pyRadix[c]), 0, false
			g.radixD = g.radixD[:0]
			g.numN = 0
			g.st = pyNumRadix
		case c == '.':
			i++
			g.intPart()
			g.putS(".")
			g.numN = 0
			g.st = pyNumFrac
		case c == 'e' || c == 'E':
			i++
			g.intPart()
			g.put(c)
			g.st = pyNumExpSign
		default:
			if isIdentByte(c) {
				g.abort() // 1j, 1if …: not a literal
				return i
			}
			g.intPart()
			g.complete()
		}

	case pyNumFracFirst:
		if c < '0' || c > '9' {
			g.abort()
			return i
		}
		g.st = pyNumFrac

	case pyNumFrac, pyNumExp:
		switch {
		case c >= '0' && c <= '9':
			i++
			g.put(c)
			g.numN++
		case c == '_':
			i++
		case (c == 'e' || c == 'E') && g.st == pyNumFrac:
			i++
			if g.numN == 0 {
				g.putS("0")
			}
			g.put(c)
			g.st = pyNumExpSign
		default:
			if isIdentByte(c) || (g.st == pyNumExp && g.numN == 0) {
				g.abort()
				return i
			}
			if g.numN == 0 {
				g.putS("0")
			}
			g.complete()
		}

	case pyNumExpSign:
		g.numN = 0
		g.st = pyNumExp
		if c == '+' || c == '-' {
			i++
			g.put(c)
		}

	case pyNumRadix:
		if d, ok := hexVal(c); ok && int(d) < g.radix {
			i++
			g.numN++
			if !g.skipping && !g.cand.released {
				g.radixD = append(g.radixD, c)
			}
			hi, lo := bits.Mul64(g.radixV, uint64(g.radix))
			lo, carry := bits.Add64(lo, uint64(d), 0)
			g.radixOv = g.radixOv || hi+carry != 0
			g.radixV = lo
			return i
		}
		if c == '_' {
			i++
			return i
		}
		if isIdentByte(c) || g.numN == 0 {
			g.abort()
			return i
		}
		g.radixDone()
		g.complete()

	}
	return i
}

// stringLit handles one step of a string literal at b[i]; a syntax error
// fails the list.
func (g *pythonic) stringLit(b []byte, i int) (int, blockStatus) {
	c := b[i]
	switch g.st {
	case pyStrOpen1:
		if c == g.q {
			i++
			g.st = pyStrOpen2
			return i, blockNext
		}
		g.st = pyStr

	case pyStrOpen2:
		if c == g.q {
			i++
			g.triple = true
			g.st = pyStr
			return i, blockNext
		}
		g.endString() // an empty string

	case pyStr:
		return g.strText(b, i)

	case pyStrEsc:
		g.st = pyStr
		if g.rawStr || g.skipping {
			// The escaped byte is literal (raw) or irrelevant (skipped);
			// it never ends the string.
			if g.rawStr && (c == '"' || c == '\\' || c < 0x20) {
				i++
				g.putS(jsonEscape(c))
			} else if c < 0x80 {
				i++
				g.put(c)
			}
			return i, blockNext
		}
		i++
		switch {
		case c == '\n':
			// line continuation
		case pyEscapes[c] != "":
			g.putS(pyEscapes[c])
		case c >= '0' && c <= '7':
			g.escV, g.esc = rune(c-'0'), 2
			g.st = pyStrOct
		case pyHexDigits[c] > 0:
			g.escV, g.esc = 0, int(pyHexDigits[c])
			g.st = pyStrHex
		case c == 'N':
			// \N{name}: not supported; the value is skipped.
			g.abort()
			g.st = pyStr
		default:
			// An unknown escape keeps its backslash.
			i--
			g.putS(`\\`)
		}

	case pyStrOct:
		if c >= '0' && c <= '7' && g.esc > 0 {
			i++
			g.escV = g.escV*8 + rune(c-'0')
			g.esc--
			return i, blockNext
		}
		g.putRune(g.escV)
		g.st = pyStr

	case pyStrHex:
		d, ok := hexVal(c)
		if !ok {
			return g.fail(b, i) // truncated escape: a syntax error
		}
		i++
		g.escV = g.escV<<4 | rune(d)
		if g.esc--; g.esc == 0 {
			if g.escV > unicode.MaxRune {
				return g.fail(b, i-1)
			}
			g.putRune(g.escV)
			g.st = pyStr
		}

	case pyAfterStr:
		if c == '"' || c == '\'' {
			// Adjacent literals are one string.
			i++
			g.openString(c, false)
			return i, blockNext
		}
		g.putS(`"`)
		g.complete()

	}
	return i, blockNext
}

// strText handles one step inside a string literal (pyStr) at b[i]: a run
// of text, a quote, an escape or a byte JSON must escape.
func (g *pythonic) strText(b []byte, i int) (int, blockStatus) {
	c := b[i]
	if g.qn > 0 && c != g.q {
		g.flushQuotes()
	}
	j := i
	for j < len(b) && !pyStrStop[b[j]] {
		j++
	}
	if j > i {
		g.put(b[i:j]...)
		return j, blockNext
	}
	switch {
	case c == g.q:
		i++
		if !g.triple {
			g.endString()
			return i, blockNext
		}
		if g.qn++; g.qn == 3 {
			g.qn = 0
			g.endString()
		}
	case c == '\'':
		i++
		g.putS("'")
	case c == '\\':
		i++
		if g.rawStr {
			g.putS(`\\`)
		}
		g.st = pyStrEsc
	case (c == '\n' || c == '\r') && !g.triple && !g.wrapped:
		// An unterminated string. Inside a wrapper a line break is the
		// string's (templates write values raw): it is escaped.
		return g.fail(b, i)
	default:
		i++
		g.putS(jsonEscape(c))
	}
	return i, blockNext
}

// skip handles one byte of an argument being skipped; a syntax error fails
// the list. In a wrapped block the wrapper's tokens outside strings are
// never part of an expression: they break the call there.
func (g *pythonic) skip(b []byte, i int, final bool) (int, blockStatus) {
	switch c := b[i]; c {
	case '"', '\'':
		i++
		g.openString(c, false)
	case '#':
		i++
		g.ret, g.st = pySkip, pyComment
	case '[', '(', '{':
		if len(g.stk) >= maxPyDepth {
			return g.fail(b, i)
		}
		i++
		g.stk = append(g.stk, pyCont{kind: c})
	case ']', ')', '}':
		if len(g.stk) == 0 {
			if c != ')' {
				return g.fail(b, i)
			}
			g.endArg(c)
			return i + 1, blockNext
		}
		if closerOf(g.stk[len(g.stk)-1].kind) != c {
			return g.fail(b, i)
		}
		g.stk = g.stk[:len(g.stk)-1]
		i++
	case ',':
		i++
		if len(g.stk) == 0 {
			g.endArg(c)
		}
	default:
		if g.wrapped && (c == g.spec.close[0] || c == g.spec.open[0]) {
			mi, partial := g.skipM.at(b[i:], final)
			if partial {
				return i, blockHold
			}
			if mi >= 0 {
				return g.fail(b, i)
			}
		}
		i++
	}
	return i, blockNext
}

// value handles the first byte of a value (pyVal).
func (g *pythonic) value(b []byte, i int) (int, blockStatus) {
	c := b[i]
	var top *pyCont
	if len(g.stk) > 0 {
		top = &g.stk[len(g.stk)-1]
	}
	// Closers of empty containers and after trailing commas.
	if top != nil && c == closerOf(top.kind) && (top.n == 0 || top.comma) && (top.kind != '{' || top.key) {
		g.closeContainer()
		return i + 1, blockNext
	}
	if c == ',' || c == ')' || c == ']' || c == '}' || c == ':' {
		// An empty value: a syntax error.
		return g.fail(b, i)
	}
	if top != nil && top.kind == '{' && top.key && c != '"' && c != '\'' {
		g.abort() // only string keys
		return i, blockNext
	}
	g.valueStart(top)
	switch {
	case c == '"' || c == '\'':
		g.openString(c, false)
		g.putS(`"`)
		return i + 1, blockNext
	case c >= '0' && c <= '9' || c == '.':
		return g.sign(c, i), blockNext
	case c == '-' || c == '+':
		if c == '-' {
			g.putS("-")
		}
		g.st = pySign
		return i + 1, blockNext
	case c == '[' || c == '(' || c == '{':
		if len(g.stk) >= maxPyDepth {
			return g.fail(b, i)
		}
		ct := pyCont{kind: c, key: c == '{'}
		if c == '(' {
			ct.at = len(g.conv)
			c = 0 // a placeholder: '[' for a tuple, dropped for a parenthesised value
		}
		g.put(c)
		g.stk = append(g.stk, ct)
		return i + 1, blockNext
	}
	if identLen(b[i:], true) > 0 {
		g.wordN = 0
		g.st = pyWord
		return i, blockNext
	}
	g.abort()
	return i, blockNext
}

// valueStart writes the separator before a value in a container.
func (g *pythonic) valueStart(top *pyCont) {
	if top != nil && top.n > 0 && (top.kind != '{' || top.key) {
		g.putS(",")
	}
}

// openString starts a string literal after its opening quote.
func (g *pythonic) openString(q byte, raw bool) {
	g.q, g.rawStr, g.triple, g.qn = q, raw, false, 0
	g.st = pyStrOpen1
}

// flushQuotes writes quote characters of a triple-quoted string that did
// not close it.
func (g *pythonic) flushQuotes() {
	for ; g.qn > 0; g.qn-- {
		if g.q == '"' {
			g.putS(`\"`)
		} else {
			g.putS("'")
		}
	}
}

// endString handles the closing quote of a string literal.
func (g *pythonic) endString() {
	if g.skipping {
		g.st = pySkip
		return
	}
	g.st = pyAfterStr
}

// endWord ends an identifier in value position; c is the byte after it.
// It returns the bytes consumed (the opening quote after a string prefix).
func (g *pythonic) endWord(c byte) int {
	w := ""
	if g.wordN <= len(g.word) {
		w = string(g.word[:g.wordN])
	}
	if c == '"' || c == '\'' {
		switch w {
		case "r", "R", "u", "U":
			g.openString(c, w == "r" || w == "R")
			g.putS(`"`)
			return 1
		}
		g.abort() // bytes, f-strings: not literals
		return 0
	}
	switch {
	case w == "True" || w == "true" && g.spec.jsonWords:
		g.putS("true")
	case w == "False" || w == "false" && g.spec.jsonWords:
		g.putS("false")
	case w == "None" || w == "null" && g.spec.jsonWords:
		g.putS("null")
	default:
		g.abort()
		return 0
	}
	g.complete()
	return 0
}

// complete moves past a complete value.
func (g *pythonic) complete() {
	g.st = pyAfterVal
	if len(g.stk) == 0 {
		return
	}
	top := &g.stk[len(g.stk)-1]
	if top.kind == '{' && top.key {
		top.key, top.colon = false, true
	} else {
		top.n++
	}
	top.comma = false
}

// afterValue handles the byte after a complete value (pyAfterVal).
func (g *pythonic) afterValue(b []byte, i int) (int, blockStatus) {
	c := b[i]
	if len(g.stk) == 0 {
		if c == ',' || c == ')' {
			g.endArg(c)
			return i + 1, blockNext
		}
		g.abort() // an expression continues: not a literal
		return i, blockNext
	}
	top := &g.stk[len(g.stk)-1]
	switch {
	case top.kind == '{' && top.colon:
		if c != ':' {
			g.abort()
			return i, blockNext
		}
		top.colon = false
		g.putS(":")
		g.st = pyVal
	case c == ',':
		top.comma = true
		top.key = top.kind == '{'
		g.st = pyVal
	case c == closerOf(top.kind):
		g.closeContainer()
	default:
		g.abort()
		return i, blockNext
	}
	return i + 1, blockNext
}

// closeContainer closes the innermost container, which is a complete value.
func (g *pythonic) closeContainer() {
	top := g.stk[len(g.stk)-1]
	g.stk = g.stk[:len(g.stk)-1]
	switch {
	case top.kind == '{':
		g.putS("}")
	case top.kind == '(' && top.n == 1 && !top.comma:
		g.parens = true // "(x)" is x: the placeholder is dropped
	default:
		if top.kind == '(' && !g.skipping && !g.cand.released && top.at < len(g.conv) {
			g.conv[top.at] = '[' // a tuple is an array
		}
		g.putS("]")
	}
	g.complete()
}

// endArg ends the current argument at its ',' or ')' (c); ')' ends the
// call.
func (g *pythonic) endArg(c byte) {
	if !g.skipping {
		g.kwN++
	}
	g.skipping = false
	g.stk = g.stk[:0]
	if c == ')' {
		g.endCall()
		return
	}
	g.afterSep = true
	g.st = pyArgStart
}

// endCall ends the current call at its ')'. In a wrapped block the call is
// complete and is emitted now (one too long to have been held is dropped
// with the rest of the block).
func (g *pythonic) endCall() {
	g.putS("}")
	if !g.cand.released {
		g.calls[len(g.calls)-1].a1 = int32(len(g.conv))
	}
	g.afterSep = false
	g.st = pyAfterCall
	if g.wrapped {
		if g.cand.released || g.held() > g.limit {
			g.clearList()
			g.st = pySkipBlock
			return
		}
		g.emitCalls()
	}
}

// intPart ends the integer part of a decimal number.
func (g *pythonic) intPart() {
	if !g.numNZ {
		g.putS("0")
	}
}

// radixDone writes a hex, octal or binary integer in decimal.
func (g *pythonic) radixDone() {
	if g.skipping || g.cand.released {
		return
	}
	if !g.radixOv {
		g.conv = strconv.AppendUint(g.conv, g.radixV, 10)
		return
	}
	// Beyond 64 bits (rare): math/big, which allocates.
	var v big.Int
	v.SetString(string(g.radixD), g.radix)
	g.conv = v.Append(g.conv, 10)
}

// putRune writes the JSON form of a code point from a string escape.
func (g *pythonic) putRune(r rune) {
	switch {
	case r < 0x20 || r == '"' || r == '\\':
		g.putS(jsonEscape(byte(r)))
	case r >= 0xD800 && r < 0xE000:
		// A lone surrogate has no UTF-8 form; JSON can still spell it.
		const hex = "0123456789abcdef"
		g.putS(`\u`)
		g.put(hex[r>>12&15], hex[r>>8&15], hex[r>>4&15], hex[r&15])
	default:
		if !g.skipping && !g.cand.released {
			g.conv = utf8.AppendRune(g.conv, r)
		}
	}
}

// identLen returns the length of the identifier character at the start of
// b (start: one that may begin an identifier), or 0.
func identLen(b []byte, start bool) int {
	c := b[0]
	if c < utf8.RuneSelf {
		if c == '_' || isASCIILetter(c) || (!start && c >= '0' && c <= '9') {
			return 1
		}
		return 0
	}
	r, n := utf8.DecodeRune(b)
	if r == utf8.RuneError && n <= 1 {
		return 0
	}
	if unicode.IsLetter(r) || (!start && (unicode.IsDigit(r) || unicode.IsMark(r) || unicode.Is(unicode.Pc, r))) {
		return n
	}
	return 0
}

// isIdentByte reports whether c can continue a name (a number followed by
// one is not a literal).
func isIdentByte(c byte) bool {
	return c == '_' || isASCIILetter(c) || (c >= '0' && c <= '9') || c >= utf8.RuneSelf
}

func closerOf(open byte) byte {
	switch open {
	case '[':
		return ']'
	case '(':
		return ')'
	}
	return '}'
}
