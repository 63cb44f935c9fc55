package parsers

import "testing"

// BenchmarkSeedOSS feeds a Seed-OSS turn (reasoning, then a call whose
// string value is 4 KB or 32 KB of prose, or 32 KB of code-like text) in
// 4-byte chunks; the targets of BenchmarkFeed apply.
func BenchmarkSeedOSS(b *testing.B) {
	cfg := Config{ToolParser: "seed_oss", ReasoningParser: "seed_oss", Tools: paramTools}
	turn := func(value string) string {
		return "<seed:think>The user wants the file written.</seed:think>\n<seed:tool_call>\n<function=write_file>\n" +
			"<parameter=path>/tmp/out.txt</parameter>\n<parameter=mode>644</parameter>\n<parameter=content>" +
			value + "</parameter>\n</function>\n</seed:tool_call>"
	}
	benchChunks(b, "4KB", cfg, turn(benchOutput("content", 4<<10)))
	benchChunks(b, "32KB", cfg, turn(benchOutput("content", 32<<10)))
	benchChunks(b, "code-32KB", cfg, turn(paramContent(32<<10)))
}
