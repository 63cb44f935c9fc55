package jinja

// Python value formatting (patch: python.go is new). Templates are written
// against Python's jinja2, so printed values, repr of containers, json.dumps
// and strftime follow CPython's rules here.

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
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

// pyStr is Python's str(value) as jinja2 prints it in {{ }}: strings raw,
// None as "None", undefined as "", containers as their repr.
func pyStr(v Value) string {
	switch v.kind {
	case KindUndefined:
		return ""
	case KindNone:
		return "None"
	case KindBool:
		if v.v.(bool) {
			return "True"
		}
		return "False"
	case KindInt:
		return strconv.FormatInt(v.v.(int64), 10)
	case KindFloat:
		return pyFloat(v.v.(float64))
	case KindString:
		return v.v.(string)
	case KindCallable:
		return fmt.Sprintf("<function %s>", v.v.(Callable).Name)
	}
	return string(appendPyRepr(nil, v))
}

// appendPyRepr appends Python's repr(value).
func appendPyRepr(b []byte, v Value) []byte {
	switch v.kind {
	case KindString:
		return appendPyStrRepr(b, v.v.(string))
	case KindList:
		l := v.v.(*List)
		open, close := byte('['), byte(']')
		if l.Tuple {
			open, close = '(', ')'
		}
		b = append(b, open)
		for i, item := range l.Items {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendPyRepr(b, item)
		}
		if l.Tuple && len(l.Items) == 1 {
			b = append(b, ',')
		}
		return append(b, close)
	case KindDict:
		d := v.v.(*Dict)
		b = append(b, '{')
		for i, k := range d.Keys {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendPyStrRepr(b, k)
			b = append(b, ": "...)
			b = appendPyRepr(b, d.Data[k])
		}
		return append(b, '}')
	case KindUndefined:
		return b
	}
	return append(b, pyStr(v)...)
}

// appendPyStrRepr appends Python's repr(str): single quotes unless the text
// holds a single quote and no double quote; backslash escapes for the quote,
// backslash, \t \n \r, and \x.. \u.... \U........ for unprintable runes.
func appendPyStrRepr(b []byte, s string) []byte {
	q := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		q = '"'
	}
	b = append(b, q)
	for _, r := range s {
		switch {
		case r == rune(q) || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\t':
			b = append(b, '\\', 't')
		case r == '\n':
			b = append(b, '\\', 'n')
		case r == '\r':
			b = append(b, '\\', 'r')
		case r < 0x20 || r == 0x7f:
			b = fmt.Appendf(b, "\\x%02x", r)
		case r < 0x80 || unicode.IsPrint(r):
			b = utf8.AppendRune(b, r)
		case r < 0x100:
			b = fmt.Appendf(b, "\\x%02x", r)
		case r < 0x10000:
			b = fmt.Appendf(b, "\\u%04x", r)
		default:
			b = fmt.Appendf(b, "\\U%08x", r)
		}
	}
	return append(b, q)
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

// jsonDumps is Python's json.dumps(v, ...) for template values. Undefined
// and callables are not serializable (TypeError in Python).
func jsonDumps(b []byte, v Value, o *jsonOptions, level int) ([]byte, error) {
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
		f := v.v.(float64)
		switch {
		case math.IsNaN(f):
			return append(b, "NaN"...), nil
		case math.IsInf(f, 1):
			return append(b, "Infinity"...), nil
		case math.IsInf(f, -1):
			return append(b, "-Infinity"...), nil
		}
		return appendPyFloat(b, f), nil
	case KindString:
		return appendJSONString(b, v.v.(string), o.ensureASCII), nil
	case KindList:
		items := v.v.(*List).Items
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
		if o.sortKeys {
			keys = append([]string(nil), keys...)
			sort.Strings(keys)
		}
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, o.itemSep...)
			}
			b = o.newline(b, level+1)
			b = appendJSONString(b, k, o.ensureASCII)
			b = append(b, o.keySep...)
			var err error
			if b, err = jsonDumps(b, d.Data[k], o, level+1); err != nil {
				return b, err
			}
		}
		b = o.newline(b, level)
		return append(b, '}'), nil
	case KindUndefined:
		return b, fmt.Errorf("TypeError: Object of type Undefined is not JSON serializable")
	}
	return b, fmt.Errorf("TypeError: Object of type function is not JSON serializable")
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

// tojsonOptions reads tojson's keyword arguments (indent, separators,
// sort_keys, ensure_ascii) with json.dumps' defaults.
func tojsonOptions(args []Value, kwargs map[string]Value) (*jsonOptions, error) {
	o := &jsonOptions{itemSep: ", ", keySep: ": "}
	indent, ok := kwargs["indent"]
	if !ok && len(args) > 1 {
		indent, ok = args[1], true
	}
	if ok && !indent.IsNone() && !indent.IsUndefined() {
		o.hasIndent = true
		o.itemSep = ","
		switch {
		case indent.IsString():
			o.indent = indent.AsString()
		case indent.IsInt() || indent.IsBool():
			n := toInt64(indent)
			if n > 64 {
				n = 64
			}
			if n > 0 {
				o.indent = strings.Repeat(" ", int(n))
			}
		default:
			return nil, fmt.Errorf("tojson: indent must be an integer or a string")
		}
	}
	if sep, ok := kwargs["separators"]; ok && !sep.IsNone() && !sep.IsUndefined() {
		if !sep.IsList() || sep.AsList().Len() != 2 || !sep.AsList().Items[0].IsString() || !sep.AsList().Items[1].IsString() {
			return nil, fmt.Errorf("tojson: separators must contain two strings")
		}
		o.itemSep, o.keySep = sep.AsList().Items[0].AsString(), sep.AsList().Items[1].AsString()
	}
	if sk, ok := kwargs["sort_keys"]; ok {
		o.sortKeys = sk.IsTruthy()
	}
	if ea, ok := kwargs["ensure_ascii"]; ok {
		o.ensureASCII = ea.IsTruthy()
	}
	return o, nil
}

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

// pyTypeName is the quoted Python type name of v, as TypeError messages
// print it.
func pyTypeName(v Value) string {
	switch v.kind {
	case KindNone:
		return "'NoneType'"
	case KindBool:
		return "'bool'"
	case KindInt:
		return "'int'"
	case KindFloat:
		return "'float'"
	case KindString:
		return "'str'"
	case KindList:
		return "'list'"
	case KindDict:
		return "'dict'"
	case KindUndefined:
		return "'Undefined'"
	}
	return "'function'"
}

func isNumeric(v Value) bool { return v.kind == KindInt || v.kind == KindFloat || v.kind == KindBool }

func numericOperands(op string, a, b Value) error {
	if isNumeric(a) && isNumeric(b) {
		return nil
	}
	if a.IsUndefined() || b.IsUndefined() {
		return fmt.Errorf("UndefinedError: undefined value in %s", op)
	}
	return fmt.Errorf("TypeError: unsupported operand type(s) for %s: %s and %s", op, pyTypeName(a), pyTypeName(b))
}

// pyAdd is Python's a + b: numbers add, strings and lists concatenate, any
// other mix is a TypeError (jinja2's Undefined fails too).
func pyAdd(a, b Value) (Value, error) {
	switch {
	case a.IsString() && b.IsString(), a.IsList() && b.IsList():
		return addValues(a, b), nil
	case isNumeric(a) && isNumeric(b):
		if a.IsFloat() || b.IsFloat() {
			return NewFloat(toFloat64(a) + toFloat64(b)), nil
		}
		return NewInt(toInt64(a) + toInt64(b)), nil
	case a.IsString():
		return Undefined(), fmt.Errorf("TypeError: can only concatenate str (not %s) to str", pyTypeName(b))
	}
	return Undefined(), numericOperands("+", a, b)
}

// pyMul is Python's a * b: numbers multiply, a string or list times an
// integer repeats (a negative count gives an empty result).
func (e *evaluator) pyMul(a, b Value) (Value, error) {
	if (b.IsString() || b.IsList()) && (a.IsInt() || a.IsBool()) {
		a, b = b, a
	}
	if (a.IsString() || a.IsList()) && (b.IsInt() || b.IsBool()) {
		n := toInt64(b)
		if n < 0 {
			n = 0
		}
		size := int64(0)
		if a.IsString() {
			size = int64(len(a.AsString()))
		} else {
			size = int64(a.AsList().Len())
		}
		limit := int64(1 << 26)
		if e.budget != nil && e.budget.maxBytes > 0 {
			limit = int64(e.budget.maxBytes)
		}
		if size > 0 && n > limit/size {
			return Undefined(), fmt.Errorf("%w: repetition larger than %d", ErrLimit, limit)
		}
		if a.IsString() {
			v := NewString(strings.Repeat(a.AsString(), int(n)))
			return v, e.checkString(v)
		}
		items := make([]Value, 0, size*n)
		for i := int64(0); i < n; i++ {
			items = append(items, a.AsList().Items...)
		}
		return NewList(items), nil
	}
	if err := numericOperands("*", a, b); err != nil {
		return Undefined(), err
	}
	return mulValues(a, b), nil
}

// pyPercent is Python's printf-style `format % args` (the format filter and
// the % operator on strings): conversions s r d i u f F e E g G x X o c and
// %%, with flags, width and precision; too few or too many arguments are a
// TypeError.
func pyPercent(format string, args []Value) (string, error) {
	var b []byte
	next := 0
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			b = append(b, c)
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("#0- +", format[j]) >= 0 {
			j++
		}
		for j < len(format) && format[j] >= '0' && format[j] <= '9' {
			j++
		}
		if j < len(format) && format[j] == '.' {
			j++
			for j < len(format) && format[j] >= '0' && format[j] <= '9' {
				j++
			}
		}
		if j >= len(format) {
			return "", fmt.Errorf("ValueError: incomplete format")
		}
		spec, conv := format[i+1:j], format[j]
		i = j
		if conv == '%' {
			b = append(b, '%')
			continue
		}
		if next >= len(args) {
			return "", fmt.Errorf("TypeError: not enough arguments for format string")
		}
		a := args[next]
		next++
		switch conv {
		case 's':
			b = fmt.Appendf(b, "%"+spec+"s", pyStr(a))
		case 'r', 'a':
			b = fmt.Appendf(b, "%"+spec+"s", appendPyRepr(nil, a))
		case 'd', 'i', 'u':
			if !isNumeric(a) {
				return "", fmt.Errorf("TypeError: %%%c format: a real number is required, not %s", conv, strings.Trim(pyTypeName(a), "'"))
			}
			b = fmt.Appendf(b, "%"+spec+"d", toInt64(a))
		case 'x', 'X', 'o', 'c':
			if !(a.IsInt() || a.IsBool()) {
				return "", fmt.Errorf("TypeError: %%%c format: an integer is required, not %s", conv, strings.Trim(pyTypeName(a), "'"))
			}
			if conv == 'c' {
				b = utf8.AppendRune(b, rune(toInt64(a)))
			} else {
				b = fmt.Appendf(b, "%"+spec+string(conv), toInt64(a))
			}
		case 'f', 'F', 'e', 'E', 'g', 'G':
			if !isNumeric(a) {
				return "", fmt.Errorf("TypeError: must be real number, not %s", strings.Trim(pyTypeName(a), "'"))
			}
			if !strings.Contains(spec, ".") {
				spec += ".6"
			}
			out := fmt.Sprintf("%"+spec+string(conv), toFloat64(a))
			if conv == 'e' || conv == 'E' || conv == 'g' || conv == 'G' {
				// Go writes e+06 style exponents like C; nothing to change.
			}
			b = append(b, out...)
		default:
			return "", fmt.Errorf("ValueError: unsupported format character '%c'", conv)
		}
	}
	if next < len(args) {
		return "", fmt.Errorf("TypeError: not all arguments converted during string formatting")
	}
	return string(b), nil
}

func filterFormat(args []Value, kwargs map[string]Value) (Value, error) {
	if len(args) == 0 || !args[0].IsString() {
		return Undefined(), fmt.Errorf("format: expected a format string")
	}
	s, err := pyPercent(args[0].AsString(), args[1:])
	if err != nil {
		return Undefined(), err
	}
	return NewString(s), nil
}

// pyArith is Python's /, //, % and ** on numbers.
func pyArith(op string, a, b Value) (Value, error) {
	if err := numericOperands(op, a, b); err != nil {
		return Undefined(), err
	}
	ints := !a.IsFloat() && !b.IsFloat()
	if op != "**" && toFloat64(b) == 0 {
		return Undefined(), fmt.Errorf("ZeroDivisionError: division by zero")
	}
	switch op {
	case "/":
		return NewFloat(toFloat64(a) / toFloat64(b)), nil
	case "//":
		if ints {
			x, y := toInt64(a), toInt64(b)
			q := x / y
			if (x%y != 0) && ((x < 0) != (y < 0)) {
				q--
			}
			return NewInt(q), nil
		}
		return NewFloat(math.Floor(toFloat64(a) / toFloat64(b))), nil
	case "%":
		if ints {
			x, y := toInt64(a), toInt64(b)
			m := x % y
			if m != 0 && ((m < 0) != (y < 0)) {
				m += y
			}
			return NewInt(m), nil
		}
		x, y := toFloat64(a), toFloat64(b)
		m := math.Mod(x, y)
		if m != 0 && ((m < 0) != (y < 0)) {
			m += y
		}
		return NewFloat(m), nil
	}
	// **
	if ints && toInt64(b) >= 0 {
		x, n, r := toInt64(a), toInt64(b), int64(1)
		for ; n > 0; n-- {
			r *= x
			if r == 0 || n > 64 && (x == 1 || x == -1) {
				break
			}
		}
		return NewInt(r), nil
	}
	return NewFloat(math.Pow(toFloat64(a), toFloat64(b))), nil
}

// orderable reports Python's TypeError for an ordering comparison between
// values that do not order (only number/number and str/str do here).
func orderable(op string, a, b Value) error {
	if isNumeric(a) && isNumeric(b) || a.IsString() && b.IsString() {
		return nil
	}
	return fmt.Errorf("TypeError: '%s' not supported between instances of %s and %s", op, pyTypeName(a), pyTypeName(b))
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

// pyStrMethod provides the str methods the engine lacks (patch): join,
// splitlines, rsplit, rfind, index, rindex, isdigit, isalpha, isalnum,
// isspace, isupper, islower, ljust, rjust, zfill, swapcase.
func pyStrMethod(s, method string) (Value, bool) {
	fn := func(f func(args []Value) (Value, error)) (Value, bool) {
		return NewCallable("str."+method, func(args []Value, _ map[string]Value) (Value, error) { return f(args) }), true
	}
	strArg := func(args []Value, i int) (string, error) {
		if len(args) <= i || !args[i].IsString() {
			return "", fmt.Errorf("TypeError: str.%s expects a string argument", method)
		}
		return args[i].AsString(), nil
	}
	classify := func(pred func(rune) bool, cased bool) (Value, bool) {
		return fn(func([]Value) (Value, error) {
			if s == "" {
				return NewBool(false), nil
			}
			seen := false
			for _, r := range s {
				if cased && !unicode.IsLetter(r) {
					continue
				}
				if !pred(r) {
					return NewBool(false), nil
				}
				seen = true
			}
			return NewBool(seen), nil
		})
	}
	switch method {
	case "join":
		return fn(func(args []Value) (Value, error) {
			if len(args) != 1 || !args[0].IsList() {
				return Undefined(), fmt.Errorf("TypeError: can only join an iterable")
			}
			parts := make([]string, 0, args[0].AsList().Len())
			for _, it := range args[0].AsList().Items {
				if !it.IsString() {
					return Undefined(), fmt.Errorf("TypeError: sequence item: expected str instance, %s found", strings.Trim(pyTypeName(it), "'"))
				}
				parts = append(parts, it.AsString())
			}
			return NewString(strings.Join(parts, s)), nil
		})
	case "splitlines":
		return fn(func([]Value) (Value, error) {
			var items []Value
			rest := s
			for rest != "" {
				i := strings.IndexAny(rest, "\n\r\v\f\x1c\x1d\x1e\u0085\u2028\u2029")
				if i < 0 {
					items = append(items, NewString(rest))
					break
				}
				items = append(items, NewString(rest[:i]))
				_, n := utf8.DecodeRuneInString(rest[i:])
				if strings.HasPrefix(rest[i:], "\r\n") {
					n = 2
				}
				rest = rest[i+n:]
			}
			return NewList(items), nil
		})
	case "rsplit":
		return fn(func(args []Value) (Value, error) {
			sep, err := strArg(args, 0)
			if err != nil || sep == "" {
				return Undefined(), fmt.Errorf("ValueError: rsplit needs a non-empty separator")
			}
			max := -1
			if len(args) > 1 {
				max = int(toInt64(args[1]))
			}
			var parts []string
			rest := s
			for max != 0 {
				i := strings.LastIndex(rest, sep)
				if i < 0 {
					break
				}
				parts = append(parts, rest[i+len(sep):])
				rest = rest[:i]
				max--
			}
			parts = append(parts, rest)
			items := make([]Value, len(parts))
			for i, p := range parts {
				items[len(parts)-1-i] = NewString(p)
			}
			return NewList(items), nil
		})
	case "rfind", "index", "rindex":
		return fn(func(args []Value) (Value, error) {
			sub, err := strArg(args, 0)
			if err != nil {
				return Undefined(), err
			}
			i := strings.Index(s, sub)
			if method != "index" {
				i = strings.LastIndex(s, sub)
			}
			if i < 0 {
				if method == "rfind" {
					return NewInt(-1), nil
				}
				return Undefined(), fmt.Errorf("ValueError: substring not found")
			}
			return NewInt(int64(utf8.RuneCountInString(s[:i]))), nil
		})
	case "isdigit":
		return classify(unicode.IsDigit, false)
	case "isalpha":
		return classify(unicode.IsLetter, false)
	case "isalnum":
		return classify(func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }, false)
	case "isspace":
		return classify(unicode.IsSpace, false)
	case "isupper":
		return classify(unicode.IsUpper, true)
	case "islower":
		return classify(unicode.IsLower, true)
	case "ljust", "rjust", "zfill":
		return fn(func(args []Value) (Value, error) {
			if len(args) == 0 {
				return Undefined(), fmt.Errorf("TypeError: str.%s expects a width", method)
			}
			width := min(int(toInt64(args[0])), 1<<20)
			n := utf8.RuneCountInString(s)
			if n >= width {
				return NewString(s), nil
			}
			fill := " "
			if method == "zfill" {
				fill = "0"
			} else if len(args) > 1 && args[1].IsString() {
				fill = args[1].AsString()
			}
			pad := strings.Repeat(fill, width-n)
			switch {
			case method == "ljust":
				return NewString(s + pad), nil
			case method == "zfill" && (strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+")):
				return NewString(s[:1] + pad + s[1:]), nil
			}
			return NewString(pad + s), nil
		})
	case "swapcase":
		return fn(func([]Value) (Value, error) {
			return NewString(strings.Map(func(r rune) rune {
				if unicode.IsUpper(r) {
					return unicode.ToLower(r)
				}
				return unicode.ToUpper(r)
			}, s)), nil
		})
	}
	return Undefined(), false
}
