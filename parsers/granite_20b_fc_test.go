package parsers

import "testing"

// granite20bFCOutput is a granite-20b-functioncalling output: text, then two
// tagged calls whose string argument holds n bytes.
func granite20bFCOutput(n int) string {
	fill := benchOutput("content", n)
	return "I'll write the file.<function_call> {\"name\": \"write_file\", \"arguments\": {\"path\": \"/tmp/out.txt\", \"content\": \"" +
		fill + "\"}}\n<function_call> {\"name\": \"get_time\", \"arguments\": {}}"
}

// FuzzGranite20bFC runs the granite_20b_fc grammar, streaming and
// whole-call, with small buffer limits.
func FuzzGranite20bFC(f *testing.F) {
	fixtureSeeds(f, "granite_20b_fc")
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, sel uint8) {
		cfg := Config{ToolParser: "granite_20b_fc", WholeCalls: sel&1 != 0}
		if sel&2 != 0 {
			cfg.ReasoningParser = "basic"
		}
		if sel&4 != 0 {
			cfg.MaxCallBuffer = 16
		}
		fuzzInvariants(t, cfg, in, seed)
	})
}

func TestGranite20bFCAllocs(t *testing.T) {
	assertNoAllocs(t, Config{ToolParser: "granite_20b_fc"}, granite20bFCOutput(2<<10))
}
