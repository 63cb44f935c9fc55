package jinja

// jinja2's built-in tests (patch, tests.go is new): every entry of
// jinja2.tests.TESTS with its parameters bound as Python binds them.

import (
	"fmt"
	"strings"
	"unsafe"
)

// testFunc applies a test to v with the call's arguments.
type testFunc func(v Value, args []Value, kw kwargs) (bool, error)

// testTable maps test names to their functions (set in init: the filter
// and test tests read the tables).
var testTable map[string]testFunc

func init() {
	is := func(name string, pred func(Value) bool) testFunc {
		return func(v Value, args []Value, kw kwargs) (bool, error) {
			if err := noArgs(name, args, kw); err != nil {
				return false, err
			}
			return pred(v), nil
		}
	}
	testTable = map[string]testFunc{
		"odd":         modTest("test_odd", 1),
		"even":        modTest("test_even", 0),
		"divisibleby": testDivisibleby,
		"defined":     is("test_defined", func(v Value) bool { return !v.IsUndefined() }),
		"undefined":   is("test_undefined", Value.IsUndefined),
		"filter":      nameTest("test_filter", func(n string) bool { _, ok := filterTable[n]; return ok }),
		"test":        nameTest("test_test", func(n string) bool { _, ok := testTable[n]; return ok }),
		"none":        is("test_none", Value.IsNone),
		"boolean":     is("test_boolean", Value.IsBool),
		"false":       is("test_false", func(v Value) bool { return v.kind == KindBool && !v.AsBool() }),
		"true":        is("test_true", func(v Value) bool { return v.kind == KindBool && v.AsBool() }),
		"integer":     is("test_integer", Value.IsInt),
		"float":       is("test_float", Value.IsFloat),
		"lower":       is("test_lower", func(v Value) bool { return strNoArg(pyStr(v), "islower").AsBool() }),
		"upper":       is("test_upper", func(v Value) bool { return strNoArg(pyStr(v), "isupper").AsBool() }),
		"string":      is("test_string", Value.IsString),
		"mapping":     is("test_mapping", Value.IsDict),
		"number":      is("test_number", isNumeric),
		"sequence":    is("test_sequence", isSequence),
		"iterable":    is("test_iterable", isIterable),
		"callable":    positionalTest("callable", 0, func(v Value, _ []Value) (bool, error) { return v.IsCallable() || v.IsUndefined(), nil }),
		"sameas":      testSameas,
		"escaped":     is("test_escaped", func(v Value) bool { return v.kind == KindMarkup }),
		"in":          testIn,
	}
	for _, names := range [][]string{{"==", "eq", "equalto"}, {"!=", "ne"}, {">", "gt", "greaterthan"}, {">=", "ge"}, {"<", "lt", "lessthan"}, {"<=", "le"}} {
		op := names[0]
		f := positionalTest(names[1], 1, func(v Value, args []Value) (bool, error) { return pyCompare(op, v, args[0]) })
		for _, n := range names {
			testTable[n] = f
		}
	}
}

// callTest is environment.call_test: the test named by name (a string),
// applied to v.
func (e *evaluator) callTest(name Value, v Value, args []Value, kw kwargs) (bool, error) {
	n := ""
	if name.IsString() {
		n = name.AsString()
	}
	t, ok := testTable[n]
	if !ok {
		return false, pyErr("TemplateRuntimeError", "No test named "+string(appendPyRepr(nil, name))+".")
	}
	return t(v, args, kw)
}

// positionalTest is a test implemented by a Python builtin taking its
// arguments positionally only (operator.eq, callable).
func positionalTest(name string, n int, fn func(v Value, args []Value) (bool, error)) testFunc {
	return func(v Value, args []Value, kw kwargs) (bool, error) {
		if len(kw) > 0 {
			return false, typeError(name + "() takes no keyword arguments")
		}
		if len(args) != n {
			return false, typeError(fmt.Sprintf("%s expected %d arguments, got %d", name, n+1, len(args)+1))
		}
		return fn(v, args)
	}
}

// modTest is odd and even: value % 2 == want.
func modTest(name string, want int64) testFunc {
	return func(v Value, args []Value, kw kwargs) (bool, error) {
		if err := noArgs(name, args, kw); err != nil {
			return false, err
		}
		m, err := pyMod(v, NewInt(2))
		if err != nil {
			return false, err
		}
		return pyEqual(m, NewInt(want)), nil
	}
}

var divisiblebyNames = []string{"num"}

func testDivisibleby(v Value, args []Value, kw kwargs) (bool, error) {
	var buf [1]Value
	p, err := bindInto(buf[:], "test_divisibleby", args, kw, divisiblebyNames, 1, nil)
	if err != nil {
		return false, err
	}
	m, err := pyMod(v, p[0])
	if err != nil {
		return false, err
	}
	return pyEqual(m, NewInt(0)), nil
}

// nameTest is the filter and test tests: value in env.filters (or tests);
// an unhashable value is a TypeError.
func nameTest(name string, known func(string) bool) testFunc {
	return func(v Value, args []Value, kw kwargs) (bool, error) {
		if err := noArgs(name, args, kw); err != nil {
			return false, err
		}
		if _, err := hashKey(v); err != nil {
			return false, err
		}
		return v.IsString() && known(v.AsString()), nil
	}
}

// isSequence is test_sequence: len() and __getitem__ both work.
func isSequence(v Value) bool {
	switch v.kind {
	case KindString, KindMarkup, KindDict, KindUndefined:
		return true
	case KindList:
		l := v.AsList()
		return l.seq == seqList || l.seq == seqRange
	}
	return false
}

var sameasNames = []string{"other"}

// testSameas is Python's `value is other`. None and booleans are
// singletons; CPython caches the integers -5 to 256 and the strings of at
// most one Latin-1 character; any other value is the same object only when
// it is the same value of the engine: the same variable, the same literal,
// the same input item (one undefined value is never another).
func testSameas(v Value, args []Value, kw kwargs) (bool, error) {
	var buf [1]Value
	p, err := bindInto(buf[:], "test_sameas", args, kw, sameasNames, 1, nil)
	if err != nil {
		return false, err
	}
	o := p[0]
	if v.kind != o.kind {
		return false, nil
	}
	switch v.kind {
	case KindNone:
		return true, nil
	case KindBool:
		return v.AsBool() == o.AsBool(), nil
	case KindInt:
		if n := v.AsInt(); n >= -5 && n <= 256 {
			return n == o.AsInt(), nil
		}
		return boxOf(v.v) == boxOf(o.v), nil
	case KindFloat:
		return boxOf(v.v) == boxOf(o.v), nil
	case KindString, KindMarkup:
		s, t := v.AsString(), o.AsString()
		if s != t {
			return false, nil
		}
		if r := []rune(s); v.kind == KindString && (len(r) == 0 || len(r) == 1 && r[0] < 0x100) {
			return true, nil
		}
		return unsafe.StringData(s) == unsafe.StringData(t), nil
	case KindList, KindDict, KindCallable, KindObject:
		return v.v == o.v, nil
	}
	return false, nil
}

// boxOf is the address of the value an interface holds: two engine values
// are the same Python object when they share it.
func boxOf(v any) unsafe.Pointer {
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&v))[1]
}

var inNames = []string{"seq"}

func testIn(v Value, args []Value, kw kwargs) (bool, error) {
	var buf [1]Value
	p, err := bindInto(buf[:], "test_in", args, kw, inNames, 1, nil)
	if err != nil {
		return false, err
	}
	return pyContains(p[0], v)
}

// pyContains is Python's `item in container`.
func pyContains(container, item Value) (bool, error) {
	switch container.kind {
	case KindString, KindMarkup:
		if !item.IsString() {
			return false, typeError("'in <string>' requires string as left operand, not " + stripQuotes(pyTypeName(item)))
		}
		return strings.Contains(container.AsString(), item.AsString()), nil
	case KindDict:
		k, err := dictKey(item)
		if err != nil {
			return false, err
		}
		return container.AsDict().Has(k), nil
	case KindList, KindUndefined:
		items, err := iterate(container)
		if err != nil {
			return false, err
		}
		for _, it := range items {
			if pyEqual(it, item) {
				return true, nil
			}
		}
		return false, nil
	}
	return false, typeError("argument of type " + pyTypeName(container) + " is not iterable")
}
