package parsers

import "testing"

// FuzzDots runs the dots tool parser through paramFuzz (with and without a
// typed schema, behind its reasoning parser), seeded from the dots fixtures:
// both bodies, invoke XML and JSON.
func FuzzDots(f *testing.F) { paramFuzz(f, "dots", "dots", "dots") }

// dotsCall renders a dots turn: reasoning, then a write_file call whose
// content parameter holds content, as invoke XML or as a JSON body (content
// is then JSON-escaped by the caller).
func dotsCall(json bool, content string) string {
	if json {
		return "<think>The user wants the file written.</think>\n<dots_function_call>\n" +
			`{"name": "write_file", "arguments": {"path": "/tmp/out.txt", "mode": 644, "content": "` + content + "\"}}\n</dots_function_call>"
	}
	return "<think>The user wants the file written.</think>\n<dots_function_call>\n<invoke name=\"write_file\">\n" +
		"<parameter name=\"path\">/tmp/out.txt</parameter>\n<parameter name=\"mode\">644</parameter>\n<parameter name=\"content\">" +
		content + "</parameter>\n</invoke>\n</dots_function_call>"
}

// TestDotsAllocs: a reused dots Parser streams a reasoning span and a typed
// call, as invoke XML and as a JSON body, without allocating, in any chunk
// size, in both call modes.
func TestDotsAllocs(t *testing.T) {
	cfg := Config{ToolParser: "dots", ReasoningParser: "dots", Tools: paramTools}
	assertNoAllocs(t, cfg, dotsCall(false, paramContent(2<<10)))
	assertNoAllocs(t, cfg, dotsCall(true, benchOutput("content", 2<<10)))
}
