package parsers

import "testing"

// BenchmarkDots feeds a dots turn (reasoning, then a call whose string value
// is 4 KB or 32 KB of prose, or 32 KB of code-like text, as invoke XML; or a
// JSON body with a 4 KB or 32 KB string) in 4-byte chunks; the targets of
// BenchmarkFeed apply.
func BenchmarkDots(b *testing.B) {
	cfg := Config{ToolParser: "dots", ReasoningParser: "dots", Tools: paramTools}
	benchChunks(b, "4KB", cfg, dotsCall(false, benchOutput("content", 4<<10)))
	benchChunks(b, "32KB", cfg, dotsCall(false, benchOutput("content", 32<<10)))
	benchChunks(b, "code-32KB", cfg, dotsCall(false, paramContent(32<<10)))
	benchChunks(b, "json-4KB", cfg, dotsCall(true, benchOutput("content", 4<<10)))
	benchChunks(b, "json-32KB", cfg, dotsCall(true, benchOutput("content", 32<<10)))
}
