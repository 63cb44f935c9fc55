package parsers

import "testing"

func TestLlama3JSONFeedAllocs(t *testing.T) {
	assertFeedAllocs(t, Config{ToolParser: "llama3_json"}, jsonFamilyOutputs("llama3_json"))
}

// FuzzLlama3JSON runs the llama3_json grammar: tagged, bare and speculative
// bodies, ';'-separated groups.
func FuzzLlama3JSON(f *testing.F) {
	fixtureSeeds(f, "llama3_json")
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, sel uint8) {
		jsonFamilyFuzz(t, []string{"llama3_json"}, "qwen3", in, seed, sel)
	})
}
