package jinja

// Constant folding (patch, optimize.go is new). jinja2 compiles templates
// with its optimizer on: an expression whose operands are all literals is
// evaluated once when the template is compiled, through the node's
// as_const, and replaced by its value when that value has a "safe repr"
// (None, booleans, numbers, strings, Markup, range, and containers of
// those); the expression of a {{ }} is printed from its constant value
// whatever that value is. as_const differs from the code run otherwise in
// two places, and so does jinja2's output:
//
//   - a slice (x[a:b]) is taken through the sandbox's getitem, so a slice
//     Python refuses (of a number, None, a dict; with a float bound) is an
//     undefined value instead of a TypeError;
//   - ~ joins with str(), never Markup, even inside {% autoescape %}.
//
// The engine folds the same expressions the same way when it parses them.
// A fold that would make a list or dict shared between renders is not
// kept (evaluating the literal again gives the same value).

// foldBytes bounds the strings a fold may build (a larger constant is left
// to the render, under its limits).
const foldBytes = 1 << 16

// folder folds the expressions of one template. cache holds the value of
// every constant expression evaluated so far (iterators excepted: they are
// consumed), so that a parent reuses its children's values and folding
// stays linear in the size of the template.
type folder struct {
	cache map[expr]Value
}

// optimizeNodes folds the constant expressions of nodes.
func optimizeNodes(nodes []node) {
	f := &folder{cache: map[expr]Value{}}
	f.nodes(nodes, false, false)
}

// nodes folds the expressions of nodes. Inside an autoescape block whose
// setting is not a literal, jinja2 folds nothing.
func (fo *folder) nodes(nodes []node, autoescape, volatile bool) {
	if volatile {
		return
	}
	f := func(e expr) expr { return fo.expr(e, autoescape, false) }
	for _, n := range nodes {
		switch n := n.(type) {
		case *outputNode:
			n.expression = fo.expr(n.expression, autoescape, true)
		case *ifNode:
			for i := range n.branches {
				if n.branches[i].condition != nil {
					n.branches[i].condition = f(n.branches[i].condition)
				}
				fo.nodes(n.branches[i].body, autoescape, volatile)
			}
		case *forNode:
			n.iter = f(n.iter)
			if n.filterExpr != nil {
				n.filterExpr = f(n.filterExpr)
			}
			fo.nodes(n.body, autoescape, volatile)
			fo.nodes(n.elseBody, autoescape, volatile)
		case *setNode:
			n.value = f(n.value)
		case *setBlockNode:
			if n.filter != nil {
				fo.expr(n.filter, autoescape, false)
			}
			fo.nodes(n.body, autoescape, volatile)
		case *macroNode:
			for i := range n.params {
				if n.params[i].defaultVal != nil {
					n.params[i].defaultVal = f(n.params[i].defaultVal)
				}
			}
			fo.nodes(n.body, autoescape, volatile)
		case *callNode:
			fo.nodes([]node{n.caller}, autoescape, volatile)
			fo.args(&n.call.callArgs, autoescape)
		case *filterBlockNode:
			fo.expr(n.filter, autoescape, false)
			fo.nodes(n.body, autoescape, volatile)
		case *withNode:
			for i := range n.values {
				n.values[i] = f(n.values[i])
			}
			fo.nodes(n.body, autoescape, volatile)
		case *autoescapeNode:
			if l, ok := n.value.(*litExpr); ok {
				fo.nodes(n.body, l.val.IsTruthy(), false)
			} else {
				fo.nodes(n.body, autoescape, true)
			}
		}
	}
}

func (fo *folder) args(a *callArgs, autoescape bool) {
	for i := range a.args {
		a.args[i] = fo.expr(a.args[i], autoescape, false)
	}
	for i := range a.kwargs {
		a.kwargs[i].value = fo.expr(a.kwargs[i].value, autoescape, false)
	}
}

// expr folds e bottom-up; root is the expression of a {{ }}.
func (fo *folder) expr(e expr, autoescape, root bool) expr {
	if e == nil {
		return nil
	}
	sub := func(x expr) expr { return fo.expr(x, autoescape, false) }
	switch n := e.(type) {
	case *litExpr, *nameExpr:
		return e
	case *attrExpr:
		n.obj = sub(n.obj)
	case *itemExpr:
		n.obj, n.key = sub(n.obj), sub(n.key)
	case *sliceExpr:
		n.obj = sub(n.obj)
		if n.start != nil {
			n.start = sub(n.start)
		}
		if n.stop != nil {
			n.stop = sub(n.stop)
		}
		if n.step != nil {
			n.step = sub(n.step)
		}
	case *unaryExpr:
		n.operand = sub(n.operand)
	case *binExpr:
		n.left, n.right = sub(n.left), sub(n.right)
	case *compareExpr:
		n.first = sub(n.first)
		for i := range n.ops {
			n.ops[i].rhs = sub(n.ops[i].rhs)
		}
	case *condExpr:
		n.trueExpr, n.condition = sub(n.trueExpr), sub(n.condition)
		if n.falseExpr != nil {
			n.falseExpr = sub(n.falseExpr)
		}
	case *callExpr:
		n.fn = sub(n.fn)
		fo.args(&n.callArgs, autoescape)
		return e // a call is never constant
	case *filterExpr:
		if n.expr != nil {
			n.expr = sub(n.expr)
		}
		fo.args(&n.callArgs, autoescape)
	case *testExpr:
		n.expr = sub(n.expr)
		fo.args(&n.callArgs, autoescape)
	case *listExpr:
		for i := range n.items {
			n.items[i] = sub(n.items[i])
		}
	case *dictExpr:
		for i := range n.pairs {
			n.pairs[i].key, n.pairs[i].value = sub(n.pairs[i].key), sub(n.pairs[i].value)
		}
	}
	if !isConstant(e) {
		return e
	}
	c := &evaluator{constMode: true, autoescape: autoescape, foldCache: fo.cache, budget: &budget{maxSteps: 1 << 14, maxBytes: foldBytes}}
	v, err := c.evalExpr(e)
	if err != nil {
		return e
	}
	if v.kind != KindList || !v.AsList().isIterator() {
		fo.cache[e] = v
	}
	if root || safeRepr(v) && !mutable(v) {
		return &litExpr{val: v}
	}
	return e
}

// isConstant reports whether every leaf of e is a literal and nothing in it
// needs the render (a variable, a call, a filter that takes the context).
func isConstant(e expr) bool {
	ok := true
	walkExpr(e, func(x expr) {
		switch n := x.(type) {
		case *nameExpr, *callExpr:
			ok = false
		case *filterExpr:
			if n.expr == nil || n.fn == nil || n.dynArgs != nil || n.dynKwargs != nil {
				ok = false
			}
			switch n.name {
			case "map", "select", "reject", "selectattr", "rejectattr", "random":
				ok = false // pass_context filters are never folded
			}
		case *testExpr:
			if n.fn == nil || n.dynArgs != nil || n.dynKwargs != nil {
				ok = false
			}
		}
	})
	return ok
}

// safeRepr is jinja2's has_safe_repr: the values a constant can hold.
func safeRepr(v Value) bool {
	switch v.kind {
	case KindNone, KindBool, KindInt, KindFloat, KindString, KindMarkup:
		return true
	case KindList:
		l := v.AsList()
		if l.seq == seqRange {
			return true
		}
		if l.seq != seqList || l.fields != nil {
			return false
		}
		for _, it := range l.Items {
			if !safeRepr(it) {
				return false
			}
		}
		return true
	case KindDict:
		d := v.AsDict()
		for _, k := range d.Keys {
			if !safeRepr(d.keyValue(k)) || !safeRepr(d.Data[k]) {
				return false
			}
		}
		return true
	}
	return false
}

// mutable reports whether v holds a list or dict a template could change
// (list.pop) if it were shared.
func mutable(v Value) bool {
	switch v.kind {
	case KindDict:
		return true
	case KindList:
		l := v.AsList()
		if !l.Tuple {
			return l.seq != seqRange
		}
		for _, it := range l.Items {
			if mutable(it) {
				return true
			}
		}
	}
	return false
}
