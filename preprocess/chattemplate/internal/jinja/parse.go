package jinja

// The parser (patch: rewritten after jinja2's parser.py). Expressions follow
// jinja2's grammar and precedence: conditional expressions, or, and, not,
// comparison chains, + -, ~, * / // %, ** (left-associative), unary signs,
// then filters, tests and calls, which bind tighter than any operator
// (`1 + 1 is odd` is 1 + (1 is odd)). Statements are parsed from tokens:
// assignment targets (names, tuples, namespace attributes), macro and call
// signatures with default expressions, for loops with a filter and the
// recursive marker, with blocks, filter blocks and set blocks with filters.

import (
	"slices"
	"strings"
	"unicode"
)

// maxNesting bounds how deeply expressions and blocks nest (patch), so a
// hostile template cannot exhaust the stack while parsing.
const maxNesting = 200

var errNesting = syntaxError("nesting deeper than %d", maxNesting)

// =============================================================================
// Expression parser
// =============================================================================

type exprParser struct {
	toks  []tok
	pos   int
	depth int
}

func newExprParser(s string) (*exprParser, error) {
	toks, err := lex(s)
	if err != nil {
		return nil, err
	}
	return &exprParser{toks: toks}, nil
}

func (p *exprParser) peek() tok { return p.toks[p.pos] }

func (p *exprParser) look() tok {
	if p.pos+1 < len(p.toks) {
		return p.toks[p.pos+1]
	}
	return tok{kind: tokEOF}
}

func (p *exprParser) next() tok {
	t := p.toks[p.pos]
	if t.kind != tokEOF {
		p.pos++
	}
	return t
}

func (p *exprParser) isOp(v string) bool {
	t := p.peek()
	return t.kind == tokOp && t.val == v
}

func (p *exprParser) isName(v string) bool {
	t := p.peek()
	return t.kind == tokName && t.val == v
}

func (p *exprParser) skipOp(v string) bool {
	if p.isOp(v) {
		p.pos++
		return true
	}
	return false
}

func (p *exprParser) skipName(v string) bool {
	if p.isName(v) {
		p.pos++
		return true
	}
	return false
}

func describe(t tok) string {
	switch t.kind {
	case tokEOF:
		return "end of statement block"
	case tokString:
		return "string"
	case tokInt:
		return "integer"
	case tokFloat:
		return "float"
	}
	return t.val
}

func (p *exprParser) expectOp(v string) error {
	if !p.skipOp(v) {
		return syntaxError("expected token '%s', got '%s'", v, describe(p.peek()))
	}
	return nil
}

func (p *exprParser) expectName() (string, error) {
	t := p.peek()
	if t.kind != tokName {
		return "", syntaxError("expected token 'name', got '%s'", describe(t))
	}
	p.pos++
	return t.val, nil
}

func (p *exprParser) expectEnd() error {
	if t := p.peek(); t.kind != tokEOF {
		return syntaxError("expected token 'end of statement block', got '%s'", describe(t))
	}
	return nil
}

func (p *exprParser) enter() error {
	p.depth++
	if p.depth > maxNesting {
		return errNesting
	}
	return nil
}

func (p *exprParser) leave() { p.depth-- }

// parseExpr parses a whole {{ }} expression (a tuple when it has commas).
func parseExpr(s string) (expr, error) {
	p, err := newExprParser(s)
	if err != nil {
		return nil, err
	}
	e, err := p.parseTuple(false, true, nil, false)
	if err != nil {
		return nil, err
	}
	return e, p.expectEnd()
}

func (p *exprParser) parseExpression(withCondexpr bool) (expr, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	if withCondexpr {
		return p.parseCondexpr()
	}
	return p.parseOr()
}

func (p *exprParser) parseCondexpr() (expr, error) {
	e1, err := p.parseOr()
	if err != nil {
		return nil, err
	}
	for p.skipName("if") {
		e2, err := p.parseOr()
		if err != nil {
			return nil, err
		}
		var e3 expr
		if p.skipName("else") {
			if err := p.enter(); err != nil {
				return nil, err
			}
			e3, err = p.parseCondexpr()
			p.leave()
			if err != nil {
				return nil, err
			}
		}
		e1 = &condExpr{trueExpr: e1, condition: e2, falseExpr: e3}
	}
	return e1, nil
}

func (p *exprParser) parseOr() (expr, error) {
	left, err := p.parseAnd()
	if err != nil {
		return nil, err
	}
	for p.skipName("or") {
		right, err := p.parseAnd()
		if err != nil {
			return nil, err
		}
		left = &binExpr{op: "or", left: left, right: right}
	}
	return left, nil
}

func (p *exprParser) parseAnd() (expr, error) {
	left, err := p.parseNot()
	if err != nil {
		return nil, err
	}
	for p.skipName("and") {
		right, err := p.parseNot()
		if err != nil {
			return nil, err
		}
		left = &binExpr{op: "and", left: left, right: right}
	}
	return left, nil
}

func (p *exprParser) parseNot() (expr, error) {
	if p.isName("not") {
		p.pos++
		if err := p.enter(); err != nil {
			return nil, err
		}
		defer p.leave()
		operand, err := p.parseNot()
		if err != nil {
			return nil, err
		}
		return &unaryExpr{op: "not", operand: operand}, nil
	}
	return p.parseCompare()
}

func (p *exprParser) parseCompare() (expr, error) {
	first, err := p.parseMath1()
	if err != nil {
		return nil, err
	}
	var ops []cmpOp
	for {
		t := p.peek()
		var op string
		switch {
		case t.kind == tokOp && (t.val == "==" || t.val == "!=" || t.val == "<" || t.val == ">" || t.val == "<=" || t.val == ">="):
			op = t.val
			p.pos++
		case p.isName("in"):
			op = "in"
			p.pos++
		case p.isName("not") && p.look().kind == tokName && p.look().val == "in":
			op = "notin"
			p.pos += 2
		default:
			if ops == nil {
				return first, nil
			}
			return &compareExpr{first: first, ops: ops}, nil
		}
		rhs, err := p.parseMath1()
		if err != nil {
			return nil, err
		}
		ops = append(ops, cmpOp{op: op, rhs: rhs})
	}
}

func (p *exprParser) parseMath1() (expr, error) {
	left, err := p.parseConcat()
	if err != nil {
		return nil, err
	}
	for p.isOp("+") || p.isOp("-") {
		op := p.next().val
		right, err := p.parseConcat()
		if err != nil {
			return nil, err
		}
		left = &binExpr{op: op, left: left, right: right}
	}
	return left, nil
}

func (p *exprParser) parseConcat() (expr, error) {
	left, err := p.parseMath2()
	if err != nil {
		return nil, err
	}
	for p.skipOp("~") {
		right, err := p.parseMath2()
		if err != nil {
			return nil, err
		}
		left = &binExpr{op: "~", left: left, right: right}
	}
	return left, nil
}

func (p *exprParser) parseMath2() (expr, error) {
	left, err := p.parsePow()
	if err != nil {
		return nil, err
	}
	for p.isOp("*") || p.isOp("/") || p.isOp("//") || p.isOp("%") {
		op := p.next().val
		right, err := p.parsePow()
		if err != nil {
			return nil, err
		}
		left = &binExpr{op: op, left: left, right: right}
	}
	return left, nil
}

func (p *exprParser) parsePow() (expr, error) {
	left, err := p.parseUnary(true)
	if err != nil {
		return nil, err
	}
	for p.skipOp("**") {
		right, err := p.parseUnary(true)
		if err != nil {
			return nil, err
		}
		left = &binExpr{op: "**", left: left, right: right}
	}
	return left, nil
}

func (p *exprParser) parseUnary(withFilter bool) (expr, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	var node expr
	switch {
	case p.isOp("-") || p.isOp("+"):
		op := p.next().val
		operand, err := p.parseUnary(false)
		if err != nil {
			return nil, err
		}
		node = &unaryExpr{op: op, operand: operand}
	default:
		var err error
		if node, err = p.parsePrimary(); err != nil {
			return nil, err
		}
	}
	node, err := p.parsePostfix(node)
	if err != nil {
		return nil, err
	}
	if withFilter {
		return p.parseFilterExpr(node)
	}
	return node, nil
}

func (p *exprParser) parsePrimary() (expr, error) {
	t := p.peek()
	switch t.kind {
	case tokName:
		p.pos++
		switch t.val {
		case "true", "True":
			return &litExpr{val: NewBool(true)}, nil
		case "false", "False":
			return &litExpr{val: NewBool(false)}, nil
		case "none", "None":
			return &litExpr{val: None()}, nil
		}
		return &nameExpr{name: t.val}, nil
	case tokString:
		p.pos++
		s := t.val
		for p.peek().kind == tokString { // adjacent literals concatenate
			s += p.next().val
		}
		return &litExpr{val: NewString(s)}, nil
	case tokInt, tokFloat:
		p.pos++
		return &litExpr{val: t.num}, nil
	case tokOp:
		switch t.val {
		case "(":
			p.pos++
			e, err := p.parseTuple(false, true, nil, true)
			if err != nil {
				return nil, err
			}
			return e, p.expectOp(")")
		case "[":
			return p.parseList()
		case "{":
			return p.parseDict()
		}
	}
	return nil, syntaxError("unexpected '%s'", describe(t))
}

// parseTuple is jinja2's parse_tuple: expressions separated by commas make
// a tuple; one without a comma is itself.
func (p *exprParser) parseTuple(simplified, withCondexpr bool, extraEnd []string, explicitParens bool) (expr, error) {
	var items []expr
	isTuple := false
	for {
		if len(items) > 0 {
			if err := p.expectOp(","); err != nil {
				return nil, err
			}
		}
		if p.isTupleEnd(extraEnd) {
			break
		}
		var e expr
		var err error
		if simplified {
			e, err = p.parsePrimary()
		} else {
			e, err = p.parseExpression(withCondexpr)
		}
		if err != nil {
			return nil, err
		}
		items = append(items, e)
		if !p.isOp(",") {
			break
		}
		isTuple = true
	}
	if !isTuple {
		if len(items) > 0 {
			return items[0], nil
		}
		if !explicitParens {
			return nil, syntaxError("Expected an expression, got '%s'", describe(p.peek()))
		}
	}
	return &listExpr{items: items, tuple: true}, nil
}

func (p *exprParser) isTupleEnd(extraEnd []string) bool {
	t := p.peek()
	if t.kind == tokEOF || t.kind == tokOp && t.val == ")" {
		return true
	}
	return t.kind == tokName && slices.Contains(extraEnd, t.val)
}

func (p *exprParser) parseList() (expr, error) {
	p.pos++ // [
	var items []expr
	for !p.isOp("]") {
		if len(items) > 0 {
			if err := p.expectOp(","); err != nil {
				return nil, err
			}
		}
		if p.isOp("]") {
			break
		}
		e, err := p.parseExpression(true)
		if err != nil {
			return nil, err
		}
		items = append(items, e)
	}
	return &listExpr{items: items}, p.expectOp("]")
}

func (p *exprParser) parseDict() (expr, error) {
	p.pos++ // {
	var pairs []dictPair
	for !p.isOp("}") {
		if len(pairs) > 0 {
			if err := p.expectOp(","); err != nil {
				return nil, err
			}
		}
		if p.isOp("}") {
			break
		}
		k, err := p.parseExpression(true)
		if err != nil {
			return nil, err
		}
		if err := p.expectOp(":"); err != nil {
			return nil, err
		}
		v, err := p.parseExpression(true)
		if err != nil {
			return nil, err
		}
		pairs = append(pairs, dictPair{key: k, value: v})
	}
	return &dictExpr{pairs: pairs}, p.expectOp("}")
}

func (p *exprParser) parsePostfix(node expr) (expr, error) {
	for {
		var err error
		switch {
		case p.isOp(".") || p.isOp("["):
			node, err = p.parseSubscript(node)
		case p.isOp("("):
			node, err = p.parseCall(node)
		default:
			return node, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

func (p *exprParser) parseFilterExpr(node expr) (expr, error) {
	for {
		var err error
		switch {
		case p.isOp("|"):
			node, err = p.parseFilter(node, false)
		case p.isName("is"):
			node, err = p.parseTest(node)
		case p.isOp("("):
			node, err = p.parseCall(node)
		default:
			return node, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

func (p *exprParser) parseSubscript(node expr) (expr, error) {
	t := p.next()
	if t.val == "." {
		a := p.next()
		switch a.kind {
		case tokName:
			return &attrExpr{obj: node, attr: a.val}, nil
		case tokInt:
			return &itemExpr{obj: node, key: &litExpr{val: a.num}}, nil
		}
		return nil, syntaxError("expected name or number")
	}
	// [
	var args []expr
	for !p.isOp("]") {
		if len(args) > 0 {
			if err := p.expectOp(","); err != nil {
				return nil, err
			}
		}
		a, err := p.parseSubscribed()
		if err != nil {
			return nil, err
		}
		args = append(args, a)
	}
	if err := p.expectOp("]"); err != nil {
		return nil, err
	}
	if len(args) == 1 {
		if s, ok := args[0].(*sliceExpr); ok {
			s.obj = node
			return s, nil
		}
		return &itemExpr{obj: node, key: args[0]}, nil
	}
	return &itemExpr{obj: node, key: &listExpr{items: args, tuple: true}}, nil
}

// parseSubscribed parses one subscript: an expression or a slice (whose obj
// the caller sets).
func (p *exprParser) parseSubscribed() (expr, error) {
	var parts [3]expr
	if p.isOp(":") {
		p.pos++
	} else {
		e, err := p.parseExpression(true)
		if err != nil {
			return nil, err
		}
		if !p.isOp(":") {
			return e, nil
		}
		p.pos++
		parts[0] = e
	}
	if !p.isOp(":") && !p.isOp("]") && !p.isOp(",") {
		e, err := p.parseExpression(true)
		if err != nil {
			return nil, err
		}
		parts[1] = e
	}
	if p.skipOp(":") {
		if !p.isOp("]") && !p.isOp(",") {
			e, err := p.parseExpression(true)
			if err != nil {
				return nil, err
			}
			parts[2] = e
		}
	}
	return &sliceExpr{start: parts[0], stop: parts[1], step: parts[2]}, nil
}

func (p *exprParser) parseCall(node expr) (expr, error) {
	a, err := p.parseCallArgs()
	if err != nil {
		return nil, err
	}
	return &callExpr{fn: node, callArgs: a}, nil
}

func (p *exprParser) parseCallArgs() (callArgs, error) {
	var a callArgs
	if err := p.expectOp("("); err != nil {
		return a, err
	}
	bad := syntaxError("invalid syntax for function call expression")
	requireComma := false
	for !p.isOp(")") {
		if requireComma {
			if err := p.expectOp(","); err != nil {
				return a, err
			}
			if p.isOp(")") {
				break
			}
		}
		switch {
		case p.isOp("*"):
			if a.dynArgs != nil || a.dynKwargs != nil {
				return a, bad
			}
			p.pos++
			e, err := p.parseExpression(true)
			if err != nil {
				return a, err
			}
			a.dynArgs = e
		case p.isOp("**"):
			if a.dynKwargs != nil {
				return a, bad
			}
			p.pos++
			e, err := p.parseExpression(true)
			if err != nil {
				return a, err
			}
			a.dynKwargs = e
		case p.peek().kind == tokName && p.look().kind == tokOp && p.look().val == "=":
			if a.dynKwargs != nil {
				return a, bad
			}
			name := p.next().val
			p.pos++ // =
			e, err := p.parseExpression(true)
			if err != nil {
				return a, err
			}
			a.kwargs = append(a.kwargs, kwargExpr{name: name, value: e})
		default:
			if a.dynArgs != nil || a.dynKwargs != nil || len(a.kwargs) > 0 {
				return a, bad
			}
			e, err := p.parseExpression(true)
			if err != nil {
				return a, err
			}
			a.args = append(a.args, e)
		}
		requireComma = true
	}
	return a, p.expectOp(")")
}

// parseFilter parses `| name(args)` filters (startInline: the first one
// without its pipe, as in a filter block).
func (p *exprParser) parseFilter(node expr, startInline bool) (*filterExpr, error) {
	var f *filterExpr
	for p.isOp("|") || startInline {
		if !startInline {
			p.pos++
		}
		startInline = false
		name, err := p.expectName()
		if err != nil {
			return nil, err
		}
		for p.skipOp(".") {
			n, err := p.expectName()
			if err != nil {
				return nil, err
			}
			name += "." + n
		}
		var a callArgs
		if p.isOp("(") {
			if a, err = p.parseCallArgs(); err != nil {
				return nil, err
			}
		}
		f = &filterExpr{expr: node, name: name, fn: filterTable[name], callArgs: a}
		node = f
	}
	return f, nil
}

func (p *exprParser) parseTest(node expr) (expr, error) {
	p.pos++ // is
	negated := p.skipName("not")
	name, err := p.expectName()
	if err != nil {
		return nil, err
	}
	for p.skipOp(".") {
		n, err := p.expectName()
		if err != nil {
			return nil, err
		}
		name += "." + n
	}
	var a callArgs
	t := p.peek()
	switch {
	case p.isOp("("):
		if a, err = p.parseCallArgs(); err != nil {
			return nil, err
		}
	case (t.kind == tokName || t.kind == tokString || t.kind == tokInt || t.kind == tokFloat ||
		t.kind == tokOp && (t.val == "(" || t.val == "[" || t.val == "{")) &&
		!(t.kind == tokName && (t.val == "else" || t.val == "or" || t.val == "and")):
		if t.kind == tokName && t.val == "is" {
			return nil, syntaxError("You cannot chain multiple tests with is")
		}
		arg, err := p.parsePrimary()
		if err != nil {
			return nil, err
		}
		if arg, err = p.parsePostfix(arg); err != nil {
			return nil, err
		}
		a.args = []expr{arg}
	}
	return &testExpr{expr: node, name: name, fn: testTable[name], negated: negated, callArgs: a}, nil
}

// parseAssignTarget is jinja2's parse_assign_target: a name, a tuple of
// targets, or (withNamespace) ns.attr.
func (p *exprParser) parseAssignTarget(withTuple, nameOnly bool, extraEnd []string, withNamespace bool) (target, error) {
	if withNamespace && p.peek().kind == tokName && p.look().kind == tokOp && p.look().val == "." {
		ns := p.next().val
		p.pos++
		attr, err := p.expectName()
		return target{name: ns, attr: attr}, err
	}
	if nameOnly {
		name, err := p.expectName()
		return target{name: name}, err
	}
	var e expr
	var err error
	if withTuple {
		e, err = p.parseTuple(true, true, extraEnd, false)
	} else {
		e, err = p.parsePrimary()
	}
	if err != nil {
		return target{}, err
	}
	return exprTarget(e)
}

// exprTarget converts a parsed name or tuple of names to a target.
func exprTarget(e expr) (target, error) {
	switch n := e.(type) {
	case *nameExpr:
		switch n.name {
		case "true", "false", "none", "True", "False", "None":
			return target{}, syntaxError("Can't assign to %s", n.name)
		}
		return target{name: n.name}, nil
	case *listExpr:
		if n.tuple {
			t := target{items: []target{}}
			for _, it := range n.items {
				sub, err := exprTarget(it)
				if err != nil {
					return target{}, err
				}
				t.items = append(t.items, sub)
			}
			return t, nil
		}
	}
	return target{}, syntaxError("can't assign to %s", e.nodeType())
}

// =============================================================================
// Template parser (segments -> AST nodes)
// =============================================================================

func parseTemplate(segs []segment) ([]node, error) {
	applyTrimming(segs)
	p := &templateParser{segs: segs}
	nodes, err := p.parseUntil()
	if err != nil {
		return nil, err
	}
	if !p.done() {
		return nil, syntaxError("line %d: unexpected '%s'", p.peek().line, stmtKeyword(p.peek().text))
	}
	return nodes, nil
}

type templateParser struct {
	segs  []segment
	pos   int
	depth int // block nesting (patch: bounded by maxNesting)
}

func (p *templateParser) done() bool { return p.pos >= len(p.segs) }

func (p *templateParser) peek() *segment {
	if p.done() {
		return nil
	}
	return &p.segs[p.pos]
}

func (p *templateParser) advance() *segment {
	s := p.peek()
	p.pos++
	return s
}

// stmt returns a parser over a statement's tokens, after its keyword.
func stmt(seg *segment) (*exprParser, error) {
	ep, err := newExprParser(seg.text)
	if err != nil {
		return nil, err
	}
	ep.pos = 1 // the keyword
	return ep, nil
}

// lineErr prefixes a parse error with the statement's line.
func lineErr(seg *segment, err error) error {
	if se, ok := err.(*TemplateSyntaxError); ok && !strings.HasPrefix(se.Msg, "line ") {
		return syntaxError("line %d: %s", seg.line, se.Msg)
	}
	return err
}

// endOf consumes the closing statement of a block.
func (p *templateParser) endOf(seg *segment, keywords ...string) (string, error) {
	if p.done() || !slices.Contains(keywords, stmtKeyword(p.peek().text)) || p.peek().kind != segStmt {
		return "", syntaxError("unclosed %s block (expected '%s')", stmtKeyword(seg.text), strings.Join(keywords, "' or '"))
	}
	return stmtKeyword(p.advance().text), nil
}

// parseUntil parses nodes until a statement with one of the stop keywords
// (not consumed).
func (p *templateParser) parseUntil(stop ...string) ([]node, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxNesting {
		return nil, errNesting
	}
	var nodes []node
	for !p.done() {
		seg := p.peek()
		switch seg.kind {
		case segText:
			p.advance()
			if seg.text != "" {
				nodes = append(nodes, &textNode{text: seg.text})
			}
			continue
		case segComment:
			p.advance()
			continue
		case segExpr:
			p.advance()
			e, err := parseExpr(seg.text)
			if err != nil {
				return nil, lineErr(seg, err)
			}
			nodes = append(nodes, &outputNode{expression: e})
			continue
		}
		keyword := stmtKeyword(seg.text)
		if slices.Contains(stop, keyword) {
			return nodes, nil
		}
		n, err := p.parseStatement(seg, keyword)
		if err != nil {
			return nil, lineErr(seg, err)
		}
		if n != nil {
			nodes = append(nodes, n...)
		}
	}
	return nodes, nil
}

func (p *templateParser) parseStatement(seg *segment, keyword string) ([]node, error) {
	one := func(n node, err error) ([]node, error) {
		if err != nil {
			return nil, err
		}
		return []node{n}, nil
	}
	switch keyword {
	case "if":
		return one(p.parseIf())
	case "for":
		return one(p.parseFor())
	case "set":
		return one(p.parseSet())
	case "macro":
		return one(p.parseMacro())
	case "call":
		return one(p.parseCall())
	case "filter":
		return one(p.parseFilterBlock())
	case "with":
		return one(p.parseWith())
	case "raw":
		return one(p.parseRaw())
	case "autoescape":
		return one(p.parseAutoescape())
	case "break", "continue":
		p.advance()
		ep, err := stmt(seg)
		if err != nil {
			return nil, err
		}
		if err := ep.expectEnd(); err != nil {
			return nil, err
		}
		if keyword == "break" {
			return []node{&breakNode{}}, nil
		}
		return []node{&continueNode{}}, nil
	case "generation", "block":
		// {% generation %} (transformers' assistant-mask extension) and a
		// block of a template without a parent render their body in place.
		p.advance()
		end := "end" + keyword
		body, err := p.parseUntil(end)
		if err != nil {
			return nil, err
		}
		if _, err := p.endOf(seg, end); err != nil {
			return nil, err
		}
		return body, nil
	case "include", "import", "from", "extends":
		// Parsed, but transformers' environment has no loader: running one
		// is an error.
		p.advance()
		return []node{&failNode{msg: "no loader for this environment specified"}}, nil
	}
	if keyword == "" {
		return nil, syntaxError("tag name expected")
	}
	return nil, syntaxError("Encountered unknown tag '%s'.", keyword)
}

func (p *templateParser) parseIf() (*ifNode, error) {
	n := &ifNode{}
	seg := p.advance()
	for {
		ep, err := stmt(seg)
		if err != nil {
			return nil, err
		}
		cond, err := ep.parseTuple(false, false, nil, false)
		if err != nil {
			return nil, err
		}
		if err := ep.expectEnd(); err != nil {
			return nil, err
		}
		body, err := p.parseUntil("elif", "else", "endif")
		if err != nil {
			return nil, err
		}
		n.branches = append(n.branches, condBranch{condition: cond, body: body})
		kw, err := p.endOf(seg, "elif", "else", "endif")
		if err != nil {
			return nil, err
		}
		switch kw {
		case "elif":
			seg = &p.segs[p.pos-1]
			continue
		case "else":
			body, err := p.parseUntil("endif")
			if err != nil {
				return nil, err
			}
			n.branches = append(n.branches, condBranch{body: body})
			if _, err := p.endOf(seg, "endif"); err != nil {
				return nil, err
			}
		}
		return n, nil
	}
}

func (p *templateParser) parseFor() (*forNode, error) {
	seg := p.advance()
	ep, err := stmt(seg)
	if err != nil {
		return nil, err
	}
	n := &forNode{}
	if n.target, err = ep.parseAssignTarget(true, false, []string{"in"}, false); err != nil {
		return nil, err
	}
	if !ep.skipName("in") {
		return nil, syntaxError("expected token 'in', got '%s'", describe(ep.peek()))
	}
	if n.iter, err = ep.parseTuple(false, false, []string{"recursive"}, false); err != nil {
		return nil, err
	}
	if ep.skipName("if") {
		if n.filterExpr, err = ep.parseExpression(true); err != nil {
			return nil, err
		}
	}
	n.recursive = ep.skipName("recursive")
	if err := ep.expectEnd(); err != nil {
		return nil, err
	}
	if n.body, err = p.parseUntil("endfor", "else"); err != nil {
		return nil, err
	}
	kw, err := p.endOf(seg, "endfor", "else")
	if err != nil {
		return nil, err
	}
	if kw == "else" {
		if n.elseBody, err = p.parseUntil("endfor"); err != nil {
			return nil, err
		}
		if _, err := p.endOf(seg, "endfor"); err != nil {
			return nil, err
		}
	}
	return n, nil
}

func (p *templateParser) parseSet() (node, error) {
	seg := p.advance()
	ep, err := stmt(seg)
	if err != nil {
		return nil, err
	}
	t, err := ep.parseAssignTarget(true, false, nil, true)
	if err != nil {
		return nil, err
	}
	if ep.skipOp("=") {
		v, err := ep.parseTuple(false, true, nil, false)
		if err != nil {
			return nil, err
		}
		return &setNode{target: t, value: v}, ep.expectEnd()
	}
	f, err := ep.parseFilter(nil, false)
	if err != nil {
		return nil, err
	}
	if err := ep.expectEnd(); err != nil {
		return nil, err
	}
	body, err := p.parseUntil("endset")
	if err != nil {
		return nil, err
	}
	if _, err := p.endOf(seg, "endset"); err != nil {
		return nil, err
	}
	return &setBlockNode{target: t, filter: f, body: body}, nil
}

// parseSignature parses a macro or call block's parameters: (a, b=default).
func (ep *exprParser) parseSignature() ([]macroParam, error) {
	if err := ep.expectOp("("); err != nil {
		return nil, err
	}
	var params []macroParam
	for !ep.isOp(")") {
		if len(params) > 0 {
			if err := ep.expectOp(","); err != nil {
				return nil, err
			}
		}
		name, err := ep.expectName()
		if err != nil {
			return nil, err
		}
		mp := macroParam{name: name}
		if ep.skipOp("=") {
			if mp.defaultVal, err = ep.parseExpression(true); err != nil {
				return nil, err
			}
		} else if len(params) > 0 && params[len(params)-1].defaultVal != nil {
			return nil, syntaxError("non-default argument follows default argument")
		}
		params = append(params, mp)
	}
	return params, ep.expectOp(")")
}

func (p *templateParser) parseMacro() (*macroNode, error) {
	seg := p.advance()
	ep, err := stmt(seg)
	if err != nil {
		return nil, err
	}
	n := &macroNode{}
	if n.name, err = ep.expectName(); err != nil {
		return nil, err
	}
	if n.params, err = ep.parseSignature(); err != nil {
		return nil, err
	}
	if err := ep.expectEnd(); err != nil {
		return nil, err
	}
	if n.body, err = p.parseUntil("endmacro"); err != nil {
		return nil, err
	}
	if _, err := p.endOf(seg, "endmacro"); err != nil {
		return nil, err
	}
	markMacroUses(n)
	return n, nil
}

func (p *templateParser) parseCall() (*callNode, error) {
	seg := p.advance()
	ep, err := stmt(seg)
	if err != nil {
		return nil, err
	}
	caller := &macroNode{name: "caller", anonymous: true}
	if ep.isOp("(") {
		if caller.params, err = ep.parseSignature(); err != nil {
			return nil, err
		}
	}
	e, err := ep.parseExpression(true)
	if err != nil {
		return nil, err
	}
	call, ok := e.(*callExpr)
	if !ok {
		return nil, syntaxError("expected call")
	}
	if err := ep.expectEnd(); err != nil {
		return nil, err
	}
	if caller.body, err = p.parseUntil("endcall"); err != nil {
		return nil, err
	}
	if _, err := p.endOf(seg, "endcall"); err != nil {
		return nil, err
	}
	markMacroUses(caller)
	return &callNode{caller: caller, call: call}, nil
}

func (p *templateParser) parseFilterBlock() (*filterBlockNode, error) {
	seg := p.advance()
	ep, err := stmt(seg)
	if err != nil {
		return nil, err
	}
	f, err := ep.parseFilter(nil, true)
	if err != nil {
		return nil, err
	}
	if err := ep.expectEnd(); err != nil {
		return nil, err
	}
	body, err := p.parseUntil("endfilter")
	if err != nil {
		return nil, err
	}
	if _, err := p.endOf(seg, "endfilter"); err != nil {
		return nil, err
	}
	return &filterBlockNode{filter: f, body: body}, nil
}

func (p *templateParser) parseWith() (*withNode, error) {
	seg := p.advance()
	ep, err := stmt(seg)
	if err != nil {
		return nil, err
	}
	n := &withNode{}
	for ep.peek().kind != tokEOF {
		if len(n.targets) > 0 {
			if err := ep.expectOp(","); err != nil {
				return nil, err
			}
		}
		t, err := ep.parseAssignTarget(true, false, nil, false)
		if err != nil {
			return nil, err
		}
		if err := ep.expectOp("="); err != nil {
			return nil, err
		}
		v, err := ep.parseExpression(true)
		if err != nil {
			return nil, err
		}
		n.targets = append(n.targets, t)
		n.values = append(n.values, v)
	}
	if n.body, err = p.parseUntil("endwith"); err != nil {
		return nil, err
	}
	if _, err := p.endOf(seg, "endwith"); err != nil {
		return nil, err
	}
	return n, nil
}

func (p *templateParser) parseAutoescape() (*autoescapeNode, error) {
	seg := p.advance()
	ep, err := stmt(seg)
	if err != nil {
		return nil, err
	}
	n := &autoescapeNode{}
	if n.value, err = ep.parseExpression(true); err != nil {
		return nil, err
	}
	if err := ep.expectEnd(); err != nil {
		return nil, err
	}
	if n.body, err = p.parseUntil("endautoescape"); err != nil {
		return nil, err
	}
	_, err = p.endOf(seg, "endautoescape")
	return n, err
}

// parseRaw takes the body the scanner cut out of a raw block.
func (p *templateParser) parseRaw() (*textNode, error) {
	seg := p.advance()
	if p.done() || !p.peek().rawBody {
		return nil, syntaxError("line %d: unclosed raw block", seg.line)
	}
	body := p.advance().text
	if _, err := p.endOf(seg, "endraw"); err != nil {
		return nil, err
	}
	return &textNode{text: body}, nil
}

// stmtKeyword extracts the first word from a statement segment text.
func stmtKeyword(text string) string {
	text = strings.TrimSpace(text)
	for i, r := range text {
		if !unicode.IsLetter(r) && r != '_' {
			return text[:i]
		}
	}
	return text
}

// markMacroUses records whether a macro body refers to caller, kwargs or
// varargs (jinja2 decides the macro's signature from that).
func markMacroUses(m *macroNode) {
	walkNodes(m.body, func(e expr) {
		if n, ok := e.(*nameExpr); ok {
			switch n.name {
			case "caller":
				m.usesCaller = true
			case "kwargs":
				m.usesKwargs = true
			case "varargs":
				m.usesVarargs = true
			}
		}
	})
	for _, prm := range m.params {
		if prm.defaultVal != nil {
			walkExpr(prm.defaultVal, func(e expr) {
				if n, ok := e.(*nameExpr); ok && n.name == "caller" {
					m.usesCaller = true
				}
			})
		}
	}
}

// walkNodes calls fn on every expression of nodes, nested blocks included.
func walkNodes(nodes []node, fn func(expr)) {
	for _, n := range nodes {
		switch n := n.(type) {
		case *outputNode:
			walkExpr(n.expression, fn)
		case *ifNode:
			for _, b := range n.branches {
				walkExpr(b.condition, fn)
				walkNodes(b.body, fn)
			}
		case *forNode:
			walkExpr(n.iter, fn)
			walkExpr(n.filterExpr, fn)
			walkNodes(n.body, fn)
			walkNodes(n.elseBody, fn)
		case *setNode:
			walkExpr(n.value, fn)
		case *setBlockNode:
			if n.filter != nil {
				walkExpr(n.filter, fn)
			}
			walkNodes(n.body, fn)
		case *macroNode:
			for _, prm := range n.params {
				walkExpr(prm.defaultVal, fn)
			}
			walkNodes(n.body, fn)
		case *callNode:
			walkExpr(n.call, fn)
			walkNodes([]node{n.caller}, fn)
		case *filterBlockNode:
			walkExpr(n.filter, fn)
			walkNodes(n.body, fn)
		case *withNode:
			for _, v := range n.values {
				walkExpr(v, fn)
			}
			walkNodes(n.body, fn)
		case *autoescapeNode:
			walkExpr(n.value, fn)
			walkNodes(n.body, fn)
		}
	}
}

// walkExpr calls fn on e and every expression inside it.
func walkExpr(e expr, fn func(expr)) {
	if e == nil {
		return
	}
	if f, ok := e.(*filterExpr); ok && f == nil {
		return
	}
	fn(e)
	args := func(a callArgs) {
		for _, x := range a.args {
			walkExpr(x, fn)
		}
		for _, k := range a.kwargs {
			walkExpr(k.value, fn)
		}
		walkExpr(a.dynArgs, fn)
		walkExpr(a.dynKwargs, fn)
	}
	switch n := e.(type) {
	case *attrExpr:
		walkExpr(n.obj, fn)
	case *itemExpr:
		walkExpr(n.obj, fn)
		walkExpr(n.key, fn)
	case *sliceExpr:
		walkExpr(n.obj, fn)
		walkExpr(n.start, fn)
		walkExpr(n.stop, fn)
		walkExpr(n.step, fn)
	case *unaryExpr:
		walkExpr(n.operand, fn)
	case *binExpr:
		walkExpr(n.left, fn)
		walkExpr(n.right, fn)
	case *compareExpr:
		walkExpr(n.first, fn)
		for _, o := range n.ops {
			walkExpr(o.rhs, fn)
		}
	case *condExpr:
		walkExpr(n.trueExpr, fn)
		walkExpr(n.condition, fn)
		walkExpr(n.falseExpr, fn)
	case *callExpr:
		walkExpr(n.fn, fn)
		args(n.callArgs)
	case *filterExpr:
		walkExpr(n.expr, fn)
		args(n.callArgs)
	case *testExpr:
		walkExpr(n.expr, fn)
		args(n.callArgs)
	case *listExpr:
		for _, x := range n.items {
			walkExpr(x, fn)
		}
	case *dictExpr:
		for _, pr := range n.pairs {
			walkExpr(pr.key, fn)
			walkExpr(pr.value, fn)
		}
	}
}
