package parsers

import (
	"strings"
	"testing"
)

// gemma4Output is a Gemma 4 output: a reasoning span, text, two calls whose
// string argument holds n bytes (with quotes, backslashes and newlines to
// convert), and text after them.
func gemma4Output(n int) string {
	fill := benchOutput("content", n)
	call := `<|tool_call>call:write_file{path:<|"|>/tmp/out.txt<|"|>,content:<|"|>` + fill + "\n\"q\" \\ <|x" +
		`<|"|>,mode:420,overwrite:true,tags:[<|"|>a<|"|>,-1.50]}<tool_call|>`
	return "<|channel>thought\nplan<channel|>Sure. " + call + call + "\nDone."
}

// FuzzGemma4 runs the gemma4 tool grammar, alone and behind the gemma4
// reasoning parser, streaming and whole-call, with small buffer limits.
func FuzzGemma4(f *testing.F) {
	fixtureSeeds(f, "gemma4", "compose")
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, sel uint8) {
		cfg := Config{ToolParser: "gemma4", WholeCalls: sel&1 != 0}
		if sel&2 != 0 {
			cfg.ReasoningParser = "gemma4"
		}
		if sel&4 != 0 {
			cfg.MaxCallBuffer = 16
		}
		fuzzInvariants(t, cfg, in, seed)
	})
}

func TestGemma4Allocs(t *testing.T) {
	assertNoAllocs(t, Config{ToolParser: "gemma4", ReasoningParser: "gemma4"}, gemma4Output(2<<10))
	// A bare body (held, then emitted whole).
	assertNoAllocs(t, Config{ToolParser: "gemma4"}, "call:f{a:<|\"|>"+benchOutput("content", 1<<10)+"<|\"|>}<tool_call|> x")
}

// TestGemma4FragmentsPerFeed: converted string pieces are gathered, so a
// Feed yields at most one argument fragment per call however many escapes it
// converts (an emitter turns each fragment into a wire event).
func TestGemma4FragmentsPerFeed(t *testing.T) {
	p, err := New(Config{ToolParser: "gemma4"})
	if err != nil {
		t.Fatal(err)
	}
	body := strings.Repeat("line \"x\"\n", 100)
	evs := p.Feed([]byte(`<|tool_call>call:f{a:<|"|>` + body + `<|"|>}`))
	n := 0
	for _, e := range evs {
		if e.Kind == EventToolCallArgs {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d argument fragments in one Feed, want 1", n)
	}
}
