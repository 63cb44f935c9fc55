package parsers

import "testing"

// BenchmarkFeedJSONFamilies feeds a call with 4 KB and 32 KB of arguments in
// 4-byte chunks through each JSON-family grammar (nemotron_deci, jamba,
// default, llama3_json, mistral in its v11+ and pre-v11 forms, phi4),
// reusing one Parser via Reset, and reports the cost per chunk like
// BenchmarkFeed.
func BenchmarkFeedJSONFamilies(b *testing.B) {
	cases := []struct {
		grammar, parser string
	}{
		{"nemotron_deci", "nemotron_deci"},
		{"jamba", "jamba"},
		{"default", "default"},
		{"llama3_json", "llama3_json"},
		{"mistral", "mistral"},
		{"mistral_v3", "mistral"},
		{"phi4", "phi4"},
	}
	for _, bc := range cases {
		for _, size := range []int{4 << 10, 32 << 10} {
			out := jsonFamilyCall(bc.grammar, size)
			b.Run(bc.grammar+"-"+map[int]string{4 << 10: "4KB", 32 << 10: "32KB"}[size], func(b *testing.B) {
				benchFeed(b, Config{ToolParser: bc.parser}, out)
			})
		}
	}
}
