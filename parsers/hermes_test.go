package parsers

import "testing"

// FuzzHermes runs the hermes grammar, alone and behind a reasoning parser,
// in streaming and whole-call mode.
func FuzzHermes(f *testing.F) {
	fixtureSeeds(f, "hermes", "compose", "captures")
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, sel uint8) {
		cfg := Config{ToolParser: "hermes", WholeCalls: sel&1 != 0}
		if sel&2 != 0 {
			cfg.ReasoningParser = "qwen3"
		}
		if sel&4 != 0 {
			cfg.MaxCallBuffer = 16
		}
		fuzzInvariants(t, cfg, in, seed)
	})
}
