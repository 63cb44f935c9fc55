//go:build race

package parsers_test

// raceEnabled is set when testing with -race (see TestInvariants).
const raceEnabled = true
