package parsers

import "testing"

// FuzzMiniCPM5 runs minicpm5 through paramFuzz (behind the basic <think>
// parser), seeded from its fixtures.
func FuzzMiniCPM5(f *testing.F) { paramFuzz(f, "minicpm5", "basic", "minicpm5") }

// miniCPM5Turn is a MiniCPM5 turn: reasoning, then a call whose string
// value is value (plain, or in a CDATA section when cdata is set).
func miniCPM5Turn(value string, cdata bool) string {
	if cdata {
		value = "<![CDATA[" + value + "]]>"
	}
	return "<think>The user wants the file written.</think>\n<function name=\"write_file\"><param name=\"path\">/tmp/out.txt</param>" +
		"<param name=\"mode\">644</param><param name=\"content\">" + value + "</param></function>"
}

func TestMiniCPM5Allocs(t *testing.T) {
	cfg := Config{ToolParser: "minicpm5", ReasoningParser: "basic", Tools: paramTools}
	assertNoAllocs(t, cfg, miniCPM5Turn(paramContent(2<<10), false))
	assertNoAllocs(t, cfg, miniCPM5Turn(paramContent(2<<10), true))
}
