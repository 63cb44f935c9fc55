package parsers

import "testing"

// FuzzSolarOpen2 runs the solar_open2 tool parser through paramFuzz (with
// and without a typed schema, behind its reasoning parser, inside reasoning
// or not), seeded from its fixtures.
func FuzzSolarOpen2(f *testing.F) {
	paramFuzz(f, "solar_open2", "solar_open2", "solar_open2", "solar_open2_think")
}

// solarOpen2Call renders a Solar Open 2 turn from a prompt-opened span:
// reasoning, then a write_file call whose content argument holds content.
func solarOpen2Call(content string) string {
	return "The user wants the file written.<|think:end|>\n<|tool_call:start|>write_file\n" +
		"<|tool_arg:start|>path<|tool_arg:value|>/tmp/out.txt<|tool_arg:end|>\n" +
		"<|tool_arg:start|>mode<|tool_arg:value|>644<|tool_arg:end|>\n" +
		"<|tool_arg:start|>content<|tool_arg:value|>" + content + "<|tool_arg:end|>\n<|tool_call:end|>"
}

// TestSolarOpen2Allocs: a reused solar_open2 Parser streams a reasoning span
// and a typed call without allocating, in any chunk size, in both call
// modes.
func TestSolarOpen2Allocs(t *testing.T) {
	assertNoAllocs(t, Config{ToolParser: "solar_open2", ReasoningParser: "solar_open2", InReasoning: true, Tools: paramTools},
		solarOpen2Call(paramContent(2<<10)))
}
