package parsers

import (
	"strconv"
	"testing"
)

// BenchmarkXLAM feeds an xLAM output (a bare array whose call's string
// argument holds 4 KB and 32 KB) in 4-byte chunks.
func BenchmarkXLAM(b *testing.B) {
	for _, kb := range []int{4, 32} {
		benchChunks(b, "xlam-"+strconv.Itoa(kb)+"KB", Config{ToolParser: "xlam"}, xlamOutput(kb<<10))
	}
}
