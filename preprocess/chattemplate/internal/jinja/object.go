package jinja

// Python objects that are neither containers nor plain functions (patch,
// object.go is new): namespace(), the loop variable, cycler(), joiner() and
// macros. Each has jinja2's attributes and printed form; none is a mapping.

import (
	"fmt"
	"strconv"
)

// pyObject is a value of kind KindObject.
type pyObject interface {
	// typeName is the Python type name, as errors quote it.
	typeName() string
	// getattr returns the attribute name, false when there is none.
	getattr(name string) (Value, bool)
	// repr is Python's repr().
	repr() string
}

// callableObject is an object a template can call.
type callableObject interface {
	pyObject
	call(args []Value, kw kwargs) (Value, error)
}

func newObject(o pyObject) Value { return Value{kind: KindObject, v: o} }

// =============================================================================

// namespace is jinja2's Namespace: attributes set by {% set ns.x = … %},
// read as ns.x or ns['x'].
type namespace struct{ d *Dict }

func (n *namespace) typeName() string { return "'Namespace'" }

func (n *namespace) getattr(name string) (Value, bool) { return n.d.Get(name) }

func (n *namespace) repr() string {
	return "<Namespace " + string(appendPyRepr(nil, Value{kind: KindDict, v: n.d})) + ">"
}

// =============================================================================

// cycler is jinja2's Cycler: next() returns the current item and advances,
// current is the item next() returns, reset() goes back to the first.
type cycler struct {
	items []Value
	pos   int
}

func (c *cycler) typeName() string { return "'Cycler'" }

func (c *cycler) repr() string { return "<jinja2.utils.Cycler object>" }

func (c *cycler) getattr(name string) (Value, bool) {
	switch name {
	case "current":
		return c.items[c.pos], true
	case "items":
		return NewList(c.items), true
	case "next":
		return newFunc("Cycler.next", func(args []Value, kw kwargs) (Value, error) {
			if len(args) > 0 || len(kw) > 0 {
				return Undefined(), typeError("next() takes no arguments")
			}
			v := c.items[c.pos]
			c.pos = (c.pos + 1) % len(c.items)
			return v, nil
		}), true
	case "reset":
		return newFunc("Cycler.reset", func(args []Value, kw kwargs) (Value, error) {
			if len(args) > 0 || len(kw) > 0 {
				return Undefined(), typeError("reset() takes no arguments")
			}
			c.pos = 0
			return None(), nil
		}), true
	}
	return Undefined(), false
}

// =============================================================================

// joiner is jinja2's Joiner: "" on the first call, the separator after.
type joiner struct {
	sep  string
	used bool
}

func (j *joiner) typeName() string { return "'Joiner'" }

func (j *joiner) repr() string { return "<jinja2.utils.Joiner object>" }

func (j *joiner) getattr(name string) (Value, bool) {
	switch name {
	case "sep":
		return NewString(j.sep), true
	case "used":
		return NewBool(j.used), true
	}
	return Undefined(), false
}

func (j *joiner) call(args []Value, kw kwargs) (Value, error) {
	if len(args) > 0 || len(kw) > 0 {
		return Undefined(), typeError("Joiner.__call__() takes no arguments")
	}
	if !j.used {
		j.used = true
		return NewString(""), nil
	}
	return NewString(j.sep), nil
}

// =============================================================================

// loopObject is the loop variable of a for block (jinja2's LoopContext).
type loopObject struct {
	items   []Value
	i       int
	depth0  int
	changed *Value // the last value loop.changed saw; nil before the first call
	recurse func(iter Value) (Value, error)
}

func (l *loopObject) typeName() string { return "'LoopContext'" }

func (l *loopObject) repr() string {
	return "<LoopContext " + strconv.Itoa(l.i+1) + "/" + strconv.Itoa(len(l.items)) + ">"
}

func (l *loopObject) getattr(name string) (Value, bool) {
	n := len(l.items)
	switch name {
	case "index":
		return NewInt(int64(l.i + 1)), true
	case "index0":
		return NewInt(int64(l.i)), true
	case "revindex":
		return NewInt(int64(n - l.i)), true
	case "revindex0":
		return NewInt(int64(n - l.i - 1)), true
	case "first":
		return NewBool(l.i == 0), true
	case "last":
		return NewBool(l.i == n-1), true
	case "length":
		return NewInt(int64(n)), true
	case "depth":
		return NewInt(int64(l.depth0 + 1)), true
	case "depth0":
		return NewInt(int64(l.depth0)), true
	case "previtem":
		if l.i == 0 {
			return undefinedMsg("there is no previous item"), true
		}
		return l.items[l.i-1], true
	case "nextitem":
		if l.i >= n-1 {
			return undefinedMsg("there is no next item"), true
		}
		return l.items[l.i+1], true
	case "cycle":
		return newFunc("LoopContext.cycle", func(args []Value, kw kwargs) (Value, error) {
			if len(kw) > 0 {
				return Undefined(), typeError("cycle() got an unexpected keyword argument")
			}
			if len(args) == 0 {
				return Undefined(), typeError("no items for cycling given")
			}
			return args[l.i%len(args)], nil
		}), true
	case "changed":
		return newFunc("LoopContext.changed", func(args []Value, kw kwargs) (Value, error) {
			if len(kw) > 0 {
				return Undefined(), typeError("changed() got an unexpected keyword argument")
			}
			v := NewTuple(append([]Value(nil), args...))
			if l.changed == nil || !pyEqual(*l.changed, v) {
				l.changed = &v
				return NewBool(true), nil
			}
			return NewBool(false), nil
		}), true
	}
	return Undefined(), false
}

func (l *loopObject) call(args []Value, kw kwargs) (Value, error) {
	if l.recurse == nil {
		return Undefined(), typeError("The loop must have the 'recursive' marker to be called recursively.")
	}
	if len(args) != 1 || len(kw) > 0 {
		return Undefined(), typeError("loop() takes exactly one argument")
	}
	return l.recurse(args[0])
}

// =============================================================================

// macroObject is a macro (or the caller of a call block): jinja2's Macro.
type macroObject struct {
	name         string
	params       []macroParam
	catchKwargs  bool // the body uses kwargs
	catchVarargs bool // the body uses varargs
	usesCaller   bool // the body uses caller
	anonymous    bool // a call block's caller (name None)
	invoke       func(bound []Value, caller Value, varargs []Value, kw kwargs) (Value, error)
}

func (m *macroObject) typeName() string { return "'Macro'" }

func (m *macroObject) repr() string {
	if m.anonymous {
		return "<Macro anonymous>"
	}
	return "<Macro " + string(appendPyStrRepr(nil, m.name)) + ">"
}

func (m *macroObject) getattr(name string) (Value, bool) {
	switch name {
	case "name":
		if m.anonymous {
			return None(), true
		}
		return NewString(m.name), true
	case "arguments":
		items := make([]Value, len(m.params))
		for i, p := range m.params {
			items[i] = NewString(p.name)
		}
		return NewTuple(items), true
	case "catch_kwargs":
		return NewBool(m.catchKwargs), true
	case "catch_varargs":
		return NewBool(m.catchVarargs), true
	case "caller":
		return NewBool(m.usesCaller), true
	case "explicit_caller":
		for _, p := range m.params {
			if p.name == "caller" {
				return NewBool(true), true
			}
		}
		return NewBool(false), true
	}
	return Undefined(), false
}

// call binds arguments as jinja2's Macro.__call__ does: positional first,
// then keywords by name; a missing argument is undefined (or its default,
// which the body evaluates); extra keywords go to kwargs and extra
// positionals to varargs when the body uses them, else they are errors.
func (m *macroObject) call(args []Value, kw kwargs) (Value, error) {
	n := len(m.params)
	bound := make([]Value, n)
	set := make([]bool, n)
	for i := 0; i < n && i < len(args); i++ {
		bound[i], set[i] = args[i], true
	}
	rest := kw
	foundCaller := false
	if len(args) < n {
		for i := len(args); i < n; i++ {
			name := m.params[i].name
			if v, ok := rest.get(name); ok {
				bound[i], set[i] = v, true
				rest = rest.without(name)
			}
			if name == "caller" {
				foundCaller = true
			}
		}
	} else {
		for _, p := range m.params {
			if p.name == "caller" {
				foundCaller = true
			}
		}
	}
	for i := range bound {
		if !set[i] {
			bound[i] = missingArg
		}
	}
	caller := Undefined()
	if m.usesCaller && !foundCaller {
		if c, ok := rest.get("caller"); ok && !c.IsNone() {
			caller = c
		} else {
			caller = undefinedMsg("No caller defined")
		}
		rest = rest.without("caller")
	}
	if !m.catchKwargs && len(rest) > 0 {
		if _, ok := rest.get("caller"); ok {
			return Undefined(), typeError(fmt.Sprintf("macro %s was invoked with two values for the special caller argument. This is most likely a bug.", appendPyStrRepr(nil, m.name)))
		}
		return Undefined(), typeError(fmt.Sprintf("macro %s takes no keyword argument %s", appendPyStrRepr(nil, m.name), appendPyStrRepr(nil, rest[0].name)))
	}
	var varargs []Value
	if len(args) > n {
		if !m.catchVarargs {
			return Undefined(), typeError(fmt.Sprintf("macro %s takes not more than %d argument(s)", appendPyStrRepr(nil, m.name), n))
		}
		varargs = args[n:]
	}
	return m.invoke(bound, caller, varargs, rest)
}

// missingArg marks a macro parameter the call did not give (the body uses
// its default or an undefined value).
var missingArg = Value{kind: KindUndefined, v: &undefInfo{msg: "parameter was not provided"}}
