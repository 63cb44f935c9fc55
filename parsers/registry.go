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

// toolFactories maps every registered tool-call parser name (canonical names
// first, then Dynamo, vLLM and SGLang aliases; GRAMMARS.md §2.1) to its
// grammar.
var toolFactories = map[string]func(*Parser) toolGrammar{
	"hermes":   newHermes,
	"qwen25":   newHermes, // Dynamo alias
	"granite4": newHermes, // vLLM: hermes with arguments possibly a JSON string
	"qwen":     newHermes, // SGLang
}

// reasoningSpecs maps every registered reasoning parser name (GRAMMARS.md
// §2.2) to its grammar. SGLang's "deepseek-v3" and "minimax" are not
// registered as aliases: there they are not forced, unlike Dynamo's parsers of
// those names.
var reasoningSpecs = map[string]*reasoningSpec{
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
func ToolParsers() []string { return sortedKeys(toolFactories) }

// ReasoningParsers returns the registered reasoning parser names, sorted.
func ReasoningParsers() []string { return sortedKeys(reasoningSpecs) }

func sortedKeys[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

func lookupTool(name string, p *Parser) (toolGrammar, error) {
	f, ok := toolFactories[strings.ToLower(name)]
	if !ok {
		return nil, fmt.Errorf("%w %q for tool calls (known: %s)", ErrUnknownParser, name, strings.Join(ToolParsers(), ", "))
	}
	return f(p), nil
}

func lookupReasoning(name string) (*reasoningSpec, error) {
	s, ok := reasoningSpecs[strings.ToLower(name)]
	if !ok {
		return nil, fmt.Errorf("%w %q for reasoning (known: %s)", ErrUnknownParser, name, strings.Join(ReasoningParsers(), ", "))
	}
	return s, nil
}
