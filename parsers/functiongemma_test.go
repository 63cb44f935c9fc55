package parsers

import "testing"

// functionGemmaOutput is a FunctionGemma output: text, two calls whose
// string argument holds n bytes (with quotes, backslashes and newlines to
// convert), and text after them.
func functionGemmaOutput(n int) string {
	fill := benchOutput("content", n)
	call := "<start_function_call>call:write_file{path:<escape>/tmp/out.txt<escape>,content:<escape>" + fill +
		"\n\"q\" \\ <esc<escape>,mode:420,overwrite:true,tags:[<escape>a<escape>,-1.50]}<end_function_call>"
	return "Sure. " + call + call + "\nDone."
}

// FuzzFunctionGemma runs the functiongemma grammar, streaming and
// whole-call, with small buffer limits.
func FuzzFunctionGemma(f *testing.F) {
	fixtureSeeds(f, "functiongemma")
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, sel uint8) {
		cfg := Config{ToolParser: "functiongemma", WholeCalls: sel&1 != 0}
		if sel&2 != 0 {
			cfg.ReasoningParser = "basic"
		}
		if sel&4 != 0 {
			cfg.MaxCallBuffer = 16
		}
		fuzzInvariants(t, cfg, in, seed)
	})
}

func TestFunctionGemmaAllocs(t *testing.T) {
	assertNoAllocs(t, Config{ToolParser: "functiongemma"}, functionGemmaOutput(2<<10))
}
