package parsers

import (
	"strings"
	"testing"
)

// cohereBenchOutput is a Cohere turn: thinking, a text block and an action
// block whose call carries a string argument of argBytes (with quotes and
// newlines to escape) beside a second, small call.
func cohereBenchOutput(argBytes int) string {
	const sentence = "The quick brown fox jumps over the \"lazy\" dog;\nnumbers 12345, unicode é 世界. "
	fill := strings.Repeat(sentence, argBytes/len(sentence)+1)[:argBytes]
	return "Need to write the file.<|END_THINKING|><|START_TEXT|>Writing it now.<|END_TEXT|><|START_ACTION|>[\n" +
		`    {"tool_call_id": "0", "tool_name": "write_file", "parameters": {"path": "/tmp/out.txt", "content": "` +
		strings.NewReplacer("\"", `\"`, "\n", `\n`).Replace(fill) + `"}},` + "\n" +
		`    {"tool_call_id": "1", "tool_name": "list_dir", "parameters": {"path": "/tmp"}}` + "\n]<|END_ACTION|><|END_OF_TURN_TOKEN|>"
}

// BenchmarkCohereFeed feeds Cohere turns in 4-byte chunks through one reused
// Parser and reports the cost per chunk.
func BenchmarkCohereFeed(b *testing.B) {
	for _, bc := range []struct {
		name string
		cfg  Config
		out  string
	}{
		{"cohere-4KB", Config{ToolParser: "cohere_command4", ReasoningParser: "cohere_command4"}, cohereBenchOutput(4 << 10)},
		{"cohere-32KB", Config{ToolParser: "cohere_command4", ReasoningParser: "cohere_command4"}, cohereBenchOutput(32 << 10)},
		{"cohere-32KB-whole", Config{ToolParser: "cohere_command4", WholeCalls: true}, cohereBenchOutput(32 << 10)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			benchFeed(b, bc.cfg, bc.out)
		})
	}
}
