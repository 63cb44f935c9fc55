package parsers

import "testing"

// FuzzGigaChat3 runs gigachat3 through jsonFamilyFuzz (alone or behind
// qwen3), seeded from its fixtures.
func FuzzGigaChat3(f *testing.F) {
	fixtureSeeds(f, "gigachat3")
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, sel uint8) {
		jsonFamilyFuzz(t, []string{"gigachat3"}, "qwen3", in, seed, sel)
	})
}

// TestGigaChat3Allocs asserts zero allocations after warm-up for GigaChat 3
// calls after either opener.
func TestGigaChat3Allocs(t *testing.T) {
	assertNoAllocs(t, Config{ToolParser: "gigachat3"}, gigaChat3BenchOutput(2<<10, true)+gigaChat3BenchOutput(100, false))
}
