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
