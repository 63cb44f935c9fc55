package parsers

import (
	"strings"
	"testing"
)

// museGlimmerBenchOutput is a Muse Glimmer turn: reasoning, an answer
// preamble and a tool message whose string parameter holds argBytes of
// data (with quotes, newlines and framing-looking text), beside a typed
// and an unconstrained value; first gives it the header the prompt opened.
func museGlimmerBenchOutput(argBytes int, first bool) string {
	const sentence = "The quick \"brown\" fox <b>jumps</b> over the lazy dog;\nnumbers 12345, unicode é 世界, to=x <|eot|>. "
	fill := strings.Repeat(sentence, argBytes/len(sentence)+1)[:argBytes]
	head := "<|start|>assistant"
	if first {
		head = ""
	}
	return head + " to=self<|message|>Need to write the file.<|eom|>" +
		"<|start|>assistant to=user<|message|>Writing it now.<|eom|>" +
		"<|start|>assistant to=write_file<|message|><atem:function_calls>\n" +
		`<atem:invoke name="write_file">` + "\n" +
		`<atem:parameter name="path">/tmp/out.txt</atem:parameter>` + "\n" +
		`<atem:parameter name="mode">420</atem:parameter>` + "\n" +
		`<atem:parameter name="meta">{"owner": "me", "tags": ["a", "b"]}</atem:parameter>` + "\n" +
		`<atem:parameter name="content">` + fill + "</atem:parameter>\n" +
		"</atem:invoke>\n</atem:function_calls><|eom|>"
}

func museGlimmerBenchTools() []Tool {
	tools, err := ToolsFromJSON([]byte(`[{"type":"function","function":{"name":"write_file","parameters":{"type":"object","properties":{
		"path":{"type":"string"},"mode":{"type":"integer"},"content":{"type":"string"}}}}}]`))
	if err != nil {
		panic(err)
	}
	return tools
}

// BenchmarkMuseGlimmerFeed feeds Muse Glimmer turns in 4-byte chunks
// through one reused Parser and reports the cost per chunk.
func BenchmarkMuseGlimmerFeed(b *testing.B) {
	tools := museGlimmerBenchTools()
	for _, bc := range []struct {
		name string
		cfg  Config
		out  string
	}{
		{"muse_glimmer-4KB", Config{ToolParser: "muse_glimmer", ReasoningParser: "muse_glimmer", Tools: tools}, museGlimmerBenchOutput(4<<10, true)},
		{"muse_glimmer-32KB", Config{ToolParser: "muse_glimmer", ReasoningParser: "muse_glimmer", Tools: tools}, museGlimmerBenchOutput(32<<10, true)},
		{"muse_glimmer-32KB-noschema", Config{ToolParser: "muse_glimmer"}, museGlimmerBenchOutput(32<<10, true)},
		{"muse_glimmer-32KB-whole", Config{ToolParser: "muse_glimmer", WholeCalls: true, Tools: tools}, museGlimmerBenchOutput(32<<10, true)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			benchFeed(b, bc.cfg, bc.out)
		})
	}
}
