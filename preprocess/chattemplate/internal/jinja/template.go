package jinja

import (
	"fmt"
	"sort"
	"strings"
)

// Template is a compiled Jinja template ready for rendering.
type Template struct {
	nodes []node
	src   string
	uses  [4][]string // filters, tests, globals and "name:keyword"s named in the source
}

// Compile parses a Jinja template source string and returns a compiled
// template that can be rendered multiple times with different data.
// Constant expressions are folded as jinja2's optimizer folds them.
func Compile(source string) (*Template, error) {
	return compile(source, true)
}

// CompileNoFold is Compile without constant folding (patch): every
// expression is evaluated when the template renders, as jinja2 evaluates it
// with its optimizer off. For tests comparing the two.
func CompileNoFold(source string) (*Template, error) {
	return compile(source, false)
}

func compile(source string, fold bool) (*Template, error) {
	src := source
	// Patch: jinja2's lexer turns \r\n and \r into \n and drops one
	// trailing newline (keep_trailing_newline=False).
	source = strings.ReplaceAll(strings.ReplaceAll(source, "\r\n", "\n"), "\r", "\n")
	source = strings.TrimSuffix(source, "\n")
	segs, err := scan(source)
	if err != nil {
		return nil, fmt.Errorf("jinja scan: %w", err)
	}
	nodes, err := parseTemplate(segs)
	if err != nil {
		return nil, fmt.Errorf("jinja parse: %w", err)
	}
	t := &Template{nodes: nodes, src: src}
	t.uses[0], t.uses[1], t.uses[2], t.uses[3] = t.namesUsed()
	if fold {
		optimizeNodes(nodes)
	}
	return t, nil
}

// Render executes the template with the provided data and returns the
// rendered string. Each call creates an isolated scope so templates are
// safe to render concurrently after compilation.
func (t *Template) Render(data map[string]any) (string, error) {
	vals := make(map[string]Value, len(data))
	for k, v := range data {
		vals[k] = FromGoValue(v)
	}
	return t.RenderLimited(vals, Limits{})
}

// RenderValues is like Render but accepts pre-converted Value data.
func (t *Template) RenderValues(data map[string]Value) (string, error) {
	return t.RenderLimited(data, Limits{})
}

// Limits bounds one render (patch: render limits). Zero fields mean no limit.
type Limits struct {
	MaxSteps int // statements executed plus loop iterations
	MaxBytes int // largest output or string value built during the render
	MaxDepth int // macro and call-block nesting
	SizeHint int // expected output size, preallocated
}

// RenderLimited is like RenderValues but stops with an error wrapping
// ErrLimit when the render exceeds lim.
func (t *Template) RenderLimited(data map[string]Value, lim Limits) (string, error) {
	e := evaluator{
		budget: &budget{maxSteps: lim.MaxSteps, maxBytes: lim.MaxBytes, maxDepth: lim.MaxDepth},
	}
	e.scope = &scope{vars: data}
	if e.scope.vars == nil {
		e.scope.vars = map[string]Value{}
	}
	// The caller's map is the outermost scope: a top-level {% set %} must
	// not write into it.
	e.scope = newScope(e.scope)
	if lim.SizeHint > 0 {
		e.output.Grow(lim.SizeHint)
	}
	if err := e.execNodes(t.nodes); err != nil {
		if err == errBreak || err == errContinue {
			return "", syntaxError("break or continue outside a loop")
		}
		return "", err
	}
	if err := e.step(); err != nil {
		return "", err
	}
	return e.output.String(), nil
}

// RaiseError is the error of the template's raise_exception(message) call
// (patch: typed error so callers can tell a template's own rejection from an
// engine failure).
type RaiseError struct{ Message string }

func (e *RaiseError) Error() string { return e.Message }

// MayMutate reports whether the template could modify a list it is given
// (patch): jinja2's sandbox allows list.pop() and list.clear(), so a caller
// that shares input values between renders must not share them with such a
// template. The check is conservative: any attribute named pop or clear, any
// string literal "pop" or "clear" (the attr filter, getattr through
// str.format), and any attr filter whose name is not a literal.
func (t *Template) MayMutate() bool {
	mutates := false
	walkNodes(t.nodes, func(e expr) {
		switch n := e.(type) {
		case *attrExpr:
			mutates = mutates || n.attr == "pop" || n.attr == "clear"
		case *litExpr:
			if n.val.IsString() {
				s := n.val.AsString()
				mutates = mutates || s == "pop" || s == "clear"
			}
		case *filterExpr:
			if n.name == "attr" || n.name == "map" {
				for _, a := range n.args {
					if _, lit := a.(*litExpr); !lit {
						mutates = true
					}
				}
				if n.dynArgs != nil || n.dynKwargs != nil {
					mutates = true
				}
			}
		}
	})
	return mutates
}

// Builtins returns the names of the engine's filters, tests and global
// functions (patch), sorted.
func Builtins() (filters, tests, globalNames []string) {
	for n := range filterTable {
		filters = append(filters, n)
	}
	for n := range testTable {
		tests = append(tests, n)
	}
	for n := range globals {
		globalNames = append(globalNames, n)
	}
	sort.Strings(filters)
	sort.Strings(tests)
	sort.Strings(globalNames)
	return filters, tests, globalNames
}

// Uses returns the filters, tests and global functions the template names
// (patch), sorted: `x | name`, `x is name`, the filter or test a map,
// select, reject, selectattr or rejectattr call names with a string literal,
// and the globals it refers to.
func (t *Template) Uses() (filters, tests, globalNames []string) {
	return t.uses[0], t.uses[1], t.uses[2]
}

// KeywordsUsed returns the keyword arguments the template passes to
// filters and tests (patch), sorted, as "filter name:keyword" and
// "test name:keyword".
func (t *Template) KeywordsUsed() []string { return t.uses[3] }

func (t *Template) namesUsed() (filters, tests, globalNames, keywords []string) {
	fs, ts, gs, ks := map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}
	literal := func(e expr) (string, bool) {
		if l, ok := e.(*litExpr); ok && l.val.IsString() {
			return l.val.AsString(), true
		}
		return "", false
	}
	walkNodes(t.nodes, func(e expr) {
		switch n := e.(type) {
		case *filterExpr:
			fs[n.name] = true
			for _, k := range n.kwargs {
				ks["filter "+n.name+":"+k.name] = true
			}
			arg := 0
			switch n.name {
			case "selectattr", "rejectattr":
				arg = 1
				fallthrough
			case "select", "reject":
				if len(n.args) > arg {
					if name, ok := literal(n.args[arg]); ok {
						ts[name] = true
					}
				}
			case "map":
				if len(n.args) > 0 {
					if name, ok := literal(n.args[0]); ok {
						fs[name] = true
					}
				}
			}
		case *testExpr:
			ts[n.name] = true
			for _, k := range n.kwargs {
				ks["test "+n.name+":"+k.name] = true
			}
		case *nameExpr:
			if _, ok := globals[n.name]; ok {
				gs[n.name] = true
			}
		}
	})
	sorted := func(m map[string]bool) []string {
		out := make([]string, 0, len(m))
		for n := range m {
			out = append(out, n)
		}
		sort.Strings(out)
		return out
	}
	return sorted(fs), sorted(ts), sorted(gs), sorted(ks)
}
