package parsers

import "testing"

// BenchmarkDeepSeekV41 feeds a DeepSeek V4.1 turn (reasoning, then a call
// whose string value is 4 KB or 32 KB of prose, or 32 KB of code-like text)
// in 4-byte chunks; the targets of BenchmarkFeed apply.
func BenchmarkDeepSeekV41(b *testing.B) {
	cfg := Config{ToolParser: "deepseek_v41", ReasoningParser: "deepseek_v41", Tools: paramTools}
	benchChunks(b, "4KB", cfg, "<think>The user wants the file written.</think>"+paramCall("deepseek_v41", benchOutput("content", 4<<10)))
	benchChunks(b, "32KB", cfg, "<think>The user wants the file written.</think>"+paramCall("deepseek_v41", benchOutput("content", 32<<10)))
	benchChunks(b, "code-32KB", cfg, "<think>The user wants the file written.</think>"+paramCall("deepseek_v41", paramContent(32<<10)))
}
