package parsers

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// plainArgsLoop and strRunLoop are the byte loops plainArgs (and
// plainWords) and strRun replace.
func plainArgsLoop(b []byte) bool {
	for _, c := range b {
		if c == '\\' || c >= 0x80 {
			return false
		}
	}
	return true
}

func strRunLoop(b []byte) int {
	i := 0
	for i < len(b) && !strStop[b[i]] {
		i++
	}
	return i
}

func checkByteScan(t *testing.T, b []byte) {
	t.Helper()
	if got, want := plainArgs(b), plainArgsLoop(b); got != want {
		t.Fatalf("plainArgs(%q) = %v, want %v", b, got, want)
	}
	if n := len(b); n >= 4 && n <= 8 {
		if got, want := plainWords(b), plainArgsLoop(b); got != want {
			t.Fatalf("plainWords(%q) = %v, want %v", b, got, want)
		}
	}
	if got, want := strRun(b), strRunLoop(b); got != want {
		t.Fatalf("strRun(%q) = %d, want %d", b, got, want)
	}
}

// TestByteScan checks the word-at-a-time scans against their byte loops:
// every byte value at every position of every length up to 19, next to
// the bytes that probe the word tests' borrows (0x00, 0x01, 0x1f, 0x20,
// 0x21, '"', '\\', 0x7f, 0x80, 0xff), and random slices.
func TestByteScan(t *testing.T) {
	probes := []byte{0x00, 0x01, 0x1f, 0x20, 0x21, '"', '#', '&', '<', '=', '[', '\\', ']', 0x7f, 0x80, 0xff, 'a'}
	for n := 0; n < 20; n++ {
		for pos := 0; pos < n; pos++ {
			for c := 0; c < 256; c++ {
				for _, fill := range probes {
					b := make([]byte, n)
					for k := range b {
						b[k] = fill
					}
					if fill < 0x20 || fill == '"' || fill == '\\' || fill >= 0x80 {
						// Put the probe after pos only, so the scan
						// reaches the tested byte.
						for k := 0; k <= pos; k++ {
							b[k] = 'x'
						}
					}
					b[pos] = byte(c)
					checkByteScan(t, b)
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, r.IntN(40))
		for k := range b {
			b[k] = probes[r.IntN(len(probes))]
			if r.IntN(3) == 0 {
				b[k] = byte(r.IntN(256))
			}
		}
		checkByteScan(t, b)
	}
}

func FuzzByteScan(f *testing.F) {
	f.Add([]byte(`abc"def\\ghi`))
	f.Add([]byte("\x00\x1f \x7f\x80\xff"))
	f.Fuzz(func(t *testing.T, b []byte) { checkByteScan(t, b) })
}

// TestIndexByteWords checks the matcher's word scan against bytes.IndexByte
// for every length it takes (4-8), every position of the byte sought and
// every other byte value around it.
func TestIndexByteWords(t *testing.T) {
	for n := 4; n <= 8; n++ {
		for _, c := range []byte{0, 1, '<', '[', 0x7f, 0x80, 0xff} {
			for pos := -1; pos < n; pos++ {
				for fill := 0; fill < 256; fill++ {
					b := make([]byte, n)
					for k := range b {
						b[k] = byte(fill)
					}
					if pos >= 0 {
						b[pos] = c
						for k := pos + 1; k < n; k++ {
							b[k] = byte(fill + k) // later bytes: anything, c included
						}
					}
					if got, want := indexByteWords(b, c), bytes.IndexByte(b, c); got != want {
						t.Fatalf("indexByteWords(%q, %q) = %d, want %d", b, c, got, want)
					}
				}
			}
		}
	}
}
