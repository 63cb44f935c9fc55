package parserstest_test

import (
	"fmt"
	"testing"

	"github.com/agentwire/agentwire/parsers"
	"github.com/agentwire/agentwire/parsers/parserstest"
)

// printTB stands in for the *testing.T of a real test and prints what Run
// reports.
type printTB struct{ testing.TB }

func (printTB) Helper() {}

func (printTB) Errorf(format string, args ...any) { fmt.Printf(format+"\n", args...) }

func ExampleRun() {
	cfg := parsers.Config{ToolParser: "hermes", ReasoningParser: "qwen3"}
	output := "<think>weather in Paris</think><tool_call>\n" +
		`{"name": "get_weather", "arguments": {"city": "Paris"}}` + "\n</tool_call>"

	// In a test: parserstest.Run(t, cfg, …). Every check passes: nothing printed.
	parserstest.Run(printTB{}, cfg, parserstest.NewCase("weather", output, parserstest.Expected{
		Reasoning: "weather in Paris",
		Calls:     []parserstest.Call{parserstest.NewCall("get_weather", `{"city": "Paris"}`)},
	}))

	// A wrong expectation is reported (only the buffered-result check shown).
	parserstest.Runner{}.Run(printTB{}, cfg, parserstest.Case{
		Name: "wrong", Input: output, Expected: &parserstest.Expected{Reasoning: "weather in Paris"},
		Skip: []parserstest.Check{parserstest.CheckChunking},
	})
	// Output:
	// wrong: Parse: 1 calls, want 0:
	//  got [get_weather {"city": "Paris"}]
	// want (none)
	// wrong: stream: 1 calls, want 0:
	//  got [get_weather {"city": "Paris"}]
	// want (none)
	// wrong: whole-calls, fed whole: 1 calls, want 0:
	//  got [get_weather {"city": "Paris"}]
	// want (none)
}
