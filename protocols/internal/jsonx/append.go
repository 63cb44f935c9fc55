package jsonx

import (
	"strconv"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// safe[b] is true for ASCII bytes that appear unescaped inside a JSON string.
var safe = func() (t [utf8.RuneSelf]bool) {
	for b := 0x20; b < utf8.RuneSelf; b++ {
		t[b] = b != '"' && b != '\\'
	}
	return t
}()

// AppendString appends s as a quoted JSON string to dst and returns the
// extended slice. It escapes like encoding/json with HTML escaping turned off:
// '"', '\\' and control characters are escaped, invalid UTF-8 becomes U+FFFD
// and U+2028/U+2029 are written as \u2028/\u2029 (JavaScript line
// terminators). It allocates only when dst lacks capacity.
func AppendString[S ~string | ~[]byte](dst []byte, s S) []byte {
	dst = append(dst, '"')
	dst = AppendStringContent(dst, s)
	return append(dst, '"')
}

// AppendStringContent is AppendString without the surrounding quotes, for
// callers that build one JSON string out of several pieces.
func AppendStringContent[S ~string | ~[]byte](dst []byte, s S) []byte {
	start := 0
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			if safe[b] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '"', '\\':
				dst = append(dst, '\\', b)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := decodeRune(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	return append(dst, s[start:]...)
}

// decodeRune decodes the UTF-8 sequence at the start of s (len(s) > 0, s[0]
// ≥ 0x80) like utf8.DecodeRune, by indexing, so that it works on both string
// and []byte without converting (which could allocate).
func decodeRune[S ~string | ~[]byte](s S) (rune, int) {
	const (
		t2, t3, t4 = 0xC0, 0xE0, 0xF0
		mask       = 0x3F
	)
	n := len(s)
	c0 := s[0]
	cont := func(i int) (byte, bool) {
		if i >= n {
			return 0, false
		}
		c := s[i]
		return c, c&0xC0 == 0x80
	}
	switch {
	case c0 < 0xC2 || c0 > 0xF4:
		return utf8.RuneError, 1
	case c0 < t3:
		c1, ok := cont(1)
		if !ok {
			return utf8.RuneError, 1
		}
		return rune(c0&0x1F)<<6 | rune(c1&mask), 2
	case c0 < t4:
		c1, ok := cont(1)
		if !ok || (c0 == 0xE0 && c1 < 0xA0) || (c0 == 0xED && c1 > 0x9F) {
			return utf8.RuneError, 1
		}
		c2, ok := cont(2)
		if !ok {
			return utf8.RuneError, 1
		}
		return rune(c0&0x0F)<<12 | rune(c1&mask)<<6 | rune(c2&mask), 3
	default:
		c1, ok := cont(1)
		if !ok || (c0 == 0xF0 && c1 < 0x90) || (c0 == 0xF4 && c1 > 0x8F) {
			return utf8.RuneError, 1
		}
		c2, ok := cont(2)
		if !ok {
			return utf8.RuneError, 1
		}
		c3, ok := cont(3)
		if !ok {
			return utf8.RuneError, 1
		}
		return rune(c0&0x07)<<18 | rune(c1&mask)<<12 | rune(c2&mask)<<6 | rune(c3&mask), 4
	}
}

// AppendInt appends the decimal form of n.
func AppendInt(dst []byte, n int64) []byte { return strconv.AppendInt(dst, n, 10) }

// AppendUint appends the decimal form of n.
func AppendUint(dst []byte, n uint64) []byte { return strconv.AppendUint(dst, n, 10) }

// AppendBool appends true or false.
func AppendBool(dst []byte, b bool) []byte { return strconv.AppendBool(dst, b) }

// AppendFloat appends f the way encoding/json writes a float64.
func AppendFloat(dst []byte, f float64) []byte {
	abs := f
	if abs < 0 {
		abs = -abs
	}
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9 like encoding/json
		n := len(dst)
		if n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}
