package parsers

import (
	"strings"
	"testing"
)

// BenchmarkJSONScan runs the incremental JSON scanner alone over a value
// that visits every state (objects, arrays, strings with escapes and
// \u sequences, numbers in every form, literals), whole and in 4-byte
// pieces, and reports the cost per piece.
func BenchmarkJSONScan(b *testing.B) {
	const item = `{"path": "/tmp/out.txt", "n": -12.5e+3, "ok": true, "no": false, "x": null, ` +
		`"s": "line\n\"quoted\" \u00e9 tab\t", "a": [0, 1, 2.25, 3E2, {"k": []}, {}]}`
	value := []byte("[" + strings.Repeat(item+", ", 63) + item + "]")
	for _, piece := range []int{4, len(value)} {
		name := "4B"
		if piece == len(value) {
			name = "whole"
		}
		b.Run(name, func(b *testing.B) {
			var s jsonScan
			b.SetBytes(int64(len(value)))
			b.ReportAllocs()
			pieces := 0
			for b.Loop() {
				s.reset()
				for rest := value; len(rest) > 0; {
					k := min(piece, len(rest))
					n, r := s.scan(rest[:k])
					if r != scanMore && r != scanDone {
						b.Fatalf("scan stopped with %d at %d", r, n)
					}
					rest = rest[n:]
					pieces++
				}
				if s.st != ssDone {
					b.Fatal("value not complete")
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(pieces), "ns/piece")
		})
	}
}
