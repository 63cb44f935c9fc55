package parsers

import (
	"strconv"
	"testing"
)

// BenchmarkDeepSeekV3 feeds DeepSeek V3 and V3.1 outputs with two calls of
// 4 KB and 32 KB arguments in 4-byte chunks (BenchmarkFeed's method).
func BenchmarkDeepSeekV3(b *testing.B) {
	for _, v3 := range []bool{true, false} {
		name := map[bool]string{true: "deepseek_v3", false: "deepseek_v3_1"}[v3]
		for _, kb := range []int{4, 32} {
			benchChunks(b, name+"-"+strconv.Itoa(kb)+"KB", Config{ToolParser: name, ReasoningParser: "deepseek_v3"}, deepseekOutput(v3, kb<<10))
		}
	}
}
