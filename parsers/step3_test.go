package parsers

import "testing"

// FuzzStep3 runs the step3 tool parser through paramFuzz (with and without
// a typed schema, behind the step3 reasoning parser), seeded from its
// fixtures.
func FuzzStep3(f *testing.F) { paramFuzz(f, "step3", "step3", "step3") }

// step3Call renders a Step-3 turn: reasoning, then a write_file call whose
// content parameter holds content (and a typed mode).
func step3Call(content string) string {
	return "The user wants the file written.</think>\n<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜>" +
		"<steptml:invoke name=\"write_file\">\n<steptml:parameter name=\"path\">/tmp/out.txt</steptml:parameter>\n" +
		"<steptml:parameter name=\"mode\">644</steptml:parameter>\n<steptml:parameter name=\"content\">" + content +
		"</steptml:parameter>\n</steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>"
}

// TestStep3Allocs: a reused step3 Parser streams a reasoning span and a
// typed call without allocating, in any chunk size, in both call modes.
func TestStep3Allocs(t *testing.T) {
	assertNoAllocs(t, Config{ToolParser: "step3", ReasoningParser: "step3", Tools: paramTools}, step3Call(paramContent(2<<10)))
}
