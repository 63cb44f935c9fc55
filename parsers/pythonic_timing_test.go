package parsers

import (
	"strconv"
	"testing"
)

// BenchmarkPythonic feeds a pythonic output (a call list whose string
// argument holds 4 KB and 32 KB) in 4-byte chunks, and plain content full of
// brackets that are only candidates.
func BenchmarkPythonic(b *testing.B) {
	for _, kb := range []int{4, 32} {
		benchChunks(b, "pythonic-"+strconv.Itoa(kb)+"KB", Config{ToolParser: "pythonic"}, pythonicOutput(kb<<10))
	}
	benchChunks(b, "pythonic-content", Config{ToolParser: "pythonic"}, benchOutput("content", 4<<10)+" [1] [x] [a, b] [f x]")
}
