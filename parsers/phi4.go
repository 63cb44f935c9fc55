package parsers

// phi4 is Phi-4-mini's grammar (PARSER_CASES.md; llama.cpp FIREFUNCTION_V2
// uses the same one):
//
//	call-block = "functools" *WS "[" [ call-object *( "," call-object ) ] "]"
//
// "functools" is an ordinary word, not a special token. Library rule: it
// opens a call block only when '[' follows (after optional whitespace);
// otherwise the word and the whitespace after it are content (import
// functools stays content; Dynamo drops everything). The text state holds a
// prefix of the word only while it still matches, so "funny joke" is
// released at its 'n'. The block ends after the array's ']'; in an unclosed
// array every closed element is a call (PARSER_CASES.md). A body that breaks
// abandons its call and is dropped up to the next "functools" (or the end).
type phi4 struct {
	out  *sink
	body jsonCalls
	skip matcher // "functools": where dropping a broken body ends

	st   phState
	cand candidate // "functools" and the whitespace around it, held until '[' or text decides
}

// phState is where a phi4 block is.
type phState uint8

const (
	phWord phState = iota // after "functools": whitespace, then '[' or text
	phBody                // inside the array
	phSkip                // dropping a broken body
)

var phStateNames = [...]string{"phWord", "phBody", "phSkip"}

func (s phState) String() string { return enumName(phStateNames[:], s, "phState") }

const phi4Word = "functools"

func init() {
	registerTool(ToolInfo{
		Openers: []string{phi4Word + "["},
		Malformed: "`functools` not followed by `[` (after optional whitespace) is content; in the array, elements that " +
			"are not call objects are skipped; an array that breaks abandons its call and is dropped up to the next " +
			"`functools` (or the end); non-whitespace after the closed array is content",
		Truncated: "in an unclosed array every closed element is a call and the truncated one is abandoned; `functools` " +
			"(and whitespace) at the end is content",
	}, newPhi4, "phi4", "phi4_mini_json")
}

func newPhi4(out *sink) toolGrammar {
	g := &phi4{out: out}
	g.body = jsonCalls{
		out:        out,
		allowArray: true,
		argKeys:    []string{"arguments", "parameters"},
	}
	g.skip = newMatcher(marker{text: phi4Word, act: actOpen})
	return g
}

func (g *phi4) textMarkers() []marker {
	return []marker{{text: phi4Word, act: actToolOpen}}
}

func (g *phi4) open(int) {
	g.st = phWord
	// After a call the driver passes the whitespace before the word as
	// markup; it is content again if the word turns out to be text.
	g.cand.begin(g.out.ws, phi4Word)
}

func (g *phi4) feed(b []byte, final bool) (int, blockStatus) {
	switch g.st {
	case phWord:
		// The limit bounds the whitespace around the word, not the word.
		i, st := g.cand.spaceThen(g.out, b, g.out.limit+len(phi4Word), "[")
		if st != blockNext {
			return i, st
		}
		g.body.begin()
		g.st = phBody
		n, st := g.feed(b[i:], final)
		return i + n, st
	case phBody:
		n, r := g.body.feed(b)
		switch r {
		case jcEnd:
			return n, blockDone
		case jcBad:
			g.st = phSkip
			m, st := g.feed(b[n:], final)
			return n + m, st
		}
		return n, blockMore
	}
	return dropUntil(&g.skip, b, final)
}

func (g *phi4) finish() {
	switch g.st {
	case phWord:
		g.cand.release(g.out)
	case phBody:
		g.body.finish()
	}
}

func (g *phi4) reset() {
	g.st = phWord
	g.cand.buf = shrink(g.cand.buf)
	g.body.begin()
}
