package parsers

// Cohere block tokens: special tokens of Command A / R7B tokenizers, kept
// in the text by PRE.1 (skip_special_tokens=false).
const (
	coStartThinking = "<|START_THINKING|>"
	coEndThinking   = "<|END_THINKING|>"
	coStartText     = "<|START_TEXT|>"
	coEndText       = "<|END_TEXT|>"
	coStartResponse = "<|START_RESPONSE|>"
	coEndResponse   = "<|END_RESPONSE|>"
	coStartAction   = "<|START_ACTION|>"
	coEndAction     = "<|END_ACTION|>"
	coEndOfTurn     = "<|END_OF_TURN_TOKEN|>"
)

// Marker kinds (marker.arg) of the Cohere matcher.
const (
	ckThink     = iota // <|START_THINKING|>
	ckEndThink         // <|END_THINKING|>
	ckText             // <|START_TEXT|>, <|START_RESPONSE|>
	ckEndText          // <|END_TEXT|>, <|END_RESPONSE|>
	ckAction           // <|START_ACTION|>
	ckEndAction        // <|END_ACTION|>
	ckEndTurn          // <|END_OF_TURN_TOKEN|>
)

// coState is where the Cohere machine is in the output.
type coState uint8

const (
	coThink  coState = iota // a thinking block: reasoning
	coOut                   // between blocks: content
	coText                  // a text (response) block: content
	coAction                // an action block's JSON array (string-aware)
	coSkip                  // after the array, or a broken one: dropped up to a block token
)

var coStateNames = [...]string{"coThink", "coOut", "coText", "coAction", "coSkip"}

func (s coState) String() string { return enumName(coStateNames[:], s, "coState") }

// cohere is Cohere Command A's (and R7B's) machine (PARSER_CASES.md,
// "Cohere Command A / R7B"). It frames the whole output, so one machine
// serves the tool and the reasoning parser:
//
//	output = [ THINKING ] *( TEXT / ACTION ) [ "<|END_OF_TURN_TOKEN|>" ]
//	THINKING = [ "<|START_THINKING|>" ] REASONING "<|END_THINKING|>"
//	TEXT     = ( "<|START_TEXT|>" / "<|START_RESPONSE|>" ) CONTENT ( "<|END_TEXT|>" / "<|END_RESPONSE|>" )
//	ACTION   = "<|START_ACTION|>" "[" *( call-object ) "]" "<|END_ACTION|>"
//	call-object = {"tool_call_id": "0", "tool_name": NAME, "parameters": {…}}
//
// The template opens the thinking block in the prompt when reasoning is
// on, so the output starts inside reasoning; a text or action block token
// ends it (with reasoning off the output starts with one). Text outside
// blocks is content; <|END_OF_TURN_TOKEN|> ends any block; stray block
// closers are markup. An action block's array runs through the JSON call
// machine (jsoncalls.go) with "tool_name" and "parameters": calls stream as
// they are written, every closed element is a call, the model's
// tool_call_id is not kept (the template renumbers ids itself; minted ids
// are unique), and bytes after the array up to <|END_ACTION|> are
// dropped, as is an array that breaks. Block tokens inside a JSON string
// are text.
//
// With calls off (the reasoning parser alone) an action block is forwarded
// to content as its raw bytes.
type cohere struct {
	out   *sink
	calls bool
	ms    matcher // the block tokens
	body  jsonCalls
	vs    jsonScan // the array of a raw action block

	st coState
}

func init() {
	registerFraming(&framingSpec{
		tool: ToolInfo{
			Openers: []string{coStartAction},
			Closers: []string{coEndAction},
			Malformed: "an action block whose body is not a JSON array of call objects is dropped up to a block token (elements that " +
				"are not call objects are skipped; an open call is abandoned); bytes after the array up to <|END_ACTION|> are " +
				"dropped; stray block closers are removed",
			Truncated: "every closed element of the array is a call; one cut mid-value is abandoned; <|END_ACTION|> may be missing",
		},
		reasoning: cohereThink,
		build:     func(out *sink, calls bool) framingGrammar { return newCohere(out, calls) },
	}, []string{
		"cohere_command4",
		"cohere_command3", // vLLM (Command A without reasoning, R7B: <|START_RESPONSE|>)
		"cohere",          // ollama
	}, []string{"cohere_command4", "cohere_command3", "cohere"})
}

// cohereThink is the Cohere reasoning parser: the Cohere machine, with tool
// calls when the Cohere tool parser is configured, forwarding action blocks
// raw to content when no tool parser is. The fields describe it for the
// registry: forced (the output starts inside the thinking block), and the
// block tokens end it.
var cohereThink = &reasoningSpec{
	name:       "cohere_command4",
	starts:     []string{coStartThinking},
	ends:       []string{coEndThinking},
	forced:     true,
	toolStarts: []string{coStartText, coStartResponse, coStartAction},
}

func newCohere(out *sink, calls bool) *cohere {
	return &cohere{
		out:   out,
		calls: calls,
		ms: newMatcher(
			marker{text: coStartThinking, arg: ckThink},
			marker{text: coEndThinking, arg: ckEndThink},
			marker{text: coStartText, arg: ckText},
			marker{text: coStartResponse, arg: ckText},
			marker{text: coEndText, arg: ckEndText},
			marker{text: coEndResponse, arg: ckEndText},
			marker{text: coStartAction, arg: ckAction},
			marker{text: coEndAction, arg: ckEndAction},
			marker{text: coEndOfTurn, arg: ckEndTurn},
		),
		body: jsonCalls{out: out, allowObject: true, allowArray: true, argKeys: []string{"parameters"}, nameKey: "tool_name"},
	}
}

// textMarkers is empty: the machine frames the output and the Parser's text
// state never runs.
func (c *cohere) textMarkers() []marker { return nil }

// matchers: the block tokens are the markup.
func (c *cohere) matchers() []*matcher { return []*matcher{&c.ms} }

func (c *cohere) open(int) {}

func (c *cohere) reset() {
	c.st = coThink
	c.body.begin()
}

func (c *cohere) feed(b []byte, final bool) (int, blockStatus) {
	i := 0
	if c.st == coAction && c.calls {
		// The common chunk: the action's JSON, usually all of b, without
		// the loop.
		n, r := c.body.feed(b)
		if r == jcMore {
			return n, blockMore
		}
		c.st = coSkip // after the array, or a broken one
		i = n
	}
	for i < len(b) {
		var n int
		st := blockNext
		if c.st == coAction {
			n, st = c.scanAction(b[i:])
		} else {
			n, st = c.scanMarkers(b[i:], final)
		}
		i += n
		if st != blockNext {
			return i, st
		}
	}
	return i, blockMore
}

// finish ends the stream: every closed element of an open action block
// was a call already; one cut mid-value is abandoned.
func (c *cohere) finish() {
	c.out.abandonCall()
	c.st = coOut
}

// scanMarkers handles the states that look for the next block token: the
// bytes before it go where the state sends them, then the token acts.
func (c *cohere) scanMarkers(b []byte, final bool) (int, blockStatus) {
	pos, mi := c.ms.find(b, final)
	switch c.st {
	case coThink:
		c.out.reasoning(b[:pos])
	case coSkip:
		if !c.calls {
			c.out.content(b[:pos])
		}
	default:
		c.out.content(b[:pos])
	}
	if mi < 0 {
		return noMarker(b, pos)
	}
	mk := &c.ms.ms[mi]
	c.token(mk)
	return pos + len(mk.text), blockNext
}

// token acts on a block token (see the type comment).
func (c *cohere) token(mk *marker) {
	raw := !c.calls && (c.st == coSkip || mk.arg == ckAction)
	if raw {
		c.out.contentString(mk.text) // the forwarded action block's own markup
	}
	switch mk.arg {
	case ckThink:
		c.st = coThink // an echoed opener inside thinking is dropped
	case ckEndThink:
		if c.st == coThink {
			c.st = coOut
		}
	case ckText:
		c.st = coText
	case ckEndText:
		if c.st == coText {
			c.st = coOut
		}
	case ckAction:
		c.st = coAction
		c.body.begin()
		c.vs.reset()
	case ckEndAction:
		if c.st == coSkip {
			c.st = coOut
		}
	case ckEndTurn:
		c.st = coOut
	}
}

// scanAction reads an action block's array: through the JSON call machine,
// or, with calls off, forwarded raw up to its end.
func (c *cohere) scanAction(b []byte) (int, blockStatus) {
	if !c.calls {
		n, r := c.vs.scan(b)
		c.out.content(b[:n])
		if r == scanMore || r == scanCtrl {
			return n, blockNext
		}
		c.st = coSkip
		return n, blockNext
	}
	n, r := c.body.feed(b)
	switch r {
	case jcMore:
		return n, blockMore
	case jcEnd, jcBad:
		// After the array (or a broken one) the rest of the block is
		// dropped; a block token there acts.
		c.st = coSkip
	}
	return n, blockNext
}
