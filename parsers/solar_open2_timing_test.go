package parsers

import "testing"

// BenchmarkSolarOpen2 feeds a Solar Open 2 turn (reasoning, then a call
// whose string value is 4 KB or 32 KB of prose, or 32 KB of code-like text)
// in 4-byte chunks; the targets of BenchmarkFeed apply.
func BenchmarkSolarOpen2(b *testing.B) {
	cfg := Config{ToolParser: "solar_open2", ReasoningParser: "solar_open2", InReasoning: true, Tools: paramTools}
	benchChunks(b, "4KB", cfg, solarOpen2Call(benchOutput("content", 4<<10)))
	benchChunks(b, "32KB", cfg, solarOpen2Call(benchOutput("content", 32<<10)))
	benchChunks(b, "code-32KB", cfg, solarOpen2Call(paramContent(32<<10)))
}
