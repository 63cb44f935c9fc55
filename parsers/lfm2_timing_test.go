package parsers

import (
	"strconv"
	"testing"
)

// BenchmarkLFM2 feeds an LFM2 output (a block whose call's string argument
// holds 4 KB and 32 KB) in 4-byte chunks, and plain content with brackets
// (which are never candidates here).
func BenchmarkLFM2(b *testing.B) {
	cfg := Config{ToolParser: "lfm2", ReasoningParser: "lfm2-thinking"}
	for _, kb := range []int{4, 32} {
		benchChunks(b, "lfm2-"+strconv.Itoa(kb)+"KB", cfg, lfm2Output(kb<<10))
	}
	benchChunks(b, "lfm2-content", cfg, benchOutput("content", 4<<10)+" [1] [x] [a, b] [f x]")
}
