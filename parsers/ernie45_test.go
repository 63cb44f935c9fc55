package parsers

import "testing"

// FuzzErnie45 runs the ernie45 reasoning parser alone and in front of the
// ernie45 tool parser (hermes), streaming or whole-call mode, with a small
// buffer limit; seeded from the ernie45 and hermes fixtures.
func FuzzErnie45(f *testing.F) {
	fixtureSeeds(f, "ernie45", "hermes")
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, sel uint8) {
		cfg := Config{ReasoningParser: "ernie45", WholeCalls: sel&1 != 0}
		if sel&2 != 0 {
			cfg.ToolParser = "ernie45"
		}
		if sel&4 != 0 {
			cfg.MaxCallBuffer = 16
		}
		fuzzInvariants(t, cfg, in, seed)
	})
}

// TestErnie45Allocs: a reused Parser with the ernie45 parsers streams a
// reasoning span, a wrapped answer and a call without allocating, in any
// chunk size, in both call modes.
func TestErnie45Allocs(t *testing.T) {
	assertNoAllocs(t, Config{ToolParser: "ernie45", ReasoningParser: "ernie45"},
		"The user wants a file.\n</think>\n\n<response>\n"+benchOutput("content", 2<<10)+"\n</response>\n"+
			"<tool_call>\n{\"name\": \"write_file\", \"arguments\": {\"path\": \"/tmp/out.txt\", \"content\": \"x\\ny\"}}\n</tool_call>\n")
}
