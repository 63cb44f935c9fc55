package jinja

// Python's str (patch, pystr.go is new): case mapping with Unicode's special
// casing and final sigma, Python's whitespace and character classes, and the
// str methods a template can call, with markupsafe's Markup variants.

import (
	"html"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// isPySpace reports whether Python's str.isspace() holds for r (Unicode
// White_Space plus the separators \x1c–\x1f).
func isPySpace(r rune) bool {
	switch {
	case r <= 0x20:
		return r == ' ' || (r >= '\t' && r <= '\r') || (r >= 0x1c && r <= 0x1f)
	case r < 0x85:
		return false
	}
	switch r {
	case 0x85, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// isPrintable is Python's str.isprintable() for one character.
func isPrintable(r rune) bool { return unicode.IsPrint(r) }

func inSorted(list []rune, r rune) bool {
	i := sort.Search(len(list), func(i int) bool { return list[i] >= r })
	return i < len(list) && list[i] == r
}

func isPyDecimal(r rune) bool { return unicode.Is(unicode.Nd, r) }
func isPyDigit(r rune) bool   { return unicode.Is(unicode.Nd, r) || inSorted(pyDigitExtra, r) }
func isPyNumeric(r rune) bool { return unicode.IsNumber(r) || inSorted(pyNumericExtra, r) }
func isPyAlpha(r rune) bool   { return unicode.IsLetter(r) }
func isPyAlnum(r rune) bool   { return isPyAlpha(r) || isPyNumeric(r) }

// isPyWord is re's \w for str patterns.
func isPyWord(r rune) bool { return r == '_' || isPyAlnum(r) }

func isPyUpper(r rune) bool { return unicode.IsUpper(r) || unicode.Is(unicode.Other_Uppercase, r) }
func isPyLower(r rune) bool { return unicode.IsLower(r) || unicode.Is(unicode.Other_Lowercase, r) }
func isPyTitle(r rune) bool { return unicode.IsTitle(r) }
func isPyCased(r rune) bool { return isPyUpper(r) || isPyLower(r) || isPyTitle(r) }

// isCaseIgnorable is Unicode's Case_Ignorable property (final sigma).
func isCaseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', '^', '`', 0xad, 0xb7, 0x2018, 0x2019, 0x2024, 0xfe52, 0xff07, 0xff0e:
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}

func appendUpper(b []byte, r rune) []byte {
	if s, ok := pyUpperSpecial[r]; ok {
		return append(b, s...)
	}
	return utf8.AppendRune(b, unicode.ToUpper(r))
}

func appendTitle(b []byte, r rune) []byte {
	if s, ok := pyTitleSpecial[r]; ok {
		return append(b, s...)
	}
	return utf8.AppendRune(b, unicode.ToTitle(r))
}

// appendLower lowercases runes[i] as str.lower() does, with final sigma.
func appendLower(b []byte, runes []rune, i int) []byte {
	r := runes[i]
	if r == 0x3a3 {
		return utf8.AppendRune(b, finalSigma(runes, i))
	}
	if s, ok := pyLowerSpecial[r]; ok {
		return append(b, s...)
	}
	return utf8.AppendRune(b, unicode.ToLower(r))
}

// finalSigma is the lowercase of the capital sigma at runes[i]: ς at the
// end of a word (preceded by a cased letter, not followed by one), else σ.
func finalSigma(runes []rune, i int) rune {
	j := i - 1
	for j >= 0 && isCaseIgnorable(runes[j]) {
		j--
	}
	if j < 0 || !isPyCased(runes[j]) {
		return 0x3c3
	}
	k := i + 1
	for k < len(runes) && isCaseIgnorable(runes[k]) {
		k++
	}
	if k < len(runes) && isPyCased(runes[k]) {
		return 0x3c3
	}
	return 0x3c2
}

func pyUpper(s string) string {
	if isASCII(s) {
		return strings.ToUpper(s)
	}
	b := make([]byte, 0, len(s))
	for _, r := range s {
		b = appendUpper(b, r)
	}
	return string(b)
}

func pyLower(s string) string {
	if isASCII(s) {
		return strings.ToLower(s)
	}
	runes := []rune(s)
	b := make([]byte, 0, len(s))
	for i := range runes {
		b = appendLower(b, runes, i)
	}
	return string(b)
}

// pyTitleCase is str.title(): a character after a cased one is lowered,
// any other is title-cased.
func pyTitleCase(s string) string {
	runes := []rune(s)
	b := make([]byte, 0, len(s))
	prevCased := false
	for i, r := range runes {
		if prevCased {
			b = appendLower(b, runes, i)
		} else {
			b = appendTitle(b, r)
		}
		prevCased = isPyCased(r)
	}
	return string(b)
}

// pyCapitalize is str.capitalize(): the first character title-cased, the
// rest lowered.
func pyCapitalize(s string) string {
	runes := []rune(s)
	b := make([]byte, 0, len(s))
	for i, r := range runes {
		if i == 0 {
			b = appendTitle(b, r)
		} else {
			b = appendLower(b, runes, i)
		}
	}
	return string(b)
}

func pySwapcase(s string) string {
	runes := []rune(s)
	b := make([]byte, 0, len(s))
	for i, r := range runes {
		switch {
		case isPyUpper(r):
			b = appendLower(b, runes, i)
		case isPyLower(r):
			b = appendUpper(b, r)
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return string(b)
}

// pyStrip strips chars (Python whitespace when nil) from the given sides.
func pyStrip(s string, chars *string, left, right bool) string {
	in := isPySpace
	if chars != nil {
		set := *chars
		in = func(r rune) bool { return strings.ContainsRune(set, r) }
	}
	if left {
		s = strings.TrimLeftFunc(s, in)
	}
	if right {
		s = strings.TrimRightFunc(s, in)
	}
	return s
}

// pySplitWhitespace is str.split() without a separator: runs of Python
// whitespace separate, at most maxsplit splits (negative: no limit).
func pySplitWhitespace(s string, maxsplit int) []string {
	var out []string
	i := 0
	for {
		for i < len(s) {
			r, n := utf8.DecodeRuneInString(s[i:])
			if !isPySpace(r) {
				break
			}
			i += n
		}
		if i >= len(s) {
			return out
		}
		if maxsplit >= 0 && len(out) == maxsplit {
			return append(out, s[i:])
		}
		j := i
		for j < len(s) {
			r, n := utf8.DecodeRuneInString(s[j:])
			if isPySpace(r) {
				break
			}
			j += n
		}
		out = append(out, s[i:j])
		i = j
	}
}

// pyRsplitWhitespace is str.rsplit() without a separator.
func pyRsplitWhitespace(s string, maxsplit int) []string {
	var out []string
	j := len(s)
	for {
		for j > 0 {
			r, n := utf8.DecodeLastRuneInString(s[:j])
			if !isPySpace(r) {
				break
			}
			j -= n
		}
		if j <= 0 {
			break
		}
		if maxsplit >= 0 && len(out) == maxsplit {
			out = append(out, s[:j])
			break
		}
		i := j
		for i > 0 {
			r, n := utf8.DecodeLastRuneInString(s[:i])
			if isPySpace(r) {
				break
			}
			i -= n
		}
		out = append(out, s[i:j])
		j = i
	}
	for a, b := 0, len(out)-1; a < b; a, b = a+1, b-1 {
		out[a], out[b] = out[b], out[a]
	}
	return out
}

// pyRsplit is str.rsplit(sep, maxsplit) with a separator.
func pyRsplit(s, sep string, maxsplit int) []string {
	var parts []string
	for maxsplit != 0 {
		i := strings.LastIndex(s, sep)
		if i < 0 {
			break
		}
		parts = append(parts, s[i+len(sep):])
		s = s[:i]
		maxsplit--
	}
	parts = append(parts, s)
	for a, b := 0, len(parts)-1; a < b; a, b = a+1, b-1 {
		parts[a], parts[b] = parts[b], parts[a]
	}
	return parts
}

// isLineBreak reports whether str.splitlines() breaks at r.
func isLineBreak(r rune) bool {
	switch r {
	case '\n', '\r', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029:
		return true
	}
	return false
}

// pySplitlines is str.splitlines(keepends).
func pySplitlines(s string, keepends bool) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !isLineBreak(r) {
			i += n
			continue
		}
		end := i + n
		if r == '\r' && end < len(s) && s[end] == '\n' {
			end++
		}
		if keepends {
			out = append(out, s[start:end])
		} else {
			out = append(out, s[start:i])
		}
		start, i = end, end
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// pyCenter is str.center(width, fill) (CPython's split of the padding).
func pyCenter(s string, width int, fill string) string {
	n := utf8.RuneCountInString(s)
	if width <= n {
		return s
	}
	marg := width - n
	left := marg/2 + (marg & width & 1)
	return strings.Repeat(fill, left) + s + strings.Repeat(fill, marg-left)
}

// runeSlice returns s[start:end] in code points, Python-clamped.
func runeSlice(s string, start, end int64) (string, int) {
	if isASCII(s) {
		a, b := sliceBounds(start, end, len(s))
		return s[a:b], a
	}
	runes := []rune(s)
	a, b := sliceBounds(start, end, len(runes))
	return string(runes[a:b]), a
}

func sliceBounds(start, end int64, n int) (int, int) {
	fix := func(i int64) int {
		if i < 0 {
			i += int64(n)
			if i < 0 {
				i = 0
			}
		}
		if i > int64(n) {
			i = int64(n)
		}
		return int(i)
	}
	a, b := fix(start), fix(end)
	if b < a {
		b = a
	}
	return a, b
}

// runeIndex converts a byte offset of s to a code point index.
func runeIndex(s string, byteOff int) int {
	if byteOff < 0 {
		return byteOff
	}
	return utf8.RuneCountInString(s[:byteOff])
}

// =============================================================================
// str methods
// =============================================================================

// strArgs binds the positional arguments of a str method: at most max of
// them, at least min, no keywords.
func strArgs(name string, args []Value, kw kwargs, minN, maxN int) error {
	if len(kw) > 0 {
		return typeError(name + "() takes no keyword arguments")
	}
	if len(args) < minN || len(args) > maxN {
		return typeError(name + "() takes " + strconv.Itoa(maxN) + " arguments (" + strconv.Itoa(len(args)) + " given)")
	}
	return nil
}

func needStr(name string, v Value) (string, error) {
	if !v.IsString() {
		return "", typeError(name + "() argument must be str, not " + strings.Trim(pyTypeName(v), "'"))
	}
	return v.AsString(), nil
}

func needInt(name string, v Value) (int64, error) {
	if v.kind != KindInt && v.kind != KindBool {
		return 0, typeError(pyTypeName(v) + " object cannot be interpreted as an integer")
	}
	return toInt64(v), nil
}

// optIndex reads an optional start/end argument (None means absent).
func optIndex(args []Value, i int, def int64) (int64, error) {
	if len(args) <= i || args[i].IsNone() {
		return def, nil
	}
	if args[i].kind != KindInt && args[i].kind != KindBool {
		return 0, typeError("slice indices must be integers or None or have an __index__ method")
	}
	return toInt64(args[i]), nil
}

// markupEscapingMethods are the str methods markupsafe wraps: their string
// arguments are escaped and the result is Markup.
var markupEscapingMethods = map[string]bool{
	"capitalize": true, "title": true, "lower": true, "upper": true, "replace": true, "ljust": true,
	"rjust": true, "lstrip": true, "rstrip": true, "center": true, "strip": true, "translate": true,
	"expandtabs": true, "swapcase": true, "zfill": true,
}

// strMethodNames are the public methods of Python's str.
var strMethodNames = map[string]bool{
	"capitalize": true, "casefold": true, "center": true, "count": true, "encode": true, "endswith": true,
	"expandtabs": true, "find": true, "format": true, "format_map": true, "index": true, "isalnum": true,
	"isalpha": true, "isascii": true, "isdecimal": true, "isdigit": true, "isidentifier": true,
	"islower": true, "isnumeric": true, "isprintable": true, "isspace": true, "istitle": true,
	"isupper": true, "join": true, "ljust": true, "lower": true, "lstrip": true, "maketrans": true,
	"partition": true, "removeprefix": true, "removesuffix": true, "replace": true, "rfind": true,
	"rindex": true, "rjust": true, "rpartition": true, "rsplit": true, "rstrip": true, "split": true,
	"splitlines": true, "startswith": true, "strip": true, "swapcase": true, "title": true,
	"translate": true, "upper": true, "zfill": true,
}

// strMethod returns the bound str (or Markup) method name.
func strMethod(obj Value, name string) (Value, bool) {
	markup := obj.kind == KindMarkup
	if markup && (name == "unescape" || name == "striptags" || name == "escape") {
		return newFunc("Markup."+name, func(args []Value, kw kwargs) (Value, error) {
			if name == "escape" {
				if err := strArgs(name, args, kw, 1, 1); err != nil {
					return Undefined(), err
				}
				return escapeValue(args[0]), nil
			}
			if err := strArgs(name, args, kw, 0, 0); err != nil {
				return Undefined(), err
			}
			if name == "unescape" {
				return NewString(htmlUnescape(obj.AsString())), nil
			}
			return NewString(stripTags(obj.AsString())), nil
		}), true
	}
	if !strMethodNames[name] {
		return Undefined(), false
	}
	s := obj.AsString()
	return newFunc("str."+name, func(args []Value, kw kwargs) (Value, error) {
		if markup && markupEscapingMethods[name] {
			esc := make([]Value, len(args))
			for i, a := range args {
				esc[i] = a
				if a.IsString() {
					esc[i] = escapeValue(a)
				}
			}
			ekw := make(kwargs, len(kw))
			for i, p := range kw {
				ekw[i] = p
				if p.val.IsString() {
					ekw[i].val = escapeValue(p.val)
				}
			}
			v, err := callStrMethod(s, name, esc, ekw)
			if err != nil || !v.IsString() {
				return v, err
			}
			return newMarkup(v.AsString()), nil
		}
		if markup {
			switch name {
			case "split", "rsplit", "splitlines":
				v, err := callStrMethod(s, name, args, kw)
				if err != nil {
					return v, err
				}
				for i, it := range v.AsList().Items {
					v.AsList().Items[i] = newMarkup(it.AsString())
				}
				return v, nil
			case "join":
				if err := strArgs(name, args, kw, 1, 1); err != nil {
					return Undefined(), err
				}
				items, err := iterate(args[0])
				if err != nil {
					return Undefined(), err
				}
				parts := make([]string, len(items))
				for i, it := range items {
					parts[i] = escapeValue(it).AsString()
				}
				return newMarkup(strings.Join(parts, s)), nil
			case "partition", "rpartition":
				if err := strArgs(name, args, kw, 1, 1); err != nil {
					return Undefined(), err
				}
				v, err := callStrMethod(s, name, []Value{escapeValue(args[0])}, nil)
				if err != nil {
					return v, err
				}
				for i, it := range v.AsList().Items {
					v.AsList().Items[i] = newMarkup(it.AsString())
				}
				return v, nil
			case "format", "format_map":
				out, err := strFormatCall(s, name, args, kw, true)
				if err != nil {
					return Undefined(), err
				}
				return newMarkup(out), nil
			}
		}
		return callStrMethod(s, name, args, kw)
	}), true
}

// callStrMethod runs str.name on s.
func callStrMethod(s, name string, args []Value, kw kwargs) (Value, error) {
	switch name {
	case "upper", "lower", "title", "capitalize", "swapcase", "casefold",
		"isalnum", "isalpha", "isascii", "isdecimal", "isdigit", "isidentifier", "islower",
		"isnumeric", "isprintable", "isspace", "istitle", "isupper":
		if err := strArgs(name, args, kw, 0, 0); err != nil {
			return Undefined(), err
		}
		return strNoArg(s, name), nil
	case "strip", "lstrip", "rstrip":
		if err := strArgs(name, args, kw, 0, 1); err != nil {
			return Undefined(), err
		}
		var chars *string
		if len(args) == 1 && !args[0].IsNone() {
			c, err := needStr(name, args[0])
			if err != nil {
				return Undefined(), err
			}
			chars = &c
		}
		return NewString(pyStrip(s, chars, name != "rstrip", name != "lstrip")), nil
	case "split", "rsplit":
		b, err := bindParams(name, args, kw, []string{"sep", "maxsplit"}, 0, []Value{None(), NewInt(-1)})
		if err != nil {
			return Undefined(), err
		}
		maxsplit, err := needInt(name, b[1])
		if err != nil {
			return Undefined(), err
		}
		var parts []string
		switch {
		case b[0].IsNone() && name == "split":
			parts = pySplitWhitespace(s, int(maxsplit))
		case b[0].IsNone():
			parts = pyRsplitWhitespace(s, int(maxsplit))
		default:
			sep, err := needStr(name, b[0])
			if err != nil {
				return Undefined(), err
			}
			if sep == "" {
				return Undefined(), valueError("empty separator")
			}
			if name == "split" {
				if maxsplit < 0 {
					parts = strings.Split(s, sep)
				} else {
					parts = strings.SplitN(s, sep, int(min(maxsplit, 1<<30))+1)
				}
			} else {
				parts = pyRsplit(s, sep, int(maxsplit))
			}
		}
		return stringList(parts), nil
	case "splitlines":
		b, err := bindParams(name, args, kw, []string{"keepends"}, 0, []Value{NewBool(false)})
		if err != nil {
			return Undefined(), err
		}
		return stringList(pySplitlines(s, b[0].IsTruthy())), nil
	case "startswith", "endswith":
		if err := strArgs(name, args, kw, 1, 3); err != nil {
			return Undefined(), err
		}
		start, err := optIndex(args, 1, 0)
		if err != nil {
			return Undefined(), err
		}
		end, err := optIndex(args, 2, 1<<62)
		if err != nil {
			return Undefined(), err
		}
		sub, _ := runeSlice(s, start, end)
		var cands []Value
		switch {
		case args[0].IsString():
			cands = args[:1]
		case args[0].IsList() && args[0].AsList().Tuple:
			cands = args[0].AsList().Items
		default:
			return Undefined(), typeError(name + " first arg must be str or a tuple of str, not " + strings.Trim(pyTypeName(args[0]), "'"))
		}
		if n := utf8.RuneCountInString(s); start > int64(n) || (start < 0 && start+int64(n) > int64(n)) {
			return NewBool(false), nil
		}
		for _, c := range cands {
			p, err := needStr(name, c)
			if err != nil {
				return Undefined(), err
			}
			if name == "startswith" && strings.HasPrefix(sub, p) || name == "endswith" && strings.HasSuffix(sub, p) {
				return NewBool(true), nil
			}
		}
		return NewBool(false), nil
	case "find", "rfind", "index", "rindex", "count":
		if err := strArgs(name, args, kw, 1, 3); err != nil {
			return Undefined(), err
		}
		sub, err := needStr(name, args[0])
		if err != nil {
			return Undefined(), err
		}
		start, err := optIndex(args, 1, 0)
		if err != nil {
			return Undefined(), err
		}
		end, err := optIndex(args, 2, 1<<62)
		if err != nil {
			return Undefined(), err
		}
		part, off := runeSlice(s, start, end)
		if n := utf8.RuneCountInString(s); start > int64(n) {
			if name == "count" {
				return NewInt(0), nil
			}
			part = "\x00impossible"
			sub = "\x01" + sub
		}
		if name == "count" {
			if sub == "" {
				return NewInt(int64(utf8.RuneCountInString(part) + 1)), nil
			}
			return NewInt(int64(strings.Count(part, sub))), nil
		}
		i := strings.Index(part, sub)
		if name == "rfind" || name == "rindex" {
			i = strings.LastIndex(part, sub)
		}
		if i < 0 {
			if name == "find" || name == "rfind" {
				return NewInt(-1), nil
			}
			return Undefined(), valueError("substring not found")
		}
		return NewInt(int64(off + runeIndex(part, i))), nil
	case "replace":
		if err := strArgs(name, args, kw, 2, 3); err != nil {
			return Undefined(), err
		}
		old, err := needStr(name, args[0])
		if err != nil {
			return Undefined(), err
		}
		repl, err := needStr(name, args[1])
		if err != nil {
			return Undefined(), err
		}
		count := int64(-1)
		if len(args) == 3 {
			if count, err = needInt(name, args[2]); err != nil {
				return Undefined(), err
			}
		}
		return NewString(pyReplace(s, old, repl, count)), nil
	case "join":
		if err := strArgs(name, args, kw, 1, 1); err != nil {
			return Undefined(), err
		}
		items, err := iterate(args[0])
		if err != nil {
			return Undefined(), typeError("can only join an iterable")
		}
		parts := make([]string, len(items))
		for i, it := range items {
			if !it.IsString() {
				return Undefined(), typeError("sequence item " + strconv.Itoa(i) + ": expected str instance, " + strings.Trim(pyTypeName(it), "'") + " found")
			}
			parts[i] = it.AsString()
		}
		return NewString(strings.Join(parts, s)), nil
	case "center", "ljust", "rjust":
		if err := strArgs(name, args, kw, 1, 2); err != nil {
			return Undefined(), err
		}
		width, err := needInt(name, args[0])
		if err != nil {
			return Undefined(), err
		}
		fill := " "
		if len(args) == 2 {
			if fill, err = needStr(name, args[1]); err != nil {
				return Undefined(), err
			}
			if utf8.RuneCountInString(fill) != 1 {
				return Undefined(), typeError("The fill character must be exactly one character long")
			}
		}
		width = min(width, 1<<24)
		n := int64(utf8.RuneCountInString(s))
		switch {
		case width <= n:
			return NewString(s), nil
		case name == "center":
			return NewString(pyCenter(s, int(width), fill)), nil
		case name == "ljust":
			return NewString(s + strings.Repeat(fill, int(width-n))), nil
		}
		return NewString(strings.Repeat(fill, int(width-n)) + s), nil
	case "zfill":
		if err := strArgs(name, args, kw, 1, 1); err != nil {
			return Undefined(), err
		}
		width, err := needInt(name, args[0])
		if err != nil {
			return Undefined(), err
		}
		width = min(width, 1<<24)
		n := int64(utf8.RuneCountInString(s))
		if width <= n {
			return NewString(s), nil
		}
		pad := strings.Repeat("0", int(width-n))
		if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+") {
			return NewString(s[:1] + pad + s[1:]), nil
		}
		return NewString(pad + s), nil
	case "expandtabs":
		b, err := bindParams(name, args, kw, []string{"tabsize"}, 0, []Value{NewInt(8)})
		if err != nil {
			return Undefined(), err
		}
		size, err := needInt(name, b[0])
		if err != nil {
			return Undefined(), err
		}
		return NewString(pyExpandtabs(s, int(min(size, 1<<16)))), nil
	case "partition", "rpartition":
		if err := strArgs(name, args, kw, 1, 1); err != nil {
			return Undefined(), err
		}
		sep, err := needStr(name, args[0])
		if err != nil {
			return Undefined(), err
		}
		if sep == "" {
			return Undefined(), valueError("empty separator")
		}
		i := strings.Index(s, sep)
		if name == "rpartition" {
			i = strings.LastIndex(s, sep)
		}
		switch {
		case i >= 0:
			return NewTuple([]Value{NewString(s[:i]), NewString(sep), NewString(s[i+len(sep):])}), nil
		case name == "partition":
			return NewTuple([]Value{NewString(s), NewString(""), NewString("")}), nil
		}
		return NewTuple([]Value{NewString(""), NewString(""), NewString(s)}), nil
	case "removeprefix", "removesuffix":
		if err := strArgs(name, args, kw, 1, 1); err != nil {
			return Undefined(), err
		}
		a, err := needStr(name, args[0])
		if err != nil {
			return Undefined(), err
		}
		if name == "removeprefix" {
			return NewString(strings.TrimPrefix(s, a)), nil
		}
		return NewString(strings.TrimSuffix(s, a)), nil
	case "format", "format_map":
		out, err := strFormatCall(s, name, args, kw, false)
		if err != nil {
			return Undefined(), err
		}
		return NewString(out), nil
	case "translate":
		if err := strArgs(name, args, kw, 1, 1); err != nil {
			return Undefined(), err
		}
		return strTranslate(s, args[0])
	}
	// encode and maketrans exist on str but make bytes or a table no
	// template can use.
	return Undefined(), typeError("str." + name + "() is not supported in this engine")
}

// strNoArg evaluates the str methods without arguments.
func strNoArg(s, name string) Value {
	all := func(pred func(rune) bool) Value {
		if s == "" {
			return NewBool(false)
		}
		for _, r := range s {
			if !pred(r) {
				return NewBool(false)
			}
		}
		return NewBool(true)
	}
	switch name {
	case "upper":
		return NewString(pyUpper(s))
	case "lower":
		return NewString(pyLower(s))
	case "casefold":
		return NewString(pyCasefold(s))
	case "title":
		return NewString(pyTitleCase(s))
	case "capitalize":
		return NewString(pyCapitalize(s))
	case "swapcase":
		return NewString(pySwapcase(s))
	case "isalnum":
		return all(isPyAlnum)
	case "isalpha":
		return all(isPyAlpha)
	case "isascii":
		return NewBool(isASCII(s))
	case "isdecimal":
		return all(isPyDecimal)
	case "isdigit":
		return all(isPyDigit)
	case "isnumeric":
		return all(isPyNumeric)
	case "isspace":
		return all(isPySpace)
	case "isprintable":
		for _, r := range s {
			if !isPrintable(r) {
				return NewBool(false)
			}
		}
		return NewBool(true)
	case "isidentifier":
		return NewBool(isIdentifier(s))
	case "islower", "isupper":
		cased := false
		for _, r := range s {
			if name == "islower" && (isPyUpper(r) || isPyTitle(r)) || name == "isupper" && (isPyLower(r) || isPyTitle(r)) {
				return NewBool(false)
			}
			if !cased && (name == "islower" && isPyLower(r) || name == "isupper" && isPyUpper(r)) {
				cased = true
			}
		}
		return NewBool(cased)
	case "istitle":
		cased, prevCased := false, false
		for _, r := range s {
			switch {
			case isPyUpper(r) || isPyTitle(r):
				if prevCased {
					return NewBool(false)
				}
				prevCased, cased = true, true
			case isPyLower(r):
				if !prevCased {
					return NewBool(false)
				}
				prevCased, cased = true, true
			default:
				prevCased = false
			}
		}
		return NewBool(cased)
	}
	return Undefined()
}

// pyCasefold is str.casefold(): full case folding, without context.
func pyCasefold(s string) string {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if f, ok := pyFoldSpecial[r]; ok {
			b = append(b, f...)
			continue
		}
		if l, ok := pyLowerSpecial[r]; ok {
			b = append(b, l...)
			continue
		}
		b = utf8.AppendRune(b, unicode.ToLower(r))
	}
	return string(b)
}

func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r == '_' || unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) {
			continue
		}
		if i > 0 && (unicode.IsDigit(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Pc)) {
			continue
		}
		return false
	}
	return true
}

// pyReplace is str.replace(old, new, count): an empty old inserts new
// between characters, as in Python.
func pyReplace(s, old, repl string, count int64) string {
	if count < 0 {
		count = -1
	}
	if count > 1<<30 {
		count = 1 << 30
	}
	return strings.Replace(s, old, repl, int(count))
}

func pyExpandtabs(s string, size int) string {
	var b strings.Builder
	col := 0
	for _, r := range s {
		switch r {
		case '\t':
			if size > 0 {
				n := size - col%size
				b.WriteString(strings.Repeat(" ", n))
				col += n
			}
		case '\n', '\r':
			b.WriteRune(r)
			col = 0
		default:
			b.WriteRune(r)
			col++
		}
	}
	return b.String()
}

// strTranslate is str.translate(table) for a dict table of code points.
func strTranslate(s string, table Value) (Value, error) {
	var b strings.Builder
	for _, r := range s {
		v, ok := pyItem(table, NewInt(int64(r)))
		if !ok {
			if table.IsDict() || table.IsList() || table.IsString() {
				b.WriteRune(r)
				continue
			}
			return Undefined(), typeError(pyTypeName(table) + " object is not subscriptable")
		}
		switch {
		case v.IsNone():
		case v.IsString():
			b.WriteString(v.AsString())
		case v.kind == KindInt:
			b.WriteRune(rune(v.AsInt()))
		default:
			return Undefined(), typeError("character mapping must return integer, None or str")
		}
	}
	return NewString(b.String()), nil
}

func stringList(parts []string) Value {
	items := make([]Value, len(parts))
	for i, p := range parts {
		items[i] = NewString(p)
	}
	return NewList(items)
}

// =============================================================================
// Markup (markupsafe)
// =============================================================================

// escapeValue is markupsafe's escape(): Markup stays as it is, anything else
// is str()'d with & < > " ' escaped.
func escapeValue(v Value) Value {
	if v.kind == KindMarkup {
		return v
	}
	return newMarkup(htmlEscape(pyStr(v)))
}

var htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;")

func htmlEscape(s string) string {
	if !strings.ContainsAny(s, `&<>"'`) {
		return s
	}
	return htmlEscaper.Replace(s)
}

// htmlUnescape is Python's html.unescape (named and numeric references).
func htmlUnescape(s string) string { return html.UnescapeString(s) }

// stripTags is Markup.striptags(): comments and tags removed, whitespace
// collapsed, entities unescaped.
func stripTags(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "<!--")
		if i < 0 {
			b.WriteString(s)
			break
		}
		j := strings.Index(s[i+4:], "-->")
		if j < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:i])
		s = s[i+4+j+3:]
	}
	s = b.String()
	b.Reset()
	for {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			b.WriteString(s)
			break
		}
		j := strings.IndexByte(s[i+1:], '>')
		if j < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:i])
		s = s[i+1+j+1:]
	}
	return htmlUnescape(strings.Join(pySplitWhitespace(b.String(), -1), " "))
}
