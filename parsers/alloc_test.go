package parsers

import "testing"

// TestFeedAllocs asserts the package documentation's allocation promise:
// after warm-up, a reused Parser allocates nothing while it streams content,
// reasoning and argument bytes (including call starts with minted ids,
// whitespace after calls and held marker prefixes), in any chunk size.
func TestFeedAllocs(t *testing.T) {
	outputs := map[string]string{
		"content":   benchOutput("content", 2<<10) + " a <b> c </tool_ d <thi",
		"reasoning": benchOutput("reasoning", 2<<10),
		"hermes":    benchOutput("hermes", 2<<10) + "\n<tool_call>{\"arguments\": {\"k\": \"v\\n\u0001\"}, \"name\": \"b\"}</tool_call>\nbye",
	}
	assertFeedAllocs(t, Config{ToolParser: "hermes", ReasoningParser: "qwen3"}, outputs)
}

// streamAllocs feeds out to one Parser for cfg, reused with Reset, in
// size-byte chunks, and returns the allocations per stream after warm-up and
// the calls one stream ended (so a test can tell it exercised calls).
func streamAllocs(t testing.TB, cfg Config, out string, size int) (allocs float64, calls int) {
	t.Helper()
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	chunks := chunksOf(out, size)
	feed := func() {
		p.Reset()
		calls = 0
		for _, c := range chunks {
			calls += countEnds(p.Feed(c))
		}
		calls += countEnds(p.Finish())
	}
	feed() // warm-up: buffers grow to their steady size
	feed()
	return testing.AllocsPerRun(20, feed), calls
}

func countEnds(evs []Event) int {
	n := 0
	for _, e := range evs {
		if e.Kind == EventToolCallEnd {
			n++
		}
	}
	return n
}

// chunkSizes are the chunkings the allocation tests stream in: 1, 4 and 64
// bytes, and the whole output.
func chunkSizes(out string) []int { return []int{1, 4, 64, len(out)} }

// checkFeedAllocs asserts the allocation promise for one Config: after
// warm-up, a reused Parser allocates nothing streaming out in any of
// chunkSizes.
func checkFeedAllocs(t *testing.T, label string, cfg Config, out string) {
	t.Helper()
	for _, size := range chunkSizes(out) {
		if n, _ := streamAllocs(t, cfg, out, size); n != 0 {
			t.Errorf("%s tool=%s reasoning=%s whole=%v chunk=%d: %v allocs per stream, want 0",
				label, cfg.ToolParser, cfg.ReasoningParser, cfg.WholeCalls, size, n)
		}
	}
}

// assertFeedAllocs is checkFeedAllocs for each output, in streaming and
// whole-call mode.
func assertFeedAllocs(t *testing.T, cfg Config, outputs map[string]string) {
	t.Helper()
	for name, out := range outputs {
		for _, whole := range []bool{false, true} {
			c := cfg
			c.WholeCalls = whole
			checkFeedAllocs(t, name, c, out)
		}
	}
}

// assertNoAllocs is assertFeedAllocs for one output that must contain calls:
// it also fails when a stream ends none (the test would prove nothing).
func assertNoAllocs(t *testing.T, cfg Config, out string) {
	t.Helper()
	assertFeedAllocs(t, cfg, map[string]string{"": out})
	for _, whole := range []bool{false, true} {
		c := cfg
		c.WholeCalls = whole
		if _, calls := streamAllocs(t, c, out, len(out)); calls == 0 {
			t.Fatalf("%s whole=%v: no call parsed; the test would prove nothing", cfg.ToolParser, whole)
		}
	}
}
