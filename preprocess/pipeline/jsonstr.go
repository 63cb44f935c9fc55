package pipeline

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"
	"unsafe"
)

const hexDigits = "0123456789abcdef"

// appendString appends s as a quoted JSON string, escaping the way the
// protocols emitters do (encoding/json without HTML escaping: '"', '\\',
// control characters; invalid UTF-8 as U+FFFD; U+2028/U+2029 escaped). It
// allocates only when dst lacks capacity.
func appendString(dst, s []byte) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' {
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
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// appendStr is appendString for a string (no copy).
func appendStr(dst []byte, s string) []byte {
	return appendString(dst, unsafe.Slice(unsafe.StringData(s), len(s)))
}

func appendInt(dst []byte, n int64) []byte { return strconv.AppendInt(dst, n, 10) }

// appendFloat writes f as a JSON number; -Inf (an impossible token) is
// written as -9999.0, the value vLLM reports, and NaN as 0.
func appendFloat(dst []byte, f float64) []byte {
	switch {
	case math.IsInf(f, -1):
		return append(dst, "-9999.0"...)
	case math.IsInf(f, 1):
		return append(dst, "9999.0"...)
	case math.IsNaN(f):
		return append(dst, '0')
	}
	return strconv.AppendFloat(dst, f, 'g', -1, 64)
}

// MarshalJSON encodes v as encoding/json does but without HTML escaping:
// '<', '>' and '&' are written as they are, as the official APIs and SDKs
// write them (encoding/json's Marshal would turn "N tokens > M" into
// "N tokens \u003e M", also inside the output of MarshalJSON methods).
func MarshalJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'}), nil
}
