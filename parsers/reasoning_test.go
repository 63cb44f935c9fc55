package parsers

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzReasoning runs every paired-marker reasoning grammar.
func FuzzReasoning(f *testing.F) {
	fixtureSeeds(f, "think", "think_forced", "kimi", "mistral", "kimi_k25", "deepseek_v4", "minimax_m2", "gemma4", "granite", "minimax_append_think")
	names := []string{"qwen3", "deepseek_r1", "kimi", "kimi_k25", "mistral", "deepseek_v4", "minimax_m2", "gemma4", "granite", "minimax_append_think"}
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, sel uint8) {
		cfg := Config{ReasoningParser: names[int(sel)%len(names)], InReasoning: sel&0x80 != 0, Unforced: sel&0x40 != 0}
		fuzzInvariants(t, cfg, in, seed)
	})
}

// TestUnforced: Config.Unforced starts a forced reasoning parser outside
// reasoning (a tool call or an answer before the opener is not
// reasoning), unless InReasoning says the prompt opened it.
func TestUnforced(t *testing.T) {
	const call = `[TOOL_CALLS]Bash[ARGS]{"command": "ls"}`
	cases := []struct {
		name        string
		in          string
		inReasoning bool
		want        Result
	}{
		{"call without [THINK]", call, false, Result{Calls: []ToolCall{{Name: "Bash", Arguments: `{"command": "ls"}`}}}},
		{"answer without [THINK]", "Hello.", false, Result{Content: "Hello."}},
		{"[THINK] then a call", "[THINK]r[/THINK]" + call, false, Result{Reasoning: "r", Calls: []ToolCall{{Name: "Bash", Arguments: `{"command": "ls"}`}}}},
		{"the prompt opened reasoning", "r[/THINK]Hi.", true, Result{Reasoning: "r", Content: "Hi."}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Parse(Config{ToolParser: "mistral", ReasoningParser: "mistral", Unforced: true, InReasoning: c.inReasoning}, c.in)
			if err != nil {
				t.Fatal(err)
			}
			for i := range got.Calls {
				got.Calls[i].ID = ""
			}
			if d := cmp.Diff(c.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
	// Forced (the default), the call is reasoning: what Unforced prevents.
	got, _ := Parse(Config{ToolParser: "mistral", ReasoningParser: "mistral"}, call)
	if len(got.Calls) != 0 || got.Reasoning != call {
		t.Errorf("forced: %+v", got)
	}
}
