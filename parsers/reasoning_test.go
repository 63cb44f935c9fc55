package parsers

import "testing"

// FuzzReasoning runs every paired-marker reasoning grammar.
func FuzzReasoning(f *testing.F) {
	fixtureSeeds(f, "think", "think_forced", "kimi", "mistral", "kimi_k25", "deepseek_v4", "minimax_m2", "gemma4", "granite", "minimax_append_think")
	names := []string{"qwen3", "deepseek_r1", "kimi", "kimi_k25", "mistral", "deepseek_v4", "minimax_m2", "gemma4", "granite", "minimax_append_think"}
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, sel uint8) {
		cfg := Config{ReasoningParser: names[int(sel)%len(names)], InReasoning: sel&0x80 != 0}
		fuzzInvariants(t, cfg, in, seed)
	})
}
