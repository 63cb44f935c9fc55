package parsers

import (
	"fmt"
	"slices"
	"testing"
)

// This file hands the external test package (parsers_test, which runs the
// fixture suite through parserstest) the checks that need the Parser's
// internals. Nothing here is part of the package's API: it exists only in
// the test binary.

// CheckHeld fails when p holds back more than the package documentation
// allows: the longest marker of its grammars (glm47: a candidate bare-body
// name and its <arg_key>) plus a partial character (3 bytes). The fixture
// suite calls it after every Feed (parserstest.Runner.AfterFeed).
func CheckHeld(p *Parser) error {
	n := len(p.held)
	if n <= 3 {
		return nil // a partial character: under any bound, without walking the matchers
	}
	if bound := maxMarkerLen(p) + 3; n > bound {
		return fmt.Errorf("holding %d bytes, bound %d", n, bound)
	}
	return nil
}

// Markup lists every marker p's grammars recognise, from their matchers: the
// text matcher's markers (start-of-output markers such as a bare "{" or "["
// left out: once text precedes them they are ordinary characters), the
// reasoning markers, and a framing grammar's markup. The fixture suite checks
// none of them reaches content or reasoning (parserstest.Runner.Markup),
// beside the registry's Openers, Closers, Starts and Ends.
func Markup(p *Parser) []string {
	var ms []string
	for _, m := range p.textMs[1][1].ms {
		if !m.atStart {
			ms = append(ms, m.text)
		}
	}
	for _, m := range p.reasM.ms {
		ms = append(ms, m.text)
	}
	// A grammar that frames the output runs no text matcher: its markup is
	// its own matchers' markers (required by framingGrammar).
	if p.frame != nil {
		ms = append(ms, markupOf(p.frame)...)
	}
	slices.Sort(ms)
	return slices.Compact(ms)
}

// maxMarkerLen is the longest marker any of p's matchers or grammars holds
// a prefix of.
func maxMarkerLen(p *Parser) int {
	n := p.reasM.maxLen
	for _, row := range p.textMs {
		for _, m := range row {
			n = max(n, m.maxLen)
		}
	}
	if p.frame != nil {
		// The longest marker of the framing grammar's matchers: the most
		// it holds.
		for _, m := range p.frame.matchers() {
			n = max(n, m.maxLen)
		}
	}
	if b, ok := p.tool.(interface{ maxHold() int }); ok {
		n = max(n, b.maxHold())
	}
	return n
}

// maxHold is the most feed ever asks the driver to hold, including a
// bare-body name candidate held in the text state.
func (g *glm47) maxHold() int {
	m := &g.plain // a learned suffix lengthens every tag by at most glmSfxMax
	n := max(m.wrapM.maxLen, m.nameM.maxLen, m.keyM.maxLen, m.kvM.maxLen, m.typM.maxLen, m.pairsM.maxLen, m.skipM.maxLen, m.ends.maxLen)
	if g.spec.suffix {
		n += glmSfxMax
	}
	return max(n, g.val.maxLen(), glmBareMax+bareSpaceMax+len("<arg_key>"))
}

// maxHold is the most feed ever asks the driver to hold.
func (g *tagCalls) maxHold() int {
	return max(g.blockM.maxLen, g.bodyM.maxLen, g.skipM.maxLen, g.val.maxLen())
}

// SameTool reports whether the tool-call parser names a and b are
// registered to one grammar entry (b is an alias of a: the two build the
// same parser and differ only in the name ToolParser reports); SameReasoning
// likewise for reasoning parser names. "" (no parser) is the same as "".
func SameTool(a, b string) bool {
	return a == b || toolRegistry[a] != nil && toolRegistry[a] == toolRegistry[b]
}

// SameReasoning: see SameTool.
func SameReasoning(a, b string) bool {
	return a == b || reasoningRegistry[a] != nil && reasoningRegistry[a] == reasoningRegistry[b]
}

// CheckChunked is parserstest's check of one input fed whole and in the
// given chunks (identical event streams, well-formed events, CheckHeld after
// every Feed), for the fuzz targets. An internal test cannot import
// parserstest (it imports this package), so the external test package sets
// it when the test binary starts (invariants_test.go).
var CheckChunked func(t *testing.T, cfg Config, in []byte, chunks [][]byte)

// maxLen is the longest byte sequence v's feed may hold.
func (v *paramValue) maxLen() int {
	n := v.ends.maxLen
	if v.ents != nil {
		n = max(n, v.ents.maxLen)
	}
	return n
}
