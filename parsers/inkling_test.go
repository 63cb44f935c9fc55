package parsers

import (
	"testing"
)

// TestInklingCombinations pins the pairings of the Inkling parsers: one
// machine for both roles; the reasoning parser alone passes tool blocks
// through (header re-inserted); other families do not combine with it.
func TestInklingCombinations(t *testing.T) {
	const call = `f<|content_invoke_tool_json|>{"name": "f", "args": {}}<|end_message|>`
	const out = "<|content_thinking|>r<|end_message|><|message_model|><|content_text|>a<|end_message|>" + call
	checkCombinations(t, out, []combination{
		{"inkling", "", "a", 1, nil},
		{"inkling", "inkling", "a", 1, nil},
		{"", "inkling", "a<|message_model|>" + call, 0, nil},
		{"hermes", "inkling", "", 0, ErrParserCombination},
		{"inkling", "qwen3", "", 0, ErrParserCombination},
	})
}

// TestInklingFeedAllocs asserts zero allocations after warm-up.
func TestInklingFeedAllocs(t *testing.T) {
	out := inklingBenchOutput(2 << 10)
	for _, cfg := range []Config{
		{ToolParser: "inkling"},
		{ToolParser: "inkling", WholeCalls: true},
		{ReasoningParser: "inkling"},
	} {
		checkFeedAllocs(t, "", cfg, out)
	}
}

// FuzzInkling runs the Inkling machine as the tool parser (with and without
// its reasoning parser) and as the reasoning parser alone.
func FuzzInkling(f *testing.F) {
	fixtureSeeds(f, "inkling")
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, sel uint8) {
		cfg := Config{ToolParser: "inkling", WholeCalls: sel&1 != 0, InReasoning: sel&16 != 0}
		switch sel >> 1 & 3 {
		case 1:
			cfg.ReasoningParser = "inkling"
		case 2:
			cfg.ToolParser, cfg.ReasoningParser = "", "inkling"
		}
		if sel&8 != 0 {
			cfg.MaxCallBuffer = 24
		}
		fuzzInvariants(t, cfg, in, seed)
	})
}
