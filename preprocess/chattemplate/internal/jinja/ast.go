package jinja

// node is the interface for all AST nodes.
type node interface {
	nodeType() string
}

// expr is the interface for expression nodes (evaluable).
type expr interface {
	node
	exprNode()
}

// =========================================================================
// Template-level nodes
// =========================================================================

// textNode represents literal text output.
type textNode struct {
	text string
}

func (n *textNode) nodeType() string { return "text" }

// outputNode represents {{ expression }} output.
type outputNode struct {
	expression expr
}

func (n *outputNode) nodeType() string { return "output" }

// condBranch holds one branch of an if/elif/else chain.
// condition is nil for the else branch.
type condBranch struct {
	condition expr
	body      []node
}

// ifNode represents an if/elif/else chain.
type ifNode struct {
	branches []condBranch
}

func (n *ifNode) nodeType() string { return "if" }

// target is an assignment target (patch): a name, a tuple of targets, or
// (for set) an attribute of a namespace.
type target struct {
	name  string   // a name, or the namespace of ns.attr
	attr  string   // set only: the attribute of ns.attr
	items []target // a tuple of targets when not nil
}

// forNode represents a for loop.
type forNode struct {
	target     target
	iter       expr
	body       []node
	elseBody   []node
	filterExpr expr
	recursive  bool
}

func (n *forNode) nodeType() string { return "for" }

// setNode represents variable assignment.
type setNode struct {
	target target
	value  expr
}

func (n *setNode) nodeType() string { return "set" }

// setBlockNode represents a block set assignment: {% set var %}body{% endset %},
// optionally through filters ({% set var | upper %}).
type setBlockNode struct {
	target target
	filter *filterExpr // the filter chain applied to the body (its innermost expr is nil)
	body   []node
}

func (n *setBlockNode) nodeType() string { return "setBlock" }

// macroParam holds a single macro parameter definition.
type macroParam struct {
	name       string
	defaultVal expr
}

// macroNode represents a macro definition.
type macroNode struct {
	name                                string
	params                              []macroParam
	body                                []node
	usesCaller, usesKwargs, usesVarargs bool
	anonymous                           bool // a call block's caller: its name is None
}

func (n *macroNode) nodeType() string { return "macro" }

// callNode represents {% call(args) macro_expr %} body {% endcall %}.
type callNode struct {
	caller *macroNode // the body, as the caller macro
	call   *callExpr
}

func (n *callNode) nodeType() string { return "call" }

// filterBlockNode represents {% filter filterexpr %} body {% endfilter %}.
type filterBlockNode struct {
	filter *filterExpr // innermost expr nil: applied to the body
	body   []node
}

func (n *filterBlockNode) nodeType() string { return "filterBlock" }

// withNode is {% with a = x %} body {% endwith %}.
type withNode struct {
	targets []target
	values  []expr
	body    []node
}

func (n *withNode) nodeType() string { return "with" }

// autoescapeNode is {% autoescape expr %} body {% endautoescape %}: the
// body, in its own scope, escapes what it prints when expr is true.
type autoescapeNode struct {
	value expr
	body  []node
}

func (n *autoescapeNode) nodeType() string { return "autoescape" }

// failNode is a statement jinja2 parses but cannot run here (include,
// import, extends: transformers gives the environment no loader); running
// it is an error.
type failNode struct {
	msg string
}

func (n *failNode) nodeType() string { return "fail" }

// breakNode and continueNode for loop control.
type breakNode struct{}

func (n *breakNode) nodeType() string { return "break" }

type continueNode struct{}

func (n *continueNode) nodeType() string { return "continue" }

// =========================================================================
// Expression nodes
// =========================================================================

// litExpr represents a literal value (string, int, float, bool, none).
type litExpr struct {
	val Value
}

func (n *litExpr) nodeType() string { return "literal" }
func (n *litExpr) exprNode()        {}

// nameExpr represents a variable reference.
type nameExpr struct {
	name string
}

func (n *nameExpr) nodeType() string { return "name" }
func (n *nameExpr) exprNode()        {}

// attrExpr represents attribute access (a.b).
type attrExpr struct {
	obj  expr
	attr string
}

func (n *attrExpr) nodeType() string { return "attr" }
func (n *attrExpr) exprNode()        {}

// itemExpr represents subscript access (a[b], a.0).
type itemExpr struct {
	obj expr
	key expr
}

func (n *itemExpr) nodeType() string { return "item" }
func (n *itemExpr) exprNode()        {}

// sliceExpr represents slice access (a[start:stop:step]).
type sliceExpr struct {
	obj   expr
	start expr
	stop  expr
	step  expr
}

func (n *sliceExpr) nodeType() string { return "slice" }
func (n *sliceExpr) exprNode()        {}

// unaryExpr represents a unary operation (not, -, +).
type unaryExpr struct {
	op      string
	operand expr
}

func (n *unaryExpr) nodeType() string { return "unary" }
func (n *unaryExpr) exprNode()        {}

// binExpr represents a binary operation.
type binExpr struct {
	op    string
	left  expr
	right expr
}

func (n *binExpr) nodeType() string { return "binary" }
func (n *binExpr) exprNode()        {}

// cmpOp is one operator and right operand of a comparison chain.
type cmpOp struct {
	op  string // == != < > <= >= in notin
	rhs expr
}

// compareExpr is a comparison chain (a < b < c is a < b and b < c).
type compareExpr struct {
	first expr
	ops   []cmpOp
}

func (n *compareExpr) nodeType() string { return "compare" }
func (n *compareExpr) exprNode()        {}

// condExpr represents an inline ternary (a if cond else b).
type condExpr struct {
	trueExpr  expr
	condition expr
	falseExpr expr
}

func (n *condExpr) nodeType() string { return "condExpr" }
func (n *condExpr) exprNode()        {}

// kwargExpr holds a single keyword argument.
type kwargExpr struct {
	name  string
	value expr
}

// callArgs are the arguments of a call, filter or test: positional,
// keyword, *args and **kwargs.
type callArgs struct {
	args      []expr
	kwargs    []kwargExpr
	dynArgs   expr
	dynKwargs expr
}

// callExpr represents a function/method call.
type callExpr struct {
	fn expr
	callArgs
}

func (n *callExpr) nodeType() string { return "call" }
func (n *callExpr) exprNode()        {}

// filterExpr represents a pipe filter (value | filter(args)).
type filterExpr struct {
	expr expr // nil in a filter block: the body
	name string
	fn   filterFunc // resolved when parsed; nil for an unknown filter
	callArgs
}

func (n *filterExpr) nodeType() string { return "filter" }
func (n *filterExpr) exprNode()        {}

// testExpr represents an is/is not test (value is testname).
type testExpr struct {
	expr    expr
	name    string
	fn      testFunc // resolved when parsed; nil for an unknown test
	negated bool
	callArgs
}

func (n *testExpr) nodeType() string { return "test" }
func (n *testExpr) exprNode()        {}

// listExpr represents an array literal [a, b, c].
type listExpr struct {
	items []expr
	tuple bool // (a, b): prints as a Python tuple (patch)
}

func (n *listExpr) nodeType() string { return "list" }
func (n *listExpr) exprNode()        {}

// dictPair holds a single key-value pair in a dict literal.
type dictPair struct {
	key   expr
	value expr
}

// dictExpr represents a dict literal {k: v}.
type dictExpr struct {
	pairs []dictPair
}

func (n *dictExpr) nodeType() string { return "dict" }
func (n *dictExpr) exprNode()        {}
