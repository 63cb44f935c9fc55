package parsers

import (
	"strconv"
	"testing"
)

// BenchmarkApertus feeds an Apertus output (reasoning, a block whose call's
// string argument holds 4 KB and 32 KB) in 4-byte chunks.
func BenchmarkApertus(b *testing.B) {
	for _, kb := range []int{4, 32} {
		benchChunks(b, "apertus-"+strconv.Itoa(kb)+"KB", Config{ToolParser: "apertus", ReasoningParser: "apertus"}, apertusOutput(kb<<10))
	}
}
