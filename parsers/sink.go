package parsers

import "strings"

// sink is everything a grammar may write or read of the Parser: content and
// reasoning text, the call lifecycle, the per-call buffer limit and the
// Config. A grammar holds a *sink and nothing else of the Parser; the
// driver's own state (mode, held bytes, matchers) is out of its reach.
//
// The call lifecycle is the embedded emitter's: startCall, args, argsString,
// endCall and abandonCall, plus copyBytes/copyString for text that must
// outlive the caller's buffer (valid until the next Feed, Finish or Reset).
// The sink does the call bookkeeping: inCall says whether a call is open,
// paramKey, wholeArgs and endParams keep its parameter count; grammars keep
// no call flags or counters of their own. limit is the per-call buffer
// limit (Config.MaxCallBuffer or its default).
// Content and reasoning go through content and reasoning, which also track
// the start of the output for the driver's start-of-output markers; the
// emitter's own text methods are not for grammars.
//
// sink is a concrete type, so the narrow contract costs nothing on the hot
// path: no interface dispatch; startCall, paramKey and afterSpace inline,
// and content/reasoning are one direct call, as Parser's own methods were.
type sink struct {
	emitter

	cfg *Config // the Parser's Config; read-only

	outStart     bool // nothing but whitespace consumed so far
	contentStart bool // nothing but whitespace emitted as content so far
	lastContent  byte // the last byte emitted as content (valid when hasContent)
	hasContent   bool // some content was emitted (a NUL byte is content too)

	// ws is the whitespace after a call block, pending until the next bytes
	// decide it: markup when another call follows, content otherwise. The
	// driver fills and clears it (a grammar may append whitespace it held
	// before returning blockDone: llama3_json's gap); a grammar whose opener
	// may turn out to be text takes it at open as its candidate's lead
	// (candidate.begin).
	ws []byte
	// afterCall is set while the driver is after a call block (the
	// whitespace-after-a-call state), open included: lastContent then
	// predates the call (see afterSpace).
	afterCall bool

	params int // parameters opened in the open call (paramKey); -1: wholeArgs
}

// resetSink prepares s for a new stream.
func (s *sink) resetSink() {
	s.outStart, s.contentStart = true, true
	s.lastContent, s.hasContent = 0, false
	s.ws, s.afterCall = shrink(s.ws), false
	s.emitter.reset()
}

// content emits content text and tracks the start of the output. b must stay
// valid until the next Feed (it aliases the input, the Parser's work buffer
// or the arena).
func (s *sink) content(b []byte) {
	if len(b) == 0 {
		return
	}
	if s.contentStart && hasNonSpace(b) {
		s.contentStart, s.outStart = false, false
	}
	s.lastContent, s.hasContent = b[len(b)-1], true
	s.emitter.content(b)
}

// contentCopy emits a copy of b as content: for text held in the grammar's
// own buffers, which it reuses.
func (s *sink) contentCopy(b []byte) { s.content(s.copyBytes(b)) }

// contentString emits the constant s as content (a marker passed through).
func (s *sink) contentString(t string) { s.content(s.copyString(t)) }

// reasoning emits reasoning text and tracks the start of the output. b must
// stay valid until the next Feed.
func (s *sink) reasoning(b []byte) {
	if len(b) == 0 {
		return
	}
	if s.outStart && hasNonSpace(b) {
		s.outStart = false
	}
	s.emitter.reasoning(b)
}

// startCall opens a call (see emitter.startCall) and starts its parameter
// count.
func (s *sink) startCall(name, id []byte) {
	s.params = 0
	s.emitter.startCall(name, id)
}

// paramKey opens parameter key in the open call's arguments object: `{"key":`
// for the first, `,"key":` after. It reports whether a call is open: the
// grammar then streams the value, else drops it.
func (s *sink) paramKey(key []byte) bool {
	if !s.inCall {
		return false
	}
	argsKey(&s.emitter, s.params == 0, key)
	s.params++
	return true
}

// wholeArgs records that the open call's arguments are one object the
// grammar streams as it is, not parameters: endParams then only ends the
// call. params is -1 from here until the next startCall.
func (s *sink) wholeArgs() { s.params = -1 }

// endParams closes the open call's arguments object ("{}" when it has no
// parameter; nothing after wholeArgs) and ends the call; without an open
// call it does nothing. Grammars end calls with it and abandon them with
// abandonCall (also a no-op without an open call): the sink, not the
// grammar, knows whether a call is open (inCall) and how many parameters it
// has (params).
func (s *sink) endParams() {
	if s.inCall {
		if s.params >= 0 {
			argsClose(&s.emitter, s.params)
		}
		s.endCall()
	}
}

// ctrlArgs streams b, a jsonScan step that ended at a raw control character
// in a string (scanCtrl), as arguments of the open call: the character is
// written as its JSON escape. Other steps go to args as they are.
func (s *sink) ctrlArgs(b []byte) {
	s.args(b[:len(b)-1])
	s.argsString(ctrlEscape(b[len(b)-1]))
}

// afterSpace reports whether a word starting here stands alone: no content
// was emitted yet or the last content byte is whitespace; right after a
// call block, whether whitespace came between the call and the word.
func (s *sink) afterSpace() bool {
	if s.afterCall {
		return len(s.ws) > 0
	}
	return !s.hasContent || isSpace(s.lastContent)
}

// spaceLen is the length of b's leading whitespace.
func spaceLen(b []byte) int {
	i := 0
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

func hasNonSpace(b []byte) bool { return spaceLen(b) < len(b) }

// candidate holds bytes a grammar consumed that may still turn out to be
// text (a pythonic list, a gemma4 bare call, phi4's "functools", a
// llama3_json bare body): kept until the grammar decides, released as
// content when they are not a call, dropped when they are. Grammars that
// stream a long candidate (pythonic, gemma4) keep it with keep, bounded by
// the per-call limit: past it the candidate is released early and later
// bytes stream straight to content (released is set). Grammars that end the
// block at the limit instead append to buf themselves (appendHeld) and
// check the limit. A grammar embeds one per candidate it can hold.
type candidate struct {
	buf      []byte
	released bool
}

// begin starts a new candidate holding lead, the whitespace after a call
// that the driver passes at open (sink.ws: content again if the candidate
// is), and opener, the marker text the text state consumed.
func (c *candidate) begin(lead []byte, opener string) {
	c.buf = append(append(c.buf[:0], lead...), opener...)
	c.released = false
}

// keep records b, consumed from the current input (b must stay valid until
// the next Feed). extra is what the grammar holds for the candidate
// elsewhere (parsed names, converted arguments), counted against limit with
// the buffer. keep reports whether it released the candidate just now: the
// grammar then drops what it held elsewhere.
func (c *candidate) keep(out *sink, limit int, b []byte, extra int) bool {
	if !c.released && len(c.buf)+extra+len(b) <= limit {
		c.buf = appendHeld(c.buf, b, limit) // the common case: held
		return false
	}
	if len(b) == 0 {
		return false
	}
	// Released before, or past the limit now.
	now := !c.released
	c.release(out)
	out.content(b)
	return now
}

// release emits the held bytes as content (unless the candidate was
// released before), empties the buffer and marks the candidate released.
func (c *candidate) release(out *sink) {
	if !c.released {
		out.contentCopy(c.buf)
	}
	c.buf = c.buf[:0]
	c.released = true
}

// releaseWith releases the candidate and emits tail, input bytes that
// belong with it, as content: the block ends and text follows (the status
// feed returns).
func (c *candidate) releaseWith(out *sink, tail []byte) blockStatus {
	c.release(out)
	out.content(tail)
	return blockText
}

// spaceThen holds the whitespace at the start of b, after an opener word
// (<|python_tag|>, phi4's "functools"), until the byte after it decides:
// one of opens starts the body (blockNext: what the candidate holds is
// markup and dropped); anything else is text, and so is whitespace that
// would take the candidate past room (the candidate and the whitespace are
// released, blockText). When all of b is whitespace it is held (blockMore).
func (c *candidate) spaceThen(out *sink, b []byte, room int, opens string) (int, blockStatus) {
	i := spaceLen(b)
	switch {
	case len(c.buf)+i > room || i < len(b) && strings.IndexByte(opens, b[i]) < 0:
		return i, c.releaseWith(out, b[:i])
	case i == len(b):
		c.buf = appendHeld(c.buf, b, room)
		return i, blockMore
	}
	c.buf = c.buf[:0]
	return i, blockNext
}
