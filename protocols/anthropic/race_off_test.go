//go:build !race

package anthropic_test

const raceEnabled = false
