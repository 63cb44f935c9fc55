package parsers

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// ErrParserCombination is wrapped by New's error when the configured tool
// and reasoning parsers cannot run together: a grammar that frames the whole
// output (Harmony, Kimi K3, Inkling) owns every byte, so it pairs only with
// its own counterpart (or with no parser on the other side).
var ErrParserCombination = errors.New("parsers: incompatible tool and reasoning parsers")

// framingGrammar is a grammar that owns the whole output stream: channels or
// blocks frame everything (Harmony, Kimi K3, Inkling). The Parser hands it
// every byte from the first (open(-1) at Reset and after every block it
// ends); it emits content and reasoning itself through its sink, and the
// Parser's text and reasoning states never run.
//
// Being a framing grammar is a type, not a flag: the methods the driver and
// the tests need are required, so a grammar cannot frame the output and
// forget to declare its markup.
type framingGrammar interface {
	toolGrammar
	// matchers returns every matcher the grammar scans with. Their marker
	// texts are its markup: text that never reaches content or reasoning
	// (the invariant tests check every output against them). The longest
	// marker bounds what the grammar holds undecided between Feeds.
	matchers() []*matcher
}

// markupOf lists the marker texts of g's matchers (see framingGrammar).
func markupOf(g framingGrammar) []string {
	var ms []string
	for _, m := range g.matchers() {
		for _, mk := range m.ms {
			ms = append(ms, mk.text)
		}
	}
	return ms
}

// framingSpec registers a framing grammar once for both roles: the tool
// parser names run it with tool calls; the reasoning parser names run it
// without calls when no tool parser is configured (directed messages or
// tool blocks then reach content raw) and with calls when the configured
// tool parser is one of its own tool names. Any other pairing is an
// ErrParserCombination error.
type framingSpec struct {
	tool      ToolInfo       // the tool parser's description
	reasoning *reasoningSpec // the reasoning parser's description; framing is set by registerFraming
	// build returns the machine; calls reports whether directed
	// messages/blocks become tool calls.
	build func(out *sink, calls bool) framingGrammar
}

// registerFraming registers f under its tool parser names (the first is
// canonical) and reasoning parser names. f.tool states Openers and Closers;
// each must be built from the grammar's markup tokens (see ToolInfo).
func registerFraming(f *framingSpec, toolNames, reasoningNames []string) {
	f.reasoning.framing = f
	f.tool.Grammar = toolNames[0]
	g := f.build(&sink{cfg: &Config{}}, true)
	if len(g.textMarkers()) > 0 {
		panic("parsers: " + f.tool.Grammar + ": a framing grammar has no content-level markers")
	}
	if err := madeOfMarkup(slices.Concat(f.tool.Openers, f.tool.Closers), markupOf(g)); err != nil {
		panic("parsers: " + f.tool.Grammar + ": " + err.Error())
	}
	register(toolRegistry, "tool", &toolEntry{info: f.tool, framing: f}, toolNames)
	registerReasoning(f.reasoning, reasoningNames...)
}

// madeOfMarkup checks that every marker in ms is a markup token, or a markup
// token, a word (ASCII letters and '_') and optionally another markup token.
func madeOfMarkup(ms, markup []string) error {
	for _, m := range ms {
		if !slices.ContainsFunc(markup, func(first string) bool {
			rest, ok := strings.CutPrefix(m, first)
			if !ok {
				return false
			}
			if rest == "" {
				return true
			}
			for _, last := range markup {
				rest = strings.TrimSuffix(rest, last)
			}
			return rest != "" && strings.IndexFunc(rest, func(r rune) bool {
				return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_')
			}) < 0
		}) {
			return fmt.Errorf("marker %q is not built from the grammar's markup tokens %q", m, markup)
		}
	}
	if len(ms) == 0 {
		return errors.New("no markers stated")
	}
	return nil
}

// framingFor returns the framing machine for a configured pair (reason and
// tool as looked up, nil when not configured), or nil when neither side
// frames the output.
func framingFor(out *sink, cfg *Config, reason *reasoningSpec, tool *toolEntry) (framingGrammar, error) {
	switch {
	case reason != nil && reason.framing != nil:
		f := reason.framing
		if tool == nil {
			return f.build(out, false), nil
		}
		if tool.framing != f {
			return nil, fmt.Errorf("%w: reasoning parser %q frames the whole output and runs only with the %q tool parser (or none), not %q",
				ErrParserCombination, cfg.ReasoningParser, f.tool.Grammar, cfg.ToolParser)
		}
		return f.build(out, true), nil
	case tool != nil && tool.framing != nil:
		if reason != nil {
			return nil, fmt.Errorf("%w: tool parser %q frames the whole output and runs only with its own reasoning parser (or none), not %q",
				ErrParserCombination, cfg.ToolParser, cfg.ReasoningParser)
		}
		return tool.framing.build(out, true), nil
	}
	return nil, nil
}
