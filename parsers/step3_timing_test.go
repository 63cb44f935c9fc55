package parsers

import "testing"

// BenchmarkStep3 feeds a Step-3 turn (reasoning, then a call whose string
// value is 4 KB or 32 KB of prose, or 32 KB of code-like text) in 4-byte
// chunks; the targets of BenchmarkFeed apply.
func BenchmarkStep3(b *testing.B) {
	cfg := Config{ToolParser: "step3", ReasoningParser: "step3", Tools: paramTools}
	benchChunks(b, "4KB", cfg, step3Call(benchOutput("content", 4<<10)))
	benchChunks(b, "32KB", cfg, step3Call(benchOutput("content", 32<<10)))
	benchChunks(b, "code-32KB", cfg, step3Call(paramContent(32<<10)))
}
