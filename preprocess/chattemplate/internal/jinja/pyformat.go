package jinja

// Python's string formatting (patch, pyformat.go is new): printf-style
// `str % args` (the format filter) and str.format with the format
// specification mini-language, field attributes and items resolved through
// the sandbox.

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// numSpec is the sign, padding and alternate-form part of a conversion.
type numSpec struct {
	minus, plus, space, alt, zero bool
	width, prec                   int // -1 when absent
	fill                          rune
	align                         byte // '<', '>', '^', '=' or 0
}

// pad justifies body (its sign and prefix given separately) to the width.
func (s *numSpec) pad(sign, prefix, body string, numeric bool) string {
	n := utf8.RuneCountInString(sign) + utf8.RuneCountInString(prefix) + utf8.RuneCountInString(body)
	if s.width <= n {
		return sign + prefix + body
	}
	gap := s.width - n
	fill := string(s.fill)
	align := s.align
	if align == 0 {
		switch {
		case s.minus:
			align = '<'
		case s.zero && numeric:
			align, fill = '=', "0"
		case numeric:
			align = '>'
		default:
			align = '<'
		}
	}
	switch align {
	case '<':
		return sign + prefix + body + strings.Repeat(fill, gap)
	case '^':
		l := gap / 2
		return strings.Repeat(fill, l) + sign + prefix + body + strings.Repeat(fill, gap-l)
	case '=':
		return sign + prefix + strings.Repeat(fill, gap) + body
	}
	return strings.Repeat(fill, gap) + sign + prefix + body
}

// padText justifies text as printf does: right-aligned with spaces, left
// with the - flag (the 0 flag does not apply to text).
func (s *numSpec) padText(text string) string {
	n := utf8.RuneCountInString(text)
	if s.width <= n {
		return text
	}
	if s.minus {
		return text + strings.Repeat(" ", s.width-n)
	}
	return strings.Repeat(" ", s.width-n) + text
}

func (s *numSpec) signOf(neg bool) string {
	switch {
	case neg:
		return "-"
	case s.plus:
		return "+"
	case s.space:
		return " "
	}
	return ""
}

// formatInt writes n in the base of conv (d x X o b) with the spec.
func (s *numSpec) formatInt(n int64, conv byte, percent bool) string {
	neg := n < 0
	u := uint64(n)
	if neg {
		u = -u
	}
	base, prefix := 10, ""
	switch conv {
	case 'x', 'X':
		base, prefix = 16, "0x"
	case 'o':
		base, prefix = 8, "0o"
	case 'b':
		base, prefix = 2, "0b"
	}
	digits := strconv.FormatUint(u, base)
	if conv == 'X' {
		digits = strings.ToUpper(digits)
		prefix = "0X"
	}
	if percent && s.prec > len(digits) {
		digits = strings.Repeat("0", s.prec-len(digits)) + digits
	}
	if !s.alt {
		prefix = ""
	}
	return s.pad(s.signOf(neg), prefix, digits, true)
}

// formatFloat writes f in the style of conv (e E f F g G, % for str.format
// percentages, 0 for str.format's default float format).
func (s *numSpec) formatFloat(f float64, conv byte) string {
	neg := math.Signbit(f) && !math.IsNaN(f)
	a := math.Abs(f)
	upper := conv == 'E' || conv == 'F' || conv == 'G'
	var body string
	switch {
	case math.IsInf(a, 0):
		body = "inf"
	case math.IsNaN(a):
		body = "nan"
	}
	if body != "" {
		if upper {
			body = strings.ToUpper(body)
		}
		if conv == '%' {
			body += "%"
		}
		zero := s.zero
		s.zero = false
		defer func() { s.zero = zero }()
		return s.pad(s.signOf(neg), "", body, true)
	}
	prec := s.prec
	switch conv {
	case 'e', 'E':
		if prec < 0 {
			prec = 6
		}
		body = strconv.FormatFloat(a, 'e', prec, 64)
		if s.alt && prec == 0 {
			i := strings.IndexByte(body, 'e')
			body = body[:i] + "." + body[i:]
		}
	case 'f', 'F', '%':
		if prec < 0 {
			prec = 6
		}
		if conv == '%' {
			a *= 100
		}
		body = strconv.FormatFloat(a, 'f', prec, 64)
		if s.alt && prec == 0 {
			body += "."
		}
		if conv == '%' {
			body += "%"
		}
	case 'g', 'G':
		if prec < 0 {
			prec = 6
		}
		body = formatG(a, prec, s.alt)
	default: // str.format without a type
		if prec < 0 {
			body = pyFloat(a)
		} else {
			body = formatG(a, max(prec, 1), false)
			if !strings.ContainsAny(body, ".e") {
				body += ".0"
			}
		}
	}
	if upper {
		body = strings.ToUpper(body)
	}
	return s.pad(s.signOf(neg), "", body, true)
}

// formatG is C's %g: exponent form when the exponent is below -4 or at least
// the precision, trailing zeros dropped unless alt.
func formatG(a float64, prec int, alt bool) string {
	if prec == 0 {
		prec = 1
	}
	e := strconv.FormatFloat(a, 'e', prec-1, 64)
	exp, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
	var body string
	if exp < -4 || exp >= prec {
		body = e
		if !alt {
			i := strings.IndexByte(body, 'e')
			m := body[:i]
			if strings.Contains(m, ".") {
				m = strings.TrimRight(strings.TrimRight(m, "0"), ".")
			}
			body = m + body[i:]
		}
	} else {
		body = strconv.FormatFloat(a, 'f', max(prec-1-exp, 0), 64)
		if !alt && strings.Contains(body, ".") {
			body = strings.TrimRight(strings.TrimRight(body, "0"), ".")
		}
		if alt && !strings.Contains(body, ".") {
			body += "."
		}
	}
	return body
}

// pyPercent is Python's printf-style `format % args`: conversions s r a d i
// u x X o c e E f F g G and %%, flags, width and precision (also *), and
// %(name)s from a mapping. Markup escapes what %s and %r insert.
func pyPercent(format string, args []Value, mapping Value, hasMapping, markup, tuple bool) (string, error) {
	var b strings.Builder
	next := 0
	single := !tuple
	nextArg := func() (Value, error) {
		if next >= len(args) {
			return Undefined(), typeError("not enough arguments for format string")
		}
		next++
		return args[next-1], nil
	}
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			j := strings.IndexByte(format[i:], '%')
			if j < 0 {
				b.WriteString(format[i:])
				break
			}
			b.WriteString(format[i : i+j])
			i += j - 1
			continue
		}
		i++
		if i >= len(format) {
			return "", valueError("incomplete format")
		}
		var arg Value
		haveArg := false
		if format[i] == '(' {
			if !hasMapping {
				return "", typeError("format requires a mapping")
			}
			depth, j := 1, i+1
			for j < len(format) && depth > 0 {
				switch format[j] {
				case '(':
					depth++
				case ')':
					depth--
				}
				j++
			}
			if depth > 0 {
				return "", valueError("incomplete format key")
			}
			key := NewString(format[i+1 : j-1])
			v, ok := pyItem(mapping, key)
			if !ok {
				if mapping.kind == KindDict {
					return "", pyErr("KeyError", string(appendPyRepr(nil, key)))
				}
				return "", typeError("format requires a mapping")
			}
			arg, haveArg = v, true
			i = j
			if single {
				next = len(args) // the mapping is the argument
			}
		}
		spec := numSpec{width: -1, prec: -1, fill: ' '}
	flags:
		for ; i < len(format); i++ {
			switch format[i] {
			case '-':
				spec.minus = true
			case '+':
				spec.plus = true
			case ' ':
				spec.space = true
			case '#':
				spec.alt = true
			case '0':
				spec.zero = true
			default:
				break flags
			}
		}
		if i < len(format) && format[i] == '*' {
			w, err := nextArg()
			if err != nil {
				return "", err
			}
			if !isIntLike(w) {
				return "", typeError("* wants int")
			}
			spec.width = int(min(toInt64(w), 1<<20))
			if spec.width < 0 {
				spec.minus, spec.width = true, -spec.width
			}
			i++
		} else {
			for ; i < len(format) && format[i] >= '0' && format[i] <= '9'; i++ {
				spec.width = max(spec.width, 0)*10 + int(format[i]-'0')
				if spec.width > 1<<20 {
					return "", valueError("width too big")
				}
			}
		}
		if i < len(format) && format[i] == '.' {
			i++
			spec.prec = 0
			if i < len(format) && format[i] == '*' {
				p, err := nextArg()
				if err != nil {
					return "", err
				}
				if !isIntLike(p) {
					return "", typeError("* wants int")
				}
				spec.prec = int(max(min(toInt64(p), 1<<20), 0))
				i++
			} else {
				for ; i < len(format) && format[i] >= '0' && format[i] <= '9'; i++ {
					spec.prec = spec.prec*10 + int(format[i]-'0')
					if spec.prec > 1<<20 {
						return "", valueError("precision too big")
					}
				}
			}
		}
		for i < len(format) && (format[i] == 'h' || format[i] == 'l' || format[i] == 'L') {
			i++
		}
		if i >= len(format) {
			return "", valueError("incomplete format")
		}
		conv := format[i]
		if conv == '%' {
			b.WriteByte('%')
			continue
		}
		if !haveArg {
			v, err := nextArg()
			if err != nil {
				return "", err
			}
			arg = v
		}
		if markup && (conv == 's' || conv == 'r' || conv == 'a') {
			var text string
			if conv == 's' {
				text = escapeValue(arg).AsString()
			} else {
				text = htmlEscape(string(appendPyRepr(nil, arg)))
			}
			if spec.prec >= 0 {
				text = truncRunes(text, spec.prec)
			}
			b.WriteString(spec.padText(text))
			continue
		}
		switch conv {
		case 's', 'r', 'a':
			var text string
			switch conv {
			case 's':
				text = pyStr(arg)
			case 'r':
				text = string(appendPyRepr(nil, arg))
			default:
				text = asciiRepr(arg)
			}
			if spec.prec >= 0 {
				text = truncRunes(text, spec.prec)
			}
			b.WriteString(spec.padText(text))
		case 'd', 'i', 'u':
			if !isNumeric(arg) {
				return "", typeError("%" + string(conv) + " format: a real number is required, not " + strings.Trim(pyTypeName(arg), "'"))
			}
			n, err := intOf(arg)
			if err != nil {
				return "", err
			}
			b.WriteString(spec.formatInt(n, 'd', true))
		case 'x', 'X', 'o':
			if !isIntLike(arg) {
				return "", typeError("%" + string(conv) + " format: an integer is required, not " + strings.Trim(pyTypeName(arg), "'"))
			}
			b.WriteString(spec.formatInt(toInt64(arg), conv, true))
		case 'e', 'E', 'f', 'F', 'g', 'G':
			if !isNumeric(arg) {
				return "", typeError("must be real number, not " + strings.Trim(pyTypeName(arg), "'"))
			}
			b.WriteString(spec.formatFloat(toFloat64(arg), conv))
		case 'c':
			switch {
			case isIntLike(arg):
				n := toInt64(arg)
				if n < 0 || n > 0x10ffff {
					return "", pyErr("OverflowError", "%c arg not in range(0x110000)")
				}
				b.WriteString(spec.padText(string(rune(n))))
			case arg.IsString() && utf8.RuneCountInString(arg.AsString()) == 1:
				b.WriteString(spec.padText(arg.AsString()))
			default:
				return "", typeError("%c requires int or char")
			}
		default:
			return "", valueError("unsupported format character '" + string(conv) + "'")
		}
	}
	if next < len(args) && !hasMapping {
		return "", typeError("not all arguments converted during string formatting")
	}
	return b.String(), nil
}

// intOf is int(x) for a number: floats truncate; inf and nan fail.
func intOf(v Value) (int64, error) {
	if v.kind != KindFloat {
		return toInt64(v), nil
	}
	f := v.AsFloat()
	switch {
	case math.IsNaN(f):
		return 0, valueError("cannot convert float NaN to integer")
	case math.IsInf(f, 0):
		return 0, pyErr("OverflowError", "cannot convert float infinity to integer")
	case f >= 9.223372036854775807e18 || f < -9.223372036854775808e18:
		return 0, errIntOverflow
	}
	return int64(f), nil
}

func truncRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := 0
	for k := 0; k < n && i < len(s); k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i]
}

// asciiRepr is Python's ascii(): repr with non-ASCII escaped.
func asciiRepr(v Value) string {
	r := appendPyRepr(nil, v)
	var b strings.Builder
	for _, c := range string(r) {
		switch {
		case c < 0x80:
			b.WriteRune(c)
		case c < 0x100:
			b.WriteString("\\x" + hex2(int(c)))
		case c < 0x10000:
			b.WriteString("\\u" + hex2(int(c)>>8) + hex2(int(c)&0xff))
		default:
			b.WriteString("\\U" + hex2(int(c)>>24) + hex2(int(c)>>16&0xff) + hex2(int(c)>>8&0xff) + hex2(int(c)&0xff))
		}
	}
	return b.String()
}

func hex2(n int) string { return string([]byte{hexDigits[n>>4&0xf], hexDigits[n&0xf]}) }

// =============================================================================
// str.format
// =============================================================================

// strFormatCall is str.format(*args, **kwargs) and str.format_map(mapping)
// through jinja2's sandboxed formatter; with markup every field is escaped.
func strFormatCall(s, name string, args []Value, kw kwargs, markup bool) (string, error) {
	if name == "format_map" {
		if len(kw) > 0 {
			return "", typeError("format_map() takes no keyword arguments")
		}
		if len(args) != 1 {
			return "", typeError("format_map() takes exactly one argument (" + strconv.Itoa(len(args)) + " given)")
		}
	}
	f := &strFormatter{args: args, kw: kw, markup: markup}
	if name == "format_map" {
		f.args, f.mapping, f.hasMapping = nil, args[0], true
	}
	return f.vformat(s, 2)
}

type strFormatter struct {
	args       []Value
	kw         kwargs
	mapping    Value
	hasMapping bool
	markup     bool
	auto       int // next automatic field number; -1 once manual numbering is used
	manual     bool
}

func (f *strFormatter) vformat(s string, depth int) (string, error) {
	if depth < 0 {
		return "", valueError("Max string recursion exceeded")
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '{':
			if i+1 < len(s) && s[i+1] == '{' {
				b.WriteByte('{')
				i++
				continue
			}
			// Find the matching close brace (format specs may nest fields).
			j, level := i+1, 1
			for j < len(s) && level > 0 {
				switch s[j] {
				case '{':
					level++
				case '}':
					level--
				}
				j++
			}
			if level > 0 {
				return "", valueError("expected '}' before end of string")
			}
			out, err := f.field(s[i+1:j-1], depth)
			if err != nil {
				return "", err
			}
			b.WriteString(out)
			i = j - 1
		case '}':
			if i+1 < len(s) && s[i+1] == '}' {
				b.WriteByte('}')
				i++
				continue
			}
			return "", valueError("Single '}' encountered in format string")
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}

// field renders one replacement field: name[.attr|[key]]...[!conv][:spec].
func (f *strFormatter) field(text string, depth int) (string, error) {
	spec := ""
	conv := byte(0)
	// The field name ends at the first '!' or ':' outside brackets.
	end := len(text)
	for k := 0; k < len(text); k++ {
		if text[k] == '[' {
			for k < len(text) && text[k] != ']' {
				k++
			}
			continue
		}
		if text[k] == '!' || text[k] == ':' {
			end = k
			break
		}
	}
	fieldName := text[:end]
	rest := text[end:]
	if strings.HasPrefix(rest, "!") {
		if len(rest) < 2 {
			return "", valueError("end of string while looking for conversion specifier")
		}
		conv = rest[1]
		rest = rest[2:]
		if rest != "" && rest[0] != ':' {
			return "", valueError("expected ':' after conversion specifier")
		}
	}
	if strings.HasPrefix(rest, ":") {
		spec = rest[1:]
	}
	v, err := f.resolve(fieldName)
	if err != nil {
		return "", err
	}
	switch conv {
	case 0:
	case 's':
		v = NewString(pyStr(v))
	case 'r':
		v = NewString(string(appendPyRepr(nil, v)))
	case 'a':
		v = NewString(asciiRepr(v))
	default:
		return "", valueError("Unknown conversion specifier " + string(conv))
	}
	if strings.Contains(spec, "{") {
		if spec, err = f.vformat(spec, depth-1); err != nil {
			return "", err
		}
	}
	if f.markup {
		if v.kind == KindMarkup {
			if spec != "" {
				return "", valueError("Unsupported format specification for Markup.")
			}
			return v.AsString(), nil
		}
		out, err := formatValue(v, spec)
		if err != nil {
			return "", err
		}
		return htmlEscape(out), nil
	}
	return formatValue(v, spec)
}

// resolve looks up a field name: an argument (by number, automatic number
// or keyword) followed by .attr and [key] parts, through the sandbox.
func (f *strFormatter) resolve(name string) (Value, error) {
	first := name
	k := strings.IndexAny(name, ".[")
	if k >= 0 {
		first = name[:k]
	}
	var v Value
	switch {
	case first == "":
		if f.manual {
			return Undefined(), valueError("cannot switch from manual field specification to automatic field numbering")
		}
		if f.hasMapping {
			return Undefined(), valueError("Format string contains positional fields")
		}
		if f.auto >= len(f.args) {
			return Undefined(), pyErr("IndexError", "Replacement index "+strconv.Itoa(f.auto)+" out of range for positional args tuple")
		}
		v = f.args[f.auto]
		f.auto++
	case isAllDigits(first):
		if f.auto > 0 {
			return Undefined(), valueError("cannot switch from automatic field numbering to manual field specification")
		}
		f.manual = true
		n, _ := strconv.Atoi(first)
		if f.hasMapping || n >= len(f.args) {
			return Undefined(), pyErr("IndexError", "Replacement index "+first+" out of range for positional args tuple")
		}
		v = f.args[n]
	default:
		var ok bool
		if f.hasMapping {
			v, ok = pyItem(f.mapping, NewString(first))
		} else {
			v, ok = f.kw.get(first)
		}
		if !ok {
			return Undefined(), pyErr("KeyError", string(appendPyStrRepr(nil, first)))
		}
	}
	for k >= 0 && k < len(name) {
		var err error
		if name[k] == '.' {
			j := strings.IndexAny(name[k+1:], ".[")
			attr := name[k+1:]
			if j >= 0 {
				attr = name[k+1 : k+1+j]
			}
			if attr == "" {
				return Undefined(), valueError("Empty attribute in format string")
			}
			if v, err = getattr(v, attr); err != nil {
				return Undefined(), err
			}
			k += 1 + len(attr)
			continue
		}
		j := strings.IndexByte(name[k:], ']')
		if j < 0 {
			return Undefined(), valueError("Missing ']' in format string")
		}
		key := name[k+1 : k+j]
		var kv Value = NewString(key)
		if isAllDigits(key) && key != "" {
			n, _ := strconv.ParseInt(key, 10, 64)
			kv = NewInt(n)
		}
		if v, err = getitem(v, kv); err != nil {
			return Undefined(), err
		}
		k += j + 1
		if k < len(name) && name[k] != '.' && name[k] != '[' {
			return Undefined(), valueError("Only '.' or '[' may follow ']' in format field specifier")
		}
	}
	return v, nil
}

func isAllDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// formatValue is Python's format(v, spec).
func formatValue(v Value, spec string) (string, error) {
	switch v.kind {
	case KindString, KindMarkup, KindInt, KindBool, KindFloat:
	default:
		if spec != "" {
			return "", typeError("unsupported format string passed to " + strings.Trim(pyTypeName(v), "'") + ".__format__")
		}
		return pyStr(v), nil
	}
	if spec == "" {
		return pyStr(v), nil
	}
	s := numSpec{width: -1, prec: -1, fill: ' '}
	i := 0
	// [[fill]align]
	if r, n := utf8.DecodeRuneInString(spec); n < len(spec) && strings.IndexByte("<>=^", spec[n]) >= 0 {
		s.fill, s.align, i = r, spec[n], n+1
	} else if strings.IndexByte("<>=^", spec[0]) >= 0 {
		s.align, i = spec[0], 1
	}
	if i < len(spec) && strings.IndexByte("+- ", spec[i]) >= 0 {
		s.plus, s.space = spec[i] == '+', spec[i] == ' '
		i++
	}
	if i < len(spec) && spec[i] == 'z' {
		i++
	}
	if i < len(spec) && spec[i] == '#' {
		s.alt = true
		i++
	}
	if i < len(spec) && spec[i] == '0' {
		s.zero = true
		if s.align == 0 {
			s.fill, s.align = '0', '='
		}
		i++
	}
	for ; i < len(spec) && spec[i] >= '0' && spec[i] <= '9'; i++ {
		s.width = max(s.width, 0)*10 + int(spec[i]-'0')
		if s.width > 1<<20 {
			return "", valueError("Too many decimal digits in format string")
		}
	}
	group := byte(0)
	if i < len(spec) && (spec[i] == ',' || spec[i] == '_') {
		group = spec[i]
		i++
	}
	if i < len(spec) && spec[i] == '.' {
		i++
		s.prec = 0
		start := i
		for ; i < len(spec) && spec[i] >= '0' && spec[i] <= '9'; i++ {
			s.prec = s.prec*10 + int(spec[i]-'0')
			if s.prec > 1<<20 {
				return "", valueError("Too many decimal digits in format string")
			}
		}
		if i == start {
			return "", valueError("Format specifier missing precision")
		}
	}
	typ := byte(0)
	if i < len(spec) {
		typ = spec[i]
		i++
	}
	if i != len(spec) {
		return "", valueError("Invalid format specifier '" + spec + "' for object of type " + pyTypeName(v))
	}
	if v.IsString() {
		if typ != 0 && typ != 's' {
			return "", valueError("Unknown format code '" + string(typ) + "' for object of type 'str'")
		}
		if s.plus || s.space || s.alt || group != 0 {
			return "", valueError("Sign not allowed in string format specifier")
		}
		if s.align == '=' {
			return "", valueError("'=' alignment not allowed in string format specifier")
		}
		text := v.AsString()
		if s.prec >= 0 {
			text = truncRunes(text, s.prec)
		}
		return s.pad("", "", text, false), nil
	}
	if isIntLike(v) && (typ == 0 || strings.IndexByte("bcdoxXn", typ) >= 0) {
		if s.prec >= 0 {
			return "", valueError("Precision not allowed in integer format specifier")
		}
		n := toInt64(v)
		switch typ {
		case 'c':
			return s.pad("", "", string(rune(n)), false), nil
		case 0, 'n':
			typ = 'd'
		}
		out := s.formatIntGrouped(n, typ, group)
		return out, nil
	}
	if typ != 0 && strings.IndexByte("eEfFgG%", typ) < 0 {
		return "", valueError("Unknown format code '" + string(typ) + "' for object of type " + pyTypeName(v))
	}
	if group != 0 {
		return groupFloat(&s, toFloat64(v), typ, group), nil
	}
	return s.formatFloat(toFloat64(v), typ), nil
}

// formatIntGrouped formats an integer with an optional thousands separator.
func (s *numSpec) formatIntGrouped(n int64, typ, group byte) string {
	if group == 0 {
		return s.formatInt(n, typ, false)
	}
	neg := n < 0
	u := uint64(n)
	if neg {
		u = -u
	}
	base, every := 10, 3
	switch typ {
	case 'x', 'X':
		base, every = 16, 4
	case 'o':
		base, every = 8, 4
	case 'b':
		base, every = 2, 4
	}
	digits := strconv.FormatUint(u, base)
	if typ == 'X' {
		digits = strings.ToUpper(digits)
	}
	digits = groupDigits(digits, every, group)
	prefix := ""
	if s.alt {
		prefix = map[byte]string{'x': "0x", 'X': "0X", 'o': "0o", 'b': "0b"}[typ]
	}
	return s.pad(s.signOf(neg), prefix, digits, true)
}

func groupDigits(d string, every int, sep byte) string {
	if len(d) <= every {
		return d
	}
	var b strings.Builder
	first := len(d) % every
	if first > 0 {
		b.WriteString(d[:first])
	}
	for i := first; i < len(d); i += every {
		if b.Len() > 0 {
			b.WriteByte(sep)
		}
		b.WriteString(d[i : i+every])
	}
	return b.String()
}

// groupFloat formats a float with a thousands separator in its integer part.
func groupFloat(s *numSpec, f float64, typ, group byte) string {
	width := s.width
	s.width = -1
	out := s.formatFloat(f, typ)
	s.width = width
	sign := ""
	if out != "" && (out[0] == '-' || out[0] == '+' || out[0] == ' ') {
		sign, out = out[:1], out[1:]
	}
	intEnd := strings.IndexAny(out, ".eE%")
	if intEnd < 0 {
		intEnd = len(out)
	}
	if isAllDigits(out[:intEnd]) {
		out = groupDigits(out[:intEnd], 3, group) + out[intEnd:]
	}
	return s.pad(sign, "", out, true)
}
