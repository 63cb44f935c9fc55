package parsers

import (
	"encoding/binary"
	"math/bits"
)

// Word-at-a-time byte classification for the streaming hot paths. A
// streamed chunk is a few bytes, so a table loop costs several instructions
// per byte; these helpers test 8 (or 4) bytes with a handful of integer
// operations. Each has a byte-loop twin in bytescan_test.go that it must
// agree with on every input.

const (
	lo8 = 0x0101010101010101
	hi8 = 0x8080808080808080
	lo4 = 0x01010101
	hi4 = 0x80808080
)

// plainWords is plainArgs for 4 to 8 bytes (a streamed fragment): two
// overlapping words cover them.
func plainWords(b []byte) bool {
	x := uint64(binary.LittleEndian.Uint32(b)) | uint64(binary.LittleEndian.Uint32(b[len(b)-4:]))<<32
	y := x ^ ('\\' * lo8)
	return (x|(y-lo8)&^y)&hi8 == 0
}

// plainArgs reports whether b is ASCII without a backslash: nothing for the
// argument filter to decide.
func plainArgs(b []byte) bool {
	for len(b) >= 8 {
		x := binary.LittleEndian.Uint64(b)
		y := x ^ ('\\' * lo8)
		if (x|(y-lo8)&^y)&hi8 != 0 {
			return false
		}
		b = b[8:]
	}
	if len(b) >= 4 {
		x := binary.LittleEndian.Uint32(b)
		y := x ^ ('\\' * lo4)
		if (x|(y-lo4)&^y)&hi4 != 0 {
			return false
		}
		b = b[4:]
	}
	for _, c := range b {
		if c == '\\' || c >= 0x80 {
			return false
		}
	}
	return true
}

// strRun returns the length of the prefix of b that holds no strStop byte
// (a quote, a backslash or a control character): the bytes a JSON string
// scan passes over unchanged.
func strRun(b []byte) int {
	i := 0
	for len(b)-i >= 8 {
		if m := strStop8(binary.LittleEndian.Uint64(b[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
		i += 8
	}
	if len(b)-i >= 4 {
		if m := strStop4(binary.LittleEndian.Uint32(b[i:])); m != 0 {
			return i + bits.TrailingZeros32(m)/8
		}
		i += 4
	}
	for i < len(b) && !strStop[b[i]] {
		i++
	}
	return i
}

// strStop8 sets the high bit of the lowest byte of x that strStop marks
// (bytes above it may be flagged too: only the lowest flag is exact), or
// returns 0 when no byte is marked. A byte below 0x20, or one equal to '"' or
// '\\', is found with the classic has-less / has-zero word tests.
func strStop8(x uint64) uint64 {
	q := x ^ ('"' * lo8)
	s := x ^ ('\\' * lo8)
	return ((x-0x20*lo8)&^x | (q-lo8)&^q | (s-lo8)&^s) & hi8
}

// strStop4 is strStop8 for four bytes.
func strStop4(x uint32) uint32 {
	q := x ^ ('"' * lo4)
	s := x ^ ('\\' * lo4)
	return ((x-0x20*lo4)&^x | (q-lo4)&^q | (s-lo4)&^s) & hi4
}
