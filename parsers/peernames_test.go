package parsers

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPeerNames holds peernames.go to the registry: every name New accepts
// has a row (its models and peers are documented), every row is registered
// with its kind, and every row says who uses the spelling (a peer, or a note).
func TestPeerNames(t *testing.T) {
	registered := map[string]bool{}
	for _, n := range ToolParsers() {
		registered["tool:"+n] = true
	}
	for _, n := range ReasoningParsers() {
		registered["reasoning:"+n] = true
	}
	rows := map[string]bool{}
	for _, r := range peerNames {
		key := r.kind.String() + ":" + r.name
		switch {
		case rows[key]:
			t.Errorf("%s: listed twice", key)
		case r.models == "":
			t.Errorf("%s: no models", key)
		case r.peers == 0 && r.note == "":
			t.Errorf("%s: no peer registers it and no note says where it comes from", key)
		}
		rows[key] = true
		if !registered[key] {
			t.Errorf("%s is a peer's name New rejects: register it", key)
		}
	}
	for key := range registered {
		if !rows[key] {
			t.Errorf("%s is registered but has no row in peernames.go (its models and peers)", key)
		}
	}
}

// TestNamesListing: Names renders every row once, in order, with the grammar
// New runs for the name and the peers by name.
func TestNamesListing(t *testing.T) {
	names := Names()
	if len(names) != len(peerNames) {
		t.Fatalf("Names() has %d entries, peernames.go %d rows", len(names), len(peerNames))
	}
	for i, n := range names {
		if i > 0 {
			if p := names[i-1]; p.Kind > n.Kind || p.Kind == n.Kind && p.Name >= n.Name {
				t.Errorf("Names() out of order at %d: %s %s after %s %s", i, n.Kind, n.Name, p.Kind, p.Name)
			}
		}
		var want string
		if n.Kind == ToolName {
			info, _ := ToolParser(n.Name)
			want = info.Grammar
		} else {
			info, _ := ReasoningParser(n.Name)
			want = info.Grammar
		}
		if n.Grammar != want {
			t.Errorf("%s %s: Grammar %q, the registry says %q", n.Kind, n.Name, n.Grammar, want)
		}
	}
	got := map[string]NameInfo{}
	for _, n := range names {
		got[n.Kind.String()+":"+n.Name] = n
	}
	for key, want := range map[string]NameInfo{
		"tool:deepseek_v41": {Name: "deepseek_v41", Kind: ToolName, Grammar: "deepseek_v41", Models: "DeepSeek V4.1 (Flash)", Peers: []string{"vLLM", "Dynamo"}},
		"tool:step3p5":      {Name: "step3p5", Kind: ToolName, Grammar: "qwen3_coder", Models: "StepFun Step-3.5", Peers: []string{"vLLM", "SGLang"}},
		"reasoning:minimax": {Name: "minimax", Kind: ReasoningName, Grammar: "minimax_m2", Models: "MiniMax M2, M2.1", Peers: []string{"SGLang"},
			Note: "SGLang forces a Qwen3-style <think>; here minimax_m2's grammar, whose tool-start tokens also end the span"},
	} {
		if diff := cmp.Diff(want, got[key]); diff != "" {
			t.Errorf("%s (-want +got):\n%s", key, diff)
		}
	}
}
