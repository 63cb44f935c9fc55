package parsers

import "testing"

// TestReasoningParserInfoIsACopy: changing what ReasoningParser returns does
// not change the registry.
func TestReasoningParserInfoIsACopy(t *testing.T) {
	a, ok := ReasoningParser("qwen3")
	if !ok || len(a.Starts) == 0 || len(a.Ends) == 0 {
		t.Fatalf("qwen3: %+v %v", a, ok)
	}
	a.Starts[0], a.Ends[0] = "changed", "changed"
	b, _ := ReasoningParser("qwen3")
	if b.Starts[0] == "changed" || b.Ends[0] == "changed" {
		t.Errorf("ReasoningParser returned the registry's own slices: %+v", b)
	}
}
