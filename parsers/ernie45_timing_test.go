package parsers

import "testing"

// BenchmarkErnie45 feeds ERNIE 4.5 turns in 4-byte chunks: 4 KB of
// reasoning then a 4 KB answer in the <response> wrapper, and reasoning then
// a hermes call with a 4 KB or 32 KB argument; the targets of BenchmarkFeed
// apply.
func BenchmarkErnie45(b *testing.B) {
	cfg := Config{ToolParser: "ernie45", ReasoningParser: "ernie45"}
	benchChunks(b, "answer-4KB", cfg, benchOutput("content", 4<<10)+"\n</think>\n\n<response>\n"+
		benchOutput("content", 4<<10)+"\n</response>\n")
	call := func(size int) string {
		return "The user wants the file written.\n</think>\n\n<tool_call>\n" +
			`{"name": "write_file", "arguments": {"path": "/tmp/out.txt", "content": "` + benchOutput("content", size) + "\"}}\n</tool_call>\n"
	}
	benchChunks(b, "4KB", cfg, call(4<<10))
	benchChunks(b, "32KB", cfg, call(32<<10))
}
