package parsers

import "testing"

// apertusOutput is an Apertus output: a reasoning span, text, a block of two
// calls whose string argument holds n bytes, and text after it.
func apertusOutput(n int) string {
	fill := benchOutput("content", n)
	return "<|inner_prefix|>Write it.<|inner_suffix|>Sure. <|tools_prefix|>[{\"write_file\": {\"path\": \"/tmp/out.txt\", \"content\": \"" +
		fill + "\"}}, {\"get_time\": {}}]<|tools_suffix|>\nDone."
}

// FuzzApertus runs the apertus grammar, alone and behind its reasoning
// parser, streaming and whole-call, with small buffer limits.
func FuzzApertus(f *testing.F) {
	fixtureSeeds(f, "apertus")
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, sel uint8) {
		cfg := Config{ToolParser: "apertus", WholeCalls: sel&1 != 0}
		if sel&2 != 0 {
			cfg.ReasoningParser = "apertus"
			cfg.InReasoning = sel&8 != 0
		}
		if sel&4 != 0 {
			cfg.MaxCallBuffer = 16
		}
		fuzzInvariants(t, cfg, in, seed)
	})
}

func TestApertusAllocs(t *testing.T) {
	assertNoAllocs(t, Config{ToolParser: "apertus", ReasoningParser: "apertus"}, apertusOutput(2<<10))
}
