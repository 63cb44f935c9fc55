package parsers

import "testing"

// internLMOutput is an Intern-S1 output: a reasoning span, text, two action
// blocks whose call's string argument holds n bytes, and text after them.
func internLMOutput(n int) string {
	fill := benchOutput("content", n)
	call := "<|action_start|> <|plugin|>\n{\"name\": \"write_file\", \"parameters\": {\"path\": \"/tmp/out.txt\", \"content\": \"" +
		fill + "\"}}<|action_end|>"
	return "<think>Write it.</think>Sure." + call + "\n" + call + "\nDone."
}

// FuzzInternLM runs the internlm grammar, alone and behind the interns1
// reasoning parser, streaming and whole-call, with small buffer limits.
func FuzzInternLM(f *testing.F) {
	fixtureSeeds(f, "internlm", "interns1")
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, sel uint8) {
		cfg := Config{ToolParser: "internlm", WholeCalls: sel&1 != 0}
		if sel&2 != 0 {
			cfg.ReasoningParser = "interns1"
			cfg.InReasoning = sel&8 != 0
		}
		if sel&4 != 0 {
			cfg.MaxCallBuffer = 16
		}
		fuzzInvariants(t, cfg, in, seed)
	})
}

func TestInternLMAllocs(t *testing.T) {
	assertNoAllocs(t, Config{ToolParser: "internlm", ReasoningParser: "interns1"}, internLMOutput(2<<10))
}
