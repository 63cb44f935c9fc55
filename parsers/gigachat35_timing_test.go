package parsers

import "testing"

// gigaChat35BenchOutput is a GigaChat 3.5 call of paramTools' write_file
// with a string value of argBytes.
func gigaChat35BenchOutput(argBytes int) string {
	return "I'll write it.\n\n<｜GCML｜tool_calls>\n<｜GCML｜invoke name=\"write_file\">\n" +
		"<｜GCML｜parameter name=\"path\" string=\"true\">/tmp/out.txt</｜GCML｜parameter>\n" +
		"<｜GCML｜parameter name=\"mode\" string=\"false\">644</｜GCML｜parameter>\n" +
		"<｜GCML｜parameter name=\"content\">" + benchOutput("content", argBytes) + "</｜GCML｜parameter>\n" +
		"</｜GCML｜invoke>\n</｜GCML｜tool_calls></s>"
}

// BenchmarkGigaChat35 feeds GigaChat 3.5 calls in 4-byte chunks through one
// reused Parser.
func BenchmarkGigaChat35(b *testing.B) {
	cfg := Config{ToolParser: "gigachat35", Tools: paramTools}
	benchChunks(b, "gigachat35-4KB", cfg, gigaChat35BenchOutput(4<<10))
	benchChunks(b, "gigachat35-32KB", cfg, gigaChat35BenchOutput(32<<10))
}
