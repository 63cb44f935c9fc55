package jinja

// Python's operators (patch, pyops.go is new): + - * / // % ** and the
// unary signs with Python's typing, exact integer arithmetic (an overflow of
// 64 bits is an error, never a wrapped number), Markup's escaping + and *,
// and an undefined operand failing as jinja2's Undefined fails.

import (
	"math"
	"math/bits"
	"strings"
)

var errIntOverflow = pyErr("OverflowError", "integer result beyond 64 bits is not supported by this engine")

// operandError is the error of an operator applied to unsupported types.
func operandError(op string, a, b Value) error {
	if a.IsUndefined() {
		return undefinedError(a)
	}
	if b.IsUndefined() {
		return undefinedError(b)
	}
	if a.IsString() && op == "+" {
		return typeError("can only concatenate str (not " + pyTypeName(b) + ") to str")
	}
	return typeError("unsupported operand type(s) for " + op + ": " + pyTypeName(a) + " and " + pyTypeName(b))
}

func isIntLike(v Value) bool { return v.kind == KindInt || v.kind == KindBool }

// pyAdd is Python's a + b.
func pyAdd(a, b Value) (Value, error) {
	switch {
	case isNumeric(a) && isNumeric(b):
		if isIntLike(a) && isIntLike(b) {
			x, y := toInt64(a), toInt64(b)
			s := x + y
			if (s > x) != (y > 0) {
				return Undefined(), errIntOverflow
			}
			return NewInt(s), nil
		}
		return NewFloat(toFloat64(a) + toFloat64(b)), nil
	case a.IsString() && b.IsString():
		if a.kind == KindMarkup || b.kind == KindMarkup {
			return newMarkup(escapeValue(a).AsString() + escapeValue(b).AsString()), nil
		}
		return NewString(a.AsString() + b.AsString()), nil
	case a.kind == KindList && b.kind == KindList:
		x, y := a.AsList(), b.AsList()
		if x.seq == seqList && y.seq == seqList && x.Tuple == y.Tuple {
			items := make([]Value, 0, len(x.Items)+len(y.Items))
			items = append(append(items, x.Items...), y.Items...)
			if x.Tuple {
				return NewTuple(items), nil
			}
			return NewList(items), nil
		}
		if !x.Tuple && y.Tuple {
			return Undefined(), typeError("can only concatenate list (not \"tuple\") to list")
		}
	}
	return Undefined(), operandError("+", a, b)
}

// pySub is Python's a - b.
func pySub(a, b Value) (Value, error) {
	if !isNumeric(a) || !isNumeric(b) {
		return Undefined(), operandError("-", a, b)
	}
	if isIntLike(a) && isIntLike(b) {
		x, y := toInt64(a), toInt64(b)
		d := x - y
		if (d < x) != (y > 0) {
			return Undefined(), errIntOverflow
		}
		return NewInt(d), nil
	}
	return NewFloat(toFloat64(a) - toFloat64(b)), nil
}

// mulInt multiplies two int64s, reporting overflow.
func mulInt(x, y int64) (int64, bool) {
	if x == 0 || y == 0 {
		return 0, true
	}
	neg := (x < 0) != (y < 0)
	ux, uy := uint64(x), uint64(y)
	if x < 0 {
		ux = uint64(-x)
	}
	if y < 0 {
		uy = uint64(-y)
	}
	hi, lo := bits.Mul64(ux, uy)
	if hi != 0 || (!neg && lo > math.MaxInt64) || (neg && lo > 1<<63) {
		return 0, false
	}
	if neg {
		return -int64(lo), true
	}
	return int64(lo), true
}

// pyMul is Python's a * b: numbers multiply; a string, list or tuple times
// an integer repeats (a negative count gives an empty result). The result
// is bounded by the render's byte budget.
func (e *evaluator) pyMul(a, b Value) (Value, error) {
	if isNumeric(a) && isNumeric(b) {
		if isIntLike(a) && isIntLike(b) {
			p, ok := mulInt(toInt64(a), toInt64(b))
			if !ok {
				return Undefined(), errIntOverflow
			}
			return NewInt(p), nil
		}
		return NewFloat(toFloat64(a) * toFloat64(b)), nil
	}
	if isIntLike(a) && (b.IsString() || b.kind == KindList) {
		a, b = b, a
	}
	if !isIntLike(b) || !(a.IsString() || a.kind == KindList && a.AsList().seq == seqList) {
		if a.IsString() || a.kind == KindList {
			if isNumeric(b) || b.IsString() || b.kind == KindList {
				return Undefined(), typeError("can't multiply sequence by non-int of type " + pyTypeName(b))
			}
		}
		return Undefined(), operandError("*", a, b)
	}
	n := max(toInt64(b), 0)
	size := int64(0)
	if a.IsString() {
		size = int64(len(a.AsString()))
	} else {
		size = int64(len(a.AsList().Items))
	}
	limit := int64(1 << 26)
	if e != nil && e.budget != nil && e.budget.maxBytes > 0 {
		limit = int64(e.budget.maxBytes)
	}
	if size > 0 && n > limit/size {
		return Undefined(), errLimitf("repetition larger than %d", limit)
	}
	if a.IsString() {
		v := newStr(strings.Repeat(a.AsString(), int(n)), a.kind == KindMarkup)
		return v, e.checkString(v)
	}
	items := make([]Value, 0, size*n)
	for i := int64(0); i < n; i++ {
		items = append(items, a.AsList().Items...)
	}
	if a.AsList().Tuple {
		return NewTuple(items), nil
	}
	return NewList(items), nil
}

// floatDivmod is CPython's float floor division and modulo.
func floatDivmod(vx, wx float64) (div, mod float64) {
	mod = math.Mod(vx, wx)
	div = (vx - mod) / wx
	if mod != 0 {
		if (wx < 0) != (mod < 0) {
			mod += wx
			div -= 1.0
		}
	} else {
		mod = math.Copysign(0, wx)
	}
	if div != 0 {
		fl := math.Floor(div)
		if div-fl > 0.5 {
			fl += 1.0
		}
		div = fl
	} else {
		div = math.Copysign(0, vx/wx)
	}
	return div, mod
}

var errZeroDivision = pyErr("ZeroDivisionError", "division by zero")

// pyArith is Python's /, //, % and ** on numbers.
func pyArith(op string, a, b Value) (Value, error) {
	if !isNumeric(a) || !isNumeric(b) {
		return Undefined(), operandError(op, a, b)
	}
	ints := isIntLike(a) && isIntLike(b)
	switch op {
	case "/":
		if toFloat64(b) == 0 {
			return Undefined(), errZeroDivision
		}
		return NewFloat(toFloat64(a) / toFloat64(b)), nil
	case "//", "%":
		if toFloat64(b) == 0 {
			if ints {
				return Undefined(), pyErr("ZeroDivisionError", "integer division or modulo by zero")
			}
			return Undefined(), pyErr("ZeroDivisionError", "float divmod()")
		}
		if ints {
			x, y := toInt64(a), toInt64(b)
			if x == math.MinInt64 && y == -1 {
				if op == "%" {
					return NewInt(0), nil
				}
				return Undefined(), errIntOverflow
			}
			q, m := x/y, x%y
			if m != 0 && (m < 0) != (y < 0) {
				q--
				m += y
			}
			if op == "//" {
				return NewInt(q), nil
			}
			return NewInt(m), nil
		}
		div, mod := floatDivmod(toFloat64(a), toFloat64(b))
		if op == "//" {
			return NewFloat(div), nil
		}
		return NewFloat(mod), nil
	}
	// **
	if ints && toInt64(b) >= 0 {
		x, n, r := toInt64(a), toInt64(b), int64(1)
		for n > 0 {
			if n&1 == 1 {
				var ok bool
				if r, ok = mulInt(r, x); !ok {
					return Undefined(), errIntOverflow
				}
			}
			n >>= 1
			if n > 0 {
				var ok bool
				if x, ok = mulInt(x, x); !ok {
					return Undefined(), errIntOverflow
				}
			}
		}
		return NewInt(r), nil
	}
	x, y := toFloat64(a), toFloat64(b)
	if x == 0 && y < 0 {
		return Undefined(), pyErr("ZeroDivisionError", "0.0 cannot be raised to a negative power")
	}
	if x < 0 && y != math.Trunc(y) {
		return Undefined(), valueError("complex results are not supported by this engine")
	}
	r := math.Pow(x, y)
	if math.IsInf(r, 0) && !math.IsInf(x, 0) {
		return Undefined(), pyErr("OverflowError", "(34, 'Numerical result out of range')")
	}
	return NewFloat(r), nil
}

// pyNeg and pyPos are Python's unary - and +.
func pyNeg(v Value) (Value, error) {
	switch v.kind {
	case KindInt, KindBool:
		n := toInt64(v)
		if n == math.MinInt64 {
			return Undefined(), errIntOverflow
		}
		return NewInt(-n), nil
	case KindFloat:
		return NewFloat(-v.AsFloat()), nil
	case KindUndefined:
		return Undefined(), undefinedError(v)
	}
	return Undefined(), typeError("bad operand type for unary -: " + pyTypeName(v))
}

func pyPos(v Value) (Value, error) {
	switch v.kind {
	case KindInt, KindBool:
		return NewInt(toInt64(v)), nil
	case KindFloat:
		return v, nil
	case KindUndefined:
		return Undefined(), undefinedError(v)
	}
	return Undefined(), typeError("bad operand type for unary +: " + pyTypeName(v))
}

// pyMod is Python's a % b: printf-style formatting when a is a string,
// else the modulo of numbers.
func pyMod(a, b Value) (Value, error) {
	if a.IsString() {
		return percentFormatValue(a, b)
	}
	return pyArith("%", a, b)
}

// percentFormatValue is str % arg: a tuple gives the positional arguments,
// a mapping serves %(name)s, anything else is the single argument. Markup
// escapes the arguments it formats.
func percentFormatValue(format Value, arg Value) (Value, error) {
	markup := format.kind == KindMarkup
	var args []Value
	var mapping Value
	hasMapping := false
	switch {
	case arg.kind == KindList && arg.AsList().Tuple:
		args = arg.AsList().Items
	default:
		args = []Value{arg}
		// Python takes any non-string argument with __getitem__ as the
		// mapping of %(name)s (and then ignores unused arguments).
		switch arg.kind {
		case KindDict, KindUndefined:
			mapping, hasMapping = arg, true
		case KindList:
			if l := arg.AsList(); l.seq == seqList || l.seq == seqRange {
				mapping, hasMapping = arg, true
			}
		}
	}
	s, err := pyPercent(format.AsString(), args, mapping, hasMapping, markup, arg.kind == KindList && arg.AsList().Tuple)
	if err != nil {
		return Undefined(), err
	}
	return newStr(s, markup), nil
}
