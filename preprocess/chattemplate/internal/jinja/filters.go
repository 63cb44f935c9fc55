package jinja

// jinja2's built-in filters (patch, filters.go is new): every entry of
// jinja2.filters.FILTERS, with its parameters bound as Python binds them
// (positionally or by keyword; an unknown keyword, a missing argument or
// one too many is a TypeError) and its semantics on every type, and
// transformers' tojson.

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// filterFunc applies a filter to v with the call's arguments.
type filterFunc func(e *evaluator, v Value, args []Value, kw kwargs) (Value, error)

// filterTable maps filter names to their functions (set in init: map and
// select call filters and tests by name).
var filterTable map[string]filterFunc

func init() {
	filterTable = map[string]filterFunc{
		"abs":            filterAbs,
		"attr":           filterAttr,
		"batch":          filterBatch,
		"capitalize":     strFilter("capitalize", func(s string) string { return pyCapitalize(s) }),
		"center":         filterCenter,
		"count":          filterLength,
		"d":              filterDefault,
		"default":        filterDefault,
		"dictsort":       filterDictsort,
		"e":              filterEscape,
		"escape":         filterEscape,
		"filesizeformat": filterFilesizeformat,
		"first":          filterFirst,
		"float":          filterFloat,
		"forceescape":    filterForceescape,
		"format":         filterFormat,
		"groupby":        filterGroupby,
		"indent":         filterIndent,
		"int":            filterInt,
		"items":          filterItems,
		"join":           filterJoin,
		"last":           filterLast,
		"length":         filterLength,
		"list":           filterList,
		"lower":          strFilter("lower", pyLower),
		"map":            filterMap,
		"max":            filterMinMax(true),
		"min":            filterMinMax(false),
		"pprint":         filterPprint,
		"random":         filterRandom,
		"reject":         filterSelectReject(false, false),
		"rejectattr":     filterSelectReject(false, true),
		"replace":        filterReplace,
		"reverse":        filterReverse,
		"round":          filterRound,
		"safe":           filterSafe,
		"select":         filterSelectReject(true, false),
		"selectattr":     filterSelectReject(true, true),
		"slice":          filterSlice,
		"sort":           filterSort,
		"string":         filterString,
		"striptags":      filterStriptags,
		"sum":            filterSum,
		"title":          filterTitle,
		"tojson":         filterTojson,
		"trim":           filterTrim,
		"truncate":       filterTruncate,
		"unique":         filterUnique,
		"upper":          strFilter("upper", pyUpper),
		"urlencode":      filterUrlencode,
		"urlize":         filterUrlize,
		"wordcount":      filterWordcount,
		"wordwrap":       filterWordwrap,
		"xmlattr":        filterXmlattr,
	}
}

// =============================================================================
// Argument binding
// =============================================================================

// bindInto binds positional args and keywords to the parameters names as
// Python binds a call: positionals first, then keywords by name. A
// parameter given twice, an unknown keyword, too many positionals or a
// missing required parameter (the first `required` ones) is a TypeError.
// out (len(names)) receives the values, defaults[i] for the ones not given.
func bindInto(out []Value, fname string, args []Value, kw kwargs, names []string, required int, defaults []Value) ([]Value, error) {
	if len(args) > len(names) {
		return nil, typeError(fmt.Sprintf("%s() takes %d positional arguments but %d were given", fname, len(names)+1, len(args)+1))
	}
	var set uint64
	for i, a := range args {
		out[i] = a
		set |= 1 << i
	}
	for _, p := range kw {
		found := false
		for i, n := range names {
			if n == p.name {
				if set&(1<<i) != 0 {
					return nil, typeError(fmt.Sprintf("%s() got multiple values for argument '%s'", fname, p.name))
				}
				out[i] = p.val
				set |= 1 << i
				found = true
				break
			}
		}
		if !found {
			return nil, typeError(fmt.Sprintf("%s() got an unexpected keyword argument '%s'", fname, p.name))
		}
	}
	for i := range names {
		if set&(1<<i) == 0 {
			if i < required {
				return nil, typeError(fmt.Sprintf("%s() missing 1 required positional argument: '%s'", fname, names[i]))
			}
			out[i] = defaults[i]
		}
	}
	return out[:len(names)], nil
}

// bindParams is bindInto with a new slice.
func bindParams(fname string, args []Value, kw kwargs, names []string, required int, defaults []Value) ([]Value, error) {
	return bindInto(make([]Value, len(names)), fname, args, kw, names, required, defaults)
}

// noArgs checks a filter that takes no argument besides its value.
func noArgs(name string, args []Value, kw kwargs) error {
	if len(kw) > 0 {
		return typeError(name + "() got an unexpected keyword argument '" + kw[0].name + "'")
	}
	if len(args) > 0 {
		return typeError(fmt.Sprintf("%s() takes 1 positional argument but %d were given", name, len(args)+1))
	}
	return nil
}

// softStr is markupsafe's soft_str: strings (Markup too) as they are,
// anything else str()'d.
func softStr(v Value) Value {
	if v.IsString() {
		return v
	}
	return NewString(pyStr(v))
}

// strFilter is a filter that applies a str method to soft_str(value); Markup
// stays Markup.
func strFilter(name string, fn func(string) string) filterFunc {
	return func(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
		if err := noArgs("do_"+name, args, kw); err != nil {
			return Undefined(), err
		}
		s := softStr(v)
		return newStr(fn(s.AsString()), s.kind == KindMarkup), nil
	}
}

// needIntArg checks an argument Python uses as an integer (range, str
// methods, slicing).
func needIntArg(v Value) (int64, error) {
	if v.kind != KindInt && v.kind != KindBool {
		return 0, typeError(pyTypeName(v) + " object cannot be interpreted as an integer")
	}
	return toInt64(v), nil
}

// =============================================================================
// Attribute getters (make_attrgetter)
// =============================================================================

// attrParts splits an attribute path as jinja2 does: "a.0.b" is a, 0, b (a
// part of digits is an integer); a non-string attribute is one part.
func attrParts(attr Value) []Value {
	if attr.IsNone() {
		return nil
	}
	if !attr.IsString() {
		return []Value{attr}
	}
	parts := strings.Split(attr.AsString(), ".")
	out := make([]Value, len(parts))
	for i, p := range parts {
		if isAllDigits(p) && isASCII(p) {
			if n, err := strconv.ParseInt(p, 10, 64); err == nil {
				out[i] = NewInt(n)
				continue
			}
		}
		out[i] = NewString(p)
	}
	return out
}

// attrGetter follows parts through getitem, taking def for an undefined
// step when def is not None (make_attrgetter).
func attrGetter(v Value, parts []Value, def Value) (Value, error) {
	for _, p := range parts {
		var err error
		if v, err = getitem(v, p); err != nil {
			return Undefined(), err
		}
		if !def.IsNone() && v.IsUndefined() {
			v = def
		}
	}
	return v, nil
}

// ignoreCase lowers strings (the case-insensitive key of sort, unique …).
func ignoreCase(v Value) Value {
	if v.IsString() {
		return NewString(pyLower(v.AsString()))
	}
	return v
}

// multiAttrKey is make_multi_attrgetter: the sort key of an item is a list
// of one value per comma-separated attribute path.
func multiAttrKey(item Value, paths [][]Value, lower bool) (Value, error) {
	keys := make([]Value, len(paths))
	for i, parts := range paths {
		k := item
		for _, p := range parts {
			var err error
			if k, err = getitem(k, p); err != nil {
				return Undefined(), err
			}
		}
		if lower {
			k = ignoreCase(k)
		}
		keys[i] = k
	}
	return NewList(keys), nil
}

// sortReverse reads sorted()'s reverse argument, which must be an integer
// (a bool is one).
func sortReverse(v Value) (bool, error) {
	if !isIntLike(v) {
		return false, typeError(pyTypeName(v) + " object cannot be interpreted as an integer")
	}
	return toInt64(v) != 0, nil
}

// sortValues sorts items stably by keys with Python's <; the first
// comparison that fails is the error.
func sortValues(items, keys []Value, reverse bool) error {
	idx := make([]int, len(items))
	for i := range idx {
		idx[i] = i
	}
	var sortErr error
	sort.SliceStable(idx, func(i, j int) bool {
		a, b := keys[idx[i]], keys[idx[j]]
		if reverse {
			a, b = b, a
		}
		less, err := pyLess(a, b)
		if err != nil && sortErr == nil {
			sortErr = err
		}
		return less
	})
	if sortErr != nil {
		return sortErr
	}
	sorted := make([]Value, len(items))
	for i, j := range idx {
		sorted[i] = items[j]
	}
	copy(items, sorted)
	return nil
}

// =============================================================================
// Filters
// =============================================================================

func filterAbs(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	if err := noArgs("abs", args, kw); err != nil {
		return Undefined(), err
	}
	switch v.kind {
	case KindInt, KindBool:
		n := toInt64(v)
		if n == math.MinInt64 {
			return Undefined(), errIntOverflow
		}
		if n < 0 {
			n = -n
		}
		return NewInt(n), nil
	case KindFloat:
		return NewFloat(math.Abs(v.AsFloat())), nil
	}
	return Undefined(), typeError("bad operand type for abs(): " + pyTypeName(v))
}

var attrNames = []string{"name"}

func filterAttr(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	var buf [1]Value
	p, err := bindInto(buf[:], "do_attr", args, kw, attrNames, 1, nil)
	if err != nil {
		return Undefined(), err
	}
	if !p[0].IsString() {
		return Undefined(), typeError("attribute name must be string, not " + pyTypeName(p[0]))
	}
	name := p[0].AsString()
	if v.IsUndefined() {
		if strings.HasPrefix(name, "__") {
			return unsafeUndefined(v, name), nil
		}
		return Undefined(), undefinedError(v)
	}
	if v.kind == KindDict {
		if m, ok := dictMethod(v, name); ok {
			return m, nil
		}
		if isDictDunder(name) {
			return unsafeUndefined(v, name), nil
		}
		return Undefined(), nil
	}
	if a, ok, err := pyAttr(v, name); ok || err != nil {
		return a, err
	}
	if strings.HasPrefix(name, "__") && hasDunder(v, name) {
		return unsafeUndefined(v, name), nil
	}
	return Undefined(), nil
}

var (
	batchNames    = []string{"linecount", "fill_with"}
	batchDefaults = []Value{Undefined(), None()}
)

func filterBatch(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	var buf [2]Value
	p, err := bindInto(buf[:], "do_batch", args, kw, batchNames, 1, batchDefaults)
	if err != nil {
		return Undefined(), err
	}
	return lazy("do_batch", func() ([]Value, error) { return batch(v, p[0], p[1]) }), nil
}

func batch(v, linecount, fill Value) ([]Value, error) {
	p := [2]Value{linecount, fill}
	items, err := iterate(v)
	if err != nil {
		return nil, err
	}
	var out []Value
	var tmp []Value
	for _, it := range items {
		if pyEqual(NewInt(int64(len(tmp))), p[0]) {
			out = append(out, NewList(tmp))
			tmp = nil
		}
		tmp = append(tmp, it)
	}
	if len(tmp) > 0 {
		if !p[1].IsNone() {
			missing, err := pySub(p[0], NewInt(int64(len(tmp))))
			if err != nil {
				return nil, err
			}
			if !isIntLike(missing) {
				return nil, typeError("can't multiply sequence by non-int of type " + pyTypeName(missing))
			}
			if n := toInt64(missing); n > 0 {
				if n > 1<<20 {
					return nil, errLimitf("batch of %d items", n)
				}
				for i := int64(0); i < n; i++ {
					tmp = append(tmp, p[1])
				}
			}
		}
		out = append(out, NewList(tmp))
	}
	return out, nil
}

var (
	centerNames    = []string{"width"}
	centerDefaults = []Value{NewInt(80)}
)

func filterCenter(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	var buf [1]Value
	p, err := bindInto(buf[:], "do_center", args, kw, centerNames, 0, centerDefaults)
	if err != nil {
		return Undefined(), err
	}
	s := softStr(v)
	r, err := callStrMethod(s.AsString(), "center", p, nil)
	if err != nil {
		return Undefined(), err
	}
	return newStr(r.AsString(), s.kind == KindMarkup), nil
}

func filterLength(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	if len(kw) > 0 {
		return Undefined(), typeError("len() takes no keyword arguments")
	}
	if len(args) > 0 {
		return Undefined(), typeError(fmt.Sprintf("len() takes exactly one argument (%d given)", len(args)+1))
	}
	n, err := pyLen(v)
	if err != nil {
		return Undefined(), err
	}
	return NewInt(int64(n)), nil
}

var (
	defaultNames    = []string{"default_value", "boolean"}
	defaultDefaults = []Value{NewString(""), NewBool(false)}
)

func filterDefault(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	var buf [2]Value
	p, err := bindInto(buf[:], "do_default", args, kw, defaultNames, 0, defaultDefaults)
	if err != nil {
		return Undefined(), err
	}
	if v.IsUndefined() || p[1].IsTruthy() && !v.IsTruthy() {
		return p[0], nil
	}
	return v, nil
}

var (
	dictsortNames    = []string{"case_sensitive", "by", "reverse"}
	dictsortDefaults = []Value{NewBool(false), NewString("key"), NewBool(false)}
)

func filterDictsort(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	var buf [3]Value
	p, err := bindInto(buf[:], "do_dictsort", args, kw, dictsortNames, 0, dictsortDefaults)
	if err != nil {
		return Undefined(), err
	}
	reverse, err := sortReverse(p[2])
	if err != nil {
		return Undefined(), err
	}
	pos := 0
	switch {
	case p[1].IsString() && p[1].AsString() == "key":
	case p[1].IsString() && p[1].AsString() == "value":
		pos = 1
	default:
		return Undefined(), filterArgError(`You can only sort by either "key" or "value"`)
	}
	if v.kind != KindDict {
		if v.IsUndefined() {
			return Undefined(), undefinedError(v)
		}
		return Undefined(), pyErr("AttributeError", pyTypeName(v)+" object has no attribute 'items'")
	}
	items := dictView(v.AsDict(), "items").AsList().Items
	keys := make([]Value, len(items))
	for i, it := range items {
		k := it.AsList().Items[pos]
		if !p[0].IsTruthy() {
			k = ignoreCase(k)
		}
		keys[i] = k
	}
	if err := sortValues(items, keys, reverse); err != nil {
		return Undefined(), err
	}
	return NewList(items), nil
}

func filterEscape(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	if len(kw) > 0 {
		return Undefined(), typeError("escape() takes no keyword arguments")
	}
	if len(args) > 0 {
		return Undefined(), typeError(fmt.Sprintf("escape() takes exactly one argument (%d given)", len(args)+1))
	}
	return escapeValue(v), nil
}

var (
	filesizeNames    = []string{"binary"}
	filesizeDefaults = []Value{NewBool(false)}
)

func filterFilesizeformat(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	var buf [1]Value
	p, err := bindInto(buf[:], "do_filesizeformat", args, kw, filesizeNames, 0, filesizeDefaults)
	if err != nil {
		return Undefined(), err
	}
	bytes, err := pyFloatOf(v)
	if err != nil {
		return Undefined(), err
	}
	binary := p[0].IsTruthy()
	base := 1000.0
	prefixes := []string{"kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"}
	if binary {
		base = 1024
		prefixes = []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"}
	}
	switch {
	case bytes == 1:
		return NewString("1 Byte"), nil
	case bytes < base:
		n, err := intOf(NewFloat(bytes))
		if err != nil {
			return Undefined(), err
		}
		return NewString(strconv.FormatInt(n, 10) + " Bytes"), nil
	}
	var unit float64
	prefix := ""
	for i, pre := range prefixes {
		unit = math.Pow(base, float64(i+2))
		prefix = pre
		if bytes < unit {
			break
		}
	}
	s := numSpec{width: -1, prec: 1, fill: ' '}
	return NewString(s.formatFloat(base*bytes/unit, 'f') + " " + prefix), nil
}

func filterFirst(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	if err := noArgs("do_first", args, kw); err != nil {
		return Undefined(), err
	}
	if v.kind == KindList && v.AsList().isIterator() {
		l := v.AsList()
		if err := l.force(); err != nil {
			return Undefined(), err
		}
		if l.pos < len(l.Items) {
			l.pos++
			return l.Items[l.pos-1], nil
		}
		return undefinedMsg("No first item, sequence was empty."), nil
	}
	items, err := iterate(v)
	if err != nil {
		return Undefined(), err
	}
	if len(items) == 0 {
		return undefinedMsg("No first item, sequence was empty."), nil
	}
	return items[0], nil
}

var (
	floatNames    = []string{"default"}
	floatDefaults = []Value{NewFloat(0)}
)

func filterFloat(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	var buf [1]Value
	p, err := bindInto(buf[:], "do_float", args, kw, floatNames, 0, floatDefaults)
	if err != nil {
		return Undefined(), err
	}
	f, err := pyFloatOf(v)
	if err != nil {
		if errIs(err, "TypeError") || errIs(err, "ValueError") {
			return p[0], nil
		}
		return Undefined(), err
	}
	return NewFloat(f), nil
}

// pyFloatOf is Python's float(v).
func pyFloatOf(v Value) (float64, error) {
	switch v.kind {
	case KindFloat, KindInt, KindBool:
		return toFloat64(v), nil
	case KindString, KindMarkup:
		return parsePyFloat(v.AsString())
	case KindUndefined:
		return 0, undefinedError(v)
	}
	return 0, typeError("float() argument must be a string or a real number, not " + pyTypeName(v))
}

// parsePyFloat parses a string as Python's float(): surrounding whitespace,
// a sign, digits with single underscores between them, inf/infinity/nan in
// any case.
func parsePyFloat(s string) (float64, error) {
	t := pyStrip(s, nil, true, true)
	bad := valueError("could not convert string to float: " + string(appendPyStrRepr(nil, s)))
	if t == "" {
		return 0, bad
	}
	body := t
	if body[0] == '+' || body[0] == '-' {
		body = body[1:]
	}
	switch strings.ToLower(body) {
	case "inf", "infinity":
		if t[0] == '-' {
			return math.Inf(-1), nil
		}
		return math.Inf(1), nil
	case "nan":
		return math.NaN(), nil
	}
	clean, ok := stripUnderscores(t)
	if !ok {
		return 0, bad
	}
	for i := 0; i < len(clean); i++ {
		c := clean[i]
		if !(c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
			return 0, bad
		}
	}
	f, err := strconv.ParseFloat(clean, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return f, nil
		}
		return 0, bad
	}
	return f, nil
}

// stripUnderscores removes the underscores Python allows between digits;
// ok is false for an underscore anywhere else.
func stripUnderscores(s string) (string, bool) {
	if !strings.Contains(s, "_") {
		return s, true
	}
	isDigit := func(i int) bool { return i >= 0 && i < len(s) && isHexDigit(s[i]) }
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '_' {
			if !isDigit(i-1) || !isDigit(i+1) {
				return "", false
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String(), true
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func filterForceescape(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	if err := noArgs("do_forceescape", args, kw); err != nil {
		return Undefined(), err
	}
	return newMarkup(htmlEscape(pyStr(v))), nil
}

func filterFormat(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	if len(args) > 0 && len(kw) > 0 {
		return Undefined(), filterArgError("can't handle positional and keyword arguments at the same time")
	}
	f := softStr(v)
	var arg Value
	if len(kw) > 0 {
		d := &Dict{Data: make(map[string]Value, len(kw))}
		for _, p := range kw {
			d.Set(p.name, p.val)
		}
		arg = Value{kind: KindDict, v: d}
	} else {
		arg = NewTuple(args)
	}
	return percentFormatValue(f, arg)
}

var (
	groupbyNames    = []string{"attribute", "default", "case_sensitive"}
	groupbyDefaults = []Value{Undefined(), None(), NewBool(false)}
)

func filterGroupby(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	var buf [3]Value
	p, err := bindInto(buf[:], "do_groupby", args, kw, groupbyNames, 1, groupbyDefaults)
	if err != nil {
		return Undefined(), err
	}
	parts := attrParts(p[0])
	caseSensitive := p[2].IsTruthy()
	items, err := iterate(v)
	if err != nil {
		return Undefined(), err
	}
	items = append([]Value(nil), items...)
	keys := make([]Value, len(items))
	for i, it := range items {
		k, err := attrGetter(it, parts, p[1])
		if err != nil {
			return Undefined(), err
		}
		if !caseSensitive {
			k = ignoreCase(k)
		}
		keys[i] = k
	}
	// sorted(value, key=expr) then itertools.groupby on the same key.
	idx := make([]int, len(items))
	for i := range idx {
		idx[i] = i
	}
	var sortErr error
	sort.SliceStable(idx, func(i, j int) bool {
		less, err := pyLess(keys[idx[i]], keys[idx[j]])
		if err != nil && sortErr == nil {
			sortErr = err
		}
		return less
	})
	if sortErr != nil {
		return Undefined(), sortErr
	}
	var out []Value
	for n := 0; n < len(idx); {
		m := n + 1
		for m < len(idx) && pyEqual(keys[idx[m]], keys[idx[n]]) {
			m++
		}
		group := make([]Value, 0, m-n)
		for _, i := range idx[n:m] {
			group = append(group, items[i])
		}
		grouper := keys[idx[n]]
		if !caseSensitive {
			if grouper, err = attrGetter(group[0], parts, p[1]); err != nil {
				return Undefined(), err
			}
		}
		out = append(out, newGroupTuple(grouper, NewList(group)))
		n = m
	}
	return NewList(out), nil
}

// newGroupTuple is groupby's _GroupTuple: a (grouper, list) tuple whose
// items are also the attributes grouper and list.
func newGroupTuple(grouper, list Value) Value {
	return Value{kind: KindList, v: &List{Items: []Value{grouper, list}, Tuple: true, fields: groupFields}}
}

var groupFields = []string{"grouper", "list"}

var (
	indentNames    = []string{"width", "first", "blank"}
	indentDefaults = []Value{NewInt(4), NewBool(false), NewBool(false)}
)

func filterIndent(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	var buf [3]Value
	p, err := bindInto(buf[:], "do_indent", args, kw, indentNames, 0, indentDefaults)
	if err != nil {
		return Undefined(), err
	}
	var indention string
	switch {
	case p[0].IsString():
		indention = p[0].AsString()
	case isIntLike(p[0]):
		indention = strings.Repeat(" ", int(max(min(toInt64(p[0]), 1<<20), 0)))
	default:
		return Undefined(), typeError("can't multiply sequence by non-int of type " + pyTypeName(p[0]))
	}
	markup := v.kind == KindMarkup // Markup(indention): not escaped
	if !v.IsString() {
		if v.IsUndefined() {
			return Undefined(), undefinedError(v)
		}
		return Undefined(), operandError("+", v, NewString("\n"))
	}
	s := v.AsString() + "\n"
	var rv string
	lines := pySplitlines(s, false)
	if p[2].IsTruthy() {
		rv = strings.Join(lines, "\n"+indention)
	} else {
		var b strings.Builder
		b.WriteString(lines[0])
		if len(lines) > 1 {
			for _, line := range lines[1:] {
				b.WriteByte('\n')
				if line != "" {
					b.WriteString(indention)
				}
				b.WriteString(line)
			}
		}
		rv = b.String()
	}
	if p[1].IsTruthy() {
		rv = indention + rv
	}
	return newStr(rv, markup), nil
}

var (
	intNames    = []string{"default", "base"}
	intDefaults = []Value{NewInt(0), NewInt(10)}
)

func filterInt(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	var buf [2]Value
	p, err := bindInto(buf[:], "do_int", args, kw, intNames, 0, intDefaults)
	if err != nil {
		return Undefined(), err
	}
	var n int64
	if v.IsString() {
		n, err = parsePyInt(v.AsString(), p[1])
	} else {
		n, err = pyIntOf(v)
	}
	if err == nil {
		return NewInt(n), nil
	}
	if !errIs(err, "TypeError") && !errIs(err, "ValueError") {
		return Undefined(), err
	}
	f, err := pyFloatOf(v)
	if err != nil {
		if errIs(err, "TypeError") || errIs(err, "ValueError") {
			return p[0], nil
		}
		return Undefined(), err
	}
	n, err = intOf(NewFloat(f))
	if err != nil {
		if errIs(err, "ValueError") {
			return p[0], nil
		}
		return Undefined(), err
	}
	return NewInt(n), nil
}

// pyIntOf is Python's int(v) for a value that is not a string.
func pyIntOf(v Value) (int64, error) {
	switch v.kind {
	case KindInt, KindBool, KindFloat:
		return intOf(v)
	case KindUndefined:
		return 0, undefinedError(v)
	}
	return 0, typeError("int() argument must be a string, a bytes-like object or a real number, not " + pyTypeName(v))
}

// parsePyInt is Python's int(s, base): whitespace around, a sign, an
// optional 0x/0o/0b prefix matching the base (any of them with base 0,
// where leading zeros are not allowed), single underscores between digits.
func parsePyInt(s string, baseV Value) (int64, error) {
	if !isIntLike(baseV) {
		return 0, typeError(pyTypeName(baseV) + " object cannot be interpreted as an integer")
	}
	base := toInt64(baseV)
	if base != 0 && (base < 2 || base > 36) {
		return 0, valueError("int() base must be >= 2 and <= 36, or 0")
	}
	bad := valueError(fmt.Sprintf("invalid literal for int() with base %d: %s", base, appendPyStrRepr(nil, s)))
	t := pyStrip(s, nil, true, true)
	neg := false
	if t != "" && (t[0] == '+' || t[0] == '-') {
		neg = t[0] == '-'
		t = t[1:]
	}
	prefixBase := int64(0)
	if len(t) >= 2 && t[0] == '0' {
		switch t[1] {
		case 'x', 'X':
			prefixBase = 16
		case 'o', 'O':
			prefixBase = 8
		case 'b', 'B':
			prefixBase = 2
		}
	}
	if prefixBase != 0 && (base == 0 || base == prefixBase) {
		t = t[2:]
		base = prefixBase
		if strings.HasPrefix(t, "_") {
			t = t[1:]
		}
	} else if base == 0 {
		base = 10
		if len(t) > 1 && t[0] == '0' && strings.Trim(t, "0_") != "" {
			return 0, bad
		}
	}
	if t == "" || t[0] == '_' || t[len(t)-1] == '_' || strings.Contains(t, "__") {
		return 0, bad
	}
	clean := strings.ReplaceAll(t, "_", "")
	// Python accepts any Unicode decimal digit; map them to ASCII.
	if !isASCII(clean) {
		var b strings.Builder
		for _, r := range clean {
			if d := digitValue(r); d >= 0 {
				b.WriteByte(byte('0' + d))
				continue
			}
			return 0, bad
		}
		clean = b.String()
	}
	u, err := strconv.ParseUint(clean, int(base), 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, errIntOverflow
		}
		return 0, bad
	}
	if neg {
		if u > 1<<63 {
			return 0, errIntOverflow
		}
		return -int64(u), nil
	}
	if u > math.MaxInt64 {
		return 0, errIntOverflow
	}
	return int64(u), nil
}

// digitValue is the value of a Unicode decimal digit, -1 for other runes.
func digitValue(r rune) int {
	if r >= '0' && r <= '9' {
		return int(r - '0')
	}
	if !isPyDecimal(r) {
		return -1
	}
	// Decimal digits come in runs of ten starting at a zero.
	for z := r; z > r-10; z-- {
		if !isPyDecimal(z - 1) {
			return int(r - z)
		}
	}
	return -1
}

func filterItems(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	if err := noArgs("do_items", args, kw); err != nil {
		return Undefined(), err
	}
	return lazy("do_items", func() ([]Value, error) {
		if v.IsUndefined() {
			return nil, nil
		}
		if v.kind != KindDict {
			return nil, typeError("Can only get item pairs from a mapping.")
		}
		return dictView(v.AsDict(), "items").AsList().Items, nil
	}), nil
}

var (
	joinNames    = []string{"d", "attribute"}
	joinDefaults = []Value{NewString(""), None()}
)

func filterJoin(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	var buf [2]Value
	p, err := bindInto(buf[:], "do_join", args, kw, joinNames, 0, joinDefaults)
	if err != nil {
		return Undefined(), err
	}
	items, err := iterate(v)
	if err != nil {
		return Undefined(), err
	}
	parts := attrParts(p[1])
	if parts != nil {
		mapped := make([]Value, len(items))
		for i, it := range items {
			if mapped[i], err = attrGetter(it, parts, None()); err != nil {
				return Undefined(), err
			}
		}
		items = mapped
	}
	// With autoescape, a Markup separator or item makes the result Markup
	// with everything else escaped.
	markup := false
	if e.autoescape {
		markup = p[0].kind == KindMarkup
		for _, it := range items {
			markup = markup || it.kind == KindMarkup
		}
	}
	var b strings.Builder
	sep := pyStr(p[0])
	if markup {
		sep = escapeValue(p[0]).AsString()
	}
	for i, it := range items {
		if i > 0 {
			b.WriteString(sep)
		}
		if markup {
			b.WriteString(escapeValue(it).AsString())
		} else {
			b.WriteString(pyStr(it))
		}
	}
	return newStr(b.String(), markup), nil
}

func filterLast(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	if err := noArgs("do_last", args, kw); err != nil {
		return Undefined(), err
	}
	if v.kind == KindList && v.AsList().isIterator() || !isIterable(v) {
		return Undefined(), typeError(pyTypeName(v) + " object is not reversible")
	}
	items, err := iterate(v)
	if err != nil {
		return Undefined(), err
	}
	if len(items) == 0 {
		return undefinedMsg("No last item, sequence was empty."), nil
	}
	return items[len(items)-1], nil
}

func filterList(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	if err := noArgs("do_list", args, kw); err != nil {
		return Undefined(), err
	}
	items, err := iterate(v)
	if err != nil {
		return Undefined(), err
	}
	return NewList(append([]Value(nil), items...)), nil
}

func filterMap(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	return lazy("sync_do_map", func() ([]Value, error) {
		if !v.IsTruthy() {
			return nil, nil
		}
		items, err := iterate(v)
		if err != nil {
			return nil, err
		}
		if len(args) == 0 {
			if attr, ok := kw.get("attribute"); ok {
				def, _ := kw.get("default")
				if def.IsUndefined() {
					def = None()
				}
				rest := kw.without("attribute").without("default")
				if len(rest) > 0 {
					return nil, filterArgError("Unexpected keyword argument " + string(appendPyStrRepr(nil, rest[0].name)))
				}
				parts := attrParts(attr)
				out := make([]Value, len(items))
				for i, it := range items {
					if out[i], err = attrGetter(it, parts, def); err != nil {
						return nil, err
					}
				}
				return out, nil
			}
			return nil, filterArgError("map requires a filter argument")
		}
		out := make([]Value, len(items))
		for i, it := range items {
			if out[i], err = e.callFilter(args[0], it, args[1:], kw); err != nil {
				return nil, err
			}
		}
		return out, nil
	}), nil
}

// callFilter is environment.call_filter: the filter named by name (a
// string), applied to v.
func (e *evaluator) callFilter(name Value, v Value, args []Value, kw kwargs) (Value, error) {
	n := ""
	if name.IsString() {
		n = name.AsString()
	}
	f, ok := filterTable[n]
	if !ok {
		return Undefined(), pyErr("TemplateRuntimeError", "No filter named "+string(appendPyRepr(nil, name))+".")
	}
	return f(e, v, args, kw)
}

var (
	minMaxNames    = []string{"case_sensitive", "attribute"}
	minMaxDefaults = []Value{NewBool(false), None()}
)

func filterMinMax(isMax bool) filterFunc {
	name := "do_min"
	if isMax {
		name = "do_max"
	}
	return func(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
		var buf [2]Value
		p, err := bindInto(buf[:], name, args, kw, minMaxNames, 0, minMaxDefaults)
		if err != nil {
			return Undefined(), err
		}
		items, err := iterate(v)
		if err != nil {
			return Undefined(), err
		}
		if len(items) == 0 {
			return undefinedMsg("No aggregated item, sequence was empty."), nil
		}
		parts := attrParts(p[1])
		key := func(it Value) (Value, error) {
			k, err := attrGetter(it, parts, None())
			if err != nil {
				return Undefined(), err
			}
			if !p[0].IsTruthy() {
				k = ignoreCase(k)
			}
			return k, nil
		}
		best := items[0]
		bestKey, err := key(best)
		if err != nil {
			return Undefined(), err
		}
		for _, it := range items[1:] {
			k, err := key(it)
			if err != nil {
				return Undefined(), err
			}
			var better bool
			if isMax {
				better, err = pyCompare(">", k, bestKey)
			} else {
				better, err = pyCompare("<", k, bestKey)
			}
			if err != nil {
				return Undefined(), err
			}
			if better {
				best, bestKey = it, k
			}
		}
		return best, nil
	}
}

func filterPprint(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	if err := noArgs("do_pprint", args, kw); err != nil {
		return Undefined(), err
	}
	var b strings.Builder
	pprintFormat(&b, v, 0, 0, 0)
	return NewString(b.String()), nil
}

func filterRandom(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	if err := noArgs("do_random", args, kw); err != nil {
		return Undefined(), err
	}
	n, err := pyLen(v)
	if err != nil {
		return Undefined(), err
	}
	if n == 0 {
		return undefinedMsg("No random item, sequence was empty."), nil
	}
	r, err := getitemStrict(v, NewInt(int64(rand.IntN(n))))
	if err != nil {
		return Undefined(), err
	}
	return r, nil
}

// getitemStrict is Python's seq[i] (an error when it fails).
func getitemStrict(v, key Value) (Value, error) {
	if r, ok := pyItem(v, key); ok {
		return r, nil
	}
	if v.kind == KindDict {
		return Undefined(), pyErr("KeyError", string(appendPyRepr(nil, key)))
	}
	return Undefined(), typeError(pyTypeName(v) + " object is not subscriptable")
}

// filterSelectReject is select, reject, selectattr and rejectattr.
func filterSelectReject(keep, attr bool) filterFunc {
	return func(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
		return lazy("select_or_reject", func() ([]Value, error) {
			if !v.IsTruthy() {
				return nil, nil
			}
			items, err := iterate(v)
			if err != nil {
				return nil, err
			}
			var parts []Value
			off := 0
			if attr {
				if len(args) == 0 {
					return nil, filterArgError("Missing parameter for attribute name")
				}
				parts = attrParts(args[0])
				off = 1
			}
			var out []Value
			for _, it := range items {
				x := it
				if attr {
					if x, err = attrGetter(it, parts, None()); err != nil {
						return nil, err
					}
				}
				var ok bool
				if len(args) > off {
					if ok, err = e.callTest(args[off], x, args[off+1:], kw); err != nil {
						return nil, err
					}
				} else {
					ok = x.IsTruthy()
				}
				if ok == keep {
					out = append(out, it)
				}
			}
			return out, nil
		}), nil
	}
}

var (
	replaceNames    = []string{"old", "new", "count"}
	replaceDefaults = []Value{Undefined(), Undefined(), None()}
)

func filterReplace(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	var buf [3]Value
	p, err := bindInto(buf[:], "do_replace", args, kw, replaceNames, 2, replaceDefaults)
	if err != nil {
		return Undefined(), err
	}
	count := int64(-1)
	if !p[2].IsNone() {
		if count, err = needIntArg(p[2]); err != nil {
			return Undefined(), err
		}
	}
	if e.autoescape {
		s := softStr(v)
		if p[0].kind == KindMarkup || p[1].kind == KindMarkup && v.kind != KindMarkup {
			s = escapeValue(v)
		}
		if s.kind == KindMarkup {
			return newMarkup(pyReplace(s.AsString(), escapeValue(p[0]).AsString(), escapeValue(p[1]).AsString(), count)), nil
		}
		return NewString(pyReplace(s.AsString(), pyStr(p[0]), pyStr(p[1]), count)), nil
	}
	return NewString(pyReplace(pyStr(v), pyStr(p[0]), pyStr(p[1]), count)), nil
}

func filterReverse(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	if err := noArgs("do_reverse", args, kw); err != nil {
		return Undefined(), err
	}
	if v.IsString() {
		s := v.AsString()
		var b []byte
		if isASCII(s) {
			b = make([]byte, len(s))
			for i := range s {
				b[len(s)-1-i] = s[i]
			}
		} else {
			runes := []rune(s)
			for i, j := 0, len(runes)-1; i < j; i, j = i+1, j-1 {
				runes[i], runes[j] = runes[j], runes[i]
			}
			b = []byte(string(runes))
		}
		return newStr(string(b), v.kind == KindMarkup), nil
	}
	if !isIterable(v) {
		return Undefined(), filterArgError("argument must be iterable")
	}
	isIter := v.kind == KindList && v.AsList().isIterator()
	items, err := iterate(v)
	if err != nil {
		return Undefined(), err
	}
	out := make([]Value, len(items))
	for i, it := range items {
		out[len(items)-1-i] = it
	}
	if isIter {
		return NewList(out), nil // reversed() failed: list(value), reversed
	}
	r := newSeq(out, seqReversed)
	r.AsList().name = reversedName(v)
	return r, nil
}

var (
	roundNames    = []string{"precision", "method"}
	roundDefaults = []Value{NewInt(0), NewString("common")}
)

// reversedName is the type of reversed(v)'s iterator.
func reversedName(v Value) string {
	switch v.kind {
	case KindDict:
		return "dict_reversekeyiterator"
	case KindList:
		l := v.AsList()
		switch {
		case l.seq == seqRange:
			return "range_iterator"
		case l.seq == seqKeys:
			return "dict_reversekeyiterator"
		case l.seq == seqValues:
			return "dict_reversevalueiterator"
		case l.seq == seqItems:
			return "dict_reverseitemiterator"
		case l.Tuple:
			return "reversed"
		}
	case KindUndefined:
		return "reversed"
	}
	return "list_reverseiterator"
}

func filterRound(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	var buf [2]Value
	p, err := bindInto(buf[:], "do_round", args, kw, roundNames, 0, roundDefaults)
	if err != nil {
		return Undefined(), err
	}
	method := ""
	if p[1].IsString() {
		method = p[1].AsString()
	}
	if method != "common" && method != "ceil" && method != "floor" {
		return Undefined(), filterArgError("method must be common, ceil or floor")
	}
	if method == "common" {
		return pyRound(v, p[0])
	}
	// math.ceil/floor(value * 10 ** precision) / 10 ** precision
	if !isNumeric(v) {
		return Undefined(), operandError("*", v, p[0])
	}
	pow, err := pyArith("**", NewInt(10), p[0])
	if err != nil {
		return Undefined(), err
	}
	x, err := e.pyMul(v, pow)
	if err != nil {
		return Undefined(), err
	}
	var r Value
	if x.kind == KindFloat {
		f := x.AsFloat()
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return Undefined(), pyErr("OverflowError", "cannot convert float infinity to integer")
		}
		if method == "ceil" {
			f = math.Ceil(f)
		} else {
			f = math.Floor(f)
		}
		if math.Abs(f) >= 9.2e18 {
			return Undefined(), errIntOverflow
		}
		r = NewInt(int64(f))
	} else {
		r = NewInt(toInt64(x))
	}
	return pyArith("/", r, pow)
}

// pyRound is Python's round(value, ndigits): ties to even on the exact
// binary value; an int stays an int.
func pyRound(v, nd Value) (Value, error) {
	if !isIntLike(nd) {
		return Undefined(), typeError(pyTypeName(nd) + " object cannot be interpreted as an integer")
	}
	n := toInt64(nd)
	switch v.kind {
	case KindInt, KindBool:
		x := toInt64(v)
		if n >= 0 {
			return NewInt(x), nil
		}
		if n < -18 {
			return NewInt(0), nil
		}
		pow := int64(1)
		for i := int64(0); i < -n; i++ {
			pow *= 10
		}
		q, r := x/pow, x%pow
		if r < 0 {
			q, r = q-1, r+pow
		}
		if 2*r > pow || 2*r == pow && q%2 != 0 {
			q++
		}
		res, ok := mulInt(q, pow)
		if !ok {
			return Undefined(), errIntOverflow
		}
		return NewInt(res), nil
	case KindFloat:
		f := v.AsFloat()
		if math.IsInf(f, 0) || math.IsNaN(f) || f == 0 {
			return v, nil
		}
		if n > 330 {
			return v, nil
		}
		if n >= 0 {
			r, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'f', int(n), 64), 64)
			if r == 0 {
				r = math.Copysign(0, f)
			}
			return NewFloat(r), nil
		}
		if n < -330 {
			return NewFloat(math.Copysign(0, f)), nil
		}
		// Negative ndigits: round the exact value to a multiple of 10^-n.
		exact := new(big.Rat).SetFloat64(f)
		scale := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(-n), nil))
		q := new(big.Rat).Quo(exact, scale)
		num, den := q.Num(), q.Denom()
		fl, rem := new(big.Int).DivMod(num, den, new(big.Int))
		twice := new(big.Int).Mul(rem, big.NewInt(2))
		if c := twice.Cmp(den); c > 0 || c == 0 && fl.Bit(0) == 1 {
			fl.Add(fl, big.NewInt(1))
		}
		res, _ := new(big.Rat).Mul(new(big.Rat).SetInt(fl), scale).Float64()
		if res == 0 {
			res = math.Copysign(0, f)
		}
		return NewFloat(res), nil
	case KindUndefined:
		return Undefined(), typeError("type Undefined doesn't define __round__ method")
	}
	return Undefined(), typeError("type " + strings.Trim(pyTypeName(v), "'") + " doesn't define __round__ method")
}

func filterSafe(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	if err := noArgs("do_mark_safe", args, kw); err != nil {
		return Undefined(), err
	}
	if v.kind == KindMarkup {
		return v, nil
	}
	return newMarkup(pyStr(v)), nil
}

var (
	sliceNames    = []string{"slices", "fill_with"}
	sliceDefaults = []Value{Undefined(), None()}
)

func filterSlice(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	var buf [2]Value
	p, err := bindInto(buf[:], "do_slice", args, kw, sliceNames, 1, sliceDefaults)
	if err != nil {
		return Undefined(), err
	}
	return lazy("sync_do_slice", func() ([]Value, error) { return slice(v, p[0], p[1]) }), nil
}

func slice(v, slicesV, fill Value) ([]Value, error) {
	p := [2]Value{slicesV, fill}
	items, err := iterate(v)
	if err != nil {
		return nil, err
	}
	n := int64(len(items))
	if !isNumeric(p[0]) {
		return nil, operandError("//", NewInt(n), p[0])
	}
	per, err := pyArith("//", NewInt(n), p[0])
	if err != nil {
		return nil, err
	}
	extra, err := pyArith("%", NewInt(n), p[0])
	if err != nil {
		return nil, err
	}
	slices, err := needIntArg(p[0])
	if err != nil {
		return nil, err
	}
	if slices > 1<<20 {
		return nil, errLimitf("slice into %d parts", slices)
	}
	perN, extraN := toInt64(per), toInt64(extra)
	var out []Value
	offset := int64(0)
	for k := int64(0); k < slices; k++ {
		start := offset + k*perN
		if k < extraN {
			offset++
		}
		end := offset + (k+1)*perN
		a, b := sliceBounds(start, end, len(items))
		tmp := append([]Value(nil), items[a:b]...)
		if !p[1].IsNone() && k >= extraN {
			tmp = append(tmp, p[1])
		}
		out = append(out, NewList(tmp))
	}
	return out, nil
}

var (
	sortNames    = []string{"reverse", "case_sensitive", "attribute"}
	sortDefaults = []Value{NewBool(false), NewBool(false), None()}
)

func filterSort(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	var buf [3]Value
	p, err := bindInto(buf[:], "do_sort", args, kw, sortNames, 0, sortDefaults)
	if err != nil {
		return Undefined(), err
	}
	items, err := iterate(v)
	if err != nil {
		return Undefined(), err
	}
	items = append([]Value(nil), items...)
	var paths [][]Value
	if p[2].IsString() {
		for _, a := range strings.Split(p[2].AsString(), ",") {
			paths = append(paths, attrParts(NewString(a)))
		}
	} else {
		paths = [][]Value{attrParts(p[2])}
	}
	keys := make([]Value, len(items))
	for i, it := range items {
		if keys[i], err = multiAttrKey(it, paths, !p[1].IsTruthy()); err != nil {
			return Undefined(), err
		}
	}
	reverse, err := sortReverse(p[0])
	if err != nil {
		return Undefined(), err
	}
	if err := sortValues(items, keys, reverse); err != nil {
		return Undefined(), err
	}
	return NewList(items), nil
}

func filterString(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	if len(kw) > 0 || len(args) > 0 {
		return Undefined(), typeError("soft_str() takes exactly one argument")
	}
	return softStr(v), nil
}

func filterStriptags(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	if err := noArgs("do_striptags", args, kw); err != nil {
		return Undefined(), err
	}
	return NewString(stripTags(pyStr(v))), nil
}

var (
	sumNames    = []string{"attribute", "start"}
	sumDefaults = []Value{None(), NewInt(0)}
)

func filterSum(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	var buf [2]Value
	p, err := bindInto(buf[:], "do_sum", args, kw, sumNames, 0, sumDefaults)
	if err != nil {
		return Undefined(), err
	}
	items, err := iterate(v)
	if err != nil {
		return Undefined(), err
	}
	total := p[1]
	if total.IsString() {
		return Undefined(), typeError("sum() can't sum strings [use ''.join(seq) instead]")
	}
	parts := attrParts(p[0])
	for _, it := range items {
		if parts != nil {
			if it, err = attrGetter(it, parts, None()); err != nil {
				return Undefined(), err
			}
		}
		if total, err = pyAdd(total, it); err != nil {
			return Undefined(), err
		}
	}
	return total, nil
}

// titleSep matches the separators of jinja2's title filter: runs of
// whitespace and - ( { [ <.
func isTitleSep(r rune) bool {
	return isPySpace(r) || r == '-' || r == '(' || r == '{' || r == '[' || r == '<'
}

func filterTitle(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	if err := noArgs("do_title", args, kw); err != nil {
		return Undefined(), err
	}
	s := softStr(v).AsString()
	var b strings.Builder
	word := func(w string) {
		if w == "" {
			return
		}
		r, n := utf8.DecodeRuneInString(w)
		b.WriteString(pyUpper(string(r)))
		b.WriteString(pyLower(w[n:]))
	}
	start := 0
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !isTitleSep(r) {
			i += n
			continue
		}
		word(s[start:i])
		j := i
		for j < len(s) {
			r, n := utf8.DecodeRuneInString(s[j:])
			if !isTitleSep(r) {
				break
			}
			j += n
		}
		word(s[i:j])
		start, i = j, j
	}
	word(s[start:])
	return NewString(b.String()), nil
}

// jsonBufPool holds tojson's scratch buffers (one exact-size allocation per
// call instead of a growing slice).
var jsonBufPool = newBufPool()

func filterTojson(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	o, err := tojsonOptions(args, kw)
	if err != nil {
		return Undefined(), err
	}
	bp := jsonBufPool.get()
	b, err := jsonDumps((*bp)[:0], v, o, 0)
	out := string(b)
	jsonBufPool.put(bp, b)
	if err != nil {
		return Undefined(), err
	}
	return NewString(out), nil
}

var (
	trimNames    = []string{"chars"}
	trimDefaults = []Value{None()}
)

func filterTrim(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	var buf [1]Value
	p, err := bindInto(buf[:], "do_trim", args, kw, trimNames, 0, trimDefaults)
	if err != nil {
		return Undefined(), err
	}
	s := softStr(v)
	if s.kind == KindMarkup {
		m, _ := strMethod(s, "strip")
		return m.AsCallable().fn(p, nil)
	}
	var chars *string
	if !p[0].IsNone() {
		c, err := needStr("strip", p[0])
		if err != nil {
			return Undefined(), typeError("strip arg must be None or str")
		}
		chars = &c
	}
	return NewString(pyStrip(s.AsString(), chars, true, true)), nil
}

var (
	truncateNames    = []string{"length", "killwords", "end", "leeway"}
	truncateDefaults = []Value{NewInt(255), NewBool(false), NewString("..."), None()}
)

func filterTruncate(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	var buf [4]Value
	p, err := bindInto(buf[:], "do_truncate", args, kw, truncateNames, 0, truncateDefaults)
	if err != nil {
		return Undefined(), err
	}
	length, end, leeway := p[0], p[2], p[3]
	if leeway.IsNone() {
		leeway = NewInt(5)
	}
	endLen, err := pyLen(end)
	if err != nil {
		return Undefined(), err
	}
	ok, err := pyCompare(">=", length, NewInt(int64(endLen)))
	if err != nil {
		return Undefined(), err
	}
	if !ok {
		return Undefined(), pyErr("AssertionError", fmt.Sprintf("expected length >= %d, got %s", endLen, pyStr(length)))
	}
	if ok, err = pyCompare(">=", leeway, NewInt(0)); err != nil {
		return Undefined(), err
	} else if !ok {
		return Undefined(), pyErr("AssertionError", "expected leeway >= 0, got "+pyStr(leeway))
	}
	n, err := pyLen(v)
	if err != nil {
		return Undefined(), err
	}
	limit, err := pyAdd(length, leeway)
	if err != nil {
		return Undefined(), err
	}
	if ok, err := pyCompare("<=", NewInt(int64(n)), limit); err != nil {
		return Undefined(), err
	} else if ok {
		return v, nil
	}
	if !v.IsString() || !isIntLike(length) {
		return Undefined(), typeError("truncate needs a string and an integer length")
	}
	cut, _ := runeSlice(v.AsString(), 0, toInt64(length)-int64(endLen))
	if !p[1].IsTruthy() {
		if i := strings.LastIndexByte(cut, ' '); i >= 0 {
			cut = cut[:i]
		}
	}
	return pyAdd(newStr(cut, v.kind == KindMarkup), end)
}

var (
	uniqueNames    = []string{"case_sensitive", "attribute"}
	uniqueDefaults = []Value{NewBool(false), None()}
)

func filterUnique(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	var buf [2]Value
	p, err := bindInto(buf[:], "do_unique", args, kw, uniqueNames, 0, uniqueDefaults)
	if err != nil {
		return Undefined(), err
	}
	caseSensitive, attr := p[0], p[1]
	return lazy("do_unique", func() ([]Value, error) { return unique(v, caseSensitive, attr) }), nil
}

func unique(v, caseSensitive, attr Value) ([]Value, error) {
	p := [2]Value{caseSensitive, attr}
	items, err := iterate(v)
	if err != nil {
		return nil, err
	}
	parts := attrParts(p[1])
	seen := make(map[string]bool, len(items))
	var out []Value
	for _, it := range items {
		k, err := attrGetter(it, parts, None())
		if err != nil {
			return nil, err
		}
		if !p[0].IsTruthy() {
			k = ignoreCase(k)
		}
		hk, err := hashKey(k)
		if err != nil {
			return nil, err
		}
		if !seen[hk] {
			seen[hk] = true
			out = append(out, it)
		}
	}
	return out, nil
}

// urlQuote is jinja2's url_quote: str(), UTF-8, percent-encoded except
// letters, digits, _.-~ (and / outside query strings); in query strings a
// space is +.
func urlQuote(v Value, forQS bool) string {
	s := pyStr(v)
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-' || c == '~':
			b.WriteByte(c)
		case c == '/' && !forQS:
			b.WriteByte(c)
		case c == ' ' && forQS:
			b.WriteByte('+')
		default:
			b.WriteByte('%')
			b.WriteByte("0123456789ABCDEF"[c>>4])
			b.WriteByte("0123456789ABCDEF"[c&15])
		}
	}
	return b.String()
}

func filterUrlencode(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	if err := noArgs("do_urlencode", args, kw); err != nil {
		return Undefined(), err
	}
	if v.IsString() || !isIterable(v) {
		return NewString(urlQuote(v, false)), nil
	}
	var pairs []Value
	if v.kind == KindDict {
		pairs = dictView(v.AsDict(), "items").AsList().Items
	} else {
		var err error
		if pairs, err = iterate(v); err != nil {
			return Undefined(), err
		}
	}
	parts := make([]string, len(pairs))
	for i, pv := range pairs {
		kv, err := iterate(pv)
		if err != nil {
			return Undefined(), typeError("cannot unpack non-iterable " + strings.Trim(pyTypeName(pv), "'") + " object")
		}
		if len(kv) != 2 {
			return Undefined(), valueError(fmt.Sprintf("not enough values to unpack (expected 2, got %d)", len(kv)))
		}
		parts[i] = urlQuote(kv[0], true) + "=" + urlQuote(kv[1], true)
	}
	return NewString(strings.Join(parts, "&")), nil
}

func filterWordcount(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	if err := noArgs("do_wordcount", args, kw); err != nil {
		return Undefined(), err
	}
	n, in := 0, false
	for _, r := range softStr(v).AsString() {
		w := isPyWord(r)
		if w && !in {
			n++
		}
		in = w
	}
	return NewInt(int64(n)), nil
}

var (
	xmlattrNames    = []string{"autospace"}
	xmlattrDefaults = []Value{NewBool(true)}
	xmlKeyBad       = regexp.MustCompile(`[\t\n\v\f\r />=]`)
)

func filterXmlattr(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	var buf [1]Value
	p, err := bindInto(buf[:], "do_xmlattr", args, kw, xmlattrNames, 0, xmlattrDefaults)
	if err != nil {
		return Undefined(), err
	}
	if v.kind != KindDict {
		if v.IsUndefined() {
			return Undefined(), undefinedError(v)
		}
		return Undefined(), pyErr("AttributeError", pyTypeName(v)+" object has no attribute 'items'")
	}
	d := v.AsDict()
	var items []string
	for _, k := range d.Keys {
		val := d.Data[k]
		if val.IsNone() || val.IsUndefined() {
			continue
		}
		key := d.keyValue(k)
		if !key.IsString() {
			return Undefined(), typeError("expected string or bytes-like object, got " + pyTypeName(key))
		}
		if xmlKeyBad.MatchString(k) {
			return Undefined(), valueError("Invalid character in attribute name: " + string(appendPyStrRepr(nil, k)))
		}
		items = append(items, escapeValue(key).AsString()+`="`+escapeValue(val).AsString()+`"`)
	}
	rv := strings.Join(items, " ")
	if p[0].IsTruthy() && rv != "" {
		rv = " " + rv
	}
	return newStr(rv, e.autoescape), nil
}

// errLimitf is an ErrLimit error with a description.
func errLimitf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrLimit}, args...)...)
}
