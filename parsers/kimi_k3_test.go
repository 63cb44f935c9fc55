package parsers

import (
	"testing"
)

// TestKimiK3Combinations pins the pairings of the Kimi K3 parsers: one
// machine for both roles; the reasoning parser alone forwards tool sections
// raw; other families do not combine with it.
func TestKimiK3Combinations(t *testing.T) {
	const sec = `<|open|>tools<|sep|><|open|>call tool="f" index="1"<|sep|><|close|>call<|sep|><|close|>tools<|sep|>`
	const out = "<|open|>think<|sep|>r<|close|>think<|sep|><|open|>response<|sep|>a<|close|>response<|sep|>" + sec + "<|close|>message<|sep|><|end_of_msg|>"
	checkCombinations(t, out, []combination{
		{"kimi_k3", "", "a", 1, nil},
		{"kimi-k3", "kimi_k3", "a", 1, nil},
		{"", "kimi-k3", "a" + sec, 0, nil},
		{"hermes", "kimi_k3", "", 0, ErrParserCombination},
		{"kimi_k3", "qwen3", "", 0, ErrParserCombination},
	})
}

// TestKimiK3FeedAllocs asserts zero allocations after warm-up for the K3
// machine (typed, string and json arguments, model ids, raw sections).
func TestKimiK3FeedAllocs(t *testing.T) {
	out := kimiK3BenchOutput(2<<10, false) + kimiK3BenchOutput(1<<10, true)
	for _, cfg := range []Config{
		{ToolParser: "kimi_k3"},
		{ToolParser: "kimi_k3", WholeCalls: true},
		{ReasoningParser: "kimi_k3"},
	} {
		checkFeedAllocs(t, "", cfg, out)
	}
}

// FuzzKimiK3 runs the K3 machine as the tool parser (with and without its
// reasoning parser), as the reasoning parser alone, in streaming and
// whole-call mode, with small buffer limits.
func FuzzKimiK3(f *testing.F) {
	fixtureSeeds(f, "kimi_k3")
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, sel uint8) {
		cfg := Config{ToolParser: "kimi_k3", WholeCalls: sel&1 != 0, InReasoning: sel&16 != 0}
		switch sel >> 1 & 3 {
		case 1:
			cfg.ReasoningParser = "kimi_k3"
		case 2:
			cfg.ToolParser, cfg.ReasoningParser = "", "kimi_k3"
		}
		if sel&8 != 0 {
			cfg.MaxCallBuffer = 24
		}
		fuzzInvariants(t, cfg, in, seed)
	})
}
