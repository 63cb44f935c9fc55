package parsers

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"slices"
	"unicode/utf8"
)

// emitter collects the events of one Feed or Finish and owns the call
// lifecycle shared by every grammar: indices, ids, and the whole-call mode.
type emitter struct {
	events []Event
	arena  []byte // per-call copies (ids, names, escapes); reset by begin

	whole    bool // Config.WholeCalls
	limit    int  // Config.MaxCallBuffer
	shortIDs bool // mint Mistral-shaped ids (9 ASCII alphanumerics); set by the grammar

	argEv    int // index of the args event whose text is arena[argStart:], or -1
	argStart int
	txtEv    int // index of the text event whose text is tbuf[txtStart:], or -1
	txtStart int
	tbuf     []byte    // text gathered from non-contiguous pieces; reset by begin
	af       argFilter // the open call's undecided argument tail

	next    int    // index of the next visible call
	idSeed  uint64 // Config.IDSeed; 0: a random seed per stream
	seed    uint64 // this stream's id seed
	minted  uint64 // ids minted in this stream
	inCall  bool   // a call is open (started, not ended/abandoned)
	idx     int    // open call's index (streaming mode)
	dropped bool   // whole mode: the open call exceeded the limit
	name    []byte // whole mode: the open call's name
	argBuf  []byte // whole mode: the open call's arguments so far
	id      []byte // whole mode / model ids: the open call's id
}

// begin starts a new Feed or Finish: previous events become invalid.
func (e *emitter) begin() {
	e.events = e.events[:0]
	e.arena = e.arena[:0]
	e.tbuf = e.tbuf[:0]
	e.argEv, e.txtEv = -1, -1
}

func (e *emitter) reset() {
	e.begin()
	e.arena = shrink(e.arena)
	e.tbuf = shrink(e.tbuf)
	e.next = 0
	e.seed = e.idSeed
	if e.seed == 0 {
		e.seed = rand.Uint64()
	}
	e.minted = 0
	e.inCall = false
	e.dropped = false
	e.name = e.name[:0]
	e.argBuf = shrink(e.argBuf)
	e.id = e.id[:0]
	e.af.n = 0
}

// copyBytes copies b into the arena and returns the copy.
func (e *emitter) copyBytes(b []byte) []byte {
	start := len(e.arena)
	e.arena = append(e.arena, b...)
	return e.arena[start:len(e.arena):len(e.arena)]
}

func (e *emitter) copyString(s string) []byte {
	start := len(e.arena)
	e.arena = append(e.arena, s...)
	return e.arena[start:len(e.arena):len(e.arena)]
}

// text appends a content or reasoning event. b must stay valid until the next
// Feed (it aliases the input, the parser's work buffer or the arena).
// Adjacent text of one kind is one event: pieces of one contiguous buffer
// are merged in place; others (text on both sides of removed markup, a
// released candidate) are gathered in tbuf, so a Feed never returns a
// run of small text events however its bytes were decided.
func (e *emitter) text(k EventKind, b []byte) {
	if len(e.events) == 0 && len(b) > 0 {
		// The first event of a Feed (streaming small chunks).
		e.put(k, 0, b)
		return
	}
	e.moreText(k, b)
}

// moreText is text when the Feed already has events.
func (e *emitter) moreText(k EventKind, b []byte) {
	if len(b) == 0 {
		return
	}
	if n := len(e.events); n > 0 {
		last := &e.events[n-1]
		if last.Kind == k {
			if extends(last.Text, b) {
				last.Text = last.Text[:len(last.Text)+len(b)]
				return
			}
			if e.txtEv != n-1 {
				// Move the event's text to tbuf's tail, once per run;
				// only this run writes tbuf until the next event.
				e.txtStart = len(e.tbuf)
				e.tbuf = append(e.tbuf, last.Text...)
				e.txtEv = n - 1
			}
			e.tbuf = append(e.tbuf, b...)
			last.Text = e.tbuf[e.txtStart:len(e.tbuf):len(e.tbuf)]
			return
		}
	}
	e.put(k, 0, b)
}

// put appends an event with no ID or Name (content, reasoning, arguments),
// writing each field once.
func (e *emitter) put(k EventKind, idx int, text []byte) {
	n := len(e.events)
	if n == cap(e.events) {
		e.events = append(e.events, Event{Kind: k, Index: idx, Text: text})
		return
	}
	e.events = e.events[:n+1]
	ev := &e.events[n]
	ev.Kind, ev.Index, ev.ID, ev.Name, ev.Text = k, idx, nil, nil, text
}

// extends reports whether b starts exactly where a ends in the same array.
func extends(a, b []byte) bool {
	return len(a) > 0 && cap(a)-len(a) >= len(b) && &a[:len(a)+1][len(a)] == &b[0]
}

func (e *emitter) content(b []byte)   { e.text(EventContent, b) }
func (e *emitter) reasoning(b []byte) { e.text(EventReasoning, b) }

// mintID returns a fresh call id, "call_" + 24 hex digits: unique within the
// stream (a bijective mix of the stream's seed and a counter) and random
// across streams unless Config.IDSeed fixes the seed. It is written into the
// arena: no allocation after warm-up.
func (e *emitter) mintID() []byte {
	e.minted++
	if e.shortIDs {
		return e.mintShortID()
	}
	x := mix64(e.seed + e.minted)
	start := len(e.arena)
	e.arena = append(e.arena, "call_"...)
	e.arena = appendHex(e.arena, x, 16)
	e.arena = appendHex(e.arena, mix64(e.seed^0x9e3779b97f4a7c15+e.minted)>>32, 8)
	return e.arena[start:len(e.arena):len(e.arena)]
}

// shortIDSpace is 62^9, the number of 9-character alphanumeric ids.
const shortIDSpace = 13537086546263552

// shortIDStep is coprime to shortIDSpace (odd, not a multiple of 31), so
// seed + k*step (mod shortIDSpace) is distinct for every k < shortIDSpace.
const shortIDStep = 0x9e3779b97f4a7c15 % shortIDSpace

// mintShortID returns a fresh Mistral-shaped id: exactly 9 ASCII
// alphanumerics, the shape mistral-common validates on the next turn
// (PARSER_CASES.md). Unique within the stream, random across streams; written
// into the arena.
func (e *emitter) mintShortID() []byte {
	const alnum = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	hi, lo := bits.Mul64(e.minted%shortIDSpace, shortIDStep)
	x := (bits.Rem64(hi, lo, shortIDSpace) + e.seed%shortIDSpace) % shortIDSpace
	start := len(e.arena)
	e.arena = append(e.arena, "000000000"...)
	id := e.arena[start:len(e.arena):len(e.arena)]
	for k := len(id) - 1; k >= 0; k-- {
		id[k] = alnum[x%62]
		x /= 62
	}
	return id
}

func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func appendHex(b []byte, x uint64, digits int) []byte {
	const hex = "0123456789abcdef"
	for k := digits - 1; k >= 0; k-- {
		b = append(b, hex[(x>>(4*uint(k)))&15])
	}
	return b
}

// startCall opens a call named name. id is the model's own id, or nil to
// mint one. name and id are copied; the caller may reuse its buffers.
func (e *emitter) startCall(name, id []byte) {
	e.inCall = true
	e.dropped = false
	e.af.n = 0
	name = e.validName(name)
	if e.whole {
		e.name = append(e.name[:0], name...)
		e.id = append(e.id[:0], id...)
		e.argBuf = e.argBuf[:0]
		return
	}
	if id == nil {
		id = e.mintID()
	} else {
		id = e.copyBytes(id)
	}
	e.idx = e.next
	e.next++
	name = e.copyBytes(name)
	n := len(e.events)
	if n == cap(e.events) {
		e.events = append(e.events, Event{})
	}
	e.events = e.events[:n+1]
	ev := &e.events[n]
	ev.Kind, ev.Index, ev.ID, ev.Name, ev.Text = EventToolCallStart, e.idx, id, name, nil
}

// args appends an argument fragment to the open call. b must stay valid
// until the next Feed (it aliases the input, the work buffer or the arena).
// Within one Feed, consecutive fragments of a call become one event: pieces
// that are not contiguous (an escape between two runs of input) are gathered
// in the arena.
func (e *emitter) args(b []byte) {
	if n := len(b); n >= 4 && n <= 8 && e.af.n == 0 && e.inCall {
		// The streamed fragment, tested as two overlapping words: with no
		// backslash and ASCII or valid UTF-8, nothing for the filter to
		// decide.
		x := uint64(binary.LittleEndian.Uint32(b)) | uint64(binary.LittleEndian.Uint32(b[n-4:]))<<32
		y := x ^ ('\\' * lo8)
		if (x|(y-lo8)&^y)&hi8 == 0 || (y-lo8)&^y&hi8 == 0 && utf8.Valid(b) {
			if len(e.events) == 0 && !e.whole {
				e.put(EventToolCallArgs, e.idx, b) // the Feed's first event
				return
			}
			e.addArgs(b, "")
			return
		}
	}
	e.moreArgs(b)
}

// moreArgs is args' general case.
func (e *emitter) moreArgs(b []byte) {
	if !e.inCall || len(b) == 0 {
		return
	}
	var plain bool
	if n := len(b); n >= 4 && n <= 8 {
		plain = plainWords(b) // inlined: the common streamed fragment
	} else {
		plain = plainArgs(b)
	}
	if e.af.n != 0 || !plain && !argsPass(b) {
		e.filterArgs(b) // passes the text on to argsRaw
		return
	}
	// Nothing for the filter to decide.
	if len(e.events) == 0 && !e.whole {
		// Fast path: the first event of a Feed (streaming small chunks).
		e.put(EventToolCallArgs, e.idx, b)
		return
	}
	e.addArgs(b, "")
}

// argsRaw appends argument text the filter passed.
func (e *emitter) argsRaw(b []byte) {
	if len(e.events) == 0 && e.inCall && !e.whole && len(b) > 0 {
		// Fast path: the first event of a Feed (streaming small chunks).
		e.put(EventToolCallArgs, e.idx, b)
		return
	}
	e.addArgs(b, "")
}

// argsEscaped appends b as the inside of a JSON string: runs that need no
// escape pass through args, a quote, a backslash or a control character
// is appended as its escape (argsString). When b is valid UTF-8 and the
// filter holds nothing, the result is built in one step, with the same
// events, bytes and arena state as the piecewise calls.
func (e *emitter) argsEscaped(b []byte) {
	if n := len(b); uint(n-1) < 8 && e.af.n == 0 && e.inCall && !e.whole {
		// A streamed fragment, classified as one word: args' outcome
		// when it needs no escape, the escaped copy when it does, and
		// valid UTF-8 checked only when it is not ASCII.
		x := fragWord(b)
		if x&hi8 == 0 || utf8.Valid(b) {
			if strStop8(x) != 0 {
				e.argsEscapedCopy(nil, b)
				return
			}
			if len(e.events) == 0 {
				e.put(EventToolCallArgs, e.idx, b)
				return
			}
			e.addArgs(b, "")
			return
		}
	}
	e.argsEscapedSlow(b)
}

// argsEscapedSlow is argsEscaped's general case, out of line so that the
// streamed fragment's path keeps a small frame.
func (e *emitter) argsEscapedSlow(b []byte) {
	j := strRun(b)
	if j == len(b) {
		e.args(b)
		return
	}
	if e.af.n != 0 || !e.inCall || e.whole || !utf8.Valid(b) {
		e.argsEscapedPieces(b)
		return
	}
	e.argsEscapedCopy(nil, b)
}

// argsEscapedPair is argsEscaped of a (held whitespace in a buffer the
// caller reuses, so it is copied; ASCII, so valid) followed by argsEscaped
// of b, as one fragment when it can be.
func (e *emitter) argsEscapedPair(a, b []byte) {
	if len(a)+len(b) > 0 && e.af.n == 0 && e.inCall && !e.whole &&
		(len(b) <= 8 && fragWord(b)&hi8 == 0 || utf8.Valid(b)) {
		e.argsEscapedCopy(a, b)
		return
	}
	start := len(e.arena)
	e.arena = appendEscaped(e.arena, a)
	e.args(e.arena[start:len(e.arena):len(e.arena)])
	e.argsEscaped(b)
}

// fragWord packs b (1 to 8 bytes) into a word for the word tests: two
// overlapping words for 4 bytes or more, else b's bytes padded with 'A',
// which no test flags.
func fragWord(b []byte) uint64 {
	if n := len(b); n >= 4 {
		return uint64(binary.LittleEndian.Uint32(b)) | uint64(binary.LittleEndian.Uint32(b[n-4:]))<<32
	}
	const pad = 'A' * lo8
	switch len(b) {
	case 3:
		return pad&^0xffffff | uint64(binary.LittleEndian.Uint16(b)) | uint64(b[2])<<16
	case 2:
		return pad&^0xffff | uint64(binary.LittleEndian.Uint16(b))
	case 1:
		return pad&^0xff | uint64(b[0])
	}
	return pad
}

// argsEscapedCopy is argsEscaped's outcome for a and then b (valid UTF-8)
// when the filter holds nothing: both escaped into the arena, as one
// fragment that extends the Feed's last arguments event of the call.
func (e *emitter) argsEscapedCopy(a, b []byte) {
	n := len(e.events)
	if n > 0 {
		last := &e.events[n-1]
		if last.Kind == EventToolCallArgs && last.Index == e.idx {
			if e.argEv != n-1 || e.argStart+len(last.Text) != len(e.arena) {
				// Move the event's text to the arena's tail (as addArgs).
				e.argStart = len(e.arena)
				e.arena = append(e.arena, last.Text...)
				e.argEv = n - 1
			}
			e.arena = appendEscapedFrag(appendEscapedFrag(e.arena, a), b)
			last.Text = e.arena[e.argStart:len(e.arena):len(e.arena)]
			return
		}
	}
	start := len(e.arena)
	e.arena = appendEscapedFrag(appendEscapedFrag(e.arena, a), b)
	e.argEv, e.argStart = n, start
	e.put(EventToolCallArgs, e.idx, e.arena[start:len(e.arena):len(e.arena)])
}

// appendEscapedFrag is appendEscaped for a fragment: room for the longest
// escape of every byte is made once, then each byte is written in place.
func appendEscapedFrag(dst, b []byte) []byte {
	if len(b) == 0 {
		return dst
	}
	if len(b) > 64 {
		return appendEscaped(dst, b)
	}
	dst = slices.Grow(dst, 6*len(b)) // `\u00XX` is the longest escape
	k := len(dst)
	d := dst[:cap(dst)]
	for _, c := range b {
		if !strStop[c] {
			d[k] = c
			k++
			continue
		}
		if x := shortEscape[c]; x != 0 {
			d[k], d[k+1] = '\\', x
			k += 2
			continue
		}
		k += copy(d[k:], jsonEscape(c))
	}
	return d[:k]
}

// shortEscape holds, for each byte whose JSON escape is two bytes, the
// byte after the backslash (jsonEscape's result, without the call).
var shortEscape = [256]byte{'"': '"', '\\': '\\', '\n': 'n', '\r': 'r', '\t': 't', '\b': 'b', '\f': 'f'}

// argsEscapedPieces is argsEscaped one piece at a time.
func (e *emitter) argsEscapedPieces(b []byte) {
	for len(b) > 0 {
		j := strRun(b)
		if j > 0 {
			e.args(b[:j])
		}
		if j == len(b) {
			return
		}
		e.argsString(jsonEscape(b[j]))
		b = b[j+1:]
	}
}

// argsString appends a constant fragment (an escape, "{}"); a held tail of
// the model's text before it is decided first.
func (e *emitter) argsString(s string) {
	if e.af.n > 0 {
		e.flushArgs()
	}
	e.addArgs(nil, s)
}

func (e *emitter) addArgs(b []byte, s string) {
	if !e.inCall || len(b)+len(s) == 0 {
		return
	}
	if e.whole {
		if e.dropped {
			return
		}
		if len(e.argBuf)+len(b)+len(s) > e.limit {
			e.dropped = true
			return
		}
		e.argBuf = append(appendHeld(e.argBuf, b, e.limit), s...)
		return
	}
	n := len(e.events)
	if n > 0 {
		last := &e.events[n-1]
		if last.Kind == EventToolCallArgs && last.Index == e.idx {
			if s == "" && extends(last.Text, b) {
				last.Text = last.Text[:len(last.Text)+len(b)]
				return
			}
			if e.argEv != n-1 || e.argStart+len(last.Text) != len(e.arena) {
				// Move the event's text to the arena's tail, once per Feed.
				e.argStart = len(e.arena)
				e.arena = append(e.arena, last.Text...)
				e.argEv = n - 1
			}
			e.arena = append(append(e.arena, b...), s...)
			last.Text = e.arena[e.argStart:len(e.arena):len(e.arena)]
			return
		}
	}
	t := b
	if s != "" {
		e.argEv, e.argStart = n, len(e.arena)
		t = e.copyString(s)
	}
	e.put(EventToolCallArgs, e.idx, t)
}

// endCall completes the open call.
func (e *emitter) endCall() {
	if !e.inCall {
		return
	}
	if e.af.n > 0 {
		e.flushArgs()
	}
	e.inCall = false
	if !e.whole {
		e.put(EventToolCallEnd, e.idx, nil)
		return
	}
	if e.dropped {
		return
	}
	var id []byte
	if len(e.id) == 0 {
		id = e.mintID()
	} else {
		id = e.copyBytes(e.id)
	}
	idx := e.next
	e.next++
	e.events = append(e.events,
		Event{Kind: EventToolCallStart, Index: idx, ID: id, Name: e.copyBytes(e.name)},
		Event{Kind: EventToolCallArgs, Index: idx, Text: e.copyBytes(e.argBuf)},
		Event{Kind: EventToolCallEnd, Index: idx})
}

// abandonCall closes the open call as abandoned (no-op when none is open).
func (e *emitter) abandonCall() {
	if !e.inCall {
		return
	}
	e.af.n = 0
	e.inCall = false
	if !e.whole {
		e.put(EventToolCallAbandoned, e.idx, nil)
	}
}
