package parsers

// toolGrammar is one tool-call wire grammar's machine. The Parser runs the
// text state (content, reasoning markers and the grammar's text markers) and
// the whitespace after a call group; the grammar runs everything from an
// opener to the end of its call block.
type toolGrammar interface {
	// textMarkers are the markers the grammar recognises in content:
	// openers (actToolOpen, arg passed to open) and orphan closers
	// (actToolClose, removed as markup). A marker with atStart set is an
	// opener only while no non-whitespace content has been emitted (bare
	// JSON at the start of the output, llama3_json).
	textMarkers() []marker
	// open starts a call block after opener arg was consumed (-1: a framing
	// grammar starts the stream).
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

// bareNamer is implemented by grammars whose call body may come without its
// opener, starting with a name in the text (glm47's bare body). The text
// state holds a trailing candidate name until the next bytes decide it; the
// marker with opener arg bareArg confirms it.
type bareNamer interface {
	// bareTail returns the length of the suffix of text that is a candidate
	// name (0: none). afterSpace reports whether the content before text
	// ends in whitespace or is empty; exact is set when the confirming
	// marker follows text (the name must be complete, not a prefix).
	bareTail(text []byte, afterSpace, exact bool) int
	// bareArg is the opener arg of the confirming marker.
	bareArg() int
	// openBare starts the call block after the confirming marker; name is
	// the candidate bareTail measured.
	openBare(name []byte)
}

// blockStatus is what a grammar's feed stopped at.
type blockStatus uint8

const (
	blockMore blockStatus = iota // all of b consumed; still inside the block
	blockHold                    // b[n:] may start a marker: hold it for the next Feed
	blockDone                    // the block ended after n bytes; a call group may continue
	blockText                    // the block ended after n bytes; text follows (no call group)
	// blockNext is for a grammar's own state methods, never returned by
	// feed: n bytes consumed, keep scanning. A state method returns
	// (n, blockNext) to go on or (n, st) for feed to return.
	blockNext
)

var blockStatusNames = [...]string{"blockMore", "blockHold", "blockDone", "blockText", "blockNext"}

func (s blockStatus) String() string { return enumName(blockStatusNames[:], s, "blockStatus") }

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

func (m mode) String() string { return enumName(modeNames[:], m, "mode") }

// Parser splits one model output stream into reasoning, content and tool
// calls. See the package documentation for the call sequence and the
// aliasing contract. A Parser is not safe for concurrent use.
type Parser struct {
	// immutable after New
	cfg    Config
	reason *reasoningSpec // nil: no reasoning parser (or a framing grammar handles it)
	tool   toolGrammar    // nil: no tool parser
	bare   bareNamer      // tool, when its bodies may come without an opener
	frame  framingGrammar // tool, when it owns the whole stream
	framed bool           // frame != nil
	textMs [2][2]matcher  // content state, by [contentStart][reasoning openers legal]
	reasM  matcher        // reasoning state
	label  []byte         // reason.label as bytes

	// scanning state; reset by Reset
	mode      mode
	spanDone  bool // a reasoning span has ended
	labelOn   bool // at the start of a span whose label may still follow
	labelN    int  // label bytes matched so far
	prepended bool // the prepend marker was emitted
	held      []byte
	work      []byte // held + chunk, when held was not empty
	out       sink   // what grammars write into

	// textM caches textMatcher's choice once it can no longer change: the
	// output and the content have started (outStart and contentStart only
	// ever turn false before Reset); endSpan clears it (spanDone picks the
	// matcher of a once-only reasoning parser). nil: not settled.
	textM *matcher
}

// New returns a Parser for cfg. An unknown parser name is an error that
// wraps ErrUnknownParser and lists the registered names.
func New(cfg Config) (*Parser, error) {
	p := &Parser{cfg: cfg}
	p.out.cfg = &p.cfg
	p.out.limit = cfg.MaxCallBuffer
	if p.out.limit <= 0 {
		p.out.limit = DefaultMaxCallBuffer
	}
	p.out.whole = cfg.WholeCalls
	p.out.idSeed = cfg.IDSeed
	var reason *reasoningSpec
	var tool *toolEntry
	var err error
	if cfg.ReasoningParser != "" {
		if reason, err = lookup(reasoningRegistry, "reasoning", cfg.ReasoningParser); err != nil {
			return nil, err
		}
	}
	if cfg.ToolParser != "" {
		if tool, err = lookup(toolRegistry, "tool calls", cfg.ToolParser); err != nil {
			return nil, err
		}
	}
	f, err := framingFor(&p.out, &p.cfg, reason, tool)
	if err != nil {
		return nil, err
	}
	if f != nil {
		p.tool, p.frame, p.framed = f, f, true
		p.Reset()
		return p, nil
	}
	if tool != nil {
		p.tool = tool.build(&p.out)
		p.bare, _ = p.tool.(bareNamer)
	}
	if p.reason = reason; reason != nil {
		p.label = []byte(reason.label)
		p.reasM = newMatcher(reason.reasoningMarkers(p.tool)...)
	}
	for cs := 0; cs < 2; cs++ {
		for op := 0; op < 2; op++ {
			var ms []marker
			if p.reason != nil && !p.reason.prepend {
				ms = append(ms, p.reason.contentMarkers(op == 1)...)
			}
			if p.tool != nil {
				for _, m := range p.tool.textMarkers() {
					if !m.atStart || cs == 1 {
						ms = append(ms, m)
					}
				}
			}
			p.textMs[cs][op] = newMatcher(ms...)
		}
	}
	p.Reset()
	return p, nil
}

// Reset prepares p for a new output stream with the same Config, keeping its
// buffers. Events returned before become invalid.
func (p *Parser) Reset() {
	p.mode = mText
	p.out.resetSink()
	p.spanDone = false
	p.textM = nil
	p.labelOn, p.labelN = false, 0
	p.prepended = p.reason == nil || !p.reason.prepend // true: nothing to prepend
	if r := p.reason; r != nil && !r.prepend && (r.forced && !p.cfg.Unforced || p.cfg.InReasoning) {
		p.enterReasoning()
	}
	p.held = p.held[:0]
	p.work = shrink(p.work)
	if p.tool != nil {
		p.tool.reset()
		if p.framed {
			p.mode = mCall
			p.tool.open(-1)
		}
	}
}

// heldStep is the size past which a held buffer (a candidate, arguments
// waiting for their name, a whole call) grows straight to the per-call
// limit instead of doubling: it is then never copied again, so no Feed
// stalls on copying a multi-megabyte buffer, and its capacity never exceeds
// the limit.
const heldStep = 64 << 10

// appendHeld appends b to a held buffer dst bounded by limit (see heldStep).
func appendHeld(dst, b []byte, limit int) []byte {
	if n := len(dst) + len(b); n > cap(dst) && n > heldStep {
		dst = growHeld(dst, max(limit, n))
	}
	return append(dst, b...)
}

func growHeld(dst []byte, c int) []byte {
	nd := make([]byte, len(dst), c)
	copy(nd, dst)
	return nd
}

// maxRetained bounds the capacity a buffer keeps across Reset, so a pooled
// Parser that once saw a huge chunk does not pin that memory forever.
const maxRetained = 1 << 20

// shrink empties b, dropping its array when it grew past maxRetained.
func shrink(b []byte) []byte {
	if cap(b) > maxRetained {
		return nil
	}
	return b[:0]
}

func (p *Parser) enterReasoning() {
	p.mode = mReasoning
	p.labelOn, p.labelN = len(p.label) > 0, 0
}

// Feed parses the next chunk of model output and returns the events it
// completes. Bytes that may begin a marker (or a character) are held until
// the next Feed or Finish decides them. The returned slice and the byte
// slices inside the events are owned by p and valid until the next call to
// Feed, Finish or Reset; they may alias chunk, which the caller must leave
// unmodified until then.
func (p *Parser) Feed(chunk []byte) []Event {
	p.out.begin()
	if len(p.held) == 0 && p.prepended && p.mode != mFinished {
		// The common chunk: nothing held, nothing to prepend. Its first
		// step (usually its only one) is run's, taken here without
		// run's loop and frame; a character it ends inside is held.
		body := chunk
		if len(chunk) > 0 && chunk[len(chunk)-1] >= 0x80 {
			body = chunk[:len(chunk)-incompleteRune(chunk)]
		}
		n, hold := 0, false
		switch {
		case len(body) == 0:
		case p.mode == mCall:
			var st blockStatus
			if n, st = p.tool.feed(body, false); st == blockMore && n == len(chunk) {
				return p.out.events
			}
			hold = p.blockEnd(st, false)
		case p.mode == mText:
			if p.bare == nil && len(body) == len(chunk) && p.textMatcher().none(chunk) {
				// scanText's outcome, without its frame.
				p.out.content(chunk)
				return p.out.events
			}
			n, hold = p.scanText(body, false)
		case p.mode == mReasoning:
			if !p.labelOn && len(body) == len(chunk) && p.reasM.none(chunk) {
				p.out.reasoning(chunk) // scanReasoning's outcome
				return p.out.events
			}
			n, hold = p.scanReasoning(body, false)
		}
		if n == len(chunk) {
			return p.out.events
		}
		if !hold {
			n += p.run(body[n:], false)
		}
		if n < len(chunk) {
			p.held = append(p.held, chunk[n:]...)
		}
		return p.out.events
	}
	return p.feed(chunk)
}

// feed is Feed's general case.
func (p *Parser) feed(chunk []byte) []Event {
	if p.mode == mFinished {
		return nil
	}
	p.prepend()
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

// prepend emits the opener a minimax_append_think parser puts in front of
// the output (with the first Feed, even an empty one), once: prepended is
// false only for such a parser until then (Reset).
func (p *Parser) prepend() {
	if !p.prepended {
		p.prepended = true
		p.out.contentString(p.reason.starts[0])
	}
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
	p.prepend()
	// held is not touched again before Reset, so events may alias it.
	p.run(p.held, true)
	switch p.mode {
	case mCall:
		p.tool.finish()
	case mAfterCall:
		p.out.ws, p.out.afterCall = p.out.ws[:0], false
	case mReasoning:
		// A span that ended while its label was still a prefix: dropped.
		p.labelOn, p.labelN = false, 0
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
			hold = p.blockEnd(st, final)
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

// blockEnd acts on the status a grammar's feed returned and reports
// whether the rest of the input must be held.
func (p *Parser) blockEnd(st blockStatus, final bool) (hold bool) {
	switch {
	case st == blockHold:
		return !final
	case p.framed && (st == blockDone || st == blockText):
		p.tool.open(-1)
	case st == blockDone:
		p.mode, p.out.afterCall = mAfterCall, true
	case st == blockText:
		p.mode = mText
	}
	return false
}

// textMatcher returns the content-state matcher for the current position.
func (p *Parser) textMatcher() *matcher {
	if p.textM != nil {
		return p.textM
	}
	return p.pickTextMatcher()
}

// pickTextMatcher is textMatcher when no choice is cached: it chooses, and
// caches the choice once it is settled. It is kept out of line so that
// textMatcher, the cached load, inlines.
//
//go:noinline
func (p *Parser) pickTextMatcher() *matcher {
	cs, op := 0, 0
	if p.out.contentStart {
		cs = 1
	}
	if r := p.reason; r != nil && !(r.atStart && !p.out.outStart) && !(r.once && p.spanDone) {
		op = 1
	}
	m := &p.textMs[cs][op]
	if !p.out.contentStart && !p.out.outStart {
		p.textM = m
	}
	return m
}

// scanText emits content up to the next marker and acts on it.
func (p *Parser) scanText(b []byte, final bool) (int, bool) {
	m := p.textMatcher()
	pos, mi := m.find(b, final)
	if mi >= 0 && m.ms[mi].atStart && hasNonSpace(b[:pos]) {
		// A start-of-output marker after text: not a marker. Emitting the
		// text ends the start, and the rest is scanned again.
		p.out.content(b[:pos])
		return pos, false
	}
	if p.bare != nil {
		afterSpace := p.out.afterSpace()
		switch {
		case mi >= 0 && m.ms[mi].act == actToolOpen && m.ms[mi].arg == p.bare.bareArg():
			if k := p.bare.bareTail(b[:pos], afterSpace, true); k > 0 {
				p.out.content(b[:pos-k])
				p.out.outStart, p.out.contentStart = false, false
				p.mode = mCall
				p.bare.openBare(b[pos-k : pos])
				return pos + len(m.ms[mi].text), false
			}
		case mi < 0 && !final:
			if k := p.bare.bareTail(b[:pos], afterSpace, false); k > 0 {
				// A possible bare-body name: held until the next bytes
				// decide it.
				p.out.content(b[:pos-k])
				return pos - k, true
			}
		}
	}
	p.out.content(b[:pos])
	if mi < 0 {
		return pos, pos < len(b)
	}
	mk := &m.ms[mi]
	switch mk.act {
	case actReasonStart:
		p.out.outStart = false
		p.enterReasoning()
	case actToolOpen:
		p.out.outStart, p.out.contentStart = false, false
		p.mode = mCall
		p.tool.open(mk.arg)
	}
	// actReasonEnd (stray closer) and actToolClose (orphan closer) are
	// markup: dropped, text on both sides kept.
	return pos + len(mk.text), false
}

// scanReasoning emits reasoning up to the next marker and acts on it.
func (p *Parser) scanReasoning(b []byte, final bool) (int, bool) {
	if p.labelOn {
		return p.scanLabel(b, final)
	}
	pos, mi := p.reasM.find(b, final)
	p.out.reasoning(b[:pos])
	if mi < 0 {
		return pos, pos < len(b)
	}
	mk := &p.reasM.ms[mi]
	switch mk.act {
	case actReasonEnd:
		p.endSpan()
	case actToolStart:
		// The token ends reasoning and is left for the content state (and
		// the tool parser) to see.
		p.endSpan()
		return pos, false
	}
	// An opener inside reasoning is markup and dropped.
	return pos + len(mk.text), false
}

func (p *Parser) endSpan() {
	p.mode = mText
	p.spanDone = true
	p.textM = nil
	p.out.outStart = false
	p.labelOn, p.labelN = false, 0
}

// scanLabel strips the span label (gemma4 "thought\n") at the start of a
// span: bytes matching it are consumed silently; on the first byte that
// diverges the matched prefix is emitted as reasoning, unless a closer ends
// the span there (a span that is only a label prefix is dropped).
func (p *Parser) scanLabel(b []byte, final bool) (int, bool) {
	i := 0
	for i < len(b) && p.labelN < len(p.label) && b[i] == p.label[p.labelN] {
		i++
		p.labelN++
	}
	if p.labelN == len(p.label) {
		p.labelOn, p.labelN = false, 0
		return i, false
	}
	if i == len(b) {
		return i, false
	}
	mi, partial := p.reasM.at(b[i:], final)
	if partial {
		return i, true
	}
	if mi >= 0 && p.reasM.ms[mi].act == actReasonEnd {
		p.endSpan()
		return i + len(p.reasM.ms[mi].text), false
	}
	p.out.reasoning(p.label[:p.labelN])
	p.labelOn, p.labelN = false, 0
	return i, false
}

// closeInText is the arg of an actToolClose marker that is no block's
// closer but a stray piece of call syntax (gemma4's string delimiter): after
// a call, whitespace before it is content, as before text.
const closeInText = 1

// scanAfterCall handles whitespace after a call block (PARSER_CASES.md,
// "whitespace after a call"): it is markup if another call follows, content
// if text follows, and dropped at Finish.
func (p *Parser) scanAfterCall(b []byte, final bool) (int, bool) {
	i := 0
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	if i > 0 {
		if len(p.out.ws)+i > p.out.limit {
			// Too much whitespace to hold: release it as content.
			p.out.contentCopy(p.out.ws)
			p.out.content(b[:i])
			p.endAfterCall(mText)
			return i, false
		}
		p.out.ws = append(p.out.ws, b[:i]...)
	}
	if i == len(b) {
		return i, false
	}
	m := p.textMatcher()
	mi, partial := m.at(b[i:], final)
	if partial {
		return i, true
	}
	if mi >= 0 {
		switch mk := &m.ms[mi]; {
		case mk.act == actToolOpen:
			// The whitespace is markup between two calls. It is cleared
			// after open, so a grammar whose opener may turn out to be text
			// (phi4's "functools") can take it as its candidate's lead.
			p.tool.open(mk.arg)
			p.endAfterCall(mCall)
			return i + len(mk.text), false
		case mk.act == actToolClose && mk.arg != closeInText:
			// The block's closer (whitespace before it is inside the
			// wrapper), or closer spam after a call: markup.
			p.out.ws = p.out.ws[:0]
			return i + len(mk.text), false
		}
	}
	// Text (or a reasoning marker) follows: the whitespace is content.
	p.out.contentCopy(p.out.ws)
	p.endAfterCall(mText)
	return i, false
}

// endAfterCall leaves the whitespace-after-a-call state for m; the pending
// whitespace was decided.
func (p *Parser) endAfterCall(m mode) {
	p.mode = m
	p.out.ws, p.out.afterCall = p.out.ws[:0], false
}

// dropUntil drops b up to the next marker of m, which is left unconsumed
// for the text state (blockText); a possible marker prefix at the end of b is
// held. Grammars without a closer use it to skip a broken body.
func dropUntil(m *matcher, b []byte, final bool) (int, blockStatus) {
	pos, mi := m.find(b, final)
	if mi >= 0 {
		return pos, blockText
	}
	return noMarker(b, pos)
}

// noMarker is what a grammar's feed (or state method) returns when a
// matcher's find met no marker in b: b[pos:] may start one and is held;
// pos == len(b): all of b is consumed.
func noMarker(b []byte, pos int) (int, blockStatus) {
	if pos < len(b) {
		return pos, blockHold
	}
	return pos, blockMore
}
