package parsers

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"
)

// FuzzJSONScan checks the incremental JSON scanner against encoding/json's
// validator, fed in random pieces.
func FuzzJSONScan(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a": [1, -2.5e+3, true, false, null, "x\u00e9\n"]}`, `"s"`, `12`, `-0.0e0`,
		`{"a":}`, `[1,]`, `01`, `{"a" 1}`, `tru`, `"\x"`, `[[[[]]]]`, `{"k": {"n": "}"}}`} {
		f.Add([]byte(s), uint64(1))
	}
	f.Fuzz(func(t *testing.T, in []byte, seed uint64) {
		if bytes.ContainsFunc(in, func(r rune) bool { return r < 0x20 && r != ' ' }) {
			t.Skip("raw control characters are accepted inside strings on purpose")
		}
		b := bytes.Trim(in, " ")
		var s jsonScan
		s.reset()
		rng := rand.New(rand.NewPCG(seed, 2))
		n, r := 0, scanMore
		for rest := b; len(rest) > 0 && r == scanMore; {
			k := 1 + rng.IntN(7)
			if k > len(rest) {
				k = len(rest)
			}
			m, rr := s.scan(rest[:k])
			n += m
			r = rr
			rest = rest[m:]
			if rr == scanMore && m != k {
				t.Fatalf("scanMore consumed %d of %d", m, k)
			}
		}
		ours := (r == scanDone && n == len(b)) || (r == scanMore && n == len(b) && s.numberAtEOF())
		if std := json.Valid(b); ours != std {
			t.Fatalf("%q: scanner says valid=%v (result %d at %d), encoding/json %v", b, ours, r, n, std)
		}
	})
}
