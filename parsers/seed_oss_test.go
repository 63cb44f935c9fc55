package parsers

import "testing"

// FuzzSeedOSS runs the seed_oss tool parser alone and behind its reasoning
// parser, with and without a typed schema, streaming or whole-call mode, with
// a small buffer limit; seeded from the seed_oss fixtures.
func FuzzSeedOSS(f *testing.F) { paramFuzz(f, "seed_oss", "seed_oss", "seed_oss") }
