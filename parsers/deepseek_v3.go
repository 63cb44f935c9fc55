package parsers

// deepseekMarkers frame the DeepSeek V3 / R1-0528 and V3.1 / V3.1-Terminus
// tool-call grammar (PARSER_CASES.md). Every marker uses the full-width vertical line
// U+FF5C and U+2581 (three bytes each), so chunk boundaries fall inside them
// routinely; the byte-level matcher holds any prefix.
//
// V3:
//
//	<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME
//	```json
//	{…}
//	```<｜tool▁call▁end｜><｜tool▁calls▁end｜>
//
// V3.1:
//
//	<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜><｜tool▁calls▁end｜>
//
// The machine is sectionCalls; see there for the decisions. Arguments are
// the model's JSON bytes: raw control characters inside strings are
// escaped instead of Dynamo's retry that left-trims every line and joins the
// lines with spaces.
var deepseekMarkers = secMarkers{
	sectionBegins: []string{"<｜tool▁calls▁begin｜>"},
	sectionEnds:   []string{"<｜tool▁calls▁end｜>"},
	callBegin:     "<｜tool▁call▁begin｜>",
	callEnd:       "<｜tool▁call▁end｜>",
	sep:           "<｜tool▁sep｜>",
}

func init() {
	info := ToolInfo{
		Truncated: "a call needs <｜tool▁call▁end｜> (V3 also the closing fence): without it the call is abandoned " +
			"and its markup dropped, even when its JSON is complete; a missing <｜tool▁calls▁end｜> is fine " +
			"(complete calls before it stand); a bare <｜tool▁call▁begin｜> call without the section is accepted " +
			"and orphan end markers after it are removed",
	}
	v3 := info
	v3.Malformed = "a call whose name is empty or holds a brace or bracket, whose fence is missing, or whose " +
		"arguments are not one JSON object followed by the closing fence is abandoned and dropped up to " +
		"the next marker; text inside a section outside calls is markup (dropped); separators and closers " +
		"met in content are removed"
	registerTool(v3, func(out *sink) toolGrammar { return newSectionCalls(out, styleV3, deepseekMarkers) },
		"deepseek_v3", "deepseekv3")
	v31 := info
	v31.Malformed = "a call whose name is empty or holds a brace or bracket, or whose arguments are not one " +
		"JSON object followed by <｜tool▁call▁end｜>, is abandoned and dropped up to the next marker; " +
		"text inside a section outside calls is markup (dropped); separators and closers met in content " +
		"are removed"
	registerTool(v31, func(out *sink) toolGrammar { return newSectionCalls(out, styleV31, deepseekMarkers) },
		"deepseek_v3_1", "deepseek_v31", "deepseekv31")
}
