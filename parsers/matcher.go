package parsers

import (
	"bytes"
	"encoding/binary"
	"math/bits"
)

// action says what a marker means in the state whose matcher found it.
type action uint8

const (
	actNone        action = iota
	actReasonStart        // reasoning opener (<think>)
	actReasonEnd          // reasoning closer (</think>)
	actToolStart          // reasoning-state tool-start token: ends reasoning, not consumed
	actToolOpen           // text-state call opener; arg selects the grammar's opener
	actToolClose          // text-state orphan closer: markup, dropped
	actOpen               // grammar-internal: an opener
	actClose              // grammar-internal: a closer
)

var actionNames = [...]string{"actNone", "actReasonStart", "actReasonEnd", "actToolStart", "actToolOpen", "actToolClose", "actOpen", "actClose"}

func (a action) String() string { return enumName(actionNames[:], a, "action") }

// marker is one byte string a state recognises.
type marker struct {
	text    string
	act     action
	arg     int
	atStart bool // legal only at the start of the output (after whitespace)
}

// appendMarkers appends to ms a marker for each of texts, in order, all with
// act and arg.
func appendMarkers(ms []marker, texts []string, act action, arg int) []marker {
	for _, t := range texts {
		ms = append(ms, marker{text: t, act: act, arg: arg})
	}
	return ms
}

// matcher finds the earliest of a set of markers in a byte slice and tells
// whether the slice ends with a proper prefix of one (which must be held).
//
// Matching is byte-exact; markers may contain multi-byte characters and a
// chunk boundary may fall anywhere inside them, including inside a rune.
type matcher struct {
	ms     []marker
	first  [256]bool // first bytes of the markers
	one    byte      // the first bytes when nfirst <= 2 (two == one when nfirst == 1)
	two    byte
	ones   uint64 // one and two in every byte of a word (none's operands)
	twos   uint64
	nfirst int
	maxLen int
	// second[c] has bit k set when marker k may start with a second byte
	// c: its second byte is c, or it is shorter than two bytes. wide is
	// set when there are more than 16 markers (second then decides
	// nothing).
	second [256]uint16
	wide   bool
	short  bool // a marker is shorter than two bytes
	// words holds the first 8 bytes of each marker's text (zero-padded)
	// and masks the bits of those of them that are the text's, so that at
	// compares a prefix as one word.
	words, masks []uint64
}

func newMatcher(ms ...marker) matcher {
	m := matcher{ms: ms, words: make([]uint64, len(ms)), masks: make([]uint64, len(ms)), wide: len(ms) > 16}
	for k, mk := range ms {
		m.words[k] = prefixWord([]byte(mk.text))
		m.masks[k] = uint64(1)<<(8*min(len(mk.text), 8)) - 1
		m.short = m.short || len(mk.text) < 2
		switch {
		case k >= 16:
		case len(mk.text) < 2:
			for c := range m.second {
				m.second[c] |= 1 << k
			}
		default:
			m.second[mk.text[1]] |= 1 << k
		}
		if mk.text == "" {
			continue
		}
		c := mk.text[0]
		if !m.first[c] {
			m.first[c] = true
			switch m.nfirst {
			case 0:
				m.one, m.two = c, c
			case 1:
				m.two = c
			}
			m.nfirst++
			m.ones, m.twos = uint64(m.one)*lo8, uint64(m.two)*lo8
		}
		m.maxLen = max(m.maxLen, len(mk.text))
	}
	return m
}

// find returns the position of the earliest marker candidate in b.
//
//   - mi >= 0: marker m.ms[mi] starts at pos and is complete (the longest one
//     when several complete markers start there and no longer one is still
//     possible).
//   - mi < 0 and pos < len(b): b[pos:] is a proper prefix of a marker (only
//     possible when final is false); the caller holds b[pos:].
//   - pos == len(b): no marker and no marker prefix.
func (m *matcher) find(b []byte, final bool) (pos, mi int) {
	if m.none(b) {
		// No marker can start in b: the common streamed chunk, decided
		// without the general scan's frame.
		return len(b), -1
	}
	return m.scan(b, final)
}

// none reports, for a streamed chunk (4 to 8 bytes) of a matcher whose
// markers start with at most two distinct bytes, that no marker starts in
// b: find would return (len(b), -1). false means only that find must
// decide.
func (m *matcher) none(b []byte) bool {
	// nfirst == 0 needs no case of its own: one and two are then 0, and
	// a chunk holding a NUL byte goes to find, which finds nothing.
	return m.nfirst <= 2 && uint(len(b)-4) <= 4 && !hasBytesWords(b, m.ones, m.twos)
}

// hasBytesWords reports whether b (4 to 8 bytes) holds the byte repeated
// in every byte of c or of d, tested as two overlapping words.
func hasBytesWords(b []byte, c, d uint64) bool {
	x := uint64(binary.LittleEndian.Uint32(b)) | uint64(binary.LittleEndian.Uint32(b[len(b)-4:]))<<32
	y, z := x^c, x^d
	return ((y-lo8)&^y|(z-lo8)&^z)&hi8 != 0
}

// scan is find's general case.
func (m *matcher) scan(b []byte, final bool) (pos, mi int) {
	i := 0
	for i < len(b) {
		if m.nfirst == 1 {
			var j int
			if r := b[i:]; len(r) >= 4 && len(r) <= 8 {
				j = indexByteWords(r, m.one)
			} else {
				j = bytes.IndexByte(r, m.one)
			}
			if j < 0 {
				return len(b), -1
			}
			i += j
		} else {
			for i < len(b) && !m.first[b[i]] {
				i++
			}
			if i == len(b) {
				return len(b), -1
			}
		}
		if mi, partial := m.at(b[i:], final); mi >= 0 || partial {
			return i, mi
		}
		i++
	}
	return len(b), -1
}

// indexByteWords is bytes.IndexByte for 4 to 8 bytes (a streamed chunk),
// tested as two overlapping words instead of through the call.
func indexByteWords(b []byte, c byte) int {
	n := len(b)
	x := uint64(binary.LittleEndian.Uint32(b)) | uint64(binary.LittleEndian.Uint32(b[n-4:]))<<32
	x ^= uint64(c) * lo8
	m := (x - lo8) &^ x & hi8
	if m == 0 {
		return -1
	}
	// The lowest flag is exact: bytes 0-3 of x are b[0:4], bytes 4-7 are
	// b[n-4:n] (a hit there is the first only when b[0:4] has none).
	k := bits.TrailingZeros64(m) / 8
	if k >= 4 {
		k += n - 8
	}
	return k
}

// at reports whether a marker starts exactly at the beginning of b: mi >= 0
// for a complete marker, partial when b is a proper prefix of a longer one
// and more bytes are needed to decide.
func (m *matcher) at(b []byte, final bool) (mi int, partial bool) {
	if len(b) == 1 && !m.short {
		// Every marker is longer: a first byte is a prefix (an '&' or
		// '<' at a chunk's end), decided without the marker loop.
		return -1, !final && m.first[b[0]]
	}
	if m.wide {
		return m.atAll(b, final)
	}
	// Only the markers whose second byte is b[1] can match (usually none:
	// a '<' in text); all of them when b is shorter.
	set := uint16(1)<<len(m.ms) - 1
	if len(b) >= 2 {
		if set = m.second[b[1]]; set == 0 {
			return -1, false
		}
	}
	mi = -1
	wb, bm := prefixWord(b), uint64(1)<<(8*min(len(b), 8))-1
	for ; set != 0; set &= set - 1 {
		k := bits.TrailingZeros16(set)
		if (wb^m.words[k])&bm&m.masks[k] != 0 {
			continue // the first bytes differ: one word compare
		}
		t := m.ms[k].text
		// The first min(len(b), len(t), 8) bytes agree; only a marker
		// longer than 8 bytes has more to compare.
		if len(b) >= len(t) {
			if (len(t) <= 8 || string(b[8:len(t)]) == t[8:]) && (mi < 0 || len(t) > len(m.ms[mi].text)) {
				mi = k
			}
		} else if !final && (len(b) <= 8 || string(b[8:]) == t[8:len(b)]) {
			return -1, true // a longer marker may still follow: undecided
		}
	}
	return mi, false
}

// atAll is at comparing every marker.
func (m *matcher) atAll(b []byte, final bool) (mi int, partial bool) {
	mi = -1
	for k := range m.ms {
		t := m.ms[k].text
		if len(b) > 1 && len(t) > 1 && b[1] != t[1] {
			continue // the common miss, decided without comparing strings
		}
		if len(b) >= len(t) {
			if string(b[:len(t)]) == t && (mi < 0 || len(t) > len(m.ms[mi].text)) {
				mi = k
			}
		} else if !final && string(b) == t[:len(b)] {
			partial = true
		}
	}
	if partial {
		return -1, true
	}
	return mi, false
}

// prefixWord returns the first min(len(b), 8) bytes of b as a
// little-endian word, zero-padded.
func prefixWord(b []byte) uint64 {
	switch n := len(b); {
	case n >= 8:
		return binary.LittleEndian.Uint64(b)
	case n >= 4:
		return uint64(binary.LittleEndian.Uint32(b)) | uint64(binary.LittleEndian.Uint32(b[n-4:]))<<(8*(n-4))
	case n >= 2:
		return uint64(binary.LittleEndian.Uint16(b)) | uint64(binary.LittleEndian.Uint16(b[n-2:]))<<(8*(n-2))
	case n == 1:
		return uint64(b[0])
	}
	return 0
}

// incompleteRune returns how many bytes at the end of b form the start of a
// UTF-8 sequence that is not yet complete (0–3). Such a tail is held so that
// no event ever ends inside a character.
func incompleteRune(b []byte) int {
	n := len(b)
	if n == 0 || b[n-1] < 0x80 {
		return 0
	}
	// Walk back over at most three continuation bytes to the lead byte.
	for k := 1; k <= 3 && k <= n; k++ {
		c := b[n-k]
		if c&0xC0 == 0x80 {
			continue // continuation byte
		}
		need := 0
		switch {
		case c&0xE0 == 0xC0:
			need = 2
		case c&0xF0 == 0xE0:
			need = 3
		case c&0xF8 == 0xF0:
			need = 4
		default:
			return 0 // ASCII or invalid lead: nothing to wait for
		}
		if k < need {
			return k
		}
		return 0
	}
	return 0
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t'
}
