package parsers

import (
	"strings"
	"testing"
)

// hostileRuns are inputs that make a grammar open and fail a candidate at
// (almost) every byte.
var hostileRuns = []string{
	strings.Repeat("[", 4096),
	strings.Repeat("{", 4096),
	strings.Repeat("<", 4096),
	strings.Repeat("a[", 2048),
	strings.Repeat("[TOOL_CALLS]", 300),
	strings.Repeat("call:", 800),
	strings.Repeat("functools", 400),
	strings.Repeat("<|", 2048),
	strings.Repeat("x ", 2048),
}

// TestNoAmplification: a run that opens and fails a candidate per byte,
// fed in one chunk, returns a bounded number of events — adjacent content of
// one Feed is one event — for every tool parser.
func TestNoAmplification(t *testing.T) {
	for _, tp := range ToolParsers() {
		for _, run := range hostileRuns {
			p, err := New(Config{ToolParser: tp})
			if err != nil {
				t.Fatal(err)
			}
			for _, prefix := range []string{"", "Hi "} {
				p.Reset()
				evs := p.Feed([]byte(prefix + run))
				n := len(evs)
				n += len(p.Finish())
				if n > 6 {
					t.Errorf("%s, %q×%d after %q: %d events", tp, run[:2], len(run), prefix, n)
				}
			}
		}
	}
}
