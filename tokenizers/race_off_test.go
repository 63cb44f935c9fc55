//go:build !race

package tokenizers

const raceEnabled = false
