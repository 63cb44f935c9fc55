package parsers

import (
	"strconv"
	"testing"
)

// BenchmarkGranite feeds a Granite 3.x output (a call whose string argument
// holds 4 KB and 32 KB) and a granite-20b-fc one in 4-byte chunks.
func BenchmarkGranite(b *testing.B) {
	for _, kb := range []int{4, 32} {
		benchChunks(b, "granite-"+strconv.Itoa(kb)+"KB", Config{ToolParser: "granite", ReasoningParser: "granite"}, graniteOutput(kb<<10))
		benchChunks(b, "granite_20b_fc-"+strconv.Itoa(kb)+"KB", Config{ToolParser: "granite_20b_fc"}, granite20bFCOutput(kb<<10))
	}
}
