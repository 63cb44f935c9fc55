package parsers

import "testing"

// xlamOutput is an xLAM output: an array of two calls whose string argument
// holds n bytes, and text after it.
func xlamOutput(n int) string {
	fill := benchOutput("content", n)
	return "[{\"name\": \"write_file\", \"arguments\": {\"path\": \"/tmp/out.txt\", \"content\": \"" + fill +
		"\"}}, {\"name\": \"get_time\", \"arguments\": {}}]\nDone."
}

// FuzzXLAM runs the xlam grammar, alone and behind a <think> parser,
// streaming and whole-call, with small buffer limits.
func FuzzXLAM(f *testing.F) {
	fixtureSeeds(f, "xlam")
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, sel uint8) {
		cfg := Config{ToolParser: "xlam", WholeCalls: sel&1 != 0}
		if sel&2 != 0 {
			cfg.ReasoningParser = "basic"
		}
		if sel&4 != 0 {
			cfg.MaxCallBuffer = 16
		}
		fuzzInvariants(t, cfg, in, seed)
	})
}

func TestXLAMAllocs(t *testing.T) {
	assertNoAllocs(t, Config{ToolParser: "xlam"}, xlamOutput(2<<10))
}
