package parsers

import (
	"strings"
	"testing"
)

// kimiK3BenchOutput is a Kimi K3 turn: reasoning, a response, and a call
// whose string argument holds argBytes of data (with quotes and newlines to
// escape), or, with json set, the same data in a json element.
func kimiK3BenchOutput(argBytes int, json bool) string {
	const sentence = "The quick brown fox jumps over the \"lazy\" dog;\nnumbers 12345, unicode é 世界. "
	fill := strings.Repeat(sentence, argBytes/len(sentence)+1)[:argBytes]
	var args string
	if json {
		args = `<|open|>json<|sep|>{"path": "/tmp/out.txt", "content": "` + strings.NewReplacer("\"", `\"`, "\n", `\n`).Replace(fill) + `"}<|close|>json<|sep|>`
	} else {
		args = `<|open|>argument key="path" type="string"<|sep|>/tmp/out.txt<|close|>argument<|sep|>` +
			`<|open|>argument key="mode" type="integer"<|sep|>420<|close|>argument<|sep|>` +
			`<|open|>argument key="content" type="string"<|sep|>` + fill + `<|close|>argument<|sep|>`
	}
	return "<|open|>think<|sep|>Need to write the file.<|close|>think<|sep|>" +
		"<|open|>response<|sep|>Writing it now.<|close|>response<|sep|>" +
		`<|open|>tools<|sep|><|open|>call tool="write_file" index="1"<|sep|>` + args +
		"<|close|>call<|sep|><|close|>tools<|sep|><|close|>message<|sep|><|end_of_msg|>"
}

// BenchmarkKimiK3Feed feeds Kimi K3 turns in 4-byte chunks through one
// reused Parser and reports the cost per chunk.
func BenchmarkKimiK3Feed(b *testing.B) {
	for _, bc := range []struct {
		name string
		cfg  Config
		out  string
	}{
		{"kimi_k3-4KB", Config{ToolParser: "kimi_k3", ReasoningParser: "kimi_k3"}, kimiK3BenchOutput(4<<10, false)},
		{"kimi_k3-32KB", Config{ToolParser: "kimi_k3", ReasoningParser: "kimi_k3"}, kimiK3BenchOutput(32<<10, false)},
		{"kimi_k3-json-32KB", Config{ToolParser: "kimi_k3"}, kimiK3BenchOutput(32<<10, true)},
		{"kimi_k3-32KB-whole", Config{ToolParser: "kimi_k3", WholeCalls: true}, kimiK3BenchOutput(32<<10, false)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			benchFeed(b, bc.cfg, bc.out)
		})
	}
}
