package parserstest

import (
	"fmt"

	"github.com/agentwire/agentwire/parsers/internal/chunking"
)

// The chunkings are the library harness's own (package chunking).
const (
	everySplitMax  = chunking.EverySplitMax
	edgeSplits     = chunking.EdgeSplits
	sampledSplits  = chunking.SampledSplits
	extraChunkings = chunking.ExtraChunkings
)

var (
	splitPoints = chunking.SplitPoints
	splitRandom = chunking.Random
	splitEvery  = chunking.Every
	splitRunes  = chunking.Runes
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
