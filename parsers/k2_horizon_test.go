package parsers

import "testing"

// FuzzK2Horizon runs the K2 Horizon grammar through paramFuzz (behind its
// reasoning parser), seeded from its fixtures.
func FuzzK2Horizon(f *testing.F) { paramFuzz(f, "k2_horizon", "k2_horizon", "k2_horizon") }

// TestK2HorizonAllocs asserts zero allocations after warm-up for K2 Horizon
// calls in the three formats (typed values, type elements, JSON bodies).
func TestK2HorizonAllocs(t *testing.T) {
	assertNoAllocs(t, Config{ToolParser: "k2_horizon", ReasoningParser: "k2_horizon", Tools: paramTools}, "r</ifm|think>"+k2HorizonBenchOutput(2<<10, false))
	assertNoAllocs(t, Config{ToolParser: "k2_horizon"}, k2HorizonBenchOutput(1<<10, true))
}

// TestExplicitType pins how a written type element combines with the
// schema's type.
func TestExplicitType(t *testing.T) {
	free := paramType{free: true}
	for _, tc := range []struct {
		schema  paramType
		written string
		want    paramType
	}{
		{free, "integer", paramType{set: tInteger}},
		{free, " Any ", paramType{set: tString}},
		{free, "array[string]", paramType{set: tArray}},
		{free, "", free},
		{paramType{set: tInteger | tString}, "integer", paramType{set: tInteger}},
		{paramType{set: tInteger | tNull}, "integer", paramType{set: tInteger}},
		{paramType{set: tInteger}, "string", paramType{set: tInteger}},
		{paramType{set: tString}, "string", paramType{set: tString}},
		{paramType{set: tInteger | tString}, "mystery", paramType{set: tInteger | tString}},
	} {
		if got := explicitType(tc.schema, []byte(tc.written)); got != tc.want {
			t.Errorf("explicitType(%v, %q) = %v, want %v", tc.schema, tc.written, got, tc.want)
		}
	}
}
