package parsers

import (
	"strconv"
	"testing"
)

// BenchmarkOlmo3 feeds an Olmo 3 output (calls one per line, a string
// argument of 4 KB and 32 KB) in 4-byte chunks.
func BenchmarkOlmo3(b *testing.B) {
	for _, kb := range []int{4, 32} {
		benchChunks(b, "olmo3-"+strconv.Itoa(kb)+"KB", Config{ToolParser: "olmo3"}, olmo3Output(kb<<10))
	}
}
