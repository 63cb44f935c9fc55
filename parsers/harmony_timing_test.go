package parsers

import (
	"strings"
	"testing"
)

// harmonyBenchOutput is a gpt-oss turn: an analysis message, a preamble, a
// call whose arguments hold argBytes of string data (with an escape and a
// raw newline), and a final answer.
func harmonyBenchOutput(argBytes int) string {
	const sentence = "The quick brown fox jumps over the lazy dog; numbers 12345, unicode é 世界. "
	fill := strings.Repeat(sentence, argBytes/len(sentence)+1)[:argBytes]
	return "<|channel|>analysis<|message|>Need to write the file.<|end|>" +
		"<|start|>assistant<|channel|>commentary<|message|>Writing it now.<|end|>" +
		"<|start|>assistant<|channel|>commentary to=functions.write_file <|constrain|>json<|message|>" +
		"{\"path\": \"/tmp/out.txt\", \"content\": \"" + fill + "\\n\n\"}<|call|>" +
		"<|start|>assistant<|channel|>final<|message|>Done <|chan ce.<|return|>"
}

// BenchmarkHarmonyFeed feeds gpt-oss turns in 4-byte chunks through one
// reused Parser and reports the cost per chunk (targets as BenchmarkFeed).
func BenchmarkHarmonyFeed(b *testing.B) {
	for _, bc := range []struct {
		name string
		cfg  Config
		out  string
	}{
		{"harmony-4KB", Config{ToolParser: "harmony", ReasoningParser: "gpt_oss"}, harmonyBenchOutput(4 << 10)},
		{"harmony-32KB", Config{ToolParser: "harmony", ReasoningParser: "gpt_oss"}, harmonyBenchOutput(32 << 10)},
		{"harmony-32KB-whole", Config{ToolParser: "harmony", WholeCalls: true}, harmonyBenchOutput(32 << 10)},
		{"gpt_oss-raw-32KB", Config{ReasoningParser: "gpt_oss"}, harmonyBenchOutput(32 << 10)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			benchFeed(b, bc.cfg, bc.out)
		})
	}
}
