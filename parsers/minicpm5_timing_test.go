package parsers

import "testing"

// BenchmarkMiniCPM5 feeds a MiniCPM5 turn (reasoning, then a call whose
// string value is 4 KB or 32 KB of prose, or 32 KB of code-like text, plain
// and in a CDATA section) in 4-byte chunks.
func BenchmarkMiniCPM5(b *testing.B) {
	cfg := Config{ToolParser: "minicpm5", ReasoningParser: "basic", Tools: paramTools}
	benchChunks(b, "4KB", cfg, miniCPM5Turn(benchOutput("content", 4<<10), false))
	benchChunks(b, "32KB", cfg, miniCPM5Turn(benchOutput("content", 32<<10), false))
	benchChunks(b, "code-32KB", cfg, miniCPM5Turn(paramContent(32<<10), false))
	benchChunks(b, "cdata-code-32KB", cfg, miniCPM5Turn(paramContent(32<<10), true))
}
