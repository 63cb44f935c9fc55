package parsers

import (
	"strings"
	"testing"
)

const m3Bench = "]<]minimax[>["

// minimaxM3BenchOutput is a MiniMax M3 turn: reasoning, text and a call
// with a streamed string value of argBytes (with entities and characters
// to escape), typed and nested values.
func minimaxM3BenchOutput(argBytes int) string {
	const sentence = "The quick \"brown\" fox &amp; the lazy dog;\nnumbers 12345, unicode é 世界. "
	fill := strings.Repeat(sentence, argBytes/len(sentence)+1)[:argBytes]
	return "<mm:think>Need to write the file.</mm:think>Writing it now.\n" +
		m3Bench + "<tool_call>\n" + m3Bench + `<invoke name="write_file">` + "\n" +
		m3Bench + "<path>/tmp/out.txt" + m3Bench + "</path>\n" +
		m3Bench + "<mode>420" + m3Bench + "</mode>\n" +
		m3Bench + "<meta>" + m3Bench + "<owner>me" + m3Bench + "</owner>" + m3Bench + "<tags>a" + m3Bench + "</tags>" + m3Bench + "<tags>b" + m3Bench + "</tags>" + m3Bench + "</meta>\n" +
		m3Bench + "<content>" + fill + m3Bench + "</content>\n" +
		m3Bench + "</invoke>\n" + m3Bench + "</tool_call>"
}

func minimaxM3BenchTools() []Tool {
	tools, err := ToolsFromJSON([]byte(`[{"type":"function","function":{"name":"write_file","parameters":{"type":"object","properties":{
		"path":{"type":"string"},"mode":{"type":"integer"},"content":{"type":"string"},
		"meta":{"type":"object","properties":{"owner":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}}}}}}}}]`))
	if err != nil {
		panic(err)
	}
	return tools
}

// BenchmarkMinimaxM3Feed feeds MiniMax M3 turns in 4-byte chunks through one
// reused Parser and reports the cost per chunk.
func BenchmarkMinimaxM3Feed(b *testing.B) {
	tools := minimaxM3BenchTools()
	for _, bc := range []struct {
		name string
		cfg  Config
		out  string
	}{
		{"minimax_m3-4KB", Config{ToolParser: "minimax_m3", ReasoningParser: "minimax_m3", Tools: tools}, minimaxM3BenchOutput(4 << 10)},
		{"minimax_m3-32KB", Config{ToolParser: "minimax_m3", ReasoningParser: "minimax_m3", Tools: tools}, minimaxM3BenchOutput(32 << 10)},
		{"minimax_m3-32KB-noschema", Config{ToolParser: "minimax_m3"}, minimaxM3BenchOutput(32 << 10)},
		{"minimax_m3-32KB-whole", Config{ToolParser: "minimax_m3", WholeCalls: true, Tools: tools}, minimaxM3BenchOutput(32 << 10)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			benchFeed(b, bc.cfg, bc.out)
		})
	}
}
