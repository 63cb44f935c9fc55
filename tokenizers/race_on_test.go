//go:build race

package tokenizers

// raceEnabled is set when testing with -race, where sync.Pool drops items
// at random, so allocation counts of pooled paths are not meaningful.
const raceEnabled = true
