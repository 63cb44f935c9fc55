//go:build race

package parserstest_test

const raceEnabled = true
