package parsers

import "testing"

// FuzzGigaChat35 runs gigachat35 through paramFuzz (behind qwen3), seeded
// from its fixtures.
func FuzzGigaChat35(f *testing.F) { paramFuzz(f, "gigachat35", "qwen3", "gigachat35") }

// TestGigaChat35Allocs asserts zero allocations after warm-up for GigaChat
// 3.5 calls.
func TestGigaChat35Allocs(t *testing.T) {
	assertNoAllocs(t, Config{ToolParser: "gigachat35", Tools: paramTools}, gigaChat35BenchOutput(2<<10))
}
