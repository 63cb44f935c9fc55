package parsers

import "testing"

// olmo3Output is an Olmo 3 output: text, a block of two calls, one per
// line, whose string argument holds n bytes, and text after it.
func olmo3Output(n int) string {
	fill := benchOutput("content", n)
	return "I'll write it [now].\n<function_calls>\nwrite_file(path='/tmp/out.txt', content='" + fill +
		"\nend', mode=420, overwrite=true, meta={\"k\": [1, null]})\nget_time(tz='UTC')\n</function_calls>\nDone."
}

// FuzzOlmo3 runs the olmo3 grammar, alone and behind its (forced)
// reasoning parser, streaming and whole-call, with small buffer limits.
func FuzzOlmo3(f *testing.F) {
	fixtureSeeds(f, "olmo3")
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, sel uint8) {
		cfg := Config{ToolParser: "olmo3", WholeCalls: sel&1 != 0}
		if sel&2 != 0 {
			cfg.ReasoningParser = "olmo3"
		}
		if sel&4 != 0 {
			cfg.MaxCallBuffer = 16
		}
		fuzzInvariants(t, cfg, in, seed)
	})
}

func TestOlmo3Allocs(t *testing.T) {
	assertNoAllocs(t, Config{ToolParser: "olmo3"}, olmo3Output(2<<10))
	assertNoAllocs(t, Config{ToolParser: "olmo3", ReasoningParser: "olmo3"}, "Thinking it over.</think>"+olmo3Output(1<<10))
}
