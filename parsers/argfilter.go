package parsers

import (
	"bytes"
	"unicode/utf8"
)

// Argument text is always valid UTF-8 JSON (library decision): the emitter
// filters every call's argument stream so that
//
//   - a byte that does not start a valid UTF-8 sequence becomes U+FFFD
//     (the replacement the emitters use for text), and
//   - a \uXXXX escape naming a lone surrogate (a high surrogate not followed
//     by a low one, or a low one alone) becomes \ufffd,
//
// leaving everything else byte for byte. Tool names get the same UTF-8
// replacement (their escapes were decoded by the grammar). The filter is
// streaming: a partial character or escape at the end of a fragment is held
// (at most 11 bytes) until the next fragment, the call's end or its abandon
// decides it, so the fragments still concatenate to the final arguments.

const (
	replChar   = "\uFFFD" // U+FFFD as UTF-8
	replEscape = `\ufffd` // U+FFFD as a JSON escape
)

// argFilter is the held, undecided tail of one call's argument stream.
type argFilter struct {
	pend [12]byte
	n    int
}

// filterArgs passes b through the filter to argsRaw.
func (e *emitter) filterArgs(b []byte) {
	if e.af.n > 0 {
		b = e.resolvePending(b)
	}
	run := 0
	for i := 0; i < len(b); {
		c := b[i]
		if c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		n, rep, need := argDecide(b[i:], false)
		if need {
			e.argsRaw(b[run:i])
			e.af.n = copy(e.af.pend[:], b[i:])
			return
		}
		if rep != "" {
			e.argsRaw(b[run:i])
			e.addArgs(nil, rep)
			run = i + n
		}
		i += n
	}
	e.argsRaw(b[run:])
}

// argsPass reports whether the filter, holding nothing, would pass b
// unchanged: b is valid UTF-8 and every backslash the filter meets starts
// a two-byte escape whose second byte is ASCII and not 'u'.
func argsPass(b []byte) bool {
	for t := b; ; {
		i := bytes.IndexByte(t, '\\')
		if i < 0 {
			return utf8.Valid(b)
		}
		if i+1 == len(t) || t[i+1] == 'u' || t[i+1] >= utf8.RuneSelf {
			return false
		}
		t = t[i+2:]
	}
}

// resolvePending decides the held tail with the first bytes of b and
// returns the rest of b.
func (e *emitter) resolvePending(b []byte) []byte {
	var buf [24]byte
	f := &e.af
	np := f.n
	k := copy(buf[np:], b[:min(len(b), len(buf)-np)])
	copy(buf[:np], f.pend[:np])
	seq := buf[:np+k]
	f.n = 0
	i := 0
	for i < np {
		c := seq[i]
		if c != '\\' && c < utf8.RuneSelf {
			e.addArgs(nil, string(seq[i:i+1]))
			i++
			continue
		}
		n, rep, need := argDecide(seq[i:], false)
		if need {
			// Still undecided: everything left (all of b) is held.
			f.n = copy(f.pend[:], seq[i:])
			return nil
		}
		if rep != "" {
			e.addArgs(nil, rep)
		} else {
			e.addArgs(nil, string(seq[i:i+n]))
		}
		i += n
	}
	return b[i-np:]
}

// flushArgs decides a held tail at the end of the call: nothing more can
// complete it.
func (e *emitter) flushArgs() {
	f := &e.af
	seq := f.pend[:f.n]
	f.n = 0
	for i := 0; i < len(seq); {
		n, rep, _ := argDecide(seq[i:], true)
		if rep != "" {
			e.addArgs(nil, rep)
		} else {
			e.addArgs(nil, string(seq[i:i+n]))
		}
		i += n
	}
}

// argDecide decides the character or escape at the start of b (b[0] is a
// backslash or a non-ASCII byte): n bytes are decided, to be replaced by rep
// when rep is not empty; need reports that b ends before the decision
// (never when final).
func argDecide(b []byte, final bool) (n int, rep string, need bool) {
	c := b[0]
	if c >= utf8.RuneSelf {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size <= 1 {
			if !final && !utf8.FullRune(b) {
				return 0, "", true
			}
			return 1, replChar, false
		}
		return size, "", false
	}
	if c != '\\' {
		return 1, "", false
	}
	if len(b) < 2 {
		if final {
			return len(b), "", false
		}
		return 0, "", true
	}
	if b[1] != 'u' {
		return 2, "", false
	}
	if len(b) < 6 {
		if !final && allHex(b[2:]) {
			return 0, "", true
		}
		return len(b), "", false // not a \u escape: invalid JSON, its call is abandoned
	}
	h, ok := hex4(b[2:6])
	if !ok {
		return 2, "", false
	}
	switch {
	case h >= 0xDC00 && h <= 0xDFFF:
		return 6, replEscape, false // a low surrogate alone
	case h < 0xD800 || h > 0xDBFF:
		return 6, "", false
	}
	// A high surrogate: valid only when a low surrogate escape follows.
	t := b[6:]
	const want = `\u`
	for k := 0; k < len(t) && k < 6; k++ {
		ok := false
		switch {
		case k < 2:
			ok = t[k] == want[k]
		case k == 2:
			ok = t[k] == 'd' || t[k] == 'D'
		case k == 3:
			ok = t[k] >= 'c' && t[k] <= 'f' || t[k] >= 'C' && t[k] <= 'F'
		default:
			_, ok = hexVal(t[k])
		}
		if !ok {
			return 6, replEscape, false
		}
	}
	if len(t) < 6 {
		if final {
			return 6, replEscape, false
		}
		return 0, "", true
	}
	return 12, "", false
}

func allHex(b []byte) bool {
	for _, c := range b {
		if _, ok := hexVal(c); !ok {
			return false
		}
	}
	return true
}

// hex4 decodes the four hex digits at the start of b (len(b) >= 4).
func hex4(b []byte) (uint16, bool) {
	var h uint16
	for _, c := range b[:4] {
		v, ok := hexVal(c)
		if !ok {
			return 0, false
		}
		h = h<<4 | uint16(v)
	}
	return h, true
}

// hexVal returns the value of hex digit c; ok is false when c is not one.
// It is the package's one hex-digit decoder (\u escapes, Python \x/\u
// escapes and radix literals).
func hexVal(c byte) (v byte, ok bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// validName returns name with every byte that does not start a valid UTF-8
// sequence replaced by U+FFFD (copied into the arena only when needed).
func (e *emitter) validName(name []byte) []byte {
	if utf8.Valid(name) {
		return name
	}
	start := len(e.arena)
	for i := 0; i < len(name); {
		r, size := utf8.DecodeRune(name[i:])
		if r == utf8.RuneError && size <= 1 {
			e.arena = append(e.arena, replChar...)
			i++
			continue
		}
		e.arena = append(e.arena, name[i:i+size]...)
		i += size
	}
	return e.arena[start:len(e.arena):len(e.arena)]
}
