package parsers

import (
	"errors"
	"fmt"
	"strings"
)

// ErrParserCombination is wrapped by New's error when the configured tool
// and reasoning parsers cannot run together: a grammar that frames the whole
// output (Harmony, Kimi K3, Inkling) owns every byte, so it pairs only with
// its own counterpart (or with no parser on the other side).
var ErrParserCombination = errors.New("parsers: incompatible tool and reasoning parsers")

// framingPair is the framer of a reasoning parser whose grammar frames the
// whole output: tool "" runs the machine without tool calls (build(out,
// false)); a tool parser of grammar toolGrammar runs it with calls (build(out,
// true)); any other tool parser is an ErrParserCombination error.
func framingPair(reasoning, toolGrammarName string, build func(out *sink, calls bool) toolGrammar) func(*sink, string) (toolGrammar, error) {
	return func(out *sink, tool string) (toolGrammar, error) {
		if tool == "" {
			return build(out, false), nil
		}
		e, ok := toolRegistry[strings.ToLower(tool)]
		if !ok {
			return nil, fmt.Errorf("%w %q for tool calls (known: %s)", ErrUnknownParser, tool, strings.Join(ToolParsers(), ", "))
		}
		if e.info.Grammar != toolGrammarName {
			return nil, fmt.Errorf("%w: reasoning parser %q frames the whole output and runs only with the %q tool parser (or none), not %q",
				ErrParserCombination, reasoning, toolGrammarName, tool)
		}
		return build(out, true), nil
	}
}
