package parsers

import (
	"strconv"
	"testing"
)

// BenchmarkFunctionGemma feeds a FunctionGemma output (two calls whose
// string argument holds 4 KB and 32 KB) in 4-byte chunks.
func BenchmarkFunctionGemma(b *testing.B) {
	for _, kb := range []int{4, 32} {
		benchChunks(b, "functiongemma-"+strconv.Itoa(kb)+"KB", Config{ToolParser: "functiongemma"}, functionGemmaOutput(kb<<10))
	}
}
