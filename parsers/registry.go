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
type ToolInfo struct {
	Name      string   // the registered name looked up
	Grammar   string   // canonical grammar name (GRAMMARS.md §2.1)
	Openers   []string // markers that open a call block
	Closers   []string // markers that close one (removed as markup when orphaned)
	Malformed string   // what happens to a malformed call
	Truncated string   // what happens at end of stream inside a call
}

// ReasoningInfo describes a registered reasoning parser (GRAMMARS.md §2.2).
type ReasoningInfo struct {
	Name       string   // the registered name looked up
	Grammar    string   // canonical parser name
	Start, End string   // reasoning markers
	Forced     bool     // output starts inside reasoning
	ToolStarts []string // tokens that end reasoning and stay in the content stream
}

type toolEntry struct {
	info ToolInfo
	new  func(*Parser) toolGrammar
}

var hermesInfo = ToolInfo{
	Grammar: "hermes",
	Openers: []string{"<tool_call>"},
	Closers: []string{"</tool_call>"},
	Malformed: "a body that is not a call object (or array of them) is markup: the call is abandoned and the block " +
		"is dropped up to its closer (or up to the next opener, which starts a new block); in an array, " +
		"elements that are not call objects are skipped; non-whitespace after a closed body is content",
	Truncated: "a closed body is a call even without its closer; a body cut mid-value is abandoned and its markup " +
		"dropped; in an unclosed array, every closed element is a call; a held partial closer is text",
}

// toolRegistry maps every registered tool-call parser name (canonical names
// first, then Dynamo, vLLM and SGLang aliases; GRAMMARS.md §2.1) to its
// grammar.
var toolRegistry = map[string]toolEntry{
	"hermes":   {hermesInfo, newHermes},
	"qwen25":   {hermesInfo, newHermes}, // Dynamo alias
	"granite4": {hermesInfo, newHermes}, // vLLM: hermes with arguments possibly a JSON string
	"qwen":     {hermesInfo, newHermes}, // SGLang
}

// reasoningRegistry maps every registered reasoning parser name (GRAMMARS.md
// §2.2) to its grammar. SGLang's "deepseek-v3" and "minimax" are not
// registered as aliases: there they are not forced, unlike Dynamo's parsers of
// those names.
var reasoningRegistry = map[string]*reasoningSpec{
	"basic":         thinkPlain,
	"qwen":          thinkPlain, // library alias (Dynamo falls back to basic)
	"qwen3":         thinkPlain,
	"nemotron_deci": thinkPlain,
	"glm45":         thinkPlain,
	"glm47":         thinkPlain, // vLLM
	"deepseek_r1":   thinkForced,
	"deepseek-r1":   thinkForced, // SGLang
	"deepseek_v3":   thinkForced,
	"deepseek_v3_1": thinkForced,
	"deepseek_v3_2": thinkForced,
	"step3":         thinkForced,
	"nemotron_nano": thinkForced,
	"nemotron3":     thinkForced,
	"nemotron_v3":   thinkForced,
	"nemotron_3":    thinkForced, // SGLang
	"deepseek_v4":   deepseekV4,
	"deepseek-v4":   deepseekV4,
	"deepseekv4":    deepseekV4,
	"kimi":          kimiThink,
	"kimi_k25":      kimiK25,
	"kimi_k2":       kimiK25, // vLLM's reasoning name for K2.5 / K2-Thinking
	"mistral":       mistralThink,
	"minimax_m2":    minimaxM2,
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
	return info, true
}

// ReasoningParser describes the registered reasoning parser name (looked up
// case-insensitively).
func ReasoningParser(name string) (ReasoningInfo, bool) {
	s, ok := reasoningRegistry[strings.ToLower(name)]
	if !ok {
		return ReasoningInfo{}, false
	}
	return ReasoningInfo{Name: strings.ToLower(name), Grammar: s.name, Start: s.start, End: s.end,
		Forced: s.forced, ToolStarts: slices.Clone(s.toolStarts)}, true
}

func sortedKeys[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

func lookupTool(name string, p *Parser) (toolGrammar, error) {
	e, ok := toolRegistry[strings.ToLower(name)]
	if !ok {
		return nil, fmt.Errorf("%w %q for tool calls (known: %s)", ErrUnknownParser, name, strings.Join(ToolParsers(), ", "))
	}
	return e.new(p), nil
}

func lookupReasoning(name string) (*reasoningSpec, error) {
	s, ok := reasoningRegistry[strings.ToLower(name)]
	if !ok {
		return nil, fmt.Errorf("%w %q for reasoning (known: %s)", ErrUnknownParser, name, strings.Join(ReasoningParsers(), ", "))
	}
	return s, nil
}
