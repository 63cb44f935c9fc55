package jinja

// Python value formatting (patch: python.go is new). Templates are written
// against Python's jinja2, so printed values, repr of containers, json.dumps
// and strftime follow CPython's rules here.

import (
	"encoding/binary"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// pyFloat formats f as Python's repr(float): the shortest round-tripping
// digits, fixed notation with a ".0" for integral values when the decimal
// exponent is in [-4, 16), scientific notation with a two-digit exponent
// otherwise; nan, inf, -inf.
func pyFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	return string(appendPyFloat(nil, f))
}

func appendPyFloat(b []byte, f float64) []byte {
	var tmp [32]byte
	e := strconv.AppendFloat(tmp[:0], f, 'e', -1, 64) // [-]d[.ddd]e±XX
	neg := e[0] == '-'
	if neg {
		e = e[1:]
	}
	epos := strings.IndexByte(string(e), 'e')
	mant, exp := e[:epos], e[epos+1:]
	x, _ := strconv.Atoi(string(exp))
	digits := make([]byte, 0, 20)
	for _, c := range mant {
		if c != '.' {
			digits = append(digits, c)
		}
	}
	if neg {
		b = append(b, '-')
	}
	if x < -4 || x >= 16 {
		b = append(b, digits[0])
		if len(digits) > 1 {
			b = append(b, '.')
			b = append(b, digits[1:]...)
		}
		b = append(b, 'e')
		if x < 0 {
			b = append(b, '-')
			x = -x
		} else {
			b = append(b, '+')
		}
		if x < 10 {
			b = append(b, '0')
		}
		return strconv.AppendInt(b, int64(x), 10)
	}
	if x < 0 {
		b = append(b, '0', '.')
		for i := 0; i < -x-1; i++ {
			b = append(b, '0')
		}
		return append(b, digits...)
	}
	if len(digits) <= x+1 {
		b = append(b, digits...)
		for i := len(digits); i < x+1; i++ {
			b = append(b, '0')
		}
		return append(b, '.', '0')
	}
	b = append(b, digits[:x+1]...)
	b = append(b, '.')
	return append(b, digits[x+1:]...)
}

// jsonOptions are the arguments of Python's json.dumps that templates use.
type jsonOptions struct {
	indent      string // "" with hasIndent=false: single line
	hasIndent   bool
	itemSep     string
	keySep      string
	sortKeys    bool
	ensureASCII bool
}

// jsonDumps is Python's json.dumps(v, ...) for template values: tuples are
// arrays, Markup a string, dict keys that are numbers, booleans or None are
// converted as json.dumps converts them; undefined values, views, iterators
// and objects are not serializable (TypeError).
func jsonDumps(b []byte, v Value, o *jsonOptions, level int) ([]byte, error) {
	if level > maxJSONNesting {
		return b, pyErr("RecursionError", "maximum recursion depth exceeded while encoding a JSON object")
	}
	switch v.kind {
	case KindNone:
		return append(b, "null"...), nil
	case KindBool:
		if v.v.(bool) {
			return append(b, "true"...), nil
		}
		return append(b, "false"...), nil
	case KindInt:
		return strconv.AppendInt(b, v.v.(int64), 10), nil
	case KindFloat:
		return appendJSONFloat(b, v.v.(float64)), nil
	case KindString, KindMarkup:
		return appendJSONString(b, v.v.(string), o.ensureASCII), nil
	case KindList:
		l := v.v.(*List)
		if l.seq != seqList {
			break
		}
		items := l.Items
		if len(items) == 0 {
			return append(b, "[]"...), nil
		}
		b = append(b, '[')
		for i, item := range items {
			if i > 0 {
				b = append(b, o.itemSep...)
			}
			b = o.newline(b, level+1)
			var err error
			if b, err = jsonDumps(b, item, o, level+1); err != nil {
				return b, err
			}
		}
		b = o.newline(b, level)
		return append(b, ']'), nil
	case KindDict:
		d := v.v.(*Dict)
		if len(d.Keys) == 0 {
			return append(b, "{}"...), nil
		}
		keys := d.Keys
		var names []string // the JSON text of non-string keys, by position
		if d.keyVals != nil {
			names = make([]string, len(keys))
			for i, k := range keys {
				kv := d.keyValue(k)
				switch kv.kind {
				case KindString:
					names[i] = k
				case KindInt, KindBool, KindNone:
					names[i] = string(appendJSONKey(nil, kv))
				case KindFloat:
					names[i] = string(appendJSONFloat(nil, kv.AsFloat()))
				default:
					return b, typeError("keys must be str, int, float, bool or None, not " + strings.Trim(pyTypeName(kv), "'"))
				}
			}
		}
		var order []int
		if o.sortKeys {
			order = make([]int, len(keys))
			for i := range order {
				order[i] = i
			}
			var sortErr error
			sort.SliceStable(order, func(i, j int) bool {
				if names == nil {
					return keys[order[i]] < keys[order[j]]
				}
				less, err := pyLess(d.keyValue(keys[order[i]]), d.keyValue(keys[order[j]]))
				if err != nil && sortErr == nil {
					sortErr = err
				}
				return less
			})
			if sortErr != nil {
				return b, sortErr
			}
		}
		b = append(b, '{')
		for n := range keys {
			i := n
			if order != nil {
				i = order[n]
			}
			if n > 0 {
				b = append(b, o.itemSep...)
			}
			b = o.newline(b, level+1)
			name := keys[i]
			if names != nil {
				name = names[i]
			}
			b = appendJSONString(b, name, o.ensureASCII)
			b = append(b, o.keySep...)
			var err error
			if b, err = jsonDumps(b, d.Data[keys[i]], o, level+1); err != nil {
				return b, err
			}
		}
		b = o.newline(b, level)
		return append(b, '}'), nil
	}
	name := strings.Trim(pyTypeName(v), "'")
	return b, typeError("Object of type " + name + " is not JSON serializable")
}

// maxJSONNesting bounds tojson's recursion (Python stops at its recursion
// limit too).
const maxJSONNesting = 900

// appendJSONFloat is json.dumps' float: repr, or NaN/Infinity/-Infinity.
func appendJSONFloat(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, "NaN"...)
	case math.IsInf(f, 1):
		return append(b, "Infinity"...)
	case math.IsInf(f, -1):
		return append(b, "-Infinity"...)
	}
	return appendPyFloat(b, f)
}

// appendJSONKey is the key json.dumps writes for an int, bool or None key.
func appendJSONKey(b []byte, k Value) []byte {
	switch k.kind {
	case KindBool:
		if k.AsBool() {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case KindNone:
		return append(b, "null"...)
	}
	return strconv.AppendInt(b, toInt64(k), 10)
}

func (o *jsonOptions) newline(b []byte, level int) []byte {
	if !o.hasIndent {
		return b
	}
	b = append(b, '\n')
	for i := 0; i < level; i++ {
		b = append(b, o.indent...)
	}
	return b
}

const hexDigits = "0123456789abcdef"

// appendJSONString escapes s as Python's json.dumps does: ", \, \b \f \n \r
// \t and other control characters as \u00xx; with ensureASCII also every
// rune outside printable ASCII (as UTF-16 \uxxxx escapes).
func appendJSONString(b []byte, s string, ensureASCII bool) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		if !ensureASCII {
			if j := plainRunString(s, i); j > i {
				b = append(b, s[i:j]...)
				i = j
				if i == len(s) {
					break
				}
			}
		}
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && (c < 0x7f || (!ensureASCII && c >= 0x80)) {
			j := i + 1
			for j < len(s) && s[j] >= 0x20 && s[j] != '"' && s[j] != '\\' && (s[j] < 0x7f || (!ensureASCII && s[j] >= 0x80)) {
				j++
			}
			b = append(b, s[i:j]...)
			i = j
			continue
		}
		if c == 0x7f && !ensureASCII {
			b = append(b, c)
			i++
			continue
		}
		switch c {
		case '"':
			b = append(b, '\\', '"')
		case '\\':
			b = append(b, '\\', '\\')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			if c < 0x80 {
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
				break
			}
			r, n := utf8.DecodeRuneInString(s[i:])
			if r >= 0x10000 {
				r -= 0x10000
				hi, lo := 0xd800+(r>>10), 0xdc00+(r&0x3ff)
				b = appendU4(b, hi)
				b = appendU4(b, lo)
			} else {
				b = appendU4(b, r)
			}
			i += n
			continue
		}
		i++
	}
	return append(b, '"')
}

func appendU4(b []byte, r rune) []byte {
	return append(b, '\\', 'u', hexDigits[r>>12&0xf], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf])
}

// tojsonOptions binds the arguments of transformers' tojson filter,
// tojson(x, ensure_ascii=False, indent=None, separators=None,
// sort_keys=False), positionally or by keyword, with json.dumps' defaults.
func tojsonOptions(args []Value, kw kwargs) (*jsonOptions, error) {
	var buf [4]Value
	p, err := bindInto(buf[:], "tojson", args, kw, tojsonParams, 0, tojsonDefaults)
	if err != nil {
		return nil, err
	}
	o := &jsonOptions{itemSep: ", ", keySep: ": ", ensureASCII: p[0].IsTruthy(), sortKeys: p[3].IsTruthy()}
	if indent := p[1]; !indent.IsNone() {
		o.hasIndent = true
		o.itemSep = ","
		switch {
		case indent.IsString():
			o.indent = indent.AsString()
		case indent.kind == KindInt || indent.kind == KindBool:
			if n := toInt64(indent); n > 0 {
				o.indent = strings.Repeat(" ", int(min(n, 1<<10)))
			}
		default:
			return nil, typeError("can't multiply sequence by non-int of type " + pyTypeName(indent))
		}
	}
	if sep := p[2]; !sep.IsNone() {
		items, err := iterate(sep)
		if err != nil {
			return nil, err
		}
		if len(items) != 2 || !items[0].IsString() || !items[1].IsString() {
			return nil, valueError("separators must be a pair of strings")
		}
		o.itemSep, o.keySep = items[0].AsString(), items[1].AsString()
	}
	return o, nil
}

var (
	tojsonParams   = []string{"ensure_ascii", "indent", "separators", "sort_keys"}
	tojsonDefaults = []Value{NewBool(false), None(), None(), NewBool(false)}
)

var (
	longDays   = [...]string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	longMonths = [...]string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
)

// Strftime formats t as Python's datetime.strftime on a naive datetime (C
// locale, glibc): %Z and %z are empty; glibc's %-d style flags drop padding;
// unknown directives are kept as written.
func Strftime(t time.Time, format string) string {
	var b []byte
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 >= len(format) {
			b = append(b, c)
			continue
		}
		i++
		pad := true
		if format[i] == '-' && i+1 < len(format) {
			pad = false
			i++
		}
		num := func(n, width int) {
			s := strconv.Itoa(n)
			if pad {
				for k := len(s); k < width; k++ {
					b = append(b, '0')
				}
			}
			b = append(b, s...)
		}
		switch format[i] {
		case 'Y':
			b = strconv.AppendInt(b, int64(t.Year()), 10)
		case 'y':
			num(t.Year()%100, 2)
		case 'm':
			num(int(t.Month()), 2)
		case 'd':
			num(t.Day(), 2)
		case 'e':
			s := strconv.Itoa(t.Day())
			if len(s) < 2 && pad {
				b = append(b, ' ')
			}
			b = append(b, s...)
		case 'H':
			num(t.Hour(), 2)
		case 'I':
			h := t.Hour() % 12
			if h == 0 {
				h = 12
			}
			num(h, 2)
		case 'M':
			num(t.Minute(), 2)
		case 'S':
			num(t.Second(), 2)
		case 'f':
			num(t.Nanosecond()/1000, 6)
		case 'j':
			num(t.YearDay(), 3)
		case 'p':
			if t.Hour() < 12 {
				b = append(b, "AM"...)
			} else {
				b = append(b, "PM"...)
			}
		case 'A':
			b = append(b, longDays[t.Weekday()]...)
		case 'a':
			b = append(b, longDays[t.Weekday()][:3]...)
		case 'B':
			b = append(b, longMonths[t.Month()-1]...)
		case 'b', 'h':
			b = append(b, longMonths[t.Month()-1][:3]...)
		case 'w':
			b = strconv.AppendInt(b, int64(t.Weekday()), 10)
		case 'Z', 'z':
		case '%':
			b = append(b, '%')
		default:
			b = append(b, '%')
			if !pad {
				b = append(b, '-')
			}
			b = append(b, format[i])
		}
	}
	return string(b)
}

// PlainRun returns the end of the run of bytes of s from i that a JSON
// string holds without escaping: no '"', no '\\' and no control character
// below 0x20. It tests eight bytes at a time.
func PlainRun(s []byte, i int) int {
	for ; i+8 <= len(s); i += 8 {
		if wordNeedsEscape(binary.LittleEndian.Uint64(s[i:])) {
			break
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c == '"' || c == '\\' || c < 0x20 {
			return i
		}
	}
	return i
}

// plainRunString is PlainRun for a string.
func plainRunString(s string, i int) int {
	for ; i+8 <= len(s); i += 8 {
		x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if wordNeedsEscape(x) {
			break
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c == '"' || c == '\\' || c < 0x20 {
			return i
		}
	}
	return i
}

// wordNeedsEscape reports whether one of the eight bytes of x may be '"',
// '\\' or below 0x20 (no false negatives; a false positive only sends the
// word to the byte loop).
func wordNeedsEscape(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	q := x ^ (ones * '"')
	b := x ^ (ones * '\\')
	return ((x-ones*0x20)&^x|(q-ones)&^q|(b-ones)&^b)&highs != 0
}
