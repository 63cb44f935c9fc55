//go:build !race

package parsers_test

import "github.com/agentwire/agentwire/parsers/parserstest"

// raceChunkings: without the race detector the fixture suite feeds every
// chunking.
const raceChunkings = parserstest.AllChunkings
