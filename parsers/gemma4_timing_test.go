package parsers

import (
	"strconv"
	"testing"
)

// BenchmarkGemma4 feeds a Gemma 4 output (a reasoning span, two calls whose
// string argument holds 4 KB and 32 KB) in 4-byte chunks, and plain content
// (whitespace is a possible start of a bare "call:" body).
func BenchmarkGemma4(b *testing.B) {
	for _, kb := range []int{4, 32} {
		benchChunks(b, "gemma4-"+strconv.Itoa(kb)+"KB", Config{ToolParser: "gemma4", ReasoningParser: "gemma4"}, gemma4Output(kb<<10))
	}
	benchChunks(b, "gemma4-content", Config{ToolParser: "gemma4", ReasoningParser: "gemma4"}, benchOutput("content", 4<<10))
}
