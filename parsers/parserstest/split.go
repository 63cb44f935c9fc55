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

// Chunkings selects the chunkings the chunking check feeds a case in.
type Chunkings int

const (
	// AllChunkings, the default: byte by byte, rune by rune, split in two
	// at every point (inputs up to 2 KiB; longer inputs at every point
	// within 128 bytes of either end, a seeded sample in between and 32
	// more seeded random chunkings), four seeded random chunkings, the
	// captured deltas, and with empty chunks mixed in.
	AllChunkings Chunkings = iota
	// CapturedChunkings feeds only the captured deltas (nothing when the
	// case has none): one comparison of the captured stream with the whole
	// feed, for fuzzing, where the fuzzer chooses the chunks.
	CapturedChunkings
	// QuickChunkings is AllChunkings without the two-way splits and the
	// extra random chunkings of long inputs: byte by byte, rune by rune,
	// four seeded random chunkings, the captured deltas and with empty
	// chunks — a handful of feeds per case instead of one per byte, for
	// runs where every feed is expensive (the race detector) and the
	// splits are covered by another run.
	QuickChunkings
)

// String returns the constant's name.
func (c Chunkings) String() string {
	switch c {
	case AllChunkings:
		return "AllChunkings"
	case CapturedChunkings:
		return "CapturedChunkings"
	case QuickChunkings:
		return "QuickChunkings"
	}
	return fmt.Sprintf("Chunkings(%d)", int(c))
}

// chunkings calls feed with every chunking of in that set selects, and
// returns the first error.
func chunkings(set Chunkings, in []byte, captured []string, feed func(how string, chunks [][]byte) error) error {
	if set == CapturedChunkings {
		if len(captured) == 0 {
			return nil
		}
		return feed("captured", toBytes(captured))
	}
	if err := feed("bytes", splitEvery(in, 1)); err != nil {
		return err
	}
	if err := feed("runes", splitRunes(in)); err != nil {
		return err
	}
	for _, i := range splitPoints(in) {
		if set == QuickChunkings {
			break
		}
		if err := feed(fmt.Sprintf("split@%d", i), [][]byte{in[:i], in[i:]}); err != nil {
			return err
		}
	}
	for seed := uint64(1); seed <= 4; seed++ {
		if err := feed(fmt.Sprintf("random(seed=%d)", seed), splitRandom(in, seed, 2+int(seed*seed*3))); err != nil {
			return err
		}
	}
	if len(in) > everySplitMax && set != QuickChunkings {
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
