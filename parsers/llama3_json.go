package parsers

// llama3JSON is the Llama 3.x / 4 JSON tool-call grammar (PARSER_CASES.md):
//
//	output = [ "<|python_tag|>" ] call *( ";" *WS call )
//	call   = {"name": NAME, "parameters"|"arguments": {…}}   (or an array of calls)
//
// There is no closer: a call ends when its object closes. Two kinds of body:
//
//   - Tagged: the JSON value right after <|python_tag|> (after whitespace) is
//     a call body. A JSON value that is not a call is markup (PARSER_CASES.md,
//     "Markup never reaches content or reasoning"); a body that breaks
//     mid-way abandons its call and is dropped up
//     to the next opener (or the end). Text after the tag that does not
//     start a JSON value ('{' or '[') is content, the tag removed (Llama's
//     built-in tools, brave_search.call(…)).
//   - Bare (speculative): a '{' or '[' at the start of the output (after
//     whitespace), or after a call of the group (separated by ';' and/or
//     whitespace), may be a call or a JSON answer. Its bytes are held
//     (bounded by the per-call limit) while the call shape is undecided: the
//     call starts — and the body commits — once it has a string name and its
//     arguments begin ("arguments" or "parameters" is required here, as in
//     vLLM). A body that closes, breaks or reaches the limit before it
//     commits is released as content, together with the separator before it;
//     a JSON-formatted answer is delayed, never corrupted. A body that
//     committed and then breaks (a syntax error) before any of its calls
//     ended is released as content unchanged too — its call is abandoned —
//     while its bytes fit the per-call limit (llama3_json only).
//
// Between the calls of a group, ';' and whitespace are markup. Whitespace not
// followed by another call follows the whitespace-after-a-call rule; a ';'
// not followed by another call is content with the whitespace around it.
type llama3JSON struct {
	out    *sink
	syntax *l3Spec
	body   jsonCalls
	skip   matcher // the openers: where dropping a broken body ends

	st   l3State
	spec bool // the body has not committed: its bytes may still be content
	semi bool // the gap holds the ';' separator
	// cand holds what may still be content: whitespace after the tag, the
	// gap between calls, a speculative body (with its gap). At the limit
	// the block ends (feedBody); nothing streams to content.
	cand candidate

	// releaseBroken (llama3_json): a bare body that committed and then
	// breaks before any of its calls ended is released as content,
	// unchanged. Its bytes stay in cand (bounded by the per-call limit:
	// past it the body can no longer be released and is dropped).
	releaseBroken bool
	kept          bool // cand holds the committed bare body
	ends0         int  // body.ends when the body began
}

// l3State is where a llama3JSON block is.
type l3State uint8

const (
	l3Tag  l3State = iota // after <|python_tag|>: whitespace, then a JSON value or text
	l3Body                // inside a body
	l3Gap                 // after a body: ';' and whitespace, then another call or not
	l3Skip                // dropping a broken body up to the next opener
)

var l3StateNames = [...]string{"l3Tag", "l3Body", "l3Gap", "l3Skip"}

func (s l3State) String() string { return enumName(l3StateNames[:], s, "l3State") }

// l3Spec is what tells the grammars that run the llama3_json machine apart
// (llama3_json, default's tagged half, granite, granite_20b_fc).
type l3Spec struct {
	tags    []string // tags after which a JSON body follows (<|python_tag|>)
	bare    string   // the brackets that open a bare body at the start of the output ("{[", "[" or none)
	closers []string // closers that never open anything: removed in content
	// releaseBroken (llama3_json): a bare body that committed and then
	// breaks before any of its calls ended is released as content.
	releaseBroken bool
}

// llama3Spec is llama3_json's.
var llama3Spec = l3Spec{tags: []string{"<|python_tag|>"}, bare: "{[", releaseBroken: true}

// Opener arguments (shared with default).
const (
	l3ArgTag     = 1 // <|python_tag|>
	l3ArgBrace   = 2 // '{' at the start of the output
	l3ArgBracket = 3 // '[' at the start of the output
)

func init() {
	registerTool(ToolInfo{
		Malformed: "after the python tag: JSON that is not a call is markup, a body that breaks abandons its call and is " +
			"dropped up to the next tag (or the end), text that is not JSON is content with the tag removed; bare JSON " +
			"(start of output, or after a call and `;`/whitespace) is a call only with a string `name` and an " +
			"`arguments`/`parameters` key: until that is decided it is held (up to the per-call limit) and released as " +
			"content when it closes, breaks or outgrows the limit; a bare body that became a call and then hits a JSON syntax " +
			"error before any of its calls ended is released as content unchanged (its call abandoned), while it fits the limit",
		Truncated: "a closed object is a call; a committed call cut mid-value is abandoned and dropped; an undecided bare " +
			"object is content; whitespace or `;` after the last call is dropped",
	}, newLlama3JSON, "llama3_json", "llama4_json", "llama3")
}

func newLlama3JSON(out *sink) toolGrammar { return newLlama3(out, &llama3Spec) }

// newLlama3 builds the machine for spec; skipTo lists the openers of the
// owning grammar besides spec's tags that are legal after a call (default
// adds <TOOLCALL>).
func newLlama3(out *sink, spec *l3Spec, skipTo ...string) *llama3JSON {
	g := &llama3JSON{out: out, syntax: spec, releaseBroken: spec.releaseBroken}
	g.body = jsonCalls{
		out:         out,
		allowObject: true,
		allowArray:  true,
		argKeys:     []string{"parameters", "arguments"},
	}
	ms := appendMarkers(nil, spec.tags, actOpen, 0)
	ms = appendMarkers(ms, skipTo, actOpen, 0)
	g.skip = newMatcher(ms...)
	return g
}

func (g *llama3JSON) textMarkers() []marker {
	ms := appendMarkers(nil, g.syntax.tags, actToolOpen, l3ArgTag)
	for _, c := range g.syntax.bare {
		arg := l3ArgBrace
		if c == '[' {
			arg = l3ArgBracket
		}
		ms = append(ms, marker{text: string(c), act: actToolOpen, arg: arg, atStart: true})
	}
	return appendMarkers(ms, g.syntax.closers, actToolClose, 0)
}

func (g *llama3JSON) open(arg int) {
	g.semi = false
	if arg != l3ArgBrace && arg != l3ArgBracket {
		g.cand.begin(nil, "")
		g.st = l3Tag
		return
	}
	// The driver consumed the bracket: hold it and feed it to the body (one
	// byte never decides anything; the limit is checked on the next bytes).
	g.cand.begin(nil, "{["[arg-l3ArgBrace:][:1])
	g.beginBody(true)
	g.body.feed(g.cand.buf)
}

// beginBody starts a body; spec says whether it may still be content. The
// bytes already held (a gap) stay held with it.
func (g *llama3JSON) beginBody(spec bool) {
	g.spec = spec
	g.kept = false
	g.ends0 = g.body.ends
	g.body.requireArgs = spec
	g.body.begin()
	g.st = l3Body
}

// feed runs one method per state, each consuming n bytes of its input and
// returning blockNext to go on (or the status feed returns). A broken body
// is dropped up to the next opener, which the text state then sees.
func (g *llama3JSON) feed(b []byte, final bool) (int, blockStatus) {
	i := 0
	if g.st == l3Body {
		// Hot path, before the loop: a body's chunk.
		var st blockStatus
		if i, st = g.feedBody(b); st != blockNext {
			return i, st
		}
	}
	for i < len(b) {
		var n int
		var st blockStatus
		switch g.st {
		case l3Tag:
			n, st = g.feedTag(b[i:])
		case l3Body:
			n, st = g.feedBody(b[i:])
		case l3Gap:
			n, st = g.feedGap(b[i:])
		default:
			n, st = dropUntil(&g.skip, b[i:], final)
		}
		i += n
		if st != blockNext {
			return i, st
		}
	}
	return i, blockMore
}

// feedTag handles the bytes after <|python_tag|>: whitespace is held until a
// JSON value starts (markup) or text does (content, the tag removed).
func (g *llama3JSON) feedTag(b []byte) (int, blockStatus) {
	n, st := g.cand.spaceThen(g.out, b, g.out.limit, "{[")
	if st == blockNext {
		g.beginBody(false)
	}
	return n, st
}

// feedBody runs the JSON body. A speculative body is held until it commits
// (its call starts) and released as content when it cannot.
func (g *llama3JSON) feedBody(b []byte) (int, blockStatus) {
	if !g.spec {
		n, r := g.body.feed(b)
		if g.kept {
			if len(g.cand.buf)+n > g.out.limit || g.body.ends != g.ends0 {
				// Too long to release, or a call of it ended: the body
				// stands as calls.
				g.kept = false
				g.cand.buf = g.cand.buf[:0]
			} else {
				g.cand.buf = appendHeld(g.cand.buf, b[:n], g.out.limit)
			}
		}
		switch r {
		case jcMore:
			return n, blockMore // all of b
		case jcEnd:
			g.st = l3Gap
			g.kept = false
			g.cand.buf = g.cand.buf[:0]
		case jcBad:
			if g.kept {
				// A bare body that looked like a call broke: its call was
				// abandoned; the body is content, unchanged.
				g.kept = false
				return n, g.cand.releaseWith(g.out, nil)
			}
			g.st = l3Skip
		}
		return n, blockNext
	}
	part := b
	if room := g.out.limit - len(g.cand.buf); len(part) > room {
		part = part[:max(room, 0)]
	}
	before := g.body.starts
	n, r := g.body.feed(part)
	if g.body.starts != before {
		g.spec = false // a call started: the body is a call (group)
		if g.releaseBroken {
			g.kept = true
			g.cand.buf = appendHeld(g.cand.buf, part[:n], g.out.limit)
		} else {
			g.cand.buf = g.cand.buf[:0]
		}
	} else {
		g.cand.buf = appendHeld(g.cand.buf, part[:n], g.out.limit)
	}
	switch {
	case r == jcEnd && !g.spec:
		g.st = l3Gap
		g.kept = false
		g.cand.buf = g.cand.buf[:0]
	case r == jcBad && !g.spec && g.kept && g.body.ends == g.ends0:
		g.kept = false
		return n, g.cand.releaseWith(g.out, nil)
	case r == jcBad && !g.spec:
		g.kept = false
		g.cand.buf = g.cand.buf[:0]
		g.st = l3Skip
	case r != jcMore:
		// Closed or broken before it became a call: content.
		return n, g.cand.releaseWith(g.out, nil)
	case !g.spec:
		if len(g.cand.buf) >= g.out.limit {
			g.kept = false // too long to release if it breaks
			g.cand.buf = g.cand.buf[:0]
		}
	case len(g.cand.buf) >= g.out.limit:
		// Too long to hold: content. The limit may cut a character; its
		// first bytes go back to the text state with the rest of it.
		k := min(incompleteRune(g.cand.buf), n)
		g.cand.buf = g.cand.buf[:len(g.cand.buf)-k]
		return n - k, g.cand.releaseWith(g.out, nil)
	}
	return n, blockNext
}

// feedGap handles the bytes after a body: whitespace and one ';' are held
// until another call starts (markup) or something else does.
func (g *llama3JSON) feedGap(b []byte) (int, blockStatus) {
	i := 0
	for ; i < len(b); i++ {
		c := b[i]
		if isSpace(c) || (c == ';' && !g.semi) {
			g.semi = g.semi || c == ';'
			continue
		}
		if len(g.cand.buf)+i > g.out.limit {
			return i, g.cand.releaseWith(g.out, b[:i])
		}
		g.cand.buf = appendHeld(g.cand.buf, b[:i], g.out.limit)
		if c == '{' || c == '[' {
			// Another object of the group: a call if it has the call shape.
			g.semi = false
			g.beginBody(true)
			return i, blockNext
		}
		if !g.semi {
			// Only whitespace: the driver's whitespace-after-a-call rule
			// decides (markup before an opener, content before text).
			g.out.ws = append(g.out.ws, g.cand.buf...)
			g.cand.buf = g.cand.buf[:0]
			return i, blockDone
		}
		return i, g.cand.releaseWith(g.out, nil)
	}
	if len(g.cand.buf)+i > g.out.limit {
		return i, g.cand.releaseWith(g.out, b)
	}
	g.cand.buf = appendHeld(g.cand.buf, b, g.out.limit)
	return i, blockNext
}

func (g *llama3JSON) finish() {
	switch g.st {
	case l3Tag:
		// Whitespace after a tag at the end: content, the tag removed.
		g.cand.release(g.out)
	case l3Body:
		if g.spec {
			g.cand.release(g.out) // never became a call
		} else {
			g.body.finish()
		}
	}
	g.kept = false
	g.cand.buf = g.cand.buf[:0]
	g.semi = false
}

func (g *llama3JSON) reset() {
	g.st = l3Tag
	g.spec, g.semi, g.kept = false, false, false
	g.cand.buf = shrink(g.cand.buf)
	g.body.begin()
}
