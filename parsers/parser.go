package parsers

import "fmt"

// toolGrammar is one tool-call wire grammar's machine. The Parser runs the
// text state (content, reasoning markers and the grammar's text markers) and
// the whitespace after a call group; the grammar runs everything from an
// opener to the end of its call block.
type toolGrammar interface {
	// textMarkers are the markers the grammar recognises in content:
	// openers (actToolOpen, arg passed to open) and orphan closers
	// (actToolClose, removed as markup).
	textMarkers() []marker
	// open starts a call block after opener arg was consumed.
	open(arg int)
	// feed consumes call-block bytes from b (never empty). final is set at
	// Finish: no more bytes will come, so marker prefixes are not markers.
	feed(b []byte, final bool) (n int, st blockStatus)
	// finish ends the stream inside a call block: recover what is provably
	// complete, abandon the rest.
	finish()
	// reset prepares for a new stream.
	reset()
}

// blockStatus is what a grammar's feed stopped at.
type blockStatus uint8

const (
	blockMore blockStatus = iota // all of b consumed; still inside the block
	blockHold                    // b[n:] may start a marker: hold it for the next Feed
	blockDone                    // the block ended after n bytes; a call group may continue
)

// mode is where the Parser is in the output.
type mode uint8

const (
	mText      mode = iota // content: scanning for reasoning markers and call openers
	mReasoning             // inside a reasoning span
	mCall                  // inside a call block: the grammar's feed runs
	mAfterCall             // whitespace after a call block: markup if another call follows
	mFinished              // Finish was called; Feed is a no-op until Reset
)

var modeNames = [...]string{"mText", "mReasoning", "mCall", "mAfterCall", "mFinished"}

func (m mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("mode(%d)", m)
}

// Parser splits one model output stream into reasoning, content and tool
// calls. See the package documentation for the call sequence and the
// aliasing contract. A Parser is not safe for concurrent use.
type Parser struct {
	// immutable after New
	cfg    Config
	reason *reasoningSpec // nil: no reasoning parser
	tool   toolGrammar    // nil: no tool parser
	textM  matcher        // content state: reasoning markers + the grammar's text markers
	reasM  matcher        // reasoning state
	limit  int

	// scanning state; reset by Reset
	mode mode
	held []byte // undecided tail of the previous Feed (marker prefix, partial rune)
	work []byte // held + chunk, when held was not empty
	ws   []byte // whitespace after a call block, pending
	out  emitter
}

// New returns a Parser for cfg. An unknown parser name is an error that
// wraps ErrUnknownParser and lists the registered names.
func New(cfg Config) (*Parser, error) {
	p := &Parser{cfg: cfg, limit: cfg.MaxCallBuffer}
	if p.limit <= 0 {
		p.limit = DefaultMaxCallBuffer
	}
	p.out.whole = cfg.WholeCalls
	p.out.limit = p.limit
	var textMarkers []marker
	if cfg.ReasoningParser != "" {
		spec, err := lookupReasoning(cfg.ReasoningParser)
		if err != nil {
			return nil, err
		}
		p.reason = spec
		p.reasM = newMatcher(spec.reasoningMarkers()...)
		textMarkers = append(textMarkers, spec.contentMarkers()...)
	}
	if cfg.ToolParser != "" {
		g, err := lookupTool(cfg.ToolParser, p)
		if err != nil {
			return nil, err
		}
		p.tool = g
		textMarkers = append(textMarkers, g.textMarkers()...)
	}
	p.textM = newMatcher(textMarkers...)
	p.Reset()
	return p, nil
}

// Reset prepares p for a new output stream with the same Config, keeping its
// buffers. Events returned before become invalid.
func (p *Parser) Reset() {
	p.mode = mText
	if p.reason != nil && (p.reason.forced || p.cfg.InReasoning) {
		p.mode = mReasoning
	}
	p.held = p.held[:0]
	p.work = p.work[:0]
	p.ws = p.ws[:0]
	p.out.reset()
	if p.tool != nil {
		p.tool.reset()
	}
}

// Feed parses the next chunk of model output and returns the events it
// completes. Bytes that may begin a marker (or a character) are held until
// the next Feed or Finish decides them. The returned slice and the byte
// slices inside the events are owned by p and valid until the next call to
// Feed, Finish or Reset; they may alias chunk, which the caller must leave
// unmodified until then.
func (p *Parser) Feed(chunk []byte) []Event {
	p.out.begin()
	if p.mode == mFinished {
		return nil
	}
	data := chunk
	if len(p.held) > 0 {
		p.work = append(append(p.work[:0], p.held...), chunk...)
		data = p.work
	}
	body := data
	if len(data) > 0 && data[len(data)-1] >= 0x80 {
		body = data[:len(data)-incompleteRune(data)]
	}
	n := p.run(body, false)
	if n < len(data) {
		p.held = append(p.held[:0], data[n:]...)
	} else {
		p.held = p.held[:0]
	}
	return p.out.events
}

// Finish ends the stream: held bytes are decided (a marker prefix that never
// completed is text of the current channel), an open call is recovered if it
// is provably complete and abandoned otherwise, and pending whitespace after
// a call is dropped. After Finish, Feed and Finish return nothing until Reset.
func (p *Parser) Finish() []Event {
	p.out.begin()
	if p.mode == mFinished {
		return nil
	}
	// held is not touched again before Reset, so events may alias it.
	p.run(p.held, true)
	switch p.mode {
	case mCall:
		p.tool.finish()
	case mAfterCall:
		p.ws = p.ws[:0]
	}
	p.mode = mFinished
	return p.out.events
}

// run processes b and returns how many bytes it consumed; the rest must be
// held. With final set it consumes everything.
func (p *Parser) run(b []byte, final bool) int {
	i := 0
	for i < len(b) {
		var n int
		var hold bool
		switch p.mode {
		case mText:
			n, hold = p.scanText(b[i:], final)
		case mReasoning:
			n, hold = p.scanReasoning(b[i:], final)
		case mCall:
			var st blockStatus
			n, st = p.tool.feed(b[i:], final)
			switch st {
			case blockHold:
				hold = !final
			case blockDone:
				p.mode = mAfterCall
			}
		case mAfterCall:
			n, hold = p.scanAfterCall(b[i:], final)
		default:
			return len(b)
		}
		i += n
		if hold {
			return i
		}
	}
	return i
}

// scanText emits content up to the next marker and acts on it.
func (p *Parser) scanText(b []byte, final bool) (int, bool) {
	pos, mi := p.textM.find(b, final)
	p.out.content(b[:pos])
	if mi < 0 {
		return pos, pos < len(b)
	}
	mk := &p.textM.ms[mi]
	switch mk.act {
	case actReasonStart:
		p.mode = mReasoning
	case actToolOpen:
		p.mode = mCall
		p.tool.open(mk.arg)
	}
	// actReasonEnd (stray closer) and actToolClose (orphan closer) are
	// markup: dropped, text on both sides kept.
	return pos + len(mk.text), false
}

// scanReasoning emits reasoning up to the next marker and acts on it.
func (p *Parser) scanReasoning(b []byte, final bool) (int, bool) {
	pos, mi := p.reasM.find(b, final)
	p.out.reasoning(b[:pos])
	if mi < 0 {
		return pos, pos < len(b)
	}
	mk := &p.reasM.ms[mi]
	switch mk.act {
	case actReasonEnd:
		p.mode = mText
	case actToolStart:
		// The token ends reasoning and is left for the content state (and
		// the tool parser) to see.
		p.mode = mText
		return pos, false
	}
	// A start marker inside reasoning is markup and dropped.
	return pos + len(mk.text), false
}

// scanAfterCall handles whitespace after a call block (GRAMMARS.md §1,
// "whitespace after a call"): it is markup if another call follows, content
// if text follows, and dropped at Finish.
func (p *Parser) scanAfterCall(b []byte, final bool) (int, bool) {
	i := 0
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	if i > 0 {
		if len(p.ws)+i > p.limit {
			// Too much whitespace to hold: release it as content.
			p.out.content(p.out.copyBytes(p.ws))
			p.ws = p.ws[:0]
			p.out.content(b[:i])
			p.mode = mText
			return i, false
		}
		p.ws = append(p.ws, b[:i]...)
	}
	if i == len(b) {
		return i, false
	}
	mi, partial := p.textM.at(b[i:], final)
	if partial {
		return i, true
	}
	if mi >= 0 {
		mk := &p.textM.ms[mi]
		switch mk.act {
		case actToolOpen:
			p.ws = p.ws[:0]
			p.mode = mCall
			p.tool.open(mk.arg)
			return i + len(mk.text), false
		case actToolClose:
			// The block's closer (whitespace before it is inside the
			// wrapper), or closer spam after a call: markup.
			p.ws = p.ws[:0]
			return i + len(mk.text), false
		}
	}
	// Text (or a reasoning marker) follows: the whitespace is content.
	if len(p.ws) > 0 {
		p.out.content(p.out.copyBytes(p.ws))
		p.ws = p.ws[:0]
	}
	p.mode = mText
	return i, false
}

// heldLen reports how many bytes p holds undecided (tests: bounded holding).
func (p *Parser) heldLen() int { return len(p.held) }
