package parsers

import (
	"strconv"
	"testing"
)

// BenchmarkKimiK2 feeds a Kimi K2.5 output (reasoning, two calls of 4 KB and
// 32 KB arguments) in 4-byte chunks.
func BenchmarkKimiK2(b *testing.B) {
	for _, kb := range []int{4, 32} {
		benchChunks(b, "kimi_k2-"+strconv.Itoa(kb)+"KB", Config{ToolParser: "kimi_k2", ReasoningParser: "kimi_k25"}, kimiOutput(kb<<10))
	}
	benchChunks(b, "kimi_k2-32KB-whole", Config{ToolParser: "kimi_k2", ReasoningParser: "kimi_k25", WholeCalls: true}, kimiOutput(32<<10))
}
