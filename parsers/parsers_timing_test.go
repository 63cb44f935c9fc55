package parsers

import (
	"strings"
	"testing"

	"github.com/agentwire/agentwire/parsers/internal/chunking"
)

// benchOutput builds the model outputs the benchmarks and allocation tests
// feed: plain content, a reasoning span, and hermes calls whose arguments
// hold argBytes of string data.
func benchOutput(kind string, size int) string {
	const sentence = "The quick brown fox jumps over the lazy dog; numbers 12345, unicode é 世界. "
	fill := strings.Repeat(sentence, size/len(sentence)+1)[:size]
	switch kind {
	case "content":
		return fill
	case "reasoning":
		return "<think>" + fill + "</think>The answer."
	case "hermes":
		return "I'll write the file.\n<tool_call>\n{\"name\": \"write_file\", \"arguments\": {\"path\": \"/tmp/out.txt\", \"content\": \"" +
			fill + "\"}}\n</tool_call>"
	}
	panic("unknown kind " + kind)
}

// chunksOf cuts s into n-byte chunks (the last may be shorter).
func chunksOf(s string, n int) [][]byte {
	return chunking.Every([]byte(s), n)
}

// BenchmarkFeed feeds whole outputs in 4-byte chunks, reusing one Parser via
// Reset, and reports the cost per chunk. Targets (issue 2): ≤ 20 ns per
// 4-byte chunk, 0 allocs/op, and the 32 KB call within 10% of the 4 KB one
// per chunk (cost independent of how much was fed before).
func BenchmarkFeed(b *testing.B) {
	cases := []struct {
		name   string
		cfg    Config
		output string
	}{
		{"content", Config{ToolParser: "hermes", ReasoningParser: "qwen3"}, benchOutput("content", 4<<10)},
		{"reasoning", Config{ToolParser: "hermes", ReasoningParser: "qwen3"}, benchOutput("reasoning", 4<<10)},
		{"hermes-4KB", Config{ToolParser: "hermes", ReasoningParser: "qwen3"}, benchOutput("hermes", 4<<10)},
		{"hermes-32KB", Config{ToolParser: "hermes", ReasoningParser: "qwen3"}, benchOutput("hermes", 32<<10)},
		{"hermes-32KB-whole", Config{ToolParser: "hermes", ReasoningParser: "qwen3", WholeCalls: true}, benchOutput("hermes", 32<<10)},
	}
	for _, bc := range cases {
		b.Run(bc.name, func(b *testing.B) {
			benchFeed(b, bc.cfg, bc.output)
		})
	}
}

// benchFeed is the method every Feed benchmark uses: output in 4-byte
// chunks through one Parser for cfg, reused with Reset, reporting B/op,
// allocs/op and ns per chunk.
func benchFeed(b *testing.B, cfg Config, output string) {
	p, err := New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	chunks := chunksOf(output, 4)
	b.SetBytes(int64(len(output)))
	b.ReportAllocs()
	for b.Loop() {
		p.Reset()
		for _, c := range chunks {
			p.Feed(c)
		}
		p.Finish()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(chunks)), "ns/chunk")
}

// benchChunks runs benchFeed as the sub-benchmark name.
func benchChunks(b *testing.B, name string, cfg Config, output string) {
	b.Run(name, func(b *testing.B) { benchFeed(b, cfg, output) })
}

// BenchmarkParse is the buffered path on a 32 KB call.
func BenchmarkParse(b *testing.B) {
	out := benchOutput("hermes", 32<<10)
	cfg := Config{ToolParser: "hermes", ReasoningParser: "qwen3"}
	b.SetBytes(int64(len(out)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(cfg, out); err != nil {
			b.Fatal(err)
		}
	}
}
