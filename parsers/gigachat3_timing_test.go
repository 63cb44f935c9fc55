package parsers

import (
	"strings"
	"testing"
)

// gigaChat3BenchOutput is a GigaChat 3 answer and call (the 3.0 role header,
// or with v31 set the 3.1 token) whose string argument holds argBytes.
func gigaChat3BenchOutput(argBytes int, v31 bool) string {
	head := "<|message_sep|>\n\nfunction call<|role_sep|>\n"
	if v31 {
		head = "<|function_call|>"
	}
	return "I'll write it." + head + `{"name": "write_file", "arguments": {"path": "/tmp/out.txt", "content": "` +
		strings.NewReplacer("\"", `\"`, "\n", `\n`).Replace(benchOutput("content", argBytes)) + `"}}</s>`
}

// BenchmarkGigaChat3 feeds GigaChat 3 calls in 4-byte chunks through one
// reused Parser.
func BenchmarkGigaChat3(b *testing.B) {
	cfg := Config{ToolParser: "gigachat3"}
	benchChunks(b, "gigachat3-4KB", cfg, gigaChat3BenchOutput(4<<10, false))
	benchChunks(b, "gigachat3-32KB", cfg, gigaChat3BenchOutput(32<<10, true))
}
