package parsers

import "testing"

func TestNemotronDeciFeedAllocs(t *testing.T) {
	assertFeedAllocs(t, Config{ToolParser: "nemotron_deci", ReasoningParser: "nemotron_deci"}, jsonFamilyOutputs("nemotron_deci"))
	assertFeedAllocs(t, Config{ToolParser: "jamba"}, jsonFamilyOutputs("jamba"))
}

// FuzzNemotronDeci runs the wrapped-JSON grammars nemotron_deci and jamba.
func FuzzNemotronDeci(f *testing.F) {
	fixtureSeeds(f, "nemotron_deci", "jamba", "captures")
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, sel uint8) {
		jsonFamilyFuzz(t, []string{"nemotron_deci", "jamba"}, "nemotron_deci", in, seed, sel)
	})
}
