package parsers

import "testing"

// FuzzLongcat runs the longcat tool parser alone and behind its reasoning
// parser (from inside reasoning or not), streaming or whole-call mode, with
// a small buffer limit; seeded from the longcat fixtures.
func FuzzLongcat(f *testing.F) {
	fixtureSeeds(f, "longcat", "longcat_think")
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, sel uint8) {
		cfg := Config{ToolParser: "longcat", WholeCalls: sel&1 != 0}
		if sel&2 != 0 {
			cfg.ReasoningParser = "longcat"
		}
		if sel&4 != 0 {
			cfg.MaxCallBuffer = 16
		}
		fuzzInvariants(t, cfg, in, seed)
	})
}

// TestLongcatAllocs: a reused longcat Parser streams a reasoning span and two
// calls without allocating, in any chunk size, in both call modes.
func TestLongcatAllocs(t *testing.T) {
	assertNoAllocs(t, Config{ToolParser: "longcat", ReasoningParser: "longcat"},
		"The user wants a file.</longcat_think>Writing it.\n<longcat_tool_call>\n"+
			"{\"name\": \"write_file\", \"arguments\": {\"path\": \"/tmp/out.txt\", \"content\": \""+benchOutput("content", 2<<10)+"\"}}\n"+
			"</longcat_tool_call><longcat_tool_call>\n{\"name\": \"get_time\", \"arguments\": {}}\n</longcat_tool_call>")
}
