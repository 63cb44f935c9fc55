package parsers

import (
	"strings"
	"testing"
)

// k2HorizonBenchOutput is a K2 Horizon call of paramTools' write_file with
// a string value of argBytes: typed XML, or with json set a JSON body.
func k2HorizonBenchOutput(argBytes int, json bool) string {
	content := benchOutput("content", argBytes)
	if json {
		return `<ifm|tool_calls><ifm|tool_call>{"name": "write_file", "arguments": {"path": "/tmp/out.txt", "mode": 644, "content": "` +
			strings.NewReplacer("\"", `\"`, "\n", `\n`).Replace(content) + `"}}</ifm|tool_call></ifm|tool_calls>`
	}
	return "<ifm|tool_calls><ifm|tool_call>write_file" +
		"<ifm|arg_key>path</ifm|arg_key><ifm|arg_value>/tmp/out.txt</ifm|arg_value>" +
		"<ifm|arg_key>mode</ifm|arg_key><ifm|arg_type>integer</ifm|arg_type><ifm|arg_value>644</ifm|arg_value>" +
		"<ifm|arg_key>content</ifm|arg_key><ifm|arg_value>" + content + "</ifm|arg_value></ifm|tool_call></ifm|tool_calls>"
}

// BenchmarkK2Horizon feeds K2 Horizon calls in 4-byte chunks through one
// reused Parser: 4 KB and 32 KB string values, and a 32 KB JSON body.
func BenchmarkK2Horizon(b *testing.B) {
	cfg := Config{ToolParser: "k2_horizon", Tools: paramTools}
	benchChunks(b, "k2_horizon-4KB", cfg, k2HorizonBenchOutput(4<<10, false))
	benchChunks(b, "k2_horizon-32KB", cfg, k2HorizonBenchOutput(32<<10, false))
	benchChunks(b, "k2_horizon-json-32KB", cfg, k2HorizonBenchOutput(32<<10, true))
}
