package parsers

import (
	"strings"
	"testing"
)

// pythonicOutput is a pythonic output: text with brackets that are not call
// lists, a list of two calls whose string argument holds n bytes, and text.
func pythonicOutput(n int) string {
	fill := benchOutput("content", n)
	return "Arrays [1, 2] and [x] are text. <|python_start|>[write_file(path='/tmp/out.txt', content=\"" + fill +
		"\\n\", mode=0o644, overwrite=True, tags=['a', (1, 2)]), get_time(tz=\"UTC\")]<|python_end|>\nDone."
}

// FuzzPythonic runs the pythonic grammar, streaming and whole-call, with
// small buffer limits.
func FuzzPythonic(f *testing.F) {
	fixtureSeeds(f, "pythonic")
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, sel uint8) {
		cfg := Config{ToolParser: "pythonic", WholeCalls: sel&1 != 0}
		if sel&2 != 0 {
			cfg.ReasoningParser = "qwen3"
		}
		if sel&4 != 0 {
			cfg.MaxCallBuffer = 16
		}
		fuzzInvariants(t, cfg, in, seed)
	})
}

func TestPythonicAllocs(t *testing.T) {
	assertNoAllocs(t, Config{ToolParser: "pythonic"}, pythonicOutput(2<<10))
}

// TestPythonicDeepNesting: nesting past the bound makes the list content
// instead of growing without limit, and a deep but bounded list parses.
func TestPythonicDeepNesting(t *testing.T) {
	deep := "[f(a=" + strings.Repeat("[", maxPyDepth+1) + strings.Repeat("]", maxPyDepth+1) + ")]"
	res, err := Parse(Config{ToolParser: "pythonic"}, deep)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Calls) != 0 || res.Content != deep {
		t.Errorf("too deep: got %d calls, content of %d bytes; want content", len(res.Calls), len(res.Content))
	}
	ok := "[f(a=" + strings.Repeat("[", 100) + strings.Repeat("]", 100) + ")]"
	res, err = Parse(Config{ToolParser: "pythonic"}, ok)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Calls) != 1 || res.Calls[0].Arguments != `{"a":`+strings.Repeat("[", 100)+strings.Repeat("]", 100)+"}" {
		t.Errorf("deep: got %+v", res.Calls)
	}
}
