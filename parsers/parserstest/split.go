package parserstest

import (
	"fmt"
	"math/rand/v2"
	"unicode/utf8"
)

// everySplitMax is the input size up to which every two-way split is fed.
// Longer inputs get every split within edgeSplits bytes of either end (where
// markup usually is), sampledSplits seeded points in between, and
// extraChunkings more seeded random chunkings.
const (
	everySplitMax  = 2 << 10
	edgeSplits     = 128
	sampledSplits  = 32
	extraChunkings = 32
)

// chunkings calls feed with every chunking of in the chunking check uses,
// and returns the first error.
func chunkings(in []byte, captured []string, feed func(how string, chunks [][]byte) error) error {
	if err := feed("bytes", splitEvery(in, 1)); err != nil {
		return err
	}
	if err := feed("runes", splitRunes(in)); err != nil {
		return err
	}
	for _, i := range splitPoints(in) {
		if err := feed(fmt.Sprintf("split@%d", i), [][]byte{in[:i], in[i:]}); err != nil {
			return err
		}
	}
	for seed := uint64(1); seed <= 4; seed++ {
		if err := feed(fmt.Sprintf("random(seed=%d)", seed), splitRandom(in, seed, 2+int(seed*seed*3))); err != nil {
			return err
		}
	}
	if len(in) > everySplitMax {
		for seed := uint64(5); seed < 5+extraChunkings; seed++ {
			if err := feed(fmt.Sprintf("random(seed=%d)", seed), splitRandom(in, seed, 2+int(seed%31))); err != nil {
				return err
			}
		}
	}
	if len(captured) > 0 {
		if err := feed("captured", toBytes(captured)); err != nil {
			return err
		}
	}
	// Empty chunks are no-ops.
	return feed("with-empty", append(append([][]byte{{}}, splitEvery(in, 3)...), []byte{}))
}

// splitPoints returns the two-way split positions checked for in.
func splitPoints(in []byte) []int {
	var pts []int
	if len(in) <= everySplitMax {
		for i := 1; i < len(in); i++ {
			pts = append(pts, i)
		}
		return pts
	}
	for i := 1; i <= edgeSplits; i++ {
		pts = append(pts, i, len(in)-i)
	}
	rng := rand.New(rand.NewPCG(uint64(len(in)), 0x5eed))
	for range sampledSplits {
		pts = append(pts, edgeSplits+1+rng.IntN(len(in)-2*edgeSplits-1))
	}
	return pts
}

// splitRandom cuts b into seeded random chunks of 1 to maxLen bytes.
func splitRandom(b []byte, seed uint64, maxLen int) [][]byte {
	rng := rand.New(rand.NewPCG(seed, seed*104729))
	var out [][]byte
	for len(b) > 0 {
		n := min(1+rng.IntN(maxLen), len(b))
		out = append(out, b[:n])
		b = b[n:]
	}
	return out
}

func splitEvery(b []byte, n int) [][]byte {
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

func splitRunes(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		_, n := utf8.DecodeRune(b)
		out = append(out, b[:n])
		b = b[n:]
	}
	return out
}
