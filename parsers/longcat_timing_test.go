package parsers

import (
	"encoding/json"
	"testing"
)

// BenchmarkLongcat feeds a LongCat turn (reasoning, then a call whose string
// argument is 4 KB or 32 KB of prose, or 32 KB of code-like text as a JSON
// string) in 4-byte
// chunks; the targets of BenchmarkFeed apply.
func BenchmarkLongcat(b *testing.B) {
	cfg := Config{ToolParser: "longcat", ReasoningParser: "longcat"}
	turn := func(value string) string {
		return "The user wants the file written.</longcat_think>\n<longcat_tool_call>\n" +
			`{"name": "write_file", "arguments": {"path": "/tmp/out.txt", "content": "` + value + "\"}}\n</longcat_tool_call>"
	}
	benchChunks(b, "4KB", cfg, turn(benchOutput("content", 4<<10)))
	benchChunks(b, "32KB", cfg, turn(benchOutput("content", 32<<10)))
	code, err := json.Marshal(paramContent(32 << 10))
	if err != nil {
		b.Fatal(err)
	}
	benchChunks(b, "code-32KB", cfg, turn(string(code[1:len(code)-1])))
}
