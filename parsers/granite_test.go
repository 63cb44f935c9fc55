package parsers

import "testing"

// graniteOutput is a Granite 3.x output: text, then an array of two calls
// whose string argument holds n bytes, and text after it.
func graniteOutput(n int) string {
	fill := benchOutput("content", n)
	return "I'll write the file.\n<|tool_call|>[{\"name\": \"write_file\", \"arguments\": {\"path\": \"/tmp/out.txt\", \"content\": \"" +
		fill + "\"}}, {\"name\": \"get_time\", \"arguments\": {}}]\nDone."
}

// FuzzGranite runs the granite tool grammar, alone and behind the granite
// reasoning parser, streaming and whole-call, with small buffer limits.
func FuzzGranite(f *testing.F) {
	fixtureSeeds(f, "granite")
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, sel uint8) {
		cfg := Config{ToolParser: "granite", WholeCalls: sel&1 != 0}
		if sel&2 != 0 {
			cfg.ReasoningParser = "granite"
		}
		if sel&4 != 0 {
			cfg.MaxCallBuffer = 16
		}
		fuzzInvariants(t, cfg, in, seed)
	})
}

func TestGraniteAllocs(t *testing.T) {
	assertNoAllocs(t, Config{ToolParser: "granite", ReasoningParser: "granite"}, graniteOutput(2<<10))
	// A bare array at the start of the output (held until it is a call).
	assertNoAllocs(t, Config{ToolParser: "granite"}, "[{\"name\": \"f\", \"arguments\": {\"a\": \""+benchOutput("content", 1<<10)+"\"}}] x")
}
