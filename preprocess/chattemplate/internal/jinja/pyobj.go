package jinja

// Python object semantics (patch, pyobj.go is new): iteration, len, ==,
// ordering, hashing, str() and repr(), and the sandboxed attribute and item
// access of jinja2's ImmutableSandboxedEnvironment.

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// PyError is a Python exception raised while rendering (patch): Type is the
// exception class (TypeError, UndefinedError, SecurityError …).
type PyError struct {
	Type, Msg string
}

func (e *PyError) Error() string { return e.Type + ": " + e.Msg }

func pyErr(typ, msg string) error { return &PyError{Type: typ, Msg: msg} }

func typeError(msg string) error  { return pyErr("TypeError", msg) }
func valueError(msg string) error { return pyErr("ValueError", msg) }

// filterArgError is jinja2's FilterArgumentError.
func filterArgError(msg string) error { return pyErr("FilterArgumentError", msg) }

// undefinedError is the error of using an undefined value.
func undefinedError(v Value) error {
	switch info := v.v.(type) {
	case *undefInfo:
		if info.security {
			return pyErr("SecurityError", info.msg)
		}
		return pyErr("UndefinedError", info.msg)
	case *nameExpr:
		return pyErr("UndefinedError", string(appendPyStrRepr(nil, info.name))+" is undefined")
	case *attrExpr:
		return pyErr("UndefinedError", string(appendPyStrRepr(nil, exprName(info.obj)))+" has no attribute "+string(appendPyStrRepr(nil, info.attr)))
	case *itemExpr:
		return pyErr("UndefinedError", string(appendPyStrRepr(nil, exprName(info.obj)))+" has no such element")
	}
	return pyErr("UndefinedError", "value is undefined")
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
	case KindMarkup:
		return "'Markup'"
	case KindList:
		l := v.v.(*List)
		switch l.seq {
		case seqGenerator:
			return "'generator'"
		case seqReversed:
			return "'" + l.name + "'"
		case seqKeys:
			return "'dict_keys'"
		case seqValues:
			return "'dict_values'"
		case seqItems:
			return "'dict_items'"
		case seqRange:
			return "'range'"
		}
		if l.Tuple {
			return "'tuple'"
		}
		return "'list'"
	case KindDict:
		return "'dict'"
	case KindUndefined:
		return "'Undefined'"
	case KindObject:
		return v.v.(pyObject).typeName()
	}
	return "'builtin_function_or_method'"
}

// =============================================================================
// Iteration and length
// =============================================================================

// iterate returns what Python's iter(v) yields: a sequence's items, a
// dict's keys, a string's characters, nothing for an undefined value. An
// iterator (generator, reversed) is consumed. Anything else is a TypeError.
func iterate(v Value) ([]Value, error) {
	switch v.kind {
	case KindList:
		l := v.v.(*List)
		if l.isIterator() {
			if err := l.force(); err != nil {
				return nil, err
			}
			items := l.Items[min(l.pos, len(l.Items)):]
			l.pos = len(l.Items)
			return items, nil
		}
		return l.Items, nil
	case KindDict:
		d := v.v.(*Dict)
		items := make([]Value, len(d.Keys))
		for i, k := range d.Keys {
			items[i] = d.keyValue(k)
		}
		return items, nil
	case KindString, KindMarkup:
		s := v.v.(string)
		items := make([]Value, 0, len(s))
		for i, r := range s {
			if r == utf8.RuneError {
				items = append(items, NewString(string(r)))
				continue
			}
			items = append(items, NewString(s[i:i+utf8.RuneLen(r)]))
		}
		return items, nil
	case KindUndefined:
		return nil, nil
	}
	return nil, typeError(pyTypeName(v) + " object is not iterable")
}

// isIterable reports whether iter(v) succeeds.
func isIterable(v Value) bool {
	switch v.kind {
	case KindList, KindDict, KindString, KindMarkup, KindUndefined:
		return true
	case KindObject:
		_, ok := v.v.(*loopObject)
		return ok
	}
	return false
}

// pyLen is Python's len(v).
func pyLen(v Value) (int, error) {
	switch v.kind {
	case KindList:
		l := v.v.(*List)
		if l.isIterator() {
			break
		}
		return len(l.Items), nil
	case KindDict:
		return len(v.v.(*Dict).Keys), nil
	case KindString, KindMarkup:
		return utf8.RuneCountInString(v.v.(string)), nil
	case KindUndefined:
		return 0, nil
	case KindObject:
		if l, ok := v.v.(*loopObject); ok {
			return len(l.items), nil
		}
	}
	return 0, typeError("object of type " + pyTypeName(v) + " has no len()")
}

// =============================================================================
// Comparison and hashing
// =============================================================================

func isNumeric(v Value) bool { return v.kind == KindInt || v.kind == KindFloat || v.kind == KindBool }

// numCmp compares two numbers exactly (an int64 against a float without
// rounding the int); NaN compares unequal to everything (ok false).
func numCmp(a, b Value) (c int, ok bool) {
	if a.kind != KindFloat && b.kind != KindFloat {
		x, y := toInt64(a), toInt64(b)
		switch {
		case x < y:
			return -1, true
		case x > y:
			return 1, true
		}
		return 0, true
	}
	if a.kind == KindFloat && b.kind == KindFloat {
		x, y := a.v.(float64), b.v.(float64)
		switch {
		case x < y:
			return -1, true
		case x > y:
			return 1, true
		case x == y:
			return 0, true
		}
		return 0, false
	}
	if a.kind == KindFloat {
		c, ok := numCmp(b, a)
		return -c, ok
	}
	// a is an integer, b a float.
	x, f := toInt64(a), b.v.(float64)
	switch {
	case math.IsNaN(f):
		return 0, false
	case f >= 9.3e18:
		return -1, true
	case f <= -9.3e18:
		return 1, true
	}
	fl := math.Floor(f)
	switch {
	case x < int64(fl):
		return -1, true
	case x > int64(fl):
		return 1, true
	case fl < f:
		return -1, true
	}
	return 0, true
}

// pyEqual is Python's a == b.
func pyEqual(a, b Value) bool {
	if isNumeric(a) && isNumeric(b) {
		c, ok := numCmp(a, b)
		return ok && c == 0
	}
	if a.IsString() && b.IsString() {
		return a.v.(string) == b.v.(string)
	}
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case KindUndefined, KindNone:
		return true
	case KindList:
		x, y := a.v.(*List), b.v.(*List)
		if x == y {
			return true
		}
		if x.seq != y.seq || x.Tuple != y.Tuple || x.isIterator() || x.seq == seqValues {
			return false
		}
		if len(x.Items) != len(y.Items) {
			return false
		}
		if x.seq == seqKeys || x.seq == seqItems {
			// Set-like views compare as sets.
			for _, it := range x.Items {
				if !containsItem(y.Items, it) {
					return false
				}
			}
			return true
		}
		for i := range x.Items {
			if !pyEqual(x.Items[i], y.Items[i]) {
				return false
			}
		}
		return true
	case KindDict:
		x, y := a.v.(*Dict), b.v.(*Dict)
		if len(x.Keys) != len(y.Keys) {
			return false
		}
		for _, k := range x.Keys {
			yv, ok := y.Data[k]
			if !ok || !pyEqual(x.Data[k], yv) {
				return false
			}
		}
		return true
	case KindCallable, KindObject:
		return a.v == b.v
	}
	return false
}

func containsItem(items []Value, v Value) bool {
	for _, it := range items {
		if pyEqual(it, v) {
			return true
		}
	}
	return false
}

// pyLess is Python's a < b: numbers with numbers, strings with strings,
// lists with lists and tuples with tuples (lexicographically); any other
// pair is a TypeError, and an undefined operand an UndefinedError.
func pyLess(a, b Value) (bool, error) {
	if isNumeric(a) && isNumeric(b) {
		c, ok := numCmp(a, b)
		return ok && c < 0, nil
	}
	if a.IsString() && b.IsString() {
		return a.v.(string) < b.v.(string), nil
	}
	if a.kind == KindList && b.kind == KindList {
		x, y := a.v.(*List), b.v.(*List)
		if x.seq == seqList && y.seq == seqList && x.Tuple == y.Tuple {
			for i := 0; i < len(x.Items) && i < len(y.Items); i++ {
				if !pyEqual(x.Items[i], y.Items[i]) {
					return pyLess(x.Items[i], y.Items[i])
				}
			}
			return len(x.Items) < len(y.Items), nil
		}
	}
	return false, orderError("<", a, b)
}

// orderError is the error of an ordering comparison between a and b.
func orderError(op string, a, b Value) error {
	if a.IsUndefined() {
		return undefinedError(a)
	}
	if b.IsUndefined() {
		return undefinedError(b)
	}
	return typeError(fmt.Sprintf("'%s' not supported between instances of %s and %s", op, pyTypeName(a), pyTypeName(b)))
}

// pyCompare evaluates a comparison operator in Python.
func pyCompare(op string, a, b Value) (bool, error) {
	switch op {
	case "==", "eq":
		return pyEqual(a, b), nil
	case "!=", "ne":
		return !pyEqual(a, b), nil
	case "<", "lt":
		return pyLess(a, b)
	case ">", "gt":
		r, err := pyLess(b, a)
		if err != nil {
			return false, orderError(">", a, b)
		}
		return r, nil
	case "<=", "le":
		if isNumeric(a) && isNumeric(b) {
			c, ok := numCmp(a, b)
			return ok && c <= 0, nil
		}
		r, err := pyLess(b, a)
		if err != nil {
			return false, orderError("<=", a, b)
		}
		return !r, nil
	case ">=", "ge":
		if isNumeric(a) && isNumeric(b) {
			c, ok := numCmp(a, b)
			return ok && c >= 0, nil
		}
		r, err := pyLess(a, b)
		if err != nil {
			return false, orderError(">=", a, b)
		}
		return !r, nil
	}
	return false, fmt.Errorf("unknown comparison %q", op)
}

// appendHashKey appends a key that equal hashable values share: numbers
// equal in Python share one, strings (Markup too), None, tuples of hashable
// values, undefined values; lists, dicts and views are unhashable.
func appendHashKey(b []byte, v Value) ([]byte, error) {
	switch v.kind {
	case KindNone:
		return append(b, 'N'), nil
	case KindUndefined:
		return append(b, 'U'), nil
	case KindBool, KindInt:
		return strconv.AppendInt(append(b, 'i'), toInt64(v), 10), nil
	case KindFloat:
		f := v.v.(float64)
		if f == math.Trunc(f) && math.Abs(f) < 9.2e18 {
			return strconv.AppendInt(append(b, 'i'), int64(f), 10), nil
		}
		return strconv.AppendFloat(append(b, 'f'), f, 'g', -1, 64), nil
	case KindString, KindMarkup:
		s := v.v.(string)
		b = strconv.AppendInt(append(b, 's'), int64(len(s)), 10)
		return append(append(b, ':'), s...), nil
	case KindList:
		l := v.v.(*List)
		switch {
		case l.Tuple:
			b = strconv.AppendInt(append(b, 't'), int64(len(l.Items)), 10)
			b = append(b, ':')
			var err error
			for _, it := range l.Items {
				if b, err = appendHashKey(b, it); err != nil {
					return b, err
				}
			}
			return b, nil
		case l.isIterator():
			return fmt.Appendf(append(b, 'o'), "%p", l), nil
		case l.seq == seqRange:
			return fmt.Appendf(append(b, 'r'), "%d:%d:%d", l.rng[0], l.rng[1], l.rng[2]), nil
		}
	case KindCallable:
		return fmt.Appendf(append(b, 'o'), "%p", v.v), nil
	case KindObject:
		if _, ok := v.v.(*namespace); !ok {
			return fmt.Appendf(append(b, 'o'), "%v", v.v), nil
		}
	}
	return b, typeError("unhashable type: " + pyTypeName(v))
}

// hashKey is appendHashKey as a string.
func hashKey(v Value) (string, error) {
	if v.kind == KindString {
		return v.v.(string), nil // the common case, without a copy
	}
	b, err := appendHashKey(nil, v)
	return string(b), err
}

// =============================================================================
// str() and repr()
// =============================================================================

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
	case KindString, KindMarkup:
		return v.v.(string)
	}
	return string(appendPyRepr(nil, v))
}

// appendPyRepr appends Python's repr(value).
func appendPyRepr(b []byte, v Value) []byte {
	switch v.kind {
	case KindString:
		return appendPyStrRepr(b, v.v.(string))
	case KindMarkup:
		b = append(b, "Markup("...)
		return append(appendPyStrRepr(b, v.v.(string)), ')')
	case KindList:
		l := v.v.(*List)
		switch l.seq {
		case seqGenerator:
			return fmt.Appendf(b, "<generator object %s at %s>", l.name, pyAddr(l))
		case seqReversed:
			return fmt.Appendf(b, "<%s object at %s>", l.name, pyAddr(l))
		case seqRange:
			b = strconv.AppendInt(append(b, "range("...), l.rng[0], 10)
			b = strconv.AppendInt(append(b, ", "...), l.rng[1], 10)
			if l.rng[2] != 1 {
				b = strconv.AppendInt(append(b, ", "...), l.rng[2], 10)
			}
			return append(b, ')')
		case seqKeys:
			b = append(b, "dict_keys("...)
		case seqValues:
			b = append(b, "dict_values("...)
		case seqItems:
			b = append(b, "dict_items("...)
		}
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
		b = append(b, close)
		if l.seq != seqList {
			b = append(b, ')')
		}
		return b
	case KindDict:
		d := v.v.(*Dict)
		b = append(b, '{')
		for i, k := range d.Keys {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendPyRepr(b, d.keyValue(k))
			b = append(b, ": "...)
			b = appendPyRepr(b, d.Data[k])
		}
		return append(b, '}')
	case KindUndefined:
		return append(b, "Undefined"...)
	case KindObject:
		return append(b, v.v.(pyObject).repr()...)
	case KindCallable:
		return append(b, "<built-in function "+v.v.(*Callable).Name+">"...)
	}
	return append(b, pyStr(v)...)
}

// pyAddr prints an object's address as CPython on 64-bit Linux does: 0x
// and twelve hex digits (the value never matches; its length does).
func pyAddr(p *List) string {
	return fmt.Sprintf("0x%012x", uintptr(unsafe.Pointer(p))&0xffffffffffff)
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
		case r < 0x80 || isPrintable(r):
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

// =============================================================================
// Sandboxed attribute and item access
// =============================================================================

// getattr is jinja2's SandboxedEnvironment.getattr: the Python attribute
// when the object has one (an unsafe one, starting with "_" or modifying a
// list or dict, is an undefined value whose use is a SecurityError), else
// the item of that name, else an undefined value. Attributes of an undefined
// value are an error.
func getattr(obj Value, name string) (Value, error) {
	if obj.kind == KindUndefined {
		return Undefined(), undefinedError(obj)
	}
	if obj.kind == KindDict {
		// The dict methods win over keys of the same name, as getattr comes
		// first in jinja2.
		if m, ok := dictMethod(obj, name); ok {
			return m, nil
		}
		if name != "" && name[0] == '_' && isDictDunder(name) {
			return unsafeUndefined(obj, name), nil
		}
		if v, ok := obj.v.(*Dict).Data[name]; ok {
			return v, nil
		}
		return Undefined(), nil
	}
	if v, ok, err := pyAttr(obj, name); ok || err != nil {
		return v, err
	}
	if len(name) > 1 && name[0] == '_' && name[1] == '_' && hasDunder(obj, name) {
		return unsafeUndefined(obj, name), nil
	}
	// getattr failed: try obj[name].
	if v, ok := pyItem(obj, NewString(name)); ok {
		return v, nil
	}
	return Undefined(), nil
}

// getitem is jinja2's SandboxedEnvironment.getitem: obj[key]; when that
// fails and key is a string, the attribute of that name (sandboxed), else
// an undefined value.
func getitem(obj Value, key Value) (Value, error) {
	if obj.kind == KindUndefined {
		return Undefined(), undefinedError(obj)
	}
	if v, ok := pyItem(obj, key); ok {
		return v, nil
	}
	if key.IsString() {
		name := key.v.(string)
		if obj.kind == KindDict {
			if m, ok := dictMethod(obj, name); ok {
				return m, nil
			}
			if isDictDunder(name) {
				return unsafeUndefined(obj, name), nil
			}
		} else {
			if v, ok, err := pyAttr(obj, name); ok || err != nil {
				return v, err
			}
			if len(name) > 1 && name[0] == '_' && name[1] == '_' && hasDunder(obj, name) {
				return unsafeUndefined(obj, name), nil
			}
		}
	}
	return Undefined(), nil
}

// pyItem is Python's obj[key] for the types a template holds; ok is false
// when Python raises a TypeError or LookupError.
func pyItem(obj Value, key Value) (Value, bool) {
	switch obj.kind {
	case KindDict:
		d := obj.v.(*Dict)
		if key.kind == KindString {
			v, ok := d.Data[key.v.(string)]
			return v, ok
		}
		k, err := dictKey(key)
		if err != nil {
			return Undefined(), false
		}
		v, ok := d.Data[k]
		return v, ok
	case KindList:
		l := obj.v.(*List)
		if l.seq != seqList && l.seq != seqRange || (key.kind != KindInt && key.kind != KindBool) {
			return Undefined(), false
		}
		i := toInt64(key)
		if i < 0 {
			i += int64(len(l.Items))
		}
		if i < 0 || i >= int64(len(l.Items)) {
			return Undefined(), false
		}
		return l.Items[i], true
	case KindString, KindMarkup:
		if key.kind != KindInt && key.kind != KindBool {
			return Undefined(), false
		}
		s := obj.v.(string)
		i := toInt64(key)
		if isASCII(s) {
			if i < 0 {
				i += int64(len(s))
			}
			if i < 0 || i >= int64(len(s)) {
				return Undefined(), false
			}
			return newStr(s[i:i+1], obj.kind == KindMarkup), true
		}
		runes := []rune(s)
		if i < 0 {
			i += int64(len(runes))
		}
		if i < 0 || i >= int64(len(runes)) {
			return Undefined(), false
		}
		return newStr(string(runes[i]), obj.kind == KindMarkup), true
	case KindObject:
		if n, ok := obj.v.(*namespace); ok && key.IsString() {
			v, ok := n.d.Get(key.AsString())
			return v, ok
		}
	}
	return Undefined(), false
}

// isDictDunder reports whether name is one of the double-underscore
// attributes every dict has (the sandbox refuses them).
func isDictDunder(name string) bool {
	return len(name) > 4 && strings.HasPrefix(name, "__") && dictDunders[name]
}

var dictDunders = map[string]bool{
	"__class__": true, "__class_getitem__": true, "__contains__": true, "__delattr__": true,
	"__delitem__": true, "__dir__": true, "__doc__": true, "__eq__": true, "__format__": true,
	"__ge__": true, "__getattribute__": true, "__getitem__": true, "__getstate__": true, "__gt__": true,
	"__hash__": true, "__init__": true, "__init_subclass__": true, "__ior__": true, "__iter__": true,
	"__le__": true, "__len__": true, "__lt__": true, "__ne__": true, "__new__": true, "__or__": true,
	"__reduce__": true, "__reduce_ex__": true, "__repr__": true, "__reversed__": true, "__ror__": true,
	"__setattr__": true, "__setitem__": true, "__sizeof__": true, "__str__": true, "__subclasshook__": true,
}

// hasDunder reports whether obj has the double-underscore attribute name.
// Every Python object has __class__, __doc__, __eq__ …; approximated as
// every name of the form __x__.
func hasDunder(obj Value, name string) bool {
	return len(name) > 4 && strings.HasSuffix(name, "__")
}

// pyAttr returns the Python attribute name of obj (a method, a property),
// sandboxed; ok is false when obj has no such attribute.
func pyAttr(obj Value, name string) (Value, bool, error) {
	switch obj.kind {
	case KindString, KindMarkup:
		if m, ok := strMethod(obj, name); ok {
			return m, true, nil
		}
	case KindList:
		return listAttr(obj, name)
	case KindBool, KindInt, KindFloat:
		if v, ok := numberAttr(obj, name); ok {
			return v, true, nil
		}
	case KindObject:
		if v, ok := obj.v.(pyObject).getattr(name); ok {
			return v, true, nil
		}
	case KindNone, KindCallable:
	}
	return Undefined(), false, nil
}

// listAttr returns the attributes of lists, tuples, ranges and views.
func listAttr(obj Value, name string) (Value, bool, error) {
	l := obj.v.(*List)
	switch l.seq {
	case seqRange:
		switch name {
		case "start":
			return NewInt(l.rng[0]), true, nil
		case "stop":
			return NewInt(l.rng[1]), true, nil
		case "step":
			return NewInt(l.rng[2]), true, nil
		case "count", "index":
			return seqMethod(obj, name), true, nil
		}
		return Undefined(), false, nil
	case seqList:
	default:
		return Undefined(), false, nil
	}
	for i, f := range l.fields {
		if f == name {
			return l.Items[i], true, nil
		}
	}
	if l.Tuple {
		if name == "count" || name == "index" {
			return seqMethod(obj, name), true, nil
		}
		return Undefined(), false, nil
	}
	switch name {
	case "append", "extend", "insert", "remove", "reverse", "sort":
		// ImmutableSandboxedEnvironment: methods that modify a list are
		// unsafe (pop and clear are not on jinja2's list).
		return unsafeUndefined(obj, name), true, nil
	case "count", "index", "copy", "pop", "clear":
		return seqMethod(obj, name), true, nil
	}
	return Undefined(), false, nil
}

// seqMethod returns the bound method name of a list, tuple or range.
func seqMethod(obj Value, name string) Value {
	l := obj.v.(*List)
	return newFunc(strings.Trim(pyTypeName(obj), "'")+"."+name, func(args []Value, kw kwargs) (Value, error) {
		if len(kw) > 0 {
			return Undefined(), typeError(name + "() takes no keyword arguments")
		}
		switch name {
		case "count":
			if len(args) != 1 {
				return Undefined(), typeError("count() takes exactly one argument")
			}
			n := 0
			for _, it := range l.Items {
				if pyEqual(it, args[0]) {
					n++
				}
			}
			return NewInt(int64(n)), nil
		case "index":
			if len(args) < 1 || len(args) > 3 {
				return Undefined(), typeError("index expected at least 1 argument")
			}
			start, stop := 0, len(l.Items)
			if len(args) > 1 {
				start = clampIndex(toInt64(args[1]), len(l.Items))
			}
			if len(args) > 2 {
				stop = clampIndex(toInt64(args[2]), len(l.Items))
			}
			for i := start; i < stop; i++ {
				if pyEqual(l.Items[i], args[0]) {
					return NewInt(int64(i)), nil
				}
			}
			return Undefined(), valueError(string(appendPyRepr(nil, args[0])) + " is not in list")
		case "copy":
			if len(args) > 0 {
				return Undefined(), typeError("copy() takes no arguments")
			}
			return NewList(append([]Value(nil), l.Items...)), nil
		case "clear":
			if len(args) > 0 {
				return Undefined(), typeError("clear() takes no arguments")
			}
			l.Items = nil
			return None(), nil
		case "pop":
			if len(args) > 1 {
				return Undefined(), typeError("pop expected at most 1 argument")
			}
			if len(l.Items) == 0 {
				return Undefined(), pyErr("IndexError", "pop from empty list")
			}
			i := int64(len(l.Items) - 1)
			if len(args) == 1 {
				if args[0].kind != KindInt && args[0].kind != KindBool {
					return Undefined(), typeError(pyTypeName(args[0]) + " object cannot be interpreted as an integer")
				}
				i = toInt64(args[0])
				if i < 0 {
					i += int64(len(l.Items))
				}
			}
			if i < 0 || i >= int64(len(l.Items)) {
				return Undefined(), pyErr("IndexError", "pop index out of range")
			}
			v := l.Items[i]
			items := make([]Value, 0, len(l.Items)-1)
			items = append(items, l.Items[:i]...)
			l.Items = append(items, l.Items[i+1:]...)
			return v, nil
		}
		return Undefined(), fmt.Errorf("unknown method %s", name)
	})
}

// clampIndex resolves a start/stop argument of index() as Python does.
func clampIndex(i int64, n int) int {
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

// dictMethod returns the bound method name of a dict; the methods that
// modify a dict are unsafe.
func dictMethod(obj Value, name string) (Value, bool) {
	d := obj.v.(*Dict)
	switch name {
	case "clear", "pop", "popitem", "setdefault", "update":
		return unsafeUndefined(obj, name), true
	case "items", "keys", "values":
		return newFunc("dict."+name, func(args []Value, kw kwargs) (Value, error) {
			if len(args) > 0 || len(kw) > 0 {
				return Undefined(), typeError(name + "() takes no arguments")
			}
			return dictView(d, name), nil
		}), true
	case "get":
		return newFunc("dict.get", func(args []Value, kw kwargs) (Value, error) {
			if len(kw) > 0 || len(args) < 1 || len(args) > 2 {
				return Undefined(), typeError("get expected 1 or 2 arguments")
			}
			if v, ok := pyItem(obj, args[0]); ok {
				return v, nil
			}
			if _, err := dictKey(args[0]); err != nil {
				return Undefined(), err
			}
			if len(args) > 1 {
				return args[1], nil
			}
			return None(), nil
		}), true
	case "copy":
		return newFunc("dict.copy", func(args []Value, kw kwargs) (Value, error) {
			if len(args) > 0 || len(kw) > 0 {
				return Undefined(), typeError("copy() takes no arguments")
			}
			return Value{kind: KindDict, v: copyDict(d)}, nil
		}), true
	case "fromkeys":
		return newFunc("dict.fromkeys", func(args []Value, kw kwargs) (Value, error) {
			if len(kw) > 0 || len(args) < 1 || len(args) > 2 {
				return Undefined(), typeError("fromkeys expected 1 or 2 arguments")
			}
			keys, err := iterate(args[0])
			if err != nil {
				return Undefined(), err
			}
			val := None()
			if len(args) > 1 {
				val = args[1]
			}
			out := &Dict{Data: make(map[string]Value, len(keys))}
			for _, k := range keys {
				if err := out.setKey(k, val); err != nil {
					return Undefined(), err
				}
			}
			return Value{kind: KindDict, v: out}, nil
		}), true
	}
	return Undefined(), false
}

// dictView returns d.keys(), d.values() or d.items().
func dictView(d *Dict, name string) Value {
	items := make([]Value, len(d.Keys))
	seq := map[string]seqType{"keys": seqKeys, "values": seqValues, "items": seqItems}[name]
	for i, k := range d.Keys {
		switch seq {
		case seqKeys:
			items[i] = d.keyValue(k)
		case seqValues:
			items[i] = d.Data[k]
		default:
			items[i] = NewTuple([]Value{d.keyValue(k), d.Data[k]})
		}
	}
	return newSeq(items, seq)
}

// numberAttr returns the attributes of ints, bools and floats.
func numberAttr(obj Value, name string) (Value, bool) {
	method := func(fn func() (Value, error)) (Value, bool) {
		return newFunc(strings.Trim(pyTypeName(obj), "'")+"."+name, func(args []Value, kw kwargs) (Value, error) {
			if len(args) > 0 || len(kw) > 0 {
				return Undefined(), typeError(name + "() takes no arguments")
			}
			return fn()
		}), true
	}
	if obj.kind == KindFloat {
		f := obj.v.(float64)
		switch name {
		case "real":
			return obj, true
		case "imag":
			return NewFloat(0), true
		case "conjugate":
			return method(func() (Value, error) { return obj, nil })
		case "is_integer":
			return method(func() (Value, error) { return NewBool(f == math.Trunc(f) && !math.IsInf(f, 0)), nil })
		}
		return Undefined(), false
	}
	n := toInt64(obj)
	switch name {
	case "real", "numerator":
		return NewInt(n), true
	case "imag":
		return NewInt(0), true
	case "denominator":
		return NewInt(1), true
	case "conjugate":
		return method(func() (Value, error) { return NewInt(n), nil })
	case "bit_length":
		return method(func() (Value, error) {
			if n < 0 {
				n = -n
			}
			bits := 0
			for ; n > 0; n >>= 1 {
				bits++
			}
			return NewInt(int64(bits)), nil
		})
	}
	return Undefined(), false
}

// =============================================================================
// Helpers
// =============================================================================

// toInt64 converts a number (or bool) to int64; other kinds give 0.
func toInt64(v Value) int64 {
	switch v.kind {
	case KindInt:
		return v.v.(int64)
	case KindFloat:
		return int64(v.v.(float64))
	case KindBool:
		if v.v.(bool) {
			return 1
		}
	}
	return 0
}

// toFloat64 converts a number (or bool) to float64; other kinds give 0.
func toFloat64(v Value) float64 {
	switch v.kind {
	case KindFloat:
		return v.v.(float64)
	case KindInt:
		return float64(v.v.(int64))
	case KindBool:
		if v.v.(bool) {
			return 1
		}
	}
	return 0
}

// isASCII reports whether s contains only 7-bit ASCII bytes.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// errIs reports whether err is a Python exception of type typ.
func errIs(err error, typ string) bool {
	var pe *PyError
	return errors.As(err, &pe) && pe.Type == typ
}
