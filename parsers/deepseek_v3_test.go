package parsers

import "testing"

// deepseekOutput is a DeepSeek V3 (v3 set) or V3.1 output: reasoning, text,
// a section with a call whose arguments hold n bytes of string data (with
// raw control characters to escape), and text after it.
func deepseekOutput(v3 bool, n int) string {
	args := `{"path": "/tmp/out.txt", "content": "` + benchOutput("content", n) + "\n\t\"}"
	call := deepseekMarkers.callBegin + "write_file" + deepseekMarkers.sep + args + deepseekMarkers.callEnd
	if v3 {
		call = deepseekMarkers.callBegin + "function" + deepseekMarkers.sep + "write_file\n```json\n" + args + "\n```" + deepseekMarkers.callEnd
	}
	return "I'll write it.</think>Sure. " + deepseekMarkers.sectionBegins[0] + call + call + deepseekMarkers.sectionEnds[0] + "\nDone."
}

// FuzzDeepSeekV3 runs the DeepSeek V3 and V3.1 grammars, alone and behind the
// forced deepseek reasoning parser, streaming and whole-call, with small
// buffer limits.
func FuzzDeepSeekV3(f *testing.F) {
	fixtureSeeds(f, "deepseek_v3", "deepseek_v3_1", "captures")
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, sel uint8) {
		cfg := Config{ToolParser: "deepseek_v3", WholeCalls: sel&1 != 0}
		if sel&2 != 0 {
			cfg.ToolParser = "deepseek_v3_1"
		}
		if sel&4 != 0 {
			cfg.ReasoningParser = "deepseek_v3"
		}
		if sel&8 != 0 {
			cfg.MaxCallBuffer = 16
		}
		fuzzInvariants(t, cfg, in, seed)
	})
}

// TestDeepSeekV3Allocs: after warm-up, streaming DeepSeek calls allocates
// nothing (the package documentation's allocation promise).
func TestDeepSeekV3Allocs(t *testing.T) {
	for _, v3 := range []bool{true, false} {
		name := map[bool]string{true: "deepseek_v3", false: "deepseek_v3_1"}[v3]
		assertNoAllocs(t, Config{ToolParser: name, ReasoningParser: "deepseek_v3"}, deepseekOutput(v3, 2<<10))
	}
}
