package parsers

import (
	"strconv"
	"testing"
)

// BenchmarkInternLM feeds an Intern-S1 output (reasoning, two action blocks
// whose call's string argument holds 4 KB and 32 KB) in 4-byte chunks.
func BenchmarkInternLM(b *testing.B) {
	for _, kb := range []int{4, 32} {
		benchChunks(b, "internlm-"+strconv.Itoa(kb)+"KB", Config{ToolParser: "internlm", ReasoningParser: "interns1"}, internLMOutput(kb<<10))
	}
}
