package parsers

import "testing"

func TestPhi4FeedAllocs(t *testing.T) {
	assertFeedAllocs(t, Config{ToolParser: "phi4"}, jsonFamilyOutputs("phi4"))
}

// FuzzPhi4 runs the phi4 grammar (functools[…]).
func FuzzPhi4(f *testing.F) {
	fixtureSeeds(f, "phi4")
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, sel uint8) {
		jsonFamilyFuzz(t, []string{"phi4"}, "qwen3", in, seed, sel)
	})
}
