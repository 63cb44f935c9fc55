package parsers

import (
	"strings"
	"testing"
)

// inklingBenchOutput is an Inkling turn: thinking, text and a call whose
// arguments hold argBytes of string data.
func inklingBenchOutput(argBytes int) string {
	const sentence = "The quick brown fox jumps over the lazy dog; numbers 12345, unicode é 世界. "
	fill := strings.Repeat(sentence, argBytes/len(sentence)+1)[:argBytes]
	return "<|content_thinking|>Need to write the file.<|end_message|>" +
		"<|message_model|><|content_text|>Writing it now.<|end_message|>" +
		`<|message_model|>write_file<|content_invoke_tool_json|>{"name": "write_file", "args": {"path": "/tmp/out.txt", "content": "` +
		fill + "\\n\n\"}}<|end_message|><|content_model_end_sampling|>"
}

// BenchmarkInklingFeed feeds Inkling turns in 4-byte chunks through one
// reused Parser and reports the cost per chunk.
func BenchmarkInklingFeed(b *testing.B) {
	for _, bc := range []struct {
		name string
		cfg  Config
		out  string
	}{
		{"inkling-4KB", Config{ToolParser: "inkling", ReasoningParser: "inkling"}, inklingBenchOutput(4 << 10)},
		{"inkling-32KB", Config{ToolParser: "inkling", ReasoningParser: "inkling"}, inklingBenchOutput(32 << 10)},
		{"inkling-32KB-whole", Config{ToolParser: "inkling", WholeCalls: true}, inklingBenchOutput(32 << 10)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			benchFeed(b, bc.cfg, bc.out)
		})
	}
}
