package parsers

import "testing"

// TestFeedAllocs asserts DESIGN.md invariant 7: after warm-up, a reused
// Parser allocates nothing while it streams content, reasoning and argument
// bytes (including call starts with minted ids, whitespace after calls and
// held marker prefixes), in any chunk size.
func TestFeedAllocs(t *testing.T) {
	outputs := map[string]string{
		"content":   benchOutput("content", 2<<10) + " a <b> c </tool_ d <thi",
		"reasoning": benchOutput("reasoning", 2<<10),
		"hermes":    benchOutput("hermes", 2<<10) + "\n<tool_call>{\"arguments\": {\"k\": \"v\\n\u0001\"}, \"name\": \"b\"}</tool_call>\nbye",
	}
	for name, out := range outputs {
		for _, whole := range []bool{false, true} {
			for _, size := range []int{1, 4, 64, len(out)} {
				p, err := New(Config{ToolParser: "hermes", ReasoningParser: "qwen3", WholeCalls: whole})
				if err != nil {
					t.Fatal(err)
				}
				chunks := chunksOf(out, size)
				feed := func() {
					p.Reset()
					for _, c := range chunks {
						p.Feed(c)
					}
					p.Finish()
				}
				feed() // warm-up: buffers grow to their steady size
				feed()
				if n := testing.AllocsPerRun(50, feed); n != 0 {
					t.Errorf("%s whole=%v chunk=%d: %v allocs per stream, want 0", name, whole, size, n)
				}
			}
		}
	}
}
