package parsers

import "testing"

// FuzzHyV3 runs the Hunyuan grammar through paramFuzz (behind its reasoning
// parser), seeded from its fixtures.
func FuzzHyV3(f *testing.F) { paramFuzz(f, "hy_v3", "hy_v3", "hy_v3", "hunyuan_a13b") }

// TestHyV3Allocs asserts zero allocations after warm-up for the Hunyuan
// grammar, with plain and with suffixed tags (the suffix is learned once per
// Parser), and for the hunyuan_a13b reasoning parser.
func TestHyV3Allocs(t *testing.T) {
	assertNoAllocs(t, Config{ToolParser: "hy_v3", ReasoningParser: "hy_v3", Tools: paramTools}, hyV3BenchOutput(2<<10, ""))
	assertNoAllocs(t, Config{ToolParser: "hunyuan", Tools: paramTools}, hyV3BenchOutput(2<<10, ":opensource")+hyV3BenchOutput(100, ""))
	checkFeedAllocs(t, "a13b", Config{ToolParser: "hunyuan_a13b", ReasoningParser: "hunyuan_a13b"},
		"<think>\nr\n</think>\n<answer>\n"+benchOutput("content", 1<<10)+"\n</answer>")
}

// TestHyV3Suffix pins the learned tag suffix: a new suffix in the same
// stream replaces the last one, and a suffix carries no whitespace.
func TestHyV3Suffix(t *testing.T) {
	for _, tc := range []struct {
		in, content string
		calls       int
	}{
		{"<tool_call:a>f</tool_call:a><tool_call:b>g</tool_call:b>", "", 2},
		{"<tool_call:a>f</tool_call:b></tool_call:a>", "", 0}, // another spelling is no tag: malformed
		{"<tool_calls:a><tool_call:a>f</tool_call:a></tool_calls:a> x", " x", 1},
		{"<tool_call:a b>f</tool_call>", "<tool_call:a b>f", 0},
		{"<tool_call:>f</tool_call>", "<tool_call:>f", 0},
	} {
		res, err := Parse(Config{ToolParser: "hy_v3"}, tc.in)
		if err != nil {
			t.Fatal(err)
		}
		if res.Content != tc.content || len(res.Calls) != tc.calls {
			t.Errorf("%q: content %q, %d calls; want %q, %d", tc.in, res.Content, len(res.Calls), tc.content, tc.calls)
		}
	}
}
