package parsers

import (
	"strings"
	"testing"
)

// BenchmarkHostileRun feeds a 4 KB run that opens and fails a candidate at
// every byte, in one chunk: the cost must stay a few ns per byte and the
// events few.
func BenchmarkHostileRun(b *testing.B) {
	for _, c := range []struct{ parser, run string }{
		{"pythonic", strings.Repeat("[", 4096)},
		{"phi4", strings.Repeat("[", 4096)},
		{"gemma4", strings.Repeat("call:", 820)},
		{"mistral", strings.Repeat("[TOOL_CALLS]", 342)},
	} {
		b.Run(c.parser, func(b *testing.B) {
			p, err := New(Config{ToolParser: c.parser})
			if err != nil {
				b.Fatal(err)
			}
			in := []byte("Hi " + c.run)
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			events := 0
			for b.Loop() {
				p.Reset()
				events = len(p.Feed(in)) + len(p.Finish())
			}
			b.ReportMetric(float64(events), "events")
		})
	}
}
