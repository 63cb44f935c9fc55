// Command quickstart parses one model output twice: buffered, then streamed
// in small chunks the way an engine delivers it, printing every event.
package main

import (
	"fmt"
	"log"

	"github.com/agentwire/agentwire/parsers"
)

// output is what a Qwen3 model writes for a tool call: reasoning, a sentence,
// and a hermes-style call.
const output = "<think>\nThe user wants the weather in Paris; I should call get_weather.\n</think>\n\n" +
	"Let me check that for you.\n" +
	"<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"unit\": \"celsius\"}}\n</tool_call>"

func main() {
	cfg := parsers.Config{ToolParser: "hermes", ReasoningParser: "qwen3"}

	// 1. Buffered: detect and parse a whole output.
	res, err := parsers.Parse(cfg, output)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("== buffered")
	fmt.Printf("reasoning: %q\n", res.Reasoning)
	fmt.Printf("content:   %q\n", res.Content)
	for _, c := range res.Calls {
		fmt.Printf("call:      id=%s name=%s arguments=%s\n", c.ID, c.Name, c.Arguments)
	}

	// 2. Streaming: the same output in 7-byte chunks. Markers split across
	// chunks are held back until they are decided; arguments stream as
	// they are generated.
	fmt.Println("== streaming (7-byte chunks)")
	p, err := parsers.New(cfg)
	if err != nil {
		log.Fatal(err)
	}
	for i := 0; i < len(output); i += 7 {
		end := min(i+7, len(output))
		for _, e := range p.Feed([]byte(output[i:end])) {
			fmt.Println(e)
		}
	}
	for _, e := range p.Finish() {
		fmt.Println(e)
	}
}
