package parsers

import "testing"

// hyV3BenchOutput is a Hunyuan call of set_file-like shape (paramTools'
// write_file): a path, a typed mode and a string value of argBytes, tags
// spelled with suffix sfx ("" or ":opensource").
func hyV3BenchOutput(argBytes int, sfx string) string {
	t := func(tag string) string { return glmTag(tag, []byte(sfx)) }
	return "I'll write it.\n" + t("<tool_calls>") + "\n" + t("<tool_call>") + "write_file" + t("<tool_sep>") + "\n" +
		t("<arg_key>") + "path" + t("</arg_key>") + "\n" + t("<arg_value>") + "/tmp/out.txt" + t("</arg_value>") + "\n" +
		t("<arg_key>") + "mode" + t("</arg_key>") + "\n" + t("<arg_value>") + "644" + t("</arg_value>") + "\n" +
		t("<arg_key>") + "content" + t("</arg_key>") + "\n" + t("<arg_value>") + benchOutput("content", argBytes) + t("</arg_value>") + "\n" +
		t("</tool_call>") + "\n" + t("</tool_calls>")
}

// BenchmarkHyV3 feeds Hunyuan calls in 4-byte chunks through one reused
// Parser: 4 KB and 32 KB string values, with plain and suffixed tags, and a
// code-like value.
func BenchmarkHyV3(b *testing.B) {
	cfg := Config{ToolParser: "hy_v3", Tools: paramTools}
	benchChunks(b, "hy_v3-4KB", cfg, hyV3BenchOutput(4<<10, ""))
	benchChunks(b, "hy_v3-32KB", cfg, hyV3BenchOutput(32<<10, ""))
	benchChunks(b, "hy_v3-32KB-suffix", cfg, hyV3BenchOutput(32<<10, ":opensource"))
	code := hyV3BenchOutput(0, "")
	i := len(code) - len("</arg_value>\n</tool_call>\n</tool_calls>")
	benchChunks(b, "hy_v3-code-32KB", cfg, code[:i]+paramContent(32<<10)+code[i:])
}
