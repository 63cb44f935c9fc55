package parsers

import "testing"

// FuzzDSML runs DSML (deepseek_v4) through paramFuzz, seeded from the
// deepseek_v4 and deepseek_v3_2 fixtures and the captures.
func FuzzDSML(f *testing.F) {
	paramFuzz(f, "deepseek_v4", "deepseek_v4", "deepseek_v4", "deepseek_v3_2", "captures")
}
