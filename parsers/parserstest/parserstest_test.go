package parserstest_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentwire/agentwire/parsers"
	"github.com/agentwire/agentwire/parsers/parserstest"
)

// recorder is a fake testing.TB that records what Run reports.
type recorder struct {
	testing.TB // nil: calling anything else panics
	errs       []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func (r *recorder) has(sub string) bool {
	for _, e := range r.errs {
		if strings.Contains(e, sub) {
			return true
		}
	}
	return false
}

// TestLibraryFixtures runs the package over some of the parsers module's own
// fixture files, loaded as a user would load theirs.
func TestLibraryFixtures(t *testing.T) {
	for _, pattern := range []string{
		"../testdata/hermes/*.json",
		"../testdata/think/*.json",
		"../testdata/compose/think_hermes.json",
		"../testdata/captures/qwen3.json",
		"../testdata/kimi_k2/*.json",
	} {
		files, err := parserstest.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		parserstest.RunFiles(t, files...)
	}
}

var weather = `<tool_call>
{"name": "get_weather", "arguments": {"location": "Paris", "unit": "celsius"}}
</tool_call>`

func TestHandBuiltCases(t *testing.T) {
	cfg := parsers.Config{ToolParser: "hermes", ReasoningParser: "qwen3"}
	parserstest.Run(t, cfg,
		parserstest.NewCase("reasoning, text and a call",
			"<think>the user wants weather</think>Checking.\n"+weather,
			parserstest.Expected{
				Reasoning: "the user wants weather",
				Content:   "Checking.\n",
				Calls:     []parserstest.Call{parserstest.NewCall("get_weather", `{"unit":"celsius","location":"Paris"}`)},
			}),
		parserstest.NewCase("plain text", "Héllo, wörld 👋", parserstest.Expected{Content: "Héllo, wörld 👋"}),
		parserstest.FromDeltas("captured deltas",
			[]string{"<th", "ink>hm</th", "ink>", "<tool_", "call>\n{\"name\": \"f\", \"argu", "ments\": {\"a\": [1, 2]}}\n</tool_call>"},
			&parserstest.Expected{Reasoning: "hm", Calls: []parserstest.Call{parserstest.NewCall("f", `{"a":[1,2]}`)}}),
		// A capture without an expectation: invariants only.
		parserstest.FromDeltas("capture only", []string{"<think>a", "</think>b <tool_call>\n{\"name\"", ": \"g\", \"arguments\": {}}\n</tool_call>"}, nil),
	)
}

func TestFixtureFromJSON(t *testing.T) {
	f, err := parserstest.Decode([]byte(`{
		"family": "mine",
		"tool_parsers": ["hermes"],
		"reasoning_parsers": ["qwen3", "-"],
		"cases": [{
			"name": "call with pinned text",
			"input": "<tool_call>{\"name\": \"f\", \"arguments\": {\"b\": 1, \"a\": 2.0}}</tool_call>",
			"chunks": ["<tool_call>{\"name\": \"f\", \"arg", "uments\": {\"b\": 1, \"a\": 2.0}}</tool_call>"],
			"options": {},
			"skip": ["allocs"],
			"expected": {"content": "", "reasoning": "", "calls": [{"name": "f", "arguments_text": "{\"b\":1,\"a\":2.0}"}]}
		}]
	}`))
	if err != nil {
		t.Fatal(err)
	}
	cfgs, err := f.Configs(&f.Cases[0])
	if err != nil || len(cfgs) != 2 || cfgs[1].ReasoningParser != "" {
		t.Fatalf("Configs = %+v, %v; want hermes with qwen3 and with none", cfgs, err)
	}
	parserstest.RunFiles(t, f)
}

func TestDecodeRejects(t *testing.T) {
	for name, js := range map[string]string{
		"unknown field":         `{"family": "x", "cases": [{"name": "a", "input": "x", "expect": {}}]}`,
		"unknown check":         `{"family": "x", "cases": [{"name": "a", "input": "x", "skip": ["alloc"]}]}`,
		"chunks do not join":    `{"family": "x", "cases": [{"name": "a", "input": "abc", "chunks": ["a", "c"]}]}`,
		"data after the object": `{"family": "x"} {}`,
	} {
		if _, err := parserstest.Decode([]byte(js)); err == nil {
			t.Errorf("%s: Decode succeeded, want an error", name)
		}
	}
	if _, err := parserstest.Glob("testdata-that-does-not-exist/*.json"); err == nil {
		t.Error("Glob of nothing succeeded, want an error")
	}
}

// TestReportsFailures proves the checks can fail: wrong expectations and
// markup in text are reported through the testing.TB.
func TestReportsFailures(t *testing.T) {
	cfg := parsers.Config{ToolParser: "hermes"}
	good := parserstest.Expected{Calls: []parserstest.Call{parserstest.NewCall("get_weather", `{"location":"Paris","unit":"celsius"}`)}}
	tests := []struct {
		name string
		cfg  parsers.Config
		c    parserstest.Case
		want []string // substrings of the reported errors
	}{
		{"wrong content", cfg, parserstest.NewCase("c", "Hi "+weather, good), []string{"c: Parse: content", `got "Hi "`, "c: stream: content"}},
		{"wrong argument value", cfg, parserstest.NewCase("c", weather, parserstest.Expected{
			Calls: []parserstest.Call{parserstest.NewCall("get_weather", `{"location":"Rome","unit":"celsius"}`)}}),
			[]string{"call 0 (get_weather): arguments"}},
		{"wrong name", cfg, parserstest.NewCase("c", weather, parserstest.Expected{
			Calls: []parserstest.Call{parserstest.NewCall("get_time", `{"location":"Paris","unit":"celsius"}`)}}),
			[]string{`name "get_weather", want "get_time"`}},
		{"missing call", cfg, parserstest.NewCase("c", weather, parserstest.Expected{}), []string{"1 calls, want 0"}},
		{"pinned text differs", cfg, parserstest.NewCase("c", weather, parserstest.Expected{
			Calls: []parserstest.Call{{Name: "get_weather", ArgumentsText: `{"unit":"celsius","location":"Paris"}`}}}),
			[]string{"arguments"}},
		{"pinned id differs", cfg, parserstest.NewCase("c", weather, parserstest.Expected{
			Calls: []parserstest.Call{{ID: "call_x", Name: "get_weather", Arguments: []byte(`{"location":"Paris","unit":"celsius"}`)}}}),
			[]string{`want "call_x"`}},
		{"abandoned count", cfg, parserstest.NewCase("c", "<tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": ", parserstest.Expected{}),
			[]string{"1 abandoned calls, want 0"}},
		{"markup in reasoning", parsers.Config{ToolParser: "hermes", ReasoningParser: "basic"},
			parserstest.NewCase("c", "<think>I should call <tool_call> the tool</think>ok", parserstest.Expected{
				Reasoning: "I should call <tool_call> the tool", Content: "ok"}),
			[]string{`reasoning contains markup "<tool_call>"`}},
		{"unknown parser", parsers.Config{ToolParser: "no-such-parser"}, parserstest.NewCase("c", "x", parserstest.Expected{Content: "x"}),
			[]string{"unknown parser"}},
		{"chunks do not join", cfg, parserstest.Case{Name: "c", Input: "abc", Chunks: []string{"ab"}}, []string{"do not join"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{}
			parserstest.Run(rec, tt.cfg, tt.c)
			if len(rec.errs) == 0 {
				t.Fatal("no error reported")
			}
			for _, w := range tt.want {
				if !rec.has(w) {
					t.Errorf("no reported error contains %q; got:\n%s", w, strings.Join(rec.errs, "\n"))
				}
			}
		})
	}
}

// TestAllowMarkupAndSkip: the same case passes once the markup is declared
// legitimate, and a wrong expectation passes when its check is switched off.
func TestAllowMarkupAndSkip(t *testing.T) {
	cfg := parsers.Config{ToolParser: "hermes", ReasoningParser: "basic"}
	c := parserstest.NewCase("c", "<think>I should call <tool_call> the tool</think>ok",
		parserstest.Expected{Reasoning: "I should call <tool_call> the tool", Content: "ok"})
	c.AllowMarkup = true
	parserstest.Run(t, cfg, c)

	rec := &recorder{}
	wrong := parserstest.NewCase("c", weather, parserstest.Expected{Content: "nothing like it"})
	parserstest.Runner{Skip: []parserstest.Check{parserstest.CheckExpected}}.Run(rec, parsers.Config{ToolParser: "hermes"}, wrong)
	if len(rec.errs) != 0 {
		t.Errorf("with the expected check off: %q", rec.errs)
	}
	wrong.Skip = []parserstest.Check{parserstest.CheckExpected}
	parserstest.Run(rec, parsers.Config{ToolParser: "hermes"}, wrong)
	if len(rec.errs) != 0 {
		t.Errorf("with the case skipping the expected check: %q", rec.errs)
	}
}

// TestRunnerOptions: Markup and AfterFeed add checks that can fail,
// CapturedChunkings still compares the deltas with the whole feed, and
// settings that do not go together are reported.
func TestRunnerOptions(t *testing.T) {
	cfg := parsers.Config{ToolParser: "hermes"}
	c := parserstest.NewCase("c", "Hi there "+weather, parserstest.Expected{Content: "Hi there ",
		Calls: []parserstest.Call{parserstest.NewCall("get_weather", `{"location":"Paris","unit":"celsius"}`)}})

	feeds := 0
	parserstest.Runner{AfterFeed: func(*parsers.Parser) error { feeds++; return nil }}.Run(t, cfg, c)
	if feeds == 0 {
		t.Error("AfterFeed never called")
	}
	for _, tt := range []struct {
		name string
		r    parserstest.Runner
		want string
	}{
		{"markup", parserstest.Runner{Markup: func(*parsers.Parser) []string { return []string{"there"} }},
			`content contains markup "there"`},
		{"after feed", parserstest.Runner{AfterFeed: func(*parsers.Parser) error { return fmt.Errorf("held too much") }},
			"held too much"},
		{"parallel with allocs", parserstest.Runner{Parallel: true}, "must skip CheckAllocs"},
		{"unknown skip", parserstest.Runner{Skip: []parserstest.Check{"alloc"}}, `unknown check "alloc"`},
	} {
		rec := &recorder{}
		tt.r.Run(rec, cfg, c)
		if !rec.has(tt.want) {
			t.Errorf("%s: no reported error contains %q; got %q", tt.name, tt.want, rec.errs)
		}
	}

	// Fuzzing's use: only the captured deltas against the whole feed.
	rec := &recorder{}
	fuzz := parserstest.Runner{Chunkings: parserstest.CapturedChunkings,
		Skip: []parserstest.Check{parserstest.CheckExpected, parserstest.CheckAllocs}}
	fuzz.Run(rec, cfg, parserstest.FromDeltas("deltas", []string{"Hi <tool_", "call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call>"}, nil))
	if len(rec.errs) != 0 {
		t.Errorf("CapturedChunkings: %q", rec.errs)
	}
	parserstest.Runner{Skip: []parserstest.Check{parserstest.CheckAllocs}, Parallel: true}.Run(t, cfg, c)
}
