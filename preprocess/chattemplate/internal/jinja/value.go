// Package jinja implements a Jinja template engine purpose-built for LLM
// chat templates.
package jinja

import "sort"

// =============================================================================

// Kind represents the type of a template value.
type Kind int

const (
	KindUndefined Kind = iota
	KindNone
	KindBool
	KindInt
	KindFloat
	KindString
	KindList
	KindDict
	KindCallable
	// KindMarkup is markupsafe's Markup, the str subclass the escape and
	// safe filters return (patch): it prints like a string, is a string for
	// every test, and escapes what is added to it.
	KindMarkup
	// KindObject is one of Python's non-container objects a template can
	// hold (patch): namespace(), the loop variable, cycler(), joiner(), a
	// macro.
	KindObject
)

// =============================================================================

// Value is a tagged union over JSON-like types used throughout the template
// engine. The v field holds one of: bool, int64, float64, string, *List,
// *Dict, Callable, an object, or (for an undefined value with a reason)
// *undefInfo.
type Value struct {
	kind Kind
	v    any
}

// undefInfo is why a value is undefined (patch): the message its use
// raises, and whether it is the sandbox's unsafe attribute (SecurityError).
type undefInfo struct {
	msg      string
	security bool
}

// Undefined returns an undefined value.
func Undefined() Value {
	return Value{kind: KindUndefined}
}

// undefinedMsg is an undefined value whose use fails with msg (patch).
func undefinedMsg(msg string) Value {
	return Value{kind: KindUndefined, v: &undefInfo{msg: msg}}
}

// unsafeUndefined is the sandbox's answer to an unsafe attribute (patch): an
// undefined value that prints empty but whose use is a SecurityError.
func unsafeUndefined(obj Value, attr string) Value {
	return Value{kind: KindUndefined, v: &undefInfo{
		msg:      "access to attribute '" + attr + "' of " + pyTypeName(obj) + " object is unsafe.",
		security: true,
	}}
}

// None returns a none value.
func None() Value {
	return Value{kind: KindNone}
}

// NewBool returns a boolean value.
func NewBool(b bool) Value {
	return Value{kind: KindBool, v: b}
}

// NewInt returns an integer value.
func NewInt(n int64) Value {
	return Value{kind: KindInt, v: n}
}

// NewFloat returns a floating-point value.
func NewFloat(f float64) Value {
	return Value{kind: KindFloat, v: f}
}

// NewString returns a string value.
func NewString(s string) Value {
	return Value{kind: KindString, v: s}
}

// newMarkup returns a Markup string (patch).
func newMarkup(s string) Value {
	return Value{kind: KindMarkup, v: s}
}

// newStr returns s as Markup when markup is set, else as a plain string.
func newStr(s string, markup bool) Value {
	if markup {
		return newMarkup(s)
	}
	return NewString(s)
}

// NewList returns a list value containing the provided items.
func NewList(items []Value) Value {
	return Value{kind: KindList, v: &List{Items: items}}
}

// NewDict returns an empty dict value.
func NewDict() Value {
	return Value{kind: KindDict, v: &Dict{Data: make(map[string]Value)}}
}

// NewCallable returns a callable value.
func NewCallable(name string, fn func(args []Value, kwargs map[string]Value) (Value, error)) Value {
	return Value{kind: KindCallable, v: &Callable{Name: name, fn: func(args []Value, kw kwargs) (Value, error) {
		var m map[string]Value
		if len(kw) > 0 {
			m = make(map[string]Value, len(kw))
			for _, p := range kw {
				m[p.name] = p.val
			}
		}
		return fn(args, m)
	}}}
}

// newFunc returns a callable taking ordered keyword arguments (patch).
func newFunc(name string, fn func(args []Value, kw kwargs) (Value, error)) Value {
	return Value{kind: KindCallable, v: &Callable{Name: name, fn: fn}}
}

// =============================================================================

// IsUndefined reports whether v is undefined.
func (v Value) IsUndefined() bool { return v.kind == KindUndefined }

// IsNone reports whether v is none.
func (v Value) IsNone() bool { return v.kind == KindNone }

// IsBool reports whether v is a boolean.
func (v Value) IsBool() bool { return v.kind == KindBool }

// IsInt reports whether v is an integer (not a boolean).
func (v Value) IsInt() bool { return v.kind == KindInt }

// IsFloat reports whether v is a float.
func (v Value) IsFloat() bool { return v.kind == KindFloat }

// IsNumber reports whether v is an integer or float.
func (v Value) IsNumber() bool { return v.kind == KindInt || v.kind == KindFloat }

// IsString reports whether v is a string (Markup included: it is a str).
func (v Value) IsString() bool { return v.kind == KindString || v.kind == KindMarkup }

// IsList reports whether v is a list, a tuple or another sequence or
// iterator the engine represents as a list.
func (v Value) IsList() bool { return v.kind == KindList }

// IsDict reports whether v is a dict.
func (v Value) IsDict() bool { return v.kind == KindDict }

// IsCallable reports whether v is callable.
func (v Value) IsCallable() bool {
	switch v.kind {
	case KindCallable:
		return true
	case KindObject:
		_, ok := v.v.(callableObject)
		return ok
	}
	return false
}

// IsTruthy returns the Python-style truthiness of the value.
func (v Value) IsTruthy() bool {
	switch v.kind {
	case KindUndefined, KindNone:
		return false
	case KindBool:
		return v.v.(bool)
	case KindInt:
		return v.v.(int64) != 0
	case KindFloat:
		return v.v.(float64) != 0.0
	case KindString, KindMarkup:
		return len(v.v.(string)) > 0
	case KindList:
		l := v.v.(*List)
		if l.isIterator() {
			return true // a generator or iterator object is always true
		}
		return len(l.Items) > 0
	case KindDict:
		return len(v.v.(*Dict).Keys) > 0
	}
	return true
}

// =============================================================================

// AsBool returns the bool held by v. It panics if v is not a bool.
func (v Value) AsBool() bool { return v.v.(bool) }

// AsInt returns the int64 held by v. It panics if v is not an int.
func (v Value) AsInt() int64 { return v.v.(int64) }

// AsFloat returns the float64 held by v. It panics if v is not a float.
func (v Value) AsFloat() float64 { return v.v.(float64) }

// AsString returns the string held by v. It panics if v is not a string.
func (v Value) AsString() string { return v.v.(string) }

// AsList returns the *List held by v. It panics if v is not a list.
func (v Value) AsList() *List { return v.v.(*List) }

// AsDict returns the *Dict held by v. It panics if v is not a dict.
func (v Value) AsDict() *Dict { return v.v.(*Dict) }

// AsCallable returns the *Callable held by v. It panics if v is not a
// function.
func (v Value) AsCallable() *Callable { return v.v.(*Callable) }

// =============================================================================

// String returns Python's repr() of the value.
func (v Value) String() string {
	return string(appendPyRepr(nil, v))
}

// Equals reports whether v == other in Python.
func (v Value) Equals(other Value) bool { return pyEqual(v, other) }

// =============================================================================

// seqType tells what Python object a List stands for (patch).
type seqType uint8

const (
	seqList      seqType = iota // list, or tuple when List.Tuple
	seqGenerator                // a generator (map, select, unique …): one pass, no len
	seqReversed                 // reversed(list): one pass, no len
	seqKeys                     // dict.keys()
	seqValues                   // dict.values()
	seqItems                    // dict.items()
	seqRange                    // range(start, stop, step)
)

// List holds an ordered sequence of values.
type List struct {
	Items  []Value
	Tuple  bool // a Python tuple: repr (a, b) (patch)
	seq    seqType
	pos    int      // items of an iterator already consumed
	rng    [3]int64 // start, stop, step of a range
	fields []string // attribute names of a named tuple's items
	name   string   // the function of a generator, the type of an iterator
	// gen computes a generator's items when it is first consumed (jinja2's
	// filters are lazy: their errors appear only then).
	gen func() ([]Value, error)
}

// force runs a lazy generator.
func (l *List) force() error {
	if l.gen == nil {
		return nil
	}
	gen := l.gen
	l.gen = nil
	items, err := gen()
	l.Items = items
	return err
}

// lazy returns a generator of the named function whose items gen computes
// on first use.
func lazy(name string, gen func() ([]Value, error)) Value {
	return Value{kind: KindList, v: &List{seq: seqGenerator, gen: gen, name: name}}
}

// isIterator reports whether l is a one-pass iterator (generator or
// reversed), which Python never counts and always finds true.
func (l *List) isIterator() bool { return l.seq == seqGenerator || l.seq == seqReversed }

// Len returns the number of items in the list.
func (l *List) Len() int { return len(l.Items) }

// Get returns the item at position i. It panics if i is out of range.
func (l *List) Get(i int) Value { return l.Items[i] }

// Append adds a value to the end of the list.
func (l *List) Append(v Value) { l.Items = append(l.Items, v) }

// newSeq returns a list value of the given sequence type.
func newSeq(items []Value, seq seqType) Value {
	return Value{kind: KindList, v: &List{Items: items, seq: seq}}
}

// =============================================================================

// Dict is an ordered map of string keys to values. Insertion order is
// preserved via the Keys slice. A key that is not a string (a dict literal
// {1: 'a'}) is stored under its canonical form (dictKey), which starts with
// a byte no UTF-8 string starts with, and keeps its value in keyVals
// (patch).
type Dict struct {
	Keys    []string
	Data    map[string]Value
	keyVals map[string]Value
}

// Get returns the value for key and reports whether it was found.
func (d *Dict) Get(key string) (Value, bool) {
	v, ok := d.Data[key]
	return v, ok
}

// Set inserts or updates a key-value pair. New keys are appended to the
// insertion-order list.
func (d *Dict) Set(key string, val Value) {
	if _, ok := d.Data[key]; !ok {
		d.Keys = append(d.Keys, key)
	}
	d.Data[key] = val
}

// setKey stores val under an arbitrary hashable key; a key equal to one
// already present keeps the first key and takes the new value, as in Python.
func (d *Dict) setKey(key Value, val Value) error {
	if key.IsString() {
		d.Set(key.AsString(), val)
		return nil
	}
	k, err := dictKey(key)
	if err != nil {
		return err
	}
	if _, ok := d.Data[k]; !ok {
		if d.keyVals == nil {
			d.keyVals = make(map[string]Value)
		}
		d.keyVals[k] = key
	}
	d.Set(k, val)
	return nil
}

// keyValue returns the key stored as k as a value.
func (d *Dict) keyValue(k string) Value {
	if len(k) > 0 && k[0] == nonStrKey {
		if v, ok := d.keyVals[k]; ok {
			return v
		}
	}
	return NewString(k)
}

// Has reports whether key exists in the dict.
func (d *Dict) Has(key string) bool {
	_, ok := d.Data[key]
	return ok
}

// Len returns the number of entries in the dict.
func (d *Dict) Len() int { return len(d.Keys) }

// OrderedKeys returns the keys in insertion order.
func (d *Dict) OrderedKeys() []string {
	out := make([]string, len(d.Keys))
	copy(out, d.Keys)
	return out
}

// copyDict returns a shallow copy of d.
func copyDict(d *Dict) *Dict {
	c := &Dict{Keys: append([]string(nil), d.Keys...), Data: make(map[string]Value, len(d.Keys))}
	for k, v := range d.Data {
		c.Data[k] = v
	}
	if d.keyVals != nil {
		c.keyVals = make(map[string]Value, len(d.keyVals))
		for k, v := range d.keyVals {
			c.keyVals[k] = v
		}
	}
	return c
}

// nonStrKey starts the canonical key of a non-string dict key; no UTF-8
// string starts with it.
const nonStrKey = 0xff

// dictKey is the canonical key of a hashable value (patch): a string is its
// own key; numbers equal in Python (1, 1.0, True) share one key; None and
// tuples have theirs; lists and dicts are unhashable (TypeError).
func dictKey(v Value) (string, error) {
	if v.IsString() {
		return v.AsString(), nil
	}
	b, err := appendHashKey([]byte{nonStrKey}, v)
	return string(b), err
}

// =============================================================================

// Callable is a function a template can call: a global, a bound method.
type Callable struct {
	Name string
	fn   func(args []Value, kw kwargs) (Value, error)
}

// Fn calls the function with keyword arguments as a map (their order is
// lost).
func (c *Callable) Fn(args []Value, named map[string]Value) (Value, error) {
	var kw kwargs
	for k, v := range named {
		kw = append(kw, kwarg{name: k, val: v})
	}
	return c.fn(args, kw)
}

// kwarg is one keyword argument of a call, kwargs all of them in call
// order (patch: order is kept, as Python keeps it).
type kwarg struct {
	name string
	val  Value
}

type kwargs []kwarg

func (k kwargs) get(name string) (Value, bool) {
	for _, p := range k {
		if p.name == name {
			return p.val, true
		}
	}
	return Undefined(), false
}

// without returns k without the named argument.
func (k kwargs) without(name string) kwargs {
	for i, p := range k {
		if p.name == name {
			out := make(kwargs, 0, len(k)-1)
			out = append(out, k[:i]...)
			return append(out, k[i+1:]...)
		}
	}
	return k
}

// =============================================================================

// NewDictFrom returns a dict holding keys[i] → vals[i] in order, sized
// exactly (patch: the JSON input decoder builds every object this way). A
// repeated key keeps its first position and its last value.
func NewDictFrom(keys []string, vals []Value) Value {
	d := &Dict{Keys: make([]string, 0, len(keys)), Data: make(map[string]Value, len(keys))}
	for i, k := range keys {
		d.Set(k, vals[i])
	}
	return Value{kind: KindDict, v: d}
}

// NewTuple returns a list value that prints as a Python tuple (patch).
func NewTuple(items []Value) Value {
	return Value{kind: KindList, v: &List{Items: items, Tuple: true}}
}

// FromGoValue converts a plain Go value to a Value: nil, bool, int, int64,
// float64, string, []any, map[string]any (keys sorted) and []Value.
// Unrecognized types produce Undefined.
func FromGoValue(v any) Value {
	switch val := v.(type) {
	case nil:
		return None()
	case bool:
		return NewBool(val)
	case int:
		return NewInt(int64(val))
	case int64:
		return NewInt(val)
	case float64:
		return NewFloat(val)
	case string:
		return NewString(val)
	case []Value:
		return NewList(append([]Value(nil), val...))
	case []any:
		items := make([]Value, len(val))
		for i, item := range val {
			items[i] = FromGoValue(item)
		}
		return NewList(items)
	case map[string]any:
		keys := make([]string, 0, len(val))
		for k := range val {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		vals := make([]Value, len(keys))
		for i, k := range keys {
			vals[i] = FromGoValue(val[k])
		}
		return NewDictFrom(keys, vals)
	}
	return Undefined()
}
