package parsers

import "testing"

// FuzzDeepSeekV41 runs the deepseek_v41 tool parser alone and behind its
// reasoning parser, with and without a schema, streaming or whole-call mode,
// with a small buffer limit; seeded from the deepseek_v41 fixtures and the
// unspaced DSML ones (which it must leave as text).
func FuzzDeepSeekV41(f *testing.F) {
	paramFuzz(f, "deepseek_v41", "deepseek_v41", "deepseek_v41", "deepseek_v4")
}

// TestDeepSeekV41Allocs: a reused deepseek_v41 Parser streams a reasoning
// span, a parameter call and a JSON-body call without allocating, in any
// chunk size, in both call modes.
func TestDeepSeekV41Allocs(t *testing.T) {
	assertNoAllocs(t, Config{ToolParser: "deepseek_v41", ReasoningParser: "deepseek_v41", Tools: paramTools},
		"<think>Writing the file.</think>I'll write it.\n\n<｜DSML｜ calls>\n<｜DSML｜ invoke name=\"write_file\">\n"+
			"<｜DSML｜ parameter name=\"path\" string=\"true\">/tmp/out.txt</｜DSML｜ parameter>\n"+
			"<｜DSML｜ parameter name=\"mode\" string=\"false\">644</｜DSML｜ parameter>\n"+
			"<｜DSML｜ parameter name=\"content\" string=\"true\">"+paramContent(2<<10)+"</｜DSML｜ parameter>\n"+
			"</｜DSML｜ invoke>\n<｜DSML｜ invoke name=\"set\">{\"o\": {\"a\": [1, \"</｜DSML｜ invoke>\"]}}</｜DSML｜ invoke>\n</｜DSML｜ calls>")
}
