package parsers

import "testing"

// TestCohereCombinations pins the pairings of the Cohere parsers: one
// machine for both roles; the reasoning parser alone forwards action blocks
// raw; other families do not combine with it.
func TestCohereCombinations(t *testing.T) {
	const act = `<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "f", "parameters": {}}]<|END_ACTION|>`
	const out = "r<|END_THINKING|><|START_TEXT|>a<|END_TEXT|>" + act
	checkCombinations(t, out, []combination{
		{"cohere_command4", "", "a", 1, nil},
		{"cohere_command3", "cohere", "a", 1, nil},
		{"", "cohere_command4", "a" + act, 0, nil},
		{"hermes", "cohere", "", 0, ErrParserCombination},
		{"cohere", "qwen3", "", 0, ErrParserCombination},
	})
}

// TestCohereFeedAllocs asserts zero allocations after warm-up for the
// Cohere machine (calls, text, raw action blocks).
func TestCohereFeedAllocs(t *testing.T) {
	out := cohereBenchOutput(2<<10) + cohereBenchOutput(1<<10)
	assertNoAllocs(t, Config{ToolParser: "cohere_command4", ReasoningParser: "cohere_command4"}, out)
	checkFeedAllocs(t, "raw", Config{ReasoningParser: "cohere"}, out)
}

// FuzzCohere runs the Cohere machine as the tool parser (with and without
// its reasoning parser), as the reasoning parser alone, in streaming and
// whole-call mode, with small buffer limits.
func FuzzCohere(f *testing.F) {
	fixtureSeeds(f, "cohere_command4")
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, sel uint8) {
		cfg := Config{ToolParser: "cohere_command4", WholeCalls: sel&1 != 0}
		switch sel >> 1 & 3 {
		case 1:
			cfg.ReasoningParser = "cohere_command4"
		case 2:
			cfg.ToolParser, cfg.ReasoningParser = "", "cohere"
		}
		if sel&8 != 0 {
			cfg.MaxCallBuffer = 24
		}
		fuzzInvariants(t, cfg, in, seed)
	})
}
