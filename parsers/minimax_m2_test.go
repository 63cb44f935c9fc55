package parsers

import "testing"

// FuzzMinimaxM2 runs minimax_m2 through paramFuzz (behind its reasoning
// parser), seeded from its fixtures.
func FuzzMinimaxM2(f *testing.F) { paramFuzz(f, "minimax_m2", "minimax_m2", "minimax_m2") }
