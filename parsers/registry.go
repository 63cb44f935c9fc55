package parsers

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// ErrUnknownParser is wrapped by New's error for a name that is not
// registered; the message lists the registered names.
var ErrUnknownParser = errors.New("parsers: unknown parser")

// ToolInfo describes a registered tool-call parser: its grammar, markers and
// the decided outcome for malformed and truncated output (PARSER_CASES.md
// renders these).
//
// Openers and Closers are derived from the grammar's own markers when it is
// registered, so they cannot drift from what the grammar recognises:
//
//   - a grammar that works on marker pairs publishes its content-level
//     markers (the ones it hands the driver's text state): its openers and
//     its orphan closers, each in the grammar's own order. An opener the
//     grammar also matches with whitespace in front (DSML's "\n\n" before
//     the block opener) is published once, without the whitespace.
//   - a grammar that confirms an opener with bytes it checks itself (phi4's
//     `functools` opens a call only before '[', after optional whitespace)
//     publishes the opener with those bytes, as its registration states it;
//     each stated opener must extend one of the grammar's openers.
//   - a grammar that frames the whole output has no content-level markers:
//     its registration states the markers that open and close its call
//     blocks, each built from the grammar's markup tokens (a token, or a
//     token, a word and optionally another token: kimi_k3's
//     "<|open|>tools<|sep|>").
//
// Registration panics when a stated list breaks its rule.
type ToolInfo struct {
	Name      string   // the registered name looked up
	Grammar   string   // canonical grammar name (PARSER_CASES.md)
	Openers   []string // markers that open a call block
	Closers   []string // markers that close one (removed as markup when orphaned)
	Malformed string   // what happens to a malformed call
	Truncated string   // what happens at end of stream inside a call
}

// ReasoningInfo describes a registered reasoning parser (PARSER_CASES.md).
type ReasoningInfo struct {
	Name       string   // the registered name looked up
	Grammar    string   // canonical parser name
	Starts     []string // opening markers (Starts[0] is the canonical one)
	Ends       []string // closing markers
	Forced     bool     // output starts inside reasoning
	ToolStarts []string // tokens that end reasoning and stay in the content stream
	// ToolOpeners end reasoning like ToolStarts, but only when the configured
	// tool parser opens calls with them (qwen3's <tool_call>); without such a
	// tool parser they are reasoning text.
	ToolOpeners []string
	Framing     bool // the grammar frames the whole output (channels/blocks), not marker pairs
}

type toolEntry struct {
	info    ToolInfo
	build   func(*sink) toolGrammar // nil for a framing grammar
	framing *framingSpec            // set for a framing grammar (registerFraming)
}

// toolRegistry maps every registered tool-call parser name (canonical names
// first, then Dynamo, vLLM and SGLang aliases; PARSER_CASES.md) to its
// grammar. Grammar files register themselves in init.
var toolRegistry = map[string]*toolEntry{}

// reasoningRegistry maps every registered reasoning parser name (PARSER_CASES.md,
// "Coverage: reasoning families") to its grammar.
var reasoningRegistry = map[string]*reasoningSpec{}

// registerTool registers a tool-call grammar under names (lower case); the
// first name is the canonical one. info states the grammar's descriptions;
// its Closers are derived from the grammar's markers, and so are its Openers
// unless info states them (see ToolInfo).
func registerTool(info ToolInfo, build func(*sink) toolGrammar, names ...string) {
	info.Grammar = names[0]
	openers, closers := contentMarkers(build(&sink{cfg: &Config{}}).textMarkers())
	if err := statedExtend(info.Openers, openers); err != nil {
		panic("parsers: " + info.Grammar + ": " + err.Error())
	}
	if info.Openers == nil {
		info.Openers = openers
	}
	if info.Closers != nil {
		panic("parsers: " + info.Grammar + ": Closers are derived from the grammar, not stated")
	}
	info.Closers = closers
	register(toolRegistry, "tool", &toolEntry{info: info, build: build}, names)
}

// contentMarkers returns the openers and orphan closers among a grammar's
// content-level markers, in their order; an opener that is another opener
// with whitespace in front is left out (see ToolInfo).
func contentMarkers(ms []marker) (openers, closers []string) {
	for _, m := range ms {
		switch m.act {
		case actToolOpen:
			openers = append(openers, m.text)
		case actToolClose:
			closers = append(closers, m.text)
		}
	}
	return slices.DeleteFunc(openers, func(o string) bool {
		return slices.ContainsFunc(openers, func(other string) bool {
			sep, ok := strings.CutSuffix(o, other)
			return ok && sep != "" && strings.TrimSpace(sep) == ""
		})
	}), closers
}

// statedExtend checks stated openers against the grammar's own: each must
// extend one of them with the bytes the grammar checks itself (see ToolInfo).
func statedExtend(stated, openers []string) error {
	for _, s := range stated {
		if !slices.ContainsFunc(openers, func(o string) bool { return len(s) > len(o) && strings.HasPrefix(s, o) }) {
			return fmt.Errorf("stated opener %q does not extend one of the grammar's openers %q", s, openers)
		}
	}
	return nil
}

// register adds v to m under names; a name registered twice panics.
func register[V any](m map[string]V, kind string, v V, names []string) {
	for _, n := range names {
		if _, dup := m[n]; dup {
			panic("parsers: " + kind + " parser registered twice: " + n)
		}
		m[n] = v
	}
}

// registerReasoning registers a reasoning grammar under names (lower case).
func registerReasoning(spec *reasoningSpec, names ...string) {
	register(reasoningRegistry, "reasoning", spec, names)
}

// ToolParsers returns the registered tool-call parser names, sorted.
func ToolParsers() []string { return sortedKeys(toolRegistry) }

// ReasoningParsers returns the registered reasoning parser names, sorted.
func ReasoningParsers() []string { return sortedKeys(reasoningRegistry) }

// ToolParser describes the registered tool-call parser name (looked up
// case-insensitively).
func ToolParser(name string) (ToolInfo, bool) {
	e, ok := toolRegistry[strings.ToLower(name)]
	if !ok {
		return ToolInfo{}, false
	}
	info := e.info
	info.Name = strings.ToLower(name)
	// The caller owns the result: its slices are copies, never the
	// registry's own.
	info.Openers, info.Closers = slices.Clone(info.Openers), slices.Clone(info.Closers)
	return info, true
}

// ReasoningParser describes the registered reasoning parser name (looked up
// case-insensitively).
func ReasoningParser(name string) (ReasoningInfo, bool) {
	s, ok := reasoningRegistry[strings.ToLower(name)]
	if !ok {
		return ReasoningInfo{}, false
	}
	return ReasoningInfo{Name: strings.ToLower(name), Grammar: s.name, Starts: slices.Clone(s.starts), Ends: slices.Clone(s.ends),
		Forced: s.forced, ToolStarts: slices.Clone(s.toolStarts), ToolOpeners: slices.Clone(s.toolOpeners),
		Framing: s.framing != nil}, true
}

func sortedKeys[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

// lookup returns the parser registered in m under name (looked up
// case-insensitively); kind names the registry in the error.
func lookup[V any](m map[string]V, kind, name string) (V, error) {
	v, ok := m[strings.ToLower(name)]
	if !ok {
		return v, fmt.Errorf("%w %q for %s (known: %s)", ErrUnknownParser, name, kind, strings.Join(sortedKeys(m), ", "))
	}
	return v, nil
}
