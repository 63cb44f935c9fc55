package parsers

import "testing"

// FuzzQwen3Coder runs qwen3_coder through paramFuzz (behind nemotron_nano),
// seeded from its fixtures.
func FuzzQwen3Coder(f *testing.F) { paramFuzz(f, "qwen3_coder", "nemotron_nano", "qwen3_coder") }
