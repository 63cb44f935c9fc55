package jsonx

import (
	"unicode/utf16"
	"unicode/utf8"
)

// UnquoteState is the result of AppendUnquoted.
type UnquoteState uint8

const (
	// UnquoteMore: src ended inside the string; pass the unconsumed bytes
	// again with more input.
	UnquoteMore UnquoteState = iota
	// UnquoteClosed: the closing quote was found.
	UnquoteClosed
	// UnquoteInvalid: src holds an invalid escape or a control character.
	UnquoteInvalid
)

// AppendUnquoted decodes the content of a JSON string (src starts after the
// opening quote, or anywhere inside the content) onto dst. It stops at the
// closing quote, at an escape that src cuts short (so that streamed input
// can be decoded piece by piece: keep src[n:] and pass it again with the
// next piece), or at invalid input. n is the number of bytes of src
// consumed (the closing quote included). Lone surrogates become U+FFFD. It
// does not allocate beyond growing dst.
func AppendUnquoted(dst, src []byte) (out []byte, n int, st UnquoteState) {
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == '"':
			return dst, i + 1, UnquoteClosed
		case c < 0x20:
			return dst, i, UnquoteInvalid
		case c != '\\':
			j := i + 1
			for j < len(src) && src[j] != '"' && src[j] != '\\' && src[j] >= 0x20 {
				j++
			}
			dst = append(dst, src[i:j]...)
			i = j
			continue
		}
		if i+1 >= len(src) {
			return dst, i, UnquoteMore
		}
		switch e := src[i+1]; e {
		case '"', '\\', '/':
			dst = append(dst, e)
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, size, ok := unicodeEscape(src[i:])
			if size == 0 {
				if ok {
					return dst, i, UnquoteMore
				}
				return dst, i, UnquoteInvalid
			}
			dst = utf8.AppendRune(dst, r)
			i += size
			continue
		default:
			return dst, i, UnquoteInvalid
		}
		i += 2
	}
	return dst, i, UnquoteMore
}

// unicodeEscape decodes \uXXXX (and a following low surrogate) at the
// start of s. size 0 with ok means s is cut short; size 0 without ok means
// invalid.
func unicodeEscape(s []byte) (r rune, size int, ok bool) {
	if len(s) < 6 {
		for _, h := range s[2:] {
			if !isHex(h) {
				return 0, 0, false
			}
		}
		return 0, 0, true
	}
	r1, ok := hex4(s[2:6])
	if !ok {
		return 0, 0, false
	}
	if !utf16.IsSurrogate(r1) {
		return r1, 6, true
	}
	if r1 >= 0xDC00 { // a low surrogate first
		return utf8.RuneError, 6, true
	}
	// a high surrogate: is a low one next?
	if len(s) < 12 {
		if len(s) == 6 || s[6] == '\\' && (len(s) == 7 || s[7] == 'u') {
			return 0, 0, true // wait for the rest
		}
		return utf8.RuneError, 6, true
	}
	if s[6] != '\\' || s[7] != 'u' {
		return utf8.RuneError, 6, true
	}
	r2, ok := hex4(s[8:12])
	if !ok {
		return 0, 0, false
	}
	if d := utf16.DecodeRune(r1, r2); d != utf8.RuneError {
		return d, 12, true
	}
	return utf8.RuneError, 6, true
}

func hex4(s []byte) (rune, bool) {
	var r rune
	for _, h := range s[:4] {
		switch {
		case '0' <= h && h <= '9':
			r = r<<4 | rune(h-'0')
		case 'a' <= h && h <= 'f':
			r = r<<4 | rune(h-'a'+10)
		case 'A' <= h && h <= 'F':
			r = r<<4 | rune(h-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
