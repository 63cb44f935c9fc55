package parsers

import "testing"

// TestToolParserInfoIsACopy: changing what ToolParser returns does not
// change the registry.
func TestToolParserInfoIsACopy(t *testing.T) {
	a, ok := ToolParser("hermes")
	if !ok || len(a.Openers) == 0 || len(a.Closers) == 0 {
		t.Fatalf("hermes: %+v %v", a, ok)
	}
	a.Openers[0], a.Closers[0] = "changed", "changed"
	b, _ := ToolParser("hermes")
	if b.Openers[0] == "changed" || b.Closers[0] == "changed" {
		t.Errorf("ToolParser returned the registry's own slices: %+v", b)
	}
}

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
