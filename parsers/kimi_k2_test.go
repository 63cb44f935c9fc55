package parsers

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// kimiOutput is a Kimi K2.5 output: reasoning ended by the section token, a
// section with two calls whose arguments hold n bytes of string data, and
// text after it.
func kimiOutput(n int) string {
	args := `{"path": "/tmp/out.txt", "content": "` + benchOutput("content", n) + "\n\"}"
	return "I'll write it." + kimiMarkers.sectionBegins[0] +
		kimiMarkers.callBegin + "functions.write_file:0" + kimiMarkers.sep + args + kimiMarkers.callEnd +
		kimiMarkers.callBegin + "functions.write_file:1" + kimiMarkers.sep + args + kimiMarkers.callEnd +
		kimiMarkers.sectionEnds[0] + "\nDone."
}

// FuzzKimiK2 runs the Kimi K2 grammar, alone and behind kimi_k25, streaming
// and whole-call, with small buffer limits.
func FuzzKimiK2(f *testing.F) {
	fixtureSeeds(f, "kimi_k2", "compose")
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, sel uint8) {
		cfg := Config{ToolParser: "kimi_k2", WholeCalls: sel&1 != 0}
		if sel&2 != 0 {
			cfg.ReasoningParser = "kimi_k25"
		}
		if sel&4 != 0 {
			cfg.MaxCallBuffer = 16
		}
		fuzzInvariants(t, cfg, in, seed)
	})
}

func TestKimiK2Allocs(t *testing.T) {
	assertNoAllocs(t, Config{ToolParser: "kimi_k2", ReasoningParser: "kimi_k25"}, kimiOutput(2<<10))
}

// TestKimiRepeatedID: the model's ids are kept verbatim even when it repeats
// one (PARSER_CASES.md: the next turn's template renders them back). The
// fixture harness rejects duplicate ids in general, so this lives here.
func TestKimiRepeatedID(t *testing.T) {
	call := kimiMarkers.callBegin + " functions.get_weather:0\n" + kimiMarkers.sep + `{"location": "NYC"}` + kimiMarkers.callEnd
	out := kimiMarkers.sectionBegins[0] + call + call + kimiMarkers.sectionEnds[0]
	for _, whole := range []bool{false, true} {
		res, err := Parse(Config{ToolParser: "kimi_k2", WholeCalls: whole}, out)
		if err != nil {
			t.Fatal(err)
		}
		want := []ToolCall{
			{ID: "functions.get_weather:0", Name: "get_weather", Arguments: `{"location": "NYC"}`},
			{ID: "functions.get_weather:0", Name: "get_weather", Arguments: `{"location": "NYC"}`},
		}
		if diff := cmp.Diff(want, res.Calls); diff != "" {
			t.Errorf("whole=%v: calls (-want +got):\n%s", whole, diff)
		}
	}
}

func TestKimiName(t *testing.T) {
	for _, tc := range []struct{ id, name string }{
		{"functions.get_weather:0", "get_weather"},
		{"functions.get_weather:12", "get_weather"},
		{"get_weather:3", "get_weather"},
		{"functions.mcp__portal__search-documents:2", "mcp__portal__search-documents"},
		{"functions.a.b:1", "a.b"},
		{"functions.天气:0", "天气"},
		{"functions.a:b:0", "functions.a:b:0"}, // ':' is not a name character
		{"functions.get_weather", "functions.get_weather"},
		{"functions.get_weather:", "functions.get_weather:"},
		{"functions.f:x", "functions.f:x"},
		{"functions.:0", "functions.:0"},
		{":0", ":0"},
		{"functions.🔧:0", "functions.🔧:0"},
		{"functions.a b:0", "functions.a b:0"},
		{"functions.\xff:0", "functions.\xff:0"},
	} {
		if got := string(kimiName([]byte(tc.id))); got != tc.name {
			t.Errorf("kimiName(%q) = %q, want %q", tc.id, got, tc.name)
		}
	}
}
