package parsers

import (
	"testing"
)

// TestMuseGlimmerCombinations pins the pairings of the Muse Glimmer
// parsers: one machine for both roles; the reasoning parser alone forwards
// tool messages raw; other families do not combine with it.
func TestMuseGlimmerCombinations(t *testing.T) {
	const call = `<|start|>assistant to=f<|message|><atem:invoke name="f"></atem:invoke><|eom|>`
	const out = " to=self<|message|>r<|eom|><|start|>assistant to=user<|message|>a<|eom|>" + call
	checkCombinations(t, out, []combination{
		{"muse_glimmer", "", "a", 1, nil},
		{"muse", "glimmer", "a", 1, nil},
		{"", "muse_glimmer", "a" + call, 0, nil},
		{"hermes", "muse", "", 0, ErrParserCombination},
		{"glimmer", "qwen3", "", 0, ErrParserCombination},
	})
}

// TestMuseGlimmerName pins the invoke-name resolution: NAME.NAME is the
// declared tool NAME only when NAME.NAME itself is not declared.
func TestMuseGlimmerName(t *testing.T) {
	for _, tc := range []struct {
		tools []string
		name  string
		want  string
	}{
		{nil, "read.read", "read.read"},
		{[]string{"read"}, "read", "read"},
		{[]string{"read"}, "read.read", "read"},
		{[]string{"read", "read.read"}, "read.read", "read.read"},
		{[]string{"read"}, "repo.read", "repo.read"},
		{[]string{"repo.read"}, "repo.read.repo.read", "repo.read.repo.read"},
		{[]string{"write"}, "read.read", "read.read"},
		{[]string{"read"}, "read.read.read", "read.read.read"},
	} {
		var tools []Tool
		for _, n := range tc.tools {
			tools = append(tools, Tool{Name: n})
		}
		if got := string(museGlimmerName(newSchemaIndex(tools), []byte(tc.name))); got != tc.want {
			t.Errorf("tools %v, name %q: got %q, want %q", tc.tools, tc.name, got, tc.want)
		}
	}
}

// TestMuseGlimmerFeedAllocs asserts zero allocations after warm-up for the
// Muse Glimmer machine (schema-typed and unconstrained values, raw tool
// messages).
func TestMuseGlimmerFeedAllocs(t *testing.T) {
	tools := museGlimmerBenchTools()
	out := museGlimmerBenchOutput(2<<10, true) + museGlimmerBenchOutput(1<<10, false)
	assertNoAllocs(t, Config{ToolParser: "muse_glimmer", ReasoningParser: "muse_glimmer", Tools: tools}, out)
	assertNoAllocs(t, Config{ToolParser: "muse"}, out)
	checkFeedAllocs(t, "raw", Config{ReasoningParser: "glimmer", Tools: tools}, out)
}

// FuzzMuseGlimmer runs the Muse Glimmer machine as the tool parser (with and
// without its reasoning parser, with and without schemas), as the reasoning
// parser alone, in streaming and whole-call mode, with small buffer limits.
func FuzzMuseGlimmer(f *testing.F) {
	fixtureSeeds(f, "muse_glimmer")
	tools := museGlimmerBenchTools()
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, sel uint8) {
		cfg := Config{ToolParser: "muse_glimmer", WholeCalls: sel&1 != 0, InReasoning: sel&16 != 0}
		switch sel >> 1 & 3 {
		case 1:
			cfg.ReasoningParser = "muse_glimmer"
		case 2:
			cfg.ToolParser, cfg.ReasoningParser = "", "muse_glimmer"
		}
		if sel&8 != 0 {
			cfg.MaxCallBuffer = 24
		}
		if sel&32 != 0 {
			cfg.Tools = tools
		}
		fuzzInvariants(t, cfg, in, seed)
	})
}

// maxHold is the most feed ever asks the driver to hold: a marker prefix, a
// recipient of a header met in reasoning, or the whitespace before an ATEM
// block that opens a content message.
func (g *museGlimmer) maxHold() int {
	return max(g.tc.maxHold(), len(mgTo)+mgRcptMax+len(mgMessage), mgLeadMax+len(mgCallsOpen), mgLeadMax+len(mgTo))
}
