package parsers

// mistral is Mistral's tool-call grammar in all its wire forms (PARSER_CASES.md,
// "Per-parser table"); production traffic mixes them:
//
//	pre-v11  "[TOOL_CALLS]" *WS "[" call-object *( "," call-object ) "]" [ "[/TOOL_CALLS]" ]
//	v11      "[TOOL_CALLS]" NAME "[CALL_ID]" ID "[ARGS]" JSON-object
//	v13+     "[TOOL_CALLS]" NAME "[ARGS]" JSON-object
//	text     "[TOOL_CALLS]" NAME JSON-object
//
// The first byte after "[TOOL_CALLS]" and optional whitespace decides: '['
// (or '{') is the pre-v11 JSON body, anything else a v11+ name. Each v11+
// call has its own "[TOOL_CALLS]"; whitespace between calls is markup.
//
// Names and ids run up to "[CALL_ID]", "[ARGS]" or '{' and are trimmed; a
// '[' that does not start one of those markers, whitespace inside an id, an
// empty name, or a token longer than the per-call limit is malformed. A name
// with whitespace inside that is not followed by a terminator is prose: the
// marker is removed and the text is content. The call starts when the name (and the id,
// when "[CALL_ID]" is present) is complete; the arguments are the JSON
// object, streamed as the model's bytes, ending when it closes.
//
// Ids: the model's id when it gives one ("[CALL_ID]", or an "id" key in a
// pre-v11 element), else 9 random ASCII alphanumerics (library rule:
// mistral-common validates that shape on the next turn). Pre-v11 Mistral
// writes the id after the arguments, and the start event carries the id, so
// the start of a pre-v11 call waits for its id while at most mistralIDWait
// bytes of arguments are held (decision, PARSER_CASES.md is silent): a typical
// call keeps the model's id; a call with longer arguments starts then with a
// minted id and streams on.
//
// A malformed call (bad name, arguments that are not a JSON object, a body
// that breaks) is abandoned if it started and is dropped up to the next
// "[TOOL_CALLS]" (or the end). "[/TOOL_CALLS]", "[ARGS]" and "[CALL_ID]" met
// outside a call are markup and removed; so is "</s>" (the EOS token that
// ends the grammar) right after a call, while anywhere else it is text.
type mistral struct {
	out  *sink
	body jsonCalls // pre-v11 body
	vs   jsonScan  // v11+ arguments
	skip matcher   // "[TOOL_CALLS]": where dropping a broken call ends
	end  matcher   // "[/TOOL_CALLS]" and "</s>" right after a call

	st   msState
	tok  []byte // the name or id being read
	lead []byte // whitespace between "[TOOL_CALLS]" and the name (content if prose follows)
	name []byte // the complete name (while the id is read)
	br   int    // start of a possible marker ('[') inside tok (-1: none)
}

// msState is where a mistral block is.
type msState uint8

const (
	msStart    msState = iota // after [TOOL_CALLS]: whitespace, then the body or a name
	msJSON                    // pre-v11 JSON body
	msName                    // v11+ name
	msID                      // after [CALL_ID]: the id
	msArgsWait                // after [ARGS]: whitespace, then the object
	msArgs                    // inside the arguments object
	msEnd                     // after a call: an optional "</s>"
	msSkip                    // dropping a broken call
)

var msStateNames = [...]string{"msStart", "msJSON", "msName", "msID", "msArgsWait", "msArgs", "msEnd", "msSkip"}

func (s msState) String() string { return enumName(msStateNames[:], s, "msState") }

const (
	mistralOpen   = "[TOOL_CALLS]"
	mistralArgs   = "[ARGS]"
	mistralCallID = "[CALL_ID]"
	mistralEOS    = "</s>"

	// mistralIDWait bounds the arguments held while a pre-v11 call waits for
	// its "id" key: 1 KiB delays the start of a typical call by nothing and
	// of a file-sized one by about 250 tokens.
	mistralIDWait = 1 << 10
)

func init() {
	registerTool(ToolInfo{
		Malformed: "a name or id with a '[' that does not start [ARGS]/[CALL_ID], whitespace inside an id, an empty name, arguments that are not a JSON object, or a " +
			"pre-v11 body that breaks: the call is abandoned (if it started) and dropped up to the next `[TOOL_CALLS]` " +
			"(or the end); pre-v11 elements that are not call objects are skipped; `[/TOOL_CALLS]`, `[ARGS]` and " +
			"`[CALL_ID]` outside a call are removed, `</s>` right after a call too; `[TOOL_CALLS]` followed by prose (a would-be name " +
			"with whitespace inside, not followed by a terminator) is content with the marker removed",
		Truncated: "a closed arguments object is a call; arguments cut mid-value are abandoned; a name or id cut by the " +
			"end is dropped; in an unclosed pre-v11 array every closed element is a call",
	}, newMistral, "mistral")
}

func newMistral(out *sink) toolGrammar {
	out.shortIDs = true
	g := &mistral{out: out}
	g.body = jsonCalls{
		out:         out,
		allowObject: true,
		allowArray:  true,
		argKeys:     []string{"arguments", "parameters"},
		idKey:       "id",
		idWait:      min(mistralIDWait, out.limit),
	}
	g.skip = newMatcher(marker{text: mistralOpen, act: actOpen})
	g.end = newMatcher(marker{text: "[/TOOL_CALLS]", act: actOpen}, marker{text: mistralEOS, act: actClose})
	return g
}

func (g *mistral) textMarkers() []marker {
	return []marker{
		{text: mistralOpen, act: actToolOpen},
		{text: "[/TOOL_CALLS]", act: actToolClose},
		{text: mistralArgs, act: actToolClose},
		{text: mistralCallID, act: actToolClose},
	}
}

func (g *mistral) open(int) {
	g.st = msStart
	g.tok = g.tok[:0]
	g.lead = g.lead[:0]
	g.name = g.name[:0]
	g.br = -1
}

func (g *mistral) feed(b []byte, final bool) (int, blockStatus) {
	i := 0
	if g.st == msArgs {
		// The common chunk: arguments, usually all of b, without the
		// loop.
		n, st := g.feedArgs(b)
		if st != blockNext {
			return n, st
		}
		i = n
	}
	for i < len(b) {
		var n int
		st := blockNext
		switch g.st {
		case msStart:
			n = spaceLen(b[i:])
			if len(g.lead)+n > g.out.limit {
				g.fail()
				break
			}
			g.lead = append(g.lead, b[i:i+n]...)
			if i+n < len(b) {
				if c := b[i+n]; c == '[' || c == '{' {
					g.body.begin()
					g.st = msJSON
				} else {
					g.st = msName
				}
			}
		case msJSON:
			var r jcResult
			n, r = g.body.feed(b[i:])
			switch r {
			case jcMore:
				return i + n, blockMore // all of b
			case jcEnd:
				g.st = msEnd
			case jcBad:
				g.st = msSkip
			}
		case msName, msID:
			n, st = g.feedToken(b[i:])
		case msArgsWait:
			n = spaceLen(b[i:])
			if i+n < len(b) {
				if b[i+n] == '{' {
					g.vs.reset()
					g.st = msArgs
				} else {
					g.fail() // [ARGS] not followed by an object
				}
			}
		case msArgs:
			n, st = g.feedArgs(b[i:])
		case msEnd:
			// The grammar ends with an optional "[/TOOL_CALLS]" and an
			// optional "</s>" (the EOS token, when the engine keeps it in
			// the text): markup right after a call; "</s>" anywhere else
			// is text.
			mi, partial := g.end.at(b[i:], final)
			switch {
			case partial:
				return i, blockHold
			case mi < 0:
				g.st = msStart
				return i, blockDone
			}
			n = len(g.end.ms[mi].text)
			if g.end.ms[mi].act == actClose {
				g.st = msStart
				return i + n, blockDone
			}
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

// feedToken reads name or id bytes up to "[CALL_ID]" (names only), "[ARGS]"
// or '{'. Bytes are kept (bounded) until a terminator decides them; a
// "[TOOL_CALLS]" inside the token starts a new call. A '[' that does not
// start one of those markers is never part of a name or id: the call is
// malformed. Whitespace inside a name followed by anything but a terminator
// is prose, not a name: the bytes after "[TOOL_CALLS]" are released as
// content (blockText) and the text state scans on from c.
func (g *mistral) feedToken(b []byte) (int, blockStatus) {
	for i, c := range b {
		if c == '{' {
			if g.br >= 0 {
				g.fail() // a '[' that started no marker
				return i, blockNext
			}
			if g.endToken(0) {
				g.vs.reset()
				g.st = msArgs
			}
			return i, blockNext
		}
		if len(g.tok) == 0 && isSpace(c) {
			continue // leading whitespace (of an id)
		}
		if g.br < 0 && c != '[' && !isSpace(c) && len(g.tok) > 0 && isSpace(g.tok[len(g.tok)-1]) {
			// After whitespace only a terminator may follow.
			if g.st == msName {
				g.prose()
				return i, blockText
			}
			g.fail()
			return i + 1, blockNext
		}
		if c == '[' && g.br < 0 {
			g.br = len(g.tok)
		}
		g.tok = append(g.tok, c)
		if len(g.tok) > g.out.limit {
			g.fail()
			return i + 1, blockNext
		}
		if g.br < 0 {
			continue
		}
		t := g.tok[g.br:]
		switch {
		case string(t) == mistralArgs:
			if g.endToken(len(mistralArgs)) {
				g.st = msArgsWait
			}
			return i + 1, blockNext
		case g.st == msName && string(t) == mistralCallID:
			g.endToken(len(mistralCallID))
			return i + 1, blockNext
		case string(t) == mistralOpen:
			// A new call before this one was complete: this one is
			// dropped (nothing of it started).
			g.open(0)
			return i + 1, blockNext
		case !isPrefix(t, mistralArgs) && !isPrefix(t, mistralOpen) && !(g.st == msName && isPrefix(t, mistralCallID)):
			g.fail()
			return i + 1, blockNext
		}
	}
	return len(b), blockMore
}

func isPrefix(b []byte, s string) bool { return len(b) <= len(s) && string(b) == s[:len(b)] }

// prose releases the bytes after "[TOOL_CALLS]" (the whitespace and the
// would-be name) as content: the marker was followed by prose, not a call.
func (g *mistral) prose() {
	g.out.contentCopy(g.lead)
	g.out.contentCopy(g.tok)
	g.open(0)
}

// endToken completes the name or id (its terminator, of length cut, is at
// the end of tok) and starts the call when the name and id are complete. It
// reports whether the call started.
func (g *mistral) endToken(cut int) bool {
	t := trimSpace(g.tok[:len(g.tok)-cut])
	g.br = -1
	if g.st == msName {
		if len(t) == 0 {
			g.fail() // an empty name is not a call
			return false
		}
		g.name = append(g.name[:0], t...)
		g.tok = g.tok[:0]
		if cut == len(mistralCallID) {
			g.st = msID
			return false
		}
		g.out.startCall(g.name, nil)
		return true
	}
	var id []byte
	if len(t) > 0 {
		id = t
	}
	g.out.startCall(g.name, id)
	g.tok = g.tok[:0]
	return true
}

// feedArgs streams the arguments object.
func (g *mistral) feedArgs(b []byte) (int, blockStatus) {
	n, r := g.vs.scan(b)
	switch r {
	case scanMore:
		g.out.args(b[:n])
		return n, blockMore // all of b
	case scanCtrl:
		g.out.ctrlArgs(b[:n])
	case scanDone:
		g.out.args(b[:n])
		g.out.endCall()
		g.st = msEnd
	default:
		// The bytes before the error were valid so far: stream them like
		// any chunking would have, then abandon.
		g.out.args(b[:n])
		g.out.abandonCall()
		g.st = msSkip
	}
	return n, blockNext
}

// fail abandons the call (if it started) and drops the block up to the next
// opener.
func (g *mistral) fail() {
	g.out.abandonCall()
	g.tok = g.tok[:0]
	g.st = msSkip
}

// finish ends the stream inside a block: an open call is abandoned (a
// closed arguments object ended its call already), as fail does; the state
// fail leaves is never read before Reset.
func (g *mistral) finish() { g.fail() }

func (g *mistral) reset() {
	g.open(0)
	g.tok = shrink(g.tok)
	g.lead = shrink(g.lead)
	g.body.begin()
}
