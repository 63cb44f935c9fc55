package chattemplate

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/agentwire/agentwire/preprocess/chattemplate/internal/jinja"
)

// maxJSONDepth bounds the nesting of template inputs; deeper JSON is rejected
// instead of recursing without limit.
const maxJSONDepth = 512

var errJSONDepth = errors.New("chattemplate: JSON nested deeper than 512 levels")

// decodeJSON turns one JSON value into an engine value the way Python's
// json.loads does: objects keep their key order (a repeated key keeps its
// first position and its last value), numbers without a fraction or exponent
// are integers and all others floats, and strings are unescaped. Integers
// beyond the int64 range become floats (Python would keep them exact).
func decodeJSON(data []byte) (jinja.Value, error) {
	// One copy of the input: strings without escapes are slices of it,
	// instead of one allocation each. Decoders (their scratch buffers) are
	// pooled.
	d := decoderPool.Get().(*jsonDecoder)
	defer d.release()
	d.data, d.src, d.pos = data, string(data), 0
	d.skipSpace()
	v, err := d.value(0)
	if err != nil {
		return jinja.Undefined(), err
	}
	d.skipSpace()
	if d.pos != len(d.data) {
		return jinja.Undefined(), d.errorf("trailing data")
	}
	return v, nil
}

var decoderPool = sync.Pool{New: func() any { return new(jsonDecoder) }}

// release returns d to the pool without references to the decoded values
// or input; oversized scratch space is dropped.
func (d *jsonDecoder) release() {
	clear(d.vals[:cap(d.vals)])
	clear(d.keys[:cap(d.keys)])
	d.data, d.src, d.keys, d.vals = nil, "", d.keys[:0], d.vals[:0]
	if cap(d.buf) > 1<<20 || cap(d.vals) > 1<<16 {
		return
	}
	decoderPool.Put(d)
}

type jsonDecoder struct {
	data []byte
	src  string // the same bytes as data
	pos  int
	buf  []byte
	// keys and vals are stacks of the members of the objects being
	// decoded; each object takes its members off the top when it closes.
	keys []string
	vals []jinja.Value
}

func (d *jsonDecoder) errorf(format string, args ...any) error {
	return fmt.Errorf("chattemplate: invalid JSON at offset %d: %s", d.pos, fmt.Sprintf(format, args...))
}

func (d *jsonDecoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *jsonDecoder) value(depth int) (jinja.Value, error) {
	if depth > maxJSONDepth {
		return jinja.Undefined(), errJSONDepth
	}
	if d.pos >= len(d.data) {
		return jinja.Undefined(), d.errorf("unexpected end")
	}
	switch c := d.data[d.pos]; {
	case c == '{':
		return d.object(depth)
	case c == '[':
		return d.array(depth)
	case c == '"':
		s, err := d.str()
		if err != nil {
			return jinja.Undefined(), err
		}
		return jinja.NewString(s), nil
	case c == 't':
		return d.literal("true", jinja.NewBool(true))
	case c == 'f':
		return d.literal("false", jinja.NewBool(false))
	case c == 'n':
		return d.literal("null", jinja.None())
	case c == '-' || (c >= '0' && c <= '9'):
		return d.number()
	default:
		return jinja.Undefined(), d.errorf("unexpected %q", c)
	}
}

func (d *jsonDecoder) literal(word string, v jinja.Value) (jinja.Value, error) {
	if len(d.data)-d.pos < len(word) || string(d.data[d.pos:d.pos+len(word)]) != word {
		return jinja.Undefined(), d.errorf("invalid literal")
	}
	d.pos += len(word)
	return v, nil
}

func (d *jsonDecoder) object(depth int) (jinja.Value, error) {
	d.pos++ // {
	baseK, baseV := len(d.keys), len(d.vals)
	done := func() jinja.Value {
		v := jinja.NewDictFrom(d.keys[baseK:], d.vals[baseV:])
		d.keys, d.vals = d.keys[:baseK], d.vals[:baseV]
		return v
	}
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return done(), nil
	}
	for {
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			return jinja.Undefined(), d.errorf("expected object key")
		}
		key, err := d.str()
		if err != nil {
			return jinja.Undefined(), err
		}
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return jinja.Undefined(), d.errorf("expected ':'")
		}
		d.pos++
		d.skipSpace()
		v, err := d.value(depth + 1)
		if err != nil {
			return jinja.Undefined(), err
		}
		d.keys = append(d.keys, key)
		d.vals = append(d.vals, v)
		d.skipSpace()
		if d.pos >= len(d.data) {
			return jinja.Undefined(), d.errorf("unexpected end in object")
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
		case '}':
			d.pos++
			return done(), nil
		default:
			return jinja.Undefined(), d.errorf("expected ',' or '}'")
		}
	}
}

func (d *jsonDecoder) array(depth int) (jinja.Value, error) {
	d.pos++ // [
	base := len(d.vals)
	done := func() jinja.Value {
		var items []jinja.Value
		if n := len(d.vals) - base; n > 0 {
			items = make([]jinja.Value, n)
			copy(items, d.vals[base:])
		}
		d.vals = d.vals[:base]
		return jinja.NewList(items)
	}
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		return done(), nil
	}
	for {
		d.skipSpace()
		v, err := d.value(depth + 1)
		if err != nil {
			return jinja.Undefined(), err
		}
		d.vals = append(d.vals, v)
		d.skipSpace()
		if d.pos >= len(d.data) {
			return jinja.Undefined(), d.errorf("unexpected end in array")
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
		case ']':
			d.pos++
			return done(), nil
		default:
			return jinja.Undefined(), d.errorf("expected ',' or ']'")
		}
	}
}

func (d *jsonDecoder) number() (jinja.Value, error) {
	start := d.pos
	isFloat := false
	if d.data[d.pos] == '-' {
		d.pos++
	}
	digits := d.pos
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		switch {
		case c >= '0' && c <= '9':
		case c == '.' || c == 'e' || c == 'E' || c == '+' || (c == '-' && d.pos > digits):
			isFloat = true
		default:
			goto done
		}
		d.pos++
	}
done:
	text := string(d.data[start:d.pos])
	if d.pos == digits || !validJSONNumber(text) {
		return jinja.Undefined(), d.errorf("invalid number %q", text)
	}
	if !isFloat {
		if n, err := strconv.ParseInt(text, 10, 64); err == nil {
			return jinja.NewInt(n), nil
		}
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil && !math.IsInf(f, 0) {
		return jinja.Undefined(), d.errorf("invalid number %q", text)
	}
	return jinja.NewFloat(f), nil
}

// validJSONNumber checks the JSON number grammar (no leading zeros, digits
// after '.', digits in the exponent).
func validJSONNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	if i >= len(s) {
		return false
	}
	if s[i] == '0' {
		i++
	} else if s[i] >= '1' && s[i] <= '9' {
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	} else {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		n := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == n {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		n := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == n {
			return false
		}
	}
	return i == len(s)
}

// str reads a JSON string starting at the opening quote. Invalid UTF-8 and
// lone surrogate escapes become U+FFFD.
func (d *jsonDecoder) str() (string, error) {
	d.pos++ // opening quote
	start := d.pos
	d.pos = d.plainRun(d.pos)
	// Fast path: no escapes (the string is a slice of the input copy).
	if d.pos < len(d.data) && d.data[d.pos] == '"' {
		s := d.src[start:d.pos]
		d.pos++
		if utf8.ValidString(s) {
			return s, nil
		}
		return string([]rune(s)), nil
	}
	d.buf = append(d.buf[:0], d.data[start:d.pos]...)
	for d.pos < len(d.data) {
		switch c := d.data[d.pos]; {
		case c == '"':
			d.pos++
			if utf8.Valid(d.buf) {
				return string(d.buf), nil
			}
			return string([]rune(string(d.buf))), nil
		case c < 0x20:
			return "", d.errorf("control character in string")
		}
		// A backslash escape.
		d.pos++
		if d.pos >= len(d.data) {
			break
		}
		e := d.data[d.pos]
		d.pos++
		switch e {
		case '"', '\\', '/':
			d.buf = append(d.buf, e)
		case 'b':
			d.buf = append(d.buf, '\b')
		case 'f':
			d.buf = append(d.buf, '\f')
		case 'n':
			d.buf = append(d.buf, '\n')
		case 'r':
			d.buf = append(d.buf, '\r')
		case 't':
			d.buf = append(d.buf, '\t')
		case 'u':
			r, ok := d.hex4()
			if !ok {
				return "", d.errorf("invalid \\u escape")
			}
			if utf16.IsSurrogate(r) {
				r2 := rune(utf8.RuneError)
				if d.pos+1 < len(d.data) && d.data[d.pos] == '\\' && d.data[d.pos+1] == 'u' {
					save := d.pos
					d.pos += 2
					if lo, ok := d.hex4(); ok {
						r2 = utf16.DecodeRune(r, lo)
					}
					if r2 == utf8.RuneError {
						d.pos = save
					}
				}
				r = r2
			}
			d.buf = utf8.AppendRune(d.buf, r)
		default:
			return "", d.errorf("invalid escape %q", e)
		}
		end := d.plainRun(d.pos)
		d.buf = append(d.buf, d.data[d.pos:end]...)
		d.pos = end
	}
	return "", d.errorf("unterminated string")
}

// plainRun returns the end of the run of string bytes from i that need no
// decoding (no quote, backslash or control character).
func (d *jsonDecoder) plainRun(i int) int { return jinja.PlainRun(d.data, i) }

func (d *jsonDecoder) hex4() (rune, bool) {
	if len(d.data)-d.pos < 4 {
		return 0, false
	}
	var r rune
	for _, c := range d.data[d.pos : d.pos+4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	d.pos += 4
	return r, true
}
