package jinja

import (
	"errors"
	"fmt"
	"strings"
)

var (
	errBreak    = errors.New("break")
	errContinue = errors.New("continue")
)

// =============================================================================
// Scope
// =============================================================================

type scope struct {
	vars   map[string]Value
	parent *scope
}

func newScope(parent *scope) *scope {
	return &scope{vars: make(map[string]Value, 4), parent: parent}
}

// get looks a name up through the scopes, then the globals.
func (s *scope) get(name string) (Value, bool) {
	for c := s; c != nil; c = c.parent {
		if v, ok := c.vars[name]; ok {
			return v, true
		}
	}
	v, ok := globals[name]
	return v, ok
}

func (s *scope) set(name string, val Value) {
	s.vars[name] = val
}

// =============================================================================
// Evaluator
// =============================================================================

type evaluator struct {
	scope  *scope
	output strings.Builder
	budget *budget
	// blockInput is the rendered body a filter block or set block applies
	// its filters to (the innermost filter of the chain has no expression).
	blockInput Value
	// autoescape is set inside {% autoescape true %}: printed values are
	// HTML-escaped, ~ joins Markup, blocks and macro calls give Markup.
	autoescape bool
	// constMode evaluates as jinja2's constant folding does (optimize.go):
	// slices through the sandbox's getitem, ~ joining with str().
	constMode bool
	foldCache map[expr]Value // constMode: the values of folded subexpressions
}

// budget bounds one render (patch: render limits). It is shared by every
// nested evaluator of the render (macro bodies, call blocks, set blocks).
type budget struct {
	steps, maxSteps int // statements and loop iterations executed
	depth, maxDepth int // macro and caller nesting
	maxBytes        int // largest string the render may build
	built           int // bytes of strings built so far; at most 4*maxBytes
}

// ErrLimit is returned (wrapped) when a render exceeds its Limits.
var ErrLimit = errors.New("jinja: render limit exceeded")

// child returns an evaluator for a nested body (same budget, own output).
func (e *evaluator) child(s *scope) *evaluator {
	return &evaluator{scope: s, budget: e.budget, autoescape: e.autoescape}
}

// markup wraps a block's rendered text as Markup inside autoescape.
func (e *evaluator) markup(s string) Value { return newStr(s, e.autoescape) }

func (e *evaluator) step() error {
	b := e.budget
	if b == nil {
		return nil
	}
	b.steps++
	if b.maxSteps > 0 && b.steps > b.maxSteps {
		return fmt.Errorf("%w: more than %d steps", ErrLimit, b.maxSteps)
	}
	if b.maxBytes > 0 && e.output.Len() > b.maxBytes {
		return fmt.Errorf("%w: output larger than %d bytes", ErrLimit, b.maxBytes)
	}
	return nil
}

// checkString rejects a string value larger than the render's byte budget,
// and counts it against the budget of bytes built (so a loop that copies
// large strings over and over stops too).
func (e *evaluator) checkString(v Value) error {
	if e == nil {
		return nil
	}
	b := e.budget
	if b == nil || b.maxBytes <= 0 || !v.IsString() {
		return nil
	}
	n := len(v.v.(string))
	if n > b.maxBytes {
		return fmt.Errorf("%w: string larger than %d bytes", ErrLimit, b.maxBytes)
	}
	b.built += n
	if b.built > 4*b.maxBytes {
		return fmt.Errorf("%w: more than %d bytes of strings built", ErrLimit, 4*b.maxBytes)
	}
	return nil
}

// enter and leave bound macro/caller recursion.
func (e *evaluator) enter() error {
	if b := e.budget; b != nil {
		b.depth++
		if b.maxDepth > 0 && b.depth > b.maxDepth {
			b.depth--
			return fmt.Errorf("%w: macro calls nested deeper than %d", ErrLimit, b.maxDepth)
		}
	}
	return nil
}

func (e *evaluator) leave() {
	if e.budget != nil {
		e.budget.depth--
	}
}

func (e *evaluator) execNodes(nodes []node) error {
	for _, n := range nodes {
		if err := e.execNode(n); err != nil {
			return err
		}
	}
	return nil
}

func (e *evaluator) execNode(n node) error {
	if err := e.step(); err != nil {
		return err
	}
	switch nd := n.(type) {
	case *textNode:
		e.output.WriteString(nd.text)
		return nil
	case *outputNode:
		val, err := e.evalExpr(nd.expression)
		if err != nil {
			return err
		}
		switch {
		case e.autoescape && val.kind != KindMarkup:
			e.output.WriteString(escapeValue(val).AsString())
		case val.kind == KindString || val.kind == KindMarkup:
			e.output.WriteString(val.v.(string))
		default:
			e.output.WriteString(pyStr(val))
		}
		return nil
	case *ifNode:
		for _, branch := range nd.branches {
			if branch.condition == nil {
				return e.execNodes(branch.body)
			}
			cond, err := e.evalExpr(branch.condition)
			if err != nil {
				return err
			}
			if cond.IsTruthy() {
				return e.execNodes(branch.body)
			}
		}
		return nil
	case *forNode:
		return e.execFor(nd, nil, 0)
	case *setNode:
		val, err := e.evalExpr(nd.value)
		if err != nil {
			return err
		}
		return e.assign(nd.target, val, e.scope, true)
	case *setBlockNode:
		body, err := e.renderBody(nd.body, e.scope)
		if err != nil {
			return err
		}
		val := e.markup(body)
		if nd.filter != nil {
			if val, err = e.applyBlockFilter(nd.filter, val); err != nil {
				return err
			}
		}
		return e.assign(nd.target, val, e.scope, true)
	case *macroNode:
		e.scope.set(nd.name, e.defineMacro(nd))
		return nil
	case *callNode:
		return e.execCall(nd)
	case *filterBlockNode:
		body, err := e.renderBody(nd.body, e.scope)
		if err != nil {
			return err
		}
		val, err := e.applyBlockFilter(nd.filter, e.markup(body))
		if err != nil {
			return err
		}
		if e.autoescape && val.kind != KindMarkup {
			val = escapeValue(val)
		}
		e.output.WriteString(pyStr(val))
		return nil
	case *autoescapeNode:
		v, err := e.evalExpr(nd.value)
		if err != nil {
			return err
		}
		old, oldScope := e.autoescape, e.scope
		e.autoescape, e.scope = v.IsTruthy(), newScope(e.scope)
		err = e.execNodes(nd.body)
		e.autoescape, e.scope = old, oldScope
		return err
	case *withNode:
		s := newScope(e.scope)
		for i, t := range nd.targets {
			v, err := e.evalExpr(nd.values[i])
			if err != nil {
				return err
			}
			if err := e.assign(t, v, s, false); err != nil {
				return err
			}
		}
		old := e.scope
		e.scope = s
		err := e.execNodes(nd.body)
		e.scope = old
		return err
	case *failNode:
		return pyErr("TypeError", nd.msg)
	case *breakNode:
		return errBreak
	case *continueNode:
		return errContinue
	}
	return fmt.Errorf("unknown node type %T", n)
}

// renderBody renders nodes in scope s into a string.
func (e *evaluator) renderBody(nodes []node, s *scope) (string, error) {
	c := e.child(s)
	if err := c.execNodes(nodes); err != nil {
		return "", err
	}
	return c.output.String(), nil
}

// applyBlockFilter applies a filter chain whose innermost filter has no
// expression to input.
func (e *evaluator) applyBlockFilter(f *filterExpr, input Value) (Value, error) {
	old := e.blockInput
	e.blockInput = input
	v, err := e.evalExpr(f)
	e.blockInput = old
	return v, err
}

// assign binds a value to a target: a name, a tuple (unpacking an
// iterable), or a namespace attribute (set only).
func (e *evaluator) assign(t target, v Value, s *scope, allowNamespace bool) error {
	switch {
	case t.items != nil:
		items, err := iterate(v)
		if err != nil {
			return typeError("cannot unpack non-iterable " + stripQuotes(pyTypeName(v)) + " object")
		}
		if len(items) < len(t.items) {
			return valueError(fmt.Sprintf("not enough values to unpack (expected %d, got %d)", len(t.items), len(items)))
		}
		if len(items) > len(t.items) {
			return valueError(fmt.Sprintf("too many values to unpack (expected %d)", len(t.items)))
		}
		for i, sub := range t.items {
			if err := e.assign(sub, items[i], s, allowNamespace); err != nil {
				return err
			}
		}
		return nil
	case t.attr != "":
		nsVal, _ := e.scope.get(t.name)
		ns, ok := nsVal.v.(*namespace)
		if !ok || nsVal.kind != KindObject {
			return pyErr("TemplateRuntimeError", "cannot assign attribute on non-namespace object")
		}
		ns.d.Set(t.attr, v)
		return nil
	}
	s.set(t.name, v)
	return nil
}

// execFor runs a for loop over n.iter, or over iter when a recursive loop
// calls itself (depth is then the nesting).
func (e *evaluator) execFor(n *forNode, iterOverride *Value, depth int) error {
	var iterVal Value
	if iterOverride != nil {
		iterVal = *iterOverride
	} else {
		var err error
		if iterVal, err = e.evalExpr(n.iter); err != nil {
			return err
		}
	}
	items, err := iterate(iterVal)
	if err != nil {
		return err
	}
	if n.filterExpr != nil {
		var filtered []Value
		child := newScope(e.scope)
		old := e.scope
		for _, item := range items {
			clear(child.vars)
			if err := e.assign(n.target, item, child, false); err != nil {
				return err
			}
			e.scope = child
			fv, err := e.evalExpr(n.filterExpr)
			e.scope = old
			if err != nil {
				return err
			}
			if fv.IsTruthy() {
				filtered = append(filtered, item)
			}
		}
		items = filtered
	}
	if len(items) == 0 {
		if n.elseBody != nil {
			return e.execNodes(n.elseBody)
		}
		return nil
	}
	loop := &loopObject{items: items, depth0: depth}
	if n.recursive {
		loop.recurse = func(it Value) (Value, error) {
			c := e.child(e.scope)
			if err := c.enter(); err != nil {
				return Undefined(), err
			}
			defer c.leave()
			if err := c.execFor(n, &it, depth+1); err != nil {
				return Undefined(), err
			}
			return NewString(c.output.String()), nil
		}
	}
	loopVal := newObject(loop)
	child := newScope(e.scope)
	old := e.scope
	defer func() { e.scope = old }()
	for i, item := range items {
		// A {% set %} inside the body lives for one iteration, as in
		// Jinja2; the next iteration starts without it.
		clear(child.vars)
		child.set("loop", loopVal)
		loop.i = i
		if err := e.assign(n.target, item, child, false); err != nil {
			return err
		}
		e.scope = child
		err := e.step()
		if err == nil {
			err = e.execNodes(n.body)
		}
		e.scope = old
		if err != nil {
			if err == errBreak {
				break
			}
			if err == errContinue {
				continue
			}
			return err
		}
	}
	return nil
}

// defineMacro makes the macro object of a {% macro %} (or a call block's
// caller), closing over the current scope.
func (e *evaluator) defineMacro(n *macroNode) Value {
	defScope := e.scope
	m := &macroObject{name: n.name, params: n.params, catchKwargs: n.usesKwargs, catchVarargs: n.usesVarargs, usesCaller: n.usesCaller, anonymous: n.anonymous}
	m.invoke = func(bound []Value, caller Value, varargs []Value, kw kwargs) (Value, error) {
		s := newScope(defScope)
		c := e.child(s)
		if err := c.enter(); err != nil {
			return Undefined(), err
		}
		defer c.leave()
		for i, prm := range n.params {
			v := bound[i]
			if v.v == missingArg.v {
				if prm.defaultVal != nil {
					var err error
					if v, err = c.evalExpr(prm.defaultVal); err != nil {
						return Undefined(), err
					}
				} else {
					v = undefinedMsg("parameter " + string(appendPyStrRepr(nil, prm.name)) + " was not provided")
				}
			}
			s.set(prm.name, v)
		}
		if n.usesCaller {
			if _, explicit := s.vars["caller"]; !explicit {
				s.set("caller", caller)
			}
		}
		if n.usesVarargs {
			s.set("varargs", NewTuple(append([]Value(nil), varargs...)))
		}
		if n.usesKwargs {
			d := &Dict{Data: make(map[string]Value, len(kw))}
			for _, p := range kw {
				d.Set(p.name, p.val)
			}
			s.set("kwargs", Value{kind: KindDict, v: d})
		}
		if err := c.execNodes(n.body); err != nil {
			return Undefined(), err
		}
		return NewString(c.output.String()), nil
	}
	return newObject(m)
}

func (e *evaluator) execCall(n *callNode) error {
	caller := e.defineMacro(n.caller)
	fn, err := e.evalExpr(n.call.fn)
	if err != nil {
		return err
	}
	args, kw, err := e.evalArgs(n.call.callArgs)
	if err != nil {
		return err
	}
	kw = append(kw, kwarg{name: "caller", val: caller})
	result, err := e.callValue(fn, n.call.fn, args, kw)
	if err != nil {
		return err
	}
	if e.autoescape && result.kind != KindMarkup {
		result = escapeValue(result)
	}
	e.output.WriteString(pyStr(result))
	return nil
}

// =============================================================================
// Expression evaluation
// =============================================================================

func (e *evaluator) evalExpr(ex expr) (Value, error) {
	if e.foldCache != nil {
		if v, ok := e.foldCache[ex]; ok {
			return v, nil
		}
	}
	switch n := ex.(type) {
	case *litExpr:
		return n.val, nil
	case *nameExpr:
		if v, ok := e.scope.get(n.name); ok {
			return v, nil
		}
		return Value{kind: KindUndefined, v: n}, nil
	case *attrExpr:
		obj, err := e.evalExpr(n.obj)
		if err != nil {
			return Undefined(), err
		}
		v, err := getattr(obj, n.attr)
		if err != nil {
			return Undefined(), e.undefinedUse(err, n.obj, obj)
		}
		if v.kind == KindUndefined && v.v == nil {
			v.v = n
		}
		return v, nil
	case *itemExpr:
		obj, err := e.evalExpr(n.obj)
		if err != nil {
			return Undefined(), err
		}
		key, err := e.evalExpr(n.key)
		if err != nil {
			return Undefined(), err
		}
		v, err := getitem(obj, key)
		if err != nil {
			return Undefined(), e.undefinedUse(err, n.obj, obj)
		}
		if v.kind == KindUndefined && v.v == nil {
			v.v = n
		}
		return v, nil
	case *sliceExpr:
		return e.evalSlice(n)
	case *unaryExpr:
		operand, err := e.evalExpr(n.operand)
		if err != nil {
			return Undefined(), err
		}
		switch n.op {
		case "not":
			return NewBool(!operand.IsTruthy()), nil
		case "-":
			return pyNeg(operand)
		}
		return pyPos(operand)
	case *binExpr:
		return e.evalBinary(n)
	case *compareExpr:
		left, err := e.evalExpr(n.first)
		if err != nil {
			return Undefined(), err
		}
		for _, o := range n.ops {
			right, err := e.evalExpr(o.rhs)
			if err != nil {
				return Undefined(), err
			}
			var r bool
			switch o.op {
			case "in":
				r, err = pyContains(right, left)
			case "notin":
				r, err = pyContains(right, left)
				r = !r
			default:
				r, err = pyCompare(o.op, left, right)
			}
			if err != nil {
				return Undefined(), err
			}
			if !r {
				return NewBool(false), nil
			}
			left = right
		}
		return NewBool(true), nil
	case *condExpr:
		cond, err := e.evalExpr(n.condition)
		if err != nil {
			return Undefined(), err
		}
		if cond.IsTruthy() {
			return e.evalExpr(n.trueExpr)
		}
		if n.falseExpr != nil {
			return e.evalExpr(n.falseExpr)
		}
		return undefinedMsg("the inline if-expression evaluated to false and no else section was defined."), nil
	case *callExpr:
		fn, err := e.evalExpr(n.fn)
		if err != nil {
			return Undefined(), err
		}
		args, kw, err := e.evalArgs(n.callArgs)
		if err != nil {
			return Undefined(), err
		}
		v, err := e.callValue(fn, n.fn, args, kw)
		if err == nil {
			err = e.checkString(v)
		}
		return v, err
	case *filterExpr:
		var input Value
		if n.expr == nil {
			input = e.blockInput
		} else {
			var err error
			if input, err = e.evalExpr(n.expr); err != nil {
				return Undefined(), err
			}
		}
		args, kw, err := e.evalArgs(n.callArgs)
		if err != nil {
			return Undefined(), err
		}
		if n.fn == nil {
			return Undefined(), pyErr("TemplateRuntimeError", "No filter named "+string(appendPyStrRepr(nil, n.name))+".")
		}
		v, err := n.fn(e, input, args, kw)
		if err == nil {
			err = e.checkString(v)
		}
		return v, err
	case *testExpr:
		input, err := e.evalExpr(n.expr)
		if err != nil {
			return Undefined(), err
		}
		args, kw, err := e.evalArgs(n.callArgs)
		if err != nil {
			return Undefined(), err
		}
		if n.fn == nil {
			return Undefined(), pyErr("TemplateRuntimeError", "No test named "+string(appendPyStrRepr(nil, n.name))+".")
		}
		r, err := n.fn(input, args, kw)
		if err != nil {
			return Undefined(), err
		}
		return NewBool(r != n.negated), nil
	case *listExpr:
		items := make([]Value, len(n.items))
		for i, item := range n.items {
			v, err := e.evalExpr(item)
			if err != nil {
				return Undefined(), err
			}
			items[i] = v
		}
		if n.tuple {
			return NewTuple(items), nil
		}
		return NewList(items), nil
	case *dictExpr:
		d := &Dict{Data: make(map[string]Value, len(n.pairs))}
		for _, pair := range n.pairs {
			key, err := e.evalExpr(pair.key)
			if err != nil {
				return Undefined(), err
			}
			val, err := e.evalExpr(pair.value)
			if err != nil {
				return Undefined(), err
			}
			if err := d.setKey(key, val); err != nil {
				return Undefined(), err
			}
		}
		return Value{kind: KindDict, v: d}, nil
	}
	return Undefined(), fmt.Errorf("unknown expression type %T", ex)
}

// undefinedUse names the undefined value whose use failed.
func (e *evaluator) undefinedUse(err error, ex expr, v Value) error {
	if v.kind == KindUndefined && v.v == nil {
		return pyErr("UndefinedError", string(appendPyStrRepr(nil, exprName(ex)))+" is undefined")
	}
	return err
}

func isNode(v any) bool {
	_, ok := v.(expr)
	return ok
}

// exprName is a readable name of an expression for error messages.
func exprName(ex expr) string {
	switch n := ex.(type) {
	case *nameExpr:
		return n.name
	case *attrExpr:
		return exprName(n.obj) + "." + n.attr
	case *itemExpr:
		return exprName(n.obj) + "[…]"
	}
	return ex.nodeType()
}

// evalArgs evaluates a call's positional and keyword arguments, *args and
// **kwargs included.
func (e *evaluator) evalArgs(a callArgs) ([]Value, kwargs, error) {
	var args []Value
	if len(a.args) > 0 {
		args = make([]Value, len(a.args))
		for i, x := range a.args {
			v, err := e.evalExpr(x)
			if err != nil {
				return nil, nil, err
			}
			args[i] = v
		}
	}
	if a.dynArgs != nil {
		v, err := e.evalExpr(a.dynArgs)
		if err != nil {
			return nil, nil, err
		}
		items, err := iterate(v)
		if err != nil {
			return nil, nil, typeError("argument after * must be an iterable, not " + stripQuotes(pyTypeName(v)))
		}
		args = append(args, items...)
	}
	var kw kwargs
	if len(a.kwargs) > 0 {
		kw = make(kwargs, len(a.kwargs))
		for i, k := range a.kwargs {
			v, err := e.evalExpr(k.value)
			if err != nil {
				return nil, nil, err
			}
			kw[i] = kwarg{name: k.name, val: v}
		}
	}
	if a.dynKwargs != nil {
		v, err := e.evalExpr(a.dynKwargs)
		if err != nil {
			return nil, nil, err
		}
		if v.kind != KindDict {
			return nil, nil, typeError("argument after ** must be a mapping, not " + stripQuotes(pyTypeName(v)))
		}
		d := v.AsDict()
		for _, k := range d.Keys {
			kv := d.keyValue(k)
			if !kv.IsString() {
				return nil, nil, typeError("keywords must be strings")
			}
			if _, dup := kw.get(k); dup {
				return nil, nil, typeError("got multiple values for keyword argument '" + k + "'")
			}
			kw = append(kw, kwarg{name: k, val: d.Data[k]})
		}
	}
	return args, kw, nil
}

// callValue calls fn (a function, a callable object) with the arguments.
func (e *evaluator) callValue(fn Value, fnExpr expr, args []Value, kw kwargs) (Value, error) {
	switch fn.kind {
	case KindCallable:
		return fn.v.(*Callable).fn(args, kw)
	case KindObject:
		if c, ok := fn.v.(callableObject); ok {
			v, err := c.call(args, kw)
			if _, isMacro := c.(*macroObject); isMacro && err == nil && e.autoescape {
				v = newMarkup(v.AsString())
			}
			return v, err
		}
	case KindUndefined:
		if fn.v == nil || isNode(fn.v) {
			return Undefined(), pyErr("UndefinedError", string(appendPyStrRepr(nil, exprName(fnExpr)))+" is undefined")
		}
		return Undefined(), undefinedError(fn)
	}
	return Undefined(), typeError(pyTypeName(fn) + " object is not callable")
}

func (e *evaluator) evalBinary(n *binExpr) (Value, error) {
	left, err := e.evalExpr(n.left)
	if err != nil {
		return Undefined(), err
	}
	switch n.op {
	case "and":
		if !left.IsTruthy() {
			return left, nil
		}
		return e.evalExpr(n.right)
	case "or":
		if left.IsTruthy() {
			return left, nil
		}
		return e.evalExpr(n.right)
	}
	right, err := e.evalExpr(n.right)
	if err != nil {
		return Undefined(), err
	}
	var v Value
	switch n.op {
	case "+":
		v, err = pyAdd(left, right)
	case "-":
		v, err = pySub(left, right)
	case "*":
		return e.pyMul(left, right)
	case "/", "//", "**":
		return pyArith(n.op, left, right)
	case "%":
		v, err = pyMod(left, right)
	case "~":
		if e.autoescape && !e.constMode && (left.kind == KindMarkup || right.kind == KindMarkup) {
			v = newMarkup(escapeValue(left).AsString() + escapeValue(right).AsString())
		} else {
			v = NewString(pyStr(left) + pyStr(right))
		}
	default:
		return Undefined(), fmt.Errorf("unknown binary operator %q", n.op)
	}
	if err == nil {
		err = e.checkString(v)
	}
	return v, err
}

// evalSlice is obj[start:stop:step] as Python takes it (jinja2 compiles a
// slice to a plain subscript, not through the sandbox): bad index types or
// an object without slicing are a TypeError, a zero step a ValueError. In
// constant folding the sandbox's getitem takes it, and a TypeError is an
// undefined value.
func (e *evaluator) evalSlice(n *sliceExpr) (Value, error) {
	obj, err := e.evalExpr(n.obj)
	if err != nil {
		return Undefined(), err
	}
	var idx [3]Value
	for i, x := range []expr{n.start, n.stop, n.step} {
		idx[i] = None()
		if x != nil {
			if idx[i], err = e.evalExpr(x); err != nil {
				return Undefined(), err
			}
		}
	}
	if obj.IsUndefined() {
		return Undefined(), e.undefinedUse(undefinedError(obj), n.obj, obj)
	}
	v, err := pySlice(obj, idx)
	if err != nil && e.constMode && errIs(err, "TypeError") {
		return Undefined(), nil
	}
	return v, err
}

// pySlice is Python's obj[start:stop:step].
func pySlice(obj Value, idx [3]Value) (Value, error) {
	switch obj.kind {
	case KindString, KindMarkup:
	case KindList:
		if l := obj.AsList(); l.seq != seqList && l.seq != seqRange {
			return Undefined(), typeError(pyTypeName(obj) + " object is not subscriptable")
		}
	case KindDict:
		return Undefined(), typeError("unhashable type: 'slice'")
	default:
		return Undefined(), typeError(pyTypeName(obj) + " object is not subscriptable")
	}
	var bounds [3]int64
	for i, v := range idx {
		switch {
		case v.IsNone():
			bounds[i] = noIndex
		case isIntLike(v):
			bounds[i] = toInt64(v)
		default:
			return Undefined(), typeError("slice indices must be integers or None or have an __index__ method")
		}
	}
	if bounds[2] == 0 {
		return Undefined(), valueError("slice step cannot be zero")
	}
	switch obj.kind {
	case KindList:
		l := obj.AsList()
		if l.seq != seqList && l.seq != seqRange {
			return Undefined(), nil
		}
		items := sliceItems(l.Items, bounds)
		switch {
		case l.seq == seqRange:
			start, stop, step := sliceIndices(bounds, len(l.Items))
			r := l.rng
			return Value{kind: KindList, v: &List{Items: items, seq: seqRange,
				rng: [3]int64{r[0] + int64(start)*r[2], r[0] + int64(stop)*r[2], r[2] * int64(step)}}}, nil
		case l.Tuple:
			return NewTuple(items), nil
		}
		return NewList(items), nil
	case KindString, KindMarkup:
		s := obj.AsString()
		markup := obj.kind == KindMarkup
		if isASCII(s) {
			start, stop, step := sliceIndices(bounds, len(s))
			if step == 1 {
				if start >= stop {
					return newStr("", markup), nil
				}
				return newStr(s[start:stop], markup), nil
			}
			var b []byte
			for i := start; step > 0 && i < stop || step < 0 && i > stop; i += step {
				b = append(b, s[i])
			}
			return newStr(string(b), markup), nil
		}
		runes := []rune(s)
		start, stop, step := sliceIndices(bounds, len(runes))
		var out []rune
		for i := start; step > 0 && i < stop || step < 0 && i > stop; i += step {
			out = append(out, runes[i])
		}
		return newStr(string(out), markup), nil
	}
	return Undefined(), nil
}

// noIndex marks an absent slice bound.
const noIndex = -1 << 63

// sliceIndices is Python's slice.indices(length).
func sliceIndices(b [3]int64, length int) (start, stop, step int) {
	n := int64(length)
	st := int64(1)
	if b[2] != noIndex {
		st = b[2]
	}
	lower, upper := int64(0), n
	if st < 0 {
		lower, upper = -1, n-1
	}
	fix := func(v int64, def int64) int64 {
		if v == noIndex {
			return def
		}
		if v < 0 {
			v += n
			if v < lower {
				v = lower
			}
		} else if v > upper {
			v = upper
		}
		return v
	}
	a, z := fix(b[0], lower), fix(b[1], upper)
	if st < 0 {
		a, z = fix(b[0], upper), fix(b[1], lower)
	}
	return int(a), int(z), int(st)
}

func sliceItems(items []Value, b [3]int64) []Value {
	start, stop, step := sliceIndices(b, len(items))
	if step == 1 {
		if start >= stop {
			return nil
		}
		return append([]Value(nil), items[start:stop]...)
	}
	var out []Value
	for i := start; step > 0 && i < stop || step < 0 && i > stop; i += step {
		out = append(out, items[i])
	}
	return out
}
