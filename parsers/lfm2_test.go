package parsers

import "testing"

// lfm2Output is an LFM2 output: a reasoning span, text with brackets that
// are prose, a block of two calls whose string argument holds n bytes, and
// text after it.
func lfm2Output(n int) string {
	fill := benchOutput("content", n)
	return "<think>plan [x]</think>Arrays [1, 2] are text. <|tool_call_start|>[write_file(path='/tmp/out.txt', content=\"" +
		fill + "\\n\", mode=0o644, overwrite=true, tags=['a', (1, 2)]), get_time(tz=\"UTC\")]<|tool_call_end|>\nDone."
}

// FuzzLFM2 runs the lfm2 grammar, alone and behind its reasoning parser,
// streaming and whole-call, with small buffer limits.
func FuzzLFM2(f *testing.F) {
	fixtureSeeds(f, "lfm2")
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, sel uint8) {
		cfg := Config{ToolParser: "lfm2", WholeCalls: sel&1 != 0}
		if sel&2 != 0 {
			cfg.ReasoningParser = "lfm2-thinking"
		}
		if sel&4 != 0 {
			cfg.MaxCallBuffer = 16
		}
		fuzzInvariants(t, cfg, in, seed)
	})
}

func TestLFM2Allocs(t *testing.T) {
	assertNoAllocs(t, Config{ToolParser: "lfm2", ReasoningParser: "lfm2-thinking"}, lfm2Output(2<<10))
}
