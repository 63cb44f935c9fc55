package parsers

import (
	"bytes"
	"unicode"
	"unicode/utf8"
)

// kimiMarkers frame the Kimi K2 / K2-Instruct / K2-Thinking / K2.5 tool-call
// grammar (PARSER_CASES.md):
//
//	<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{…}<|tool_call_end|><|tool_calls_section_end|>
//
// The singular section spelling (<|tool_call_section_begin|>) is accepted
// as well (TOOLCALLING.fmt.3), and <|tool_call_begin|> without a section.
// The call id is the model's own, verbatim (surrounding whitespace
// trimmed); the name is the part between an optional "functions." and the
// last ':' when the id has the shape [functions.]NAME:DIGITS, else the
// whole id. Arguments are the model's JSON; invalid JSON abandons
// the call (library rule; Dynamo keeps it as a raw string). A call without
// <|tool_call_end|> is abandoned even when its JSON is complete (Dynamo;
// TOOLCALLING.stream.4.a). The machine is sectionCalls.
var kimiMarkers = secMarkers{
	sectionBegins: []string{"<|tool_calls_section_begin|>", "<|tool_call_section_begin|>"},
	sectionEnds:   []string{"<|tool_calls_section_end|>", "<|tool_call_section_end|>"},
	callBegin:     "<|tool_call_begin|>",
	callEnd:       "<|tool_call_end|>",
	sep:           "<|tool_call_argument_begin|>",
}

func init() {
	registerTool(ToolInfo{
		Malformed: "invalid JSON or non-object arguments abandon the call (Dynamo keeps a raw string); an empty id " +
			"skips the call; the broken call is dropped up to the next marker; text inside a section outside " +
			"calls is markup (dropped), text outside sections is content; markers met in content are removed",
		Truncated: "a call needs <|tool_call_end|>: without it the call is abandoned and its markup dropped, even " +
			"with complete JSON (Dynamo); a missing section end is fine (complete calls stand); nothing of a " +
			"truncated section reaches content",
	}, func(out *sink) toolGrammar { return newSectionCalls(out, styleKimi, kimiMarkers) }, "kimi_k2")
}

// kimiName returns the function name inside a Kimi call id: NAME in
// [functions.]NAME:DIGITS (NAME = word characters, '.', '-'), or the whole id
// when it does not have that shape.
func kimiName(id []byte) []byte {
	colon := bytes.LastIndexByte(id, ':')
	if colon < 0 || colon == len(id)-1 {
		return id
	}
	for _, c := range id[colon+1:] {
		if c < '0' || c > '9' {
			return id
		}
	}
	name, _ := bytes.CutPrefix(id[:colon], []byte("functions."))
	if len(name) == 0 {
		return id
	}
	for _, r := range string(name) {
		if !(r == '.' || r == '-' || isWordRune(r)) {
			return id
		}
	}
	return name
}

// isWordRune is the regular-expression \w of Unicode-aware engines
// (letters, marks, decimal digits, connector punctuation).
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r == '_' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
	}
	return unicode.IsLetter(r) || unicode.IsMark(r) || unicode.Is(unicode.Nd, r) || unicode.Is(unicode.Pc, r)
}
