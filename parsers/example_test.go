package parsers_test

import (
	"errors"
	"fmt"

	"github.com/agentwire/agentwire/parsers"
)

const output = "<think>The user wants the weather.</think>Let me check.\n" +
	"<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>"

// Parse is the buffered entry point: reasoning, content and complete calls.
func ExampleParse() {
	res, err := parsers.Parse(parsers.Config{ToolParser: "hermes", ReasoningParser: "qwen3"}, output)
	if err != nil {
		panic(err)
	}
	fmt.Printf("reasoning: %q\n", res.Reasoning)
	fmt.Printf("content:   %q\n", res.Content)
	for _, c := range res.Calls {
		fmt.Printf("call:      %s %s\n", c.Name, c.Arguments)
	}
	// Output:
	// reasoning: "The user wants the weather."
	// content:   "Let me check.\n"
	// call:      get_weather {"city": "Paris"}
}

// Feed streams: events come as soon as the bytes decide them. Marker
// prefixes are held back until the next chunk says what they are.
func ExampleParser_Feed() {
	p, err := parsers.New(parsers.Config{ToolParser: "hermes", ReasoningParser: "qwen3"})
	if err != nil {
		panic(err)
	}
	for _, chunk := range []string{"<think>The user wants", " the weather.</th", "ink>Let me check.\n<tool_", "call>\n{\"name\": \"get_weather\", ",
		"\"arguments\": {\"city\": \"Pa", "ris\"}}\n</tool_call>"} {
		for _, e := range p.Feed([]byte(chunk)) {
			if e.Kind == parsers.EventToolCallStart {
				e.ID = []byte("call_…") // ids are random
			}
			fmt.Println(e)
		}
	}
	for _, e := range p.Finish() {
		fmt.Println(e)
	}
	// Output:
	// reasoning("The user wants")
	// reasoning(" the weather.")
	// content("Let me check.\n")
	// tool_call_start(0, "call_…", "get_weather")
	// tool_call_args(0, "{\"city\": \"Pa")
	// tool_call_args(0, "ris\"}")
	// tool_call_end(0)
}

// WholeCalls emits each call in one piece at its end.
func ExampleConfig_wholeCalls() {
	res, _ := parsers.Parse(parsers.Config{ToolParser: "hermes", WholeCalls: true},
		"<tool_call>{\"name\": \"a\", \"arguments\": {}}</tool_call><tool_call>{\"name\": \"b\"}</tool_call>")
	for _, c := range res.Calls {
		fmt.Println(c.Name, c.Arguments)
	}
	// Output:
	// a {}
	// b {}
}

// An unknown parser name is an error listing the registered names.
func ExampleNew_unknownParser() {
	_, err := parsers.New(parsers.Config{ToolParser: "no_such_parser"})
	fmt.Println(errors.Is(err, parsers.ErrUnknownParser))
	// Output:
	// true
}

// The Accumulator turns a stream of events into a Result.
func ExampleAccumulator() {
	p, _ := parsers.New(parsers.Config{ReasoningParser: "deepseek_r1"})
	var acc parsers.Accumulator
	for _, chunk := range []string{"forced reasoning", "</think>", "answer"} {
		acc.Add(p.Feed([]byte(chunk)))
	}
	acc.Add(p.Finish())
	res := acc.Result()
	fmt.Printf("%q %q\n", res.Reasoning, res.Content)
	// Output:
	// "forced reasoning" "answer"
}

func ExampleToolsFromJSON() {
	tools, err := parsers.ToolsFromJSON([]byte(`[{"type": "function", "function": {"name": "get_weather",
		"parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}]`))
	fmt.Println(len(tools), tools[0].Name, err)
	// Output:
	// 1 get_weather <nil>
}

// A Pool hands out reusable Parsers for one Config; a serving loop takes one
// per request and puts it back when the stream is done.
func ExamplePool() {
	pool, err := parsers.NewPool(parsers.Config{ToolParser: "hermes", ReasoningParser: "qwen3"})
	if err != nil {
		panic(err)
	}
	for _, output := range []string{"<think>a</think>one", "<think>b</think>two"} {
		p := pool.Get()
		var acc parsers.Accumulator
		acc.Add(p.Feed([]byte(output)))
		acc.Add(p.Finish())
		pool.Put(p)
		fmt.Println(acc.Result().Reasoning, acc.Result().Content)
	}
	// Output:
	// a one
	// b two
}
