//go:build race

package parsers_test

import "github.com/agentwire/agentwire/parsers/parserstest"

// raceChunkings: under the race detector the fixture suite feeds
// FewChunkings (TESTING.md, "The invariant harness").
const raceChunkings = parserstest.FewChunkings
