// Package chunking cuts a model output into the chunkings the parsers'
// invariant checks feed: byte by byte, rune by rune, every two-way split
// (sampled past EverySplitMax) and seeded random chunks. It is shared by
// the library's own harness (parsers' internal tests) and the public
// parserstest package, so both check exactly the same chunkings.
//
// Every function returns subslices of its input; nothing is copied.
package chunking

import (
	"math/rand/v2"
	"unicode/utf8"
)

// EverySplitMax is the input size up to which every two-way split is fed.
// Checking every split point costs time quadratic in the input size, so
// longer inputs get every split within EdgeSplits bytes of either end (where
// markup usually is), SampledSplits seeded points in between, and
// ExtraChunkings more seeded random chunkings.
const (
	EverySplitMax  = 2 << 10
	EdgeSplits     = 128
	SampledSplits  = 32
	ExtraChunkings = 32
)

// SplitPoints returns the two-way split positions checked for in: all of
// them up to EverySplitMax bytes, otherwise the edges plus a seeded sample
// (deterministic per input length).
func SplitPoints(in []byte) []int {
	var pts []int
	if len(in) <= EverySplitMax {
		for i := 1; i < len(in); i++ {
			pts = append(pts, i)
		}
		return pts
	}
	for i := 1; i <= EdgeSplits; i++ {
		pts = append(pts, i, len(in)-i)
	}
	rng := rand.New(rand.NewPCG(uint64(len(in)), 0x5eed))
	for range SampledSplits {
		pts = append(pts, EdgeSplits+1+rng.IntN(len(in)-2*EdgeSplits-1))
	}
	return pts
}

// Random cuts b into seeded random chunks of 1 to maxLen bytes.
func Random(b []byte, seed uint64, maxLen int) [][]byte {
	rng := rand.New(rand.NewPCG(seed, seed*104729))
	var out [][]byte
	for len(b) > 0 {
		n := min(1+rng.IntN(maxLen), len(b))
		out = append(out, b[:n])
		b = b[n:]
	}
	return out
}

// Every cuts b into chunks of n bytes (the last may be shorter).
func Every(b []byte, n int) [][]byte {
	var out [][]byte
	for len(b) > n {
		out = append(out, b[:n])
		b = b[n:]
	}
	if len(b) > 0 {
		out = append(out, b)
	}
	return out
}

// Runes cuts b into one chunk per UTF-8 sequence (an invalid byte is a
// chunk of its own).
func Runes(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		_, n := utf8.DecodeRune(b)
		out = append(out, b[:n])
		b = b[n:]
	}
	return out
}
