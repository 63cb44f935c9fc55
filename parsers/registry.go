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
// renders these). Openers and Closers are the markers the grammar itself
// recognises; a test holds every registration to that.
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
var toolRegistry = map[string]toolEntry{}

// reasoningRegistry maps every registered reasoning parser name (PARSER_CASES.md,
// "Coverage: reasoning families") to its grammar.
var reasoningRegistry = map[string]*reasoningSpec{}

// registerTool registers a tool-call grammar under names (lower case); the
// first name is the canonical one.
func registerTool(info ToolInfo, build func(*sink) toolGrammar, names ...string) {
	info.Grammar = names[0]
	registerToolEntry(toolEntry{info: info, build: build}, names)
}

func registerToolEntry(e toolEntry, names []string) {
	for _, n := range names {
		if _, dup := toolRegistry[n]; dup {
			panic("parsers: tool parser registered twice: " + n)
		}
		toolRegistry[n] = e
	}
}

// registerReasoning registers a reasoning grammar under names (lower case).
func registerReasoning(spec *reasoningSpec, names ...string) {
	for _, n := range names {
		if _, dup := reasoningRegistry[n]; dup {
			panic("parsers: reasoning parser registered twice: " + n)
		}
		reasoningRegistry[n] = spec
	}
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

func lookupTool(name string) (*toolEntry, error) {
	e, ok := toolRegistry[strings.ToLower(name)]
	if !ok {
		return nil, fmt.Errorf("%w %q for tool calls (known: %s)", ErrUnknownParser, name, strings.Join(ToolParsers(), ", "))
	}
	return &e, nil
}

func lookupReasoning(name string) (*reasoningSpec, error) {
	s, ok := reasoningRegistry[strings.ToLower(name)]
	if !ok {
		return nil, fmt.Errorf("%w %q for reasoning (known: %s)", ErrUnknownParser, name, strings.Join(ReasoningParsers(), ", "))
	}
	return s, nil
}
