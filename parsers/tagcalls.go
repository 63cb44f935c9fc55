package parsers

import "bytes"

// tagSpec describes a tag-structured call grammar whose functions and
// parameters are opened by a tag prefix followed by attributes up to '>'
// (qwen3_coder, minimax_m2, DSML):
//
//	block    = BLOCK-OPEN *WS *( function *WS ) [ BLOCK-CLOSE ]
//	function = FN-OPEN ATTRS ">" ( *( *WS param ) / *WS JSON-OBJECT ) *WS FN-CLOSE
//	param    = PAR-OPEN ATTRS ">" VALUE PAR-CLOSE
//
// The name and the key are the attribute text, trimmed, with one pair of
// surrounding quotes stripped (DSML: the quoted name, then string=). The
// JSON-OBJECT body exists only with jsonBody.
type tagSpec struct {
	blockOpen  []string // wrapper openers (text markers)
	blockClose string   // wrapper closer (an orphan closer in text)
	fnOpen     string   // function opener prefix; also an opener in text (no wrapper)
	fnClose    string
	parOpen    string // parameter opener prefix; in text it opens a nameless, dropped function
	parClose   string
	fnEndsVal  bool // FN-CLOSE also ends a value whose PAR-CLOSE is missing
	// nlParEndsVal: a newline immediately followed by PAR-OPEN also ends a
	// value whose PAR-CLOSE is missing, and the next parameter starts there
	// (qwen3_coder; a string value containing exactly that text is cut).
	nlParEndsVal bool
	// parEndsVal: PAR-OPEN itself ends such a value, likewise (DSML).
	parEndsVal bool
	// implicitClose: a function whose FN-CLOSE is missing is complete when
	// BLOCK-CLOSE follows while no value is open, or when the stream ends
	// after its last value (or its JSON body) closed (DSML).
	implicitClose bool
	// jsonBody: a function body whose first non-whitespace byte is '{' is
	// the arguments object itself, streamed as the model's JSON (DSML).
	jsonBody bool
	dsml     bool // parameter attributes carry string="true"/"false"
	trim     trimRule
	ents     *matcher
	conv     convRule
	// cdata: a value that starts with <![CDATA[ is the text up to ]]>,
	// verbatim (no entity decoding, no trimming), and only whitespace may
	// come between ]]> and PAR-CLOSE (minicpm5).
	cdata bool
	// closers are more call syntax that is markup wherever the text state
	// meets it: orphan closers (Step-3's per-call <｜tool_call_end｜>) and
	// end tokens the engine may leave in the text.
	closers []string
	// stringDefault (with dsml): a parameter without a string= attribute
	// is a string (GigaChat 3.5); otherwise it is JSON (DeepSeek).
	stringDefault bool
	// stops end the call block wherever no value is open (a framing
	// grammar's message boundaries, which it reads itself): an open call is
	// abandoned and feed returns blockText at the stop, unconsumed. Inside a
	// value they are text.
	stops []string
	// resolveName maps the name the model wrote to the tool it calls
	// (schema lookup and the call's name); nil: the name as written.
	resolveName func(s *schemaIndex, name []byte) []byte
}

// Opener args of a tag grammar's text markers.
const (
	tagOpenBlock = iota // the wrapper
	tagOpenFn           // a function without the wrapper
	tagOpenPar          // a parameter without a function
)

// tagCalls runs a tagSpec. A function is a call from the '>' of its opener
// (call start) to FN-CLOSE (call end); its arguments stream per parameter:
// `{"KEY":` when the key is read, the value, `,` before the next
// key, `}` at FN-CLOSE. The block ends after each function (blockDone): the
// driver's whitespace-after-call rule then handles the next function, the
// wrapper's closer (an orphan closer, removed) or text.
type tagCalls struct {
	spec   *tagSpec
	out    *sink
	schema *schemaIndex

	blockM matcher // in the wrapper, before a function
	bodyM  matcher // in a function, between parameters
	skipM  matcher // in a malformed function
	val    paramValue
	nlPar  int // index of PAR-OPEN (or "\n"+PAR-OPEN) in val.ends (-1: not an end)
	body   jsonArgs
	cdEnd  matcher // cdata: ]]>, the end of a CDATA section

	st   tcState
	tool toolSchema // the called tool's parameter types
	attr []byte     // attributes being read
	vtyp paramType  // cdata: the type of the value whose start is undecided
	drop bool       // cdata: that value is dropped (no call is open)
}

type tcState uint8

const (
	tcBlock      tcState = iota // in the wrapper: whitespace and junk until FN-OPEN or BLOCK-CLOSE
	tcName                      // reading the function's attributes up to '>'
	tcBody                      // in a function: PAR-OPEN, FN-CLOSE
	tcKey                       // reading a parameter's attributes up to '>'
	tcValue                     // in a value
	tcSkip                      // a malformed function, dropped up to FN-CLOSE, BLOCK-CLOSE or FN-OPEN
	tcBodyStart                 // jsonBody: before the function's first parameter, '{' starts a JSON body
	tcJSON                      // in a JSON body (string-aware)
	tcJSONEnd                   // after a JSON body: whitespace, then FN-CLOSE (or BLOCK-CLOSE)
	tcValueStart                // cdata: a value's first bytes, which may open a CDATA section
	tcCData                     // cdata: inside a CDATA section, up to ]]>
	tcCDataEnd                  // cdata: after ]]>, whitespace and PAR-CLOSE
)

var tcStateNames = [...]string{"tcBlock", "tcName", "tcBody", "tcKey", "tcValue", "tcSkip", "tcBodyStart", "tcJSON",
	"tcJSONEnd", "tcValueStart", "tcCData", "tcCDataEnd"}

// The CDATA section's delimiters (tagSpec.cdata).
const (
	cdataOpen  = "<![CDATA["
	cdataClose = "]]>"
)

func (s tcState) String() string { return enumName(tcStateNames[:], s, "tcState") }

// Body matcher args.
const (
	bodyPar = iota
	bodyFnClose
	bodyFnOpen
	bodyBlockClose
	bodyStop // one of spec.stops
)

func newTagCalls(out *sink, spec *tagSpec) *tagCalls {
	g := &tagCalls{spec: spec, out: out, schema: newSchemaIndex(out.cfg.Tools)}
	g.blockM = newMatcher(appendMarkers([]marker{{text: spec.fnOpen, act: actOpen}, {text: spec.blockClose, act: actClose}},
		spec.stops, actNone, bodyStop)...)
	g.bodyM = newMatcher(appendMarkers([]marker{
		{text: spec.parOpen, arg: bodyPar},
		{text: spec.fnClose, arg: bodyFnClose},
		{text: spec.fnOpen, arg: bodyFnOpen},
		{text: spec.blockClose, arg: bodyBlockClose}}, spec.stops, actNone, bodyStop)...)
	g.skipM = newMatcher(appendMarkers([]marker{
		{text: spec.fnClose, arg: bodyFnClose},
		{text: spec.fnOpen, arg: bodyFnOpen},
		{text: spec.blockClose, arg: bodyBlockClose}}, spec.stops, actNone, bodyStop)...)
	ends := []marker{{text: spec.parClose}}
	if spec.fnEndsVal {
		ends = append(ends, marker{text: spec.fnClose})
	}
	g.nlPar = -1
	switch {
	case spec.nlParEndsVal:
		g.nlPar = len(ends)
		ends = append(ends, marker{text: "\n" + spec.parOpen})
	case spec.parEndsVal:
		g.nlPar = len(ends)
		ends = append(ends, marker{text: spec.parOpen})
	}
	g.val = paramValue{out: &out.emitter, limit: out.limit, ends: newMatcher(ends...), ents: spec.ents, trim: spec.trim, conv: spec.conv}
	g.body = jsonArgs{out: out}
	if spec.cdata {
		g.cdEnd = newMatcher(marker{text: cdataClose, act: actClose})
	}
	return g
}

func (g *tagCalls) textMarkers() []marker {
	ms := appendMarkers(nil, g.spec.blockOpen, actToolOpen, tagOpenBlock)
	ms = append(ms,
		marker{text: g.spec.fnOpen, act: actToolOpen, arg: tagOpenFn},
		marker{text: g.spec.parOpen, act: actToolOpen, arg: tagOpenPar},
		marker{text: g.spec.blockClose, act: actToolClose},
		marker{text: g.spec.fnClose, act: actToolClose},
		marker{text: g.spec.parClose, act: actToolClose})
	return appendMarkers(ms, g.spec.closers, actToolClose, 0)
}

func (g *tagCalls) open(arg int) {
	g.tool = nil
	g.attr = g.attr[:0]
	switch arg {
	case tagOpenFn:
		g.st = tcName
	case tagOpenPar:
		g.st = tcKey // no call: the parameter is dropped
	default:
		g.st = tcBlock
	}
}

func (g *tagCalls) feed(b []byte, final bool) (int, blockStatus) {
	i := 0
	if g.st == tcValue {
		// The common chunk: one step of a value, usually all of b,
		// without the loop. A streamed chunk of a string value
		// (trimNone or trimFraming) in which no close tag and no entity
		// can start and no framing newline is to be held is passed on
		// here, without feed's frame (feed's first case, written out:
		// too large to inline).
		if v := &g.val; v.st == pvString && v.lead == 2 && v.trim != trimFull && v.ends.none(b) && (v.ents == nil || !hasBytesWords(b, '&'*lo8, '&'*lo8)) &&
			(v.trim == trimNone || len(v.nl) == 0 && b[len(b)-1] != '\n' && b[len(b)-1] != '\r') {
			g.val.out.argsEscaped(b)
			return len(b), blockMore
		}
		var n, end int
		var hold bool
		if g.val.trim == trimFull {
			n, end, hold = g.val.feed(b, final)
		} else {
			n, end, hold = g.val.feedRest(b, final)
		}
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
		case tcBlock:
			pos, mi := g.blockM.find(b[i:], final)
			if mi < 0 {
				return noMarker(b, i+pos)
			}
			if g.blockM.ms[mi].arg == bodyStop {
				return g.stop(i + pos)
			}
			i += pos + len(g.blockM.ms[mi].text)
			if g.blockM.ms[mi].act == actClose {
				return i, blockDone // an empty (or junk-only) wrapper
			}
			g.st = tcName
		case tcName, tcKey:
			n, ok := readAttr(&g.attr, b[i:], "<>", g.out.limit)
			i += n
			if ok && i == len(b) {
				return i, blockMore
			}
			if !ok || b[i] == '<' {
				// Past the limit, or a tag without its '>' (the '<' may
				// start the marker that ends the function): malformed.
				g.malformed()
				continue
			}
			i++
			if g.st == tcName {
				g.nameDone()
			} else {
				g.keyDone()
			}
		case tcBody:
			pos, mi := g.bodyM.find(b[i:], final)
			if mi < 0 {
				return noMarker(b, i+pos) // whitespace (or junk) between parameters is dropped
			}
			if g.bodyM.ms[mi].arg == bodyStop {
				return g.stop(i + pos)
			}
			i += pos + len(g.bodyM.ms[mi].text)
			switch g.bodyM.ms[mi].arg {
			case bodyPar:
				g.st = tcKey
				g.attr = g.attr[:0]
			case bodyFnClose:
				g.endFunction()
				return i, blockDone
			case bodyFnOpen:
				// The function never closed: it is abandoned, and a new
				// one starts.
				g.out.abandonCall()
				g.open(tagOpenFn)
			case bodyBlockClose:
				if g.spec.implicitClose {
					g.endFunction() // no value is open: the block closer ends the function
				} else {
					g.out.abandonCall()
				}
				return i, blockDone
			}
		case tcBodyStart:
			n, st := g.bodyStart(b[i:])
			i += n
			if st != blockNext {
				return i, st
			}
		case tcJSON:
			n, r := g.body.feed(b[i:])
			i += n
			switch r {
			case jcMore:
				return i, blockMore // all of b
			case jcEnd:
				g.st = tcJSONEnd
			case jcBad:
				g.malformed()
			}
		case tcJSONEnd:
			n, st := g.afterJSON(b[i:], final)
			i += n
			if st != blockNext {
				return i, st
			}
		case tcValue:
			n, end, hold := g.val.feed(b[i:], final)
			i += n
			if st := g.valueStep(end, hold); st != blockNext {
				return i, st
			}
		case tcValueStart, tcCData, tcCDataEnd:
			n, st := g.cdataStep(b[i:], final)
			i += n
			if st != blockNext {
				return i, st
			}
		case tcSkip:
			pos, mi := g.skipM.find(b[i:], final)
			if mi < 0 {
				return noMarker(b, i+pos)
			}
			if g.skipM.ms[mi].arg == bodyStop {
				return g.stop(i + pos)
			}
			i += pos + len(g.skipM.ms[mi].text)
			if g.skipM.ms[mi].arg == bodyFnOpen {
				g.open(tagOpenFn)
				continue
			}
			return i, blockDone
		}
	}
	return i, blockMore
}

// valueStep acts on the outcome of a val.feed step (the end tag that ended
// the value, or -1; whether the rest is held): the status for feed to
// return, or blockNext to go on scanning in the state after the value.
func (g *tagCalls) valueStep(end int, hold bool) blockStatus {
	if g.val.over {
		g.out.abandonCall() // a typed value or whitespace run past the limit
	}
	switch {
	case hold:
		return blockHold
	case end < 0:
		return blockMore // all of b
	case end == 0:
		g.st = tcBody
	case end == g.nlPar: // a new parameter ended the value (its PAR-CLOSE is missing)
		g.st, g.attr = tcKey, g.attr[:0]
	case end == 1: // FN-CLOSE ended the value (its PAR-CLOSE is missing)
		g.endFunction()
		return blockDone
	}
	return blockNext
}

// bodyStart skips the whitespace at the start of a function body (jsonBody):
// '{' starts the JSON arguments object, '<' a tag (a parameter, the close);
// anything else (a JSON scalar or array, prose) is no arguments object and
// makes the function malformed, never a call with empty arguments.
func (g *tagCalls) bodyStart(b []byte) (int, blockStatus) {
	i := spaceLen(b)
	if i == len(b) {
		return i, blockMore
	}
	switch b[i] {
	case '<':
		g.st = tcBody
		return i, blockNext
	case '{':
	default:
		g.malformed()
		return i, blockNext
	}
	if g.out.inCall {
		g.out.wholeArgs()
	}
	g.body.begin()
	g.st = tcJSON
	return i, blockNext
}

// afterJSON reads what follows a JSON body: whitespace, then FN-CLOSE ends
// the call, BLOCK-CLOSE ends it too (implicitClose), FN-OPEN starts the next
// function (this one never closed: abandoned); anything else makes the
// function malformed.
func (g *tagCalls) afterJSON(b []byte, final bool) (int, blockStatus) {
	i := spaceLen(b)
	if i == len(b) {
		return i, blockMore
	}
	mi, partial := g.skipM.at(b[i:], final)
	if partial {
		return i, blockHold
	}
	if mi < 0 {
		g.malformed()
		return i, blockNext
	}
	i += len(g.skipM.ms[mi].text)
	switch g.skipM.ms[mi].arg {
	case bodyFnOpen:
		g.out.abandonCall()
		g.open(tagOpenFn)
		return i, blockNext
	case bodyBlockClose:
		if !g.spec.implicitClose {
			g.out.abandonCall()
			return i, blockDone
		}
	}
	g.endFunction()
	return i, blockDone
}

// stop ends the block at a stop marker at b[i:] (spec.stops), which is
// left for the framing grammar around: an open call is abandoned.
func (g *tagCalls) stop(i int) (int, blockStatus) {
	g.out.abandonCall()
	g.st = tcBlock
	return i, blockText
}

// nameDone starts the call once the function's name is read.
func (g *tagCalls) nameDone() {
	name, _ := splitAttrs(g.attr)
	g.st = tcBody
	if g.spec.jsonBody {
		g.st = tcBodyStart
	}
	if len(name) == 0 {
		return // an empty name skips the call (its body is still parsed)
	}
	if g.spec.resolveName != nil {
		name = g.spec.resolveName(g.schema, name)
	}
	g.tool, _ = g.schema.tool(name)
	g.out.startCall(name, nil)
}

// keyDone starts a parameter value once its key is read.
func (g *tagCalls) keyDone() {
	key, rest := splitAttrs(g.attr)
	if len(key) == 0 {
		g.malformed()
		return
	}
	verbatim := false
	if g.spec.dsml {
		verbatim = stringAttr(rest, g.spec.stringDefault)
	}
	if g.spec.cdata {
		// The value's first bytes decide whether it is a CDATA section.
		g.vtyp, g.drop = g.tool.lookup(key), !g.out.paramKey(key)
		g.st = tcValueStart
		return
	}
	g.val.begin(g.tool.lookup(key), verbatim, !g.out.paramKey(key))
	g.st = tcValue
}

// cdataStep handles a value of a cdata grammar (tagSpec.cdata) that may be,
// or is, a CDATA section: its start, its text up to ]]>, and what follows
// ]]>. It returns the bytes of b consumed and blockNext to go on.
func (g *tagCalls) cdataStep(b []byte, final bool) (int, blockStatus) {
	switch g.st {
	case tcValueStart:
		// A prefix of <![CDATA[ is held until it is decided.
		n := min(len(b), len(cdataOpen))
		if string(b[:n]) == cdataOpen[:n] && n < len(cdataOpen) && !final {
			return 0, blockHold
		}
		if n == len(cdataOpen) && string(b[:n]) == cdataOpen {
			// Verbatim text: no entities, no trimming (restored at its end).
			g.val.ents, g.val.trim = nil, trimNone
			g.val.begin(g.vtyp, false, g.drop)
			g.st = tcCData
			return n, blockNext
		}
		g.val.begin(g.vtyp, false, g.drop)
		g.st = tcValue
		return 0, blockNext
	case tcCData:
		pos, mi := g.cdEnd.find(b, final)
		g.val.text(b[:pos], true)
		if mi >= 0 {
			g.val.end()
			g.val.ents, g.val.trim = g.spec.ents, g.spec.trim
			g.st = tcCDataEnd
			pos += len(cdataClose)
		}
		if g.val.over {
			g.val.ents, g.val.trim = g.spec.ents, g.spec.trim
			g.malformed() // a typed value past the limit
			return pos, blockNext
		}
		if mi < 0 {
			return noMarker(b, pos)
		}
		return pos, blockNext
	}
	// tcCDataEnd: whitespace, then PAR-CLOSE; anything else is malformed.
	i := spaceLen(b)
	rest, closer := b[i:], g.spec.parClose
	switch {
	case len(rest) >= len(closer) && string(rest[:len(closer)]) == closer:
		g.st = tcBody
		return i + len(closer), blockNext
	case len(rest) < len(closer) && string(rest) == closer[:len(rest)] && !final:
		return i, blockHold
	}
	g.malformed()
	return i, blockNext
}

// endFunction completes the call at FN-CLOSE.
func (g *tagCalls) endFunction() {
	g.out.endParams()
	g.st = tcBlock
}

// malformed abandons the call and drops the rest of the function unparsed.
func (g *tagCalls) malformed() {
	g.out.abandonCall()
	g.val.ents, g.val.trim = g.spec.ents, g.spec.trim // a CDATA value's settings end with it
	g.st = tcSkip
}

func (g *tagCalls) finish() {
	// End of stream inside a function: it can never complete (even if its
	// last parameter closed, more could have followed; PARSER_CASES.md,
	// "Per-parser table") — unless the grammar completes a function whose
	// last value or JSON body closed (implicitClose).
	if g.spec.implicitClose && (g.st == tcBody && g.out.params > 0 || g.st == tcJSONEnd) {
		g.endFunction()
	} else {
		g.out.abandonCall()
	}
	g.st = tcBlock
}

func (g *tagCalls) reset() {
	g.open(tagOpenBlock)
	g.val.st = pvIdle
	g.val.ents, g.val.trim = g.spec.ents, g.spec.trim
}

// readAttr appends b up to its first byte in stops to *attr: it returns the
// bytes consumed (b[n] is a stop byte when n < len(b)), or false when *attr
// would outgrow limit — n is then what still fit: the tag is malformed at
// the first byte past the limit, wherever the chunks split it.
func readAttr(attr *[]byte, b []byte, stops string, limit int) (n int, ok bool) {
	n = bytes.IndexAny(b, stops)
	if n < 0 {
		n = len(b)
	}
	if room := limit - len(*attr); n > room {
		return room, false
	}
	*attr = append(*attr, b[:n]...)
	return n, true
}

// splitAttrs reads a tag's attribute text: the name (or key) is the text,
// trimmed, with one pair of surrounding double or single quotes stripped
// and trimmed again; when it is quoted, rest is the text after the closing
// quote (further attributes).
func splitAttrs(a []byte) (name, rest []byte) {
	a = trimSpace(a)
	if len(a) > 0 && (a[0] == '"' || a[0] == '\'') {
		if j := bytes.IndexByte(a[1:], a[0]); j >= 0 {
			return trimSpace(a[1 : 1+j]), a[2+j:]
		}
	}
	return a, nil
}

// stringAttr reports whether DSML attributes say string="true"
// (PARSER_CASES.md, "DSML values"; string="false": the value is JSON; no
// attribute: def).
func stringAttr(rest []byte, def bool) bool {
	i := bytes.Index(rest, []byte("string="))
	if i < 0 {
		return def
	}
	v := rest[i+len("string="):]
	if len(v) > 0 && (v[0] == '"' || v[0] == '\'') {
		v = v[1:]
	}
	return bytes.HasPrefix(v, []byte("true"))
}
