package preprocess_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agentwire/agentwire/preprocess"
	"github.com/agentwire/agentwire/protocols/openai"
)

// Serving a model directory: load it once, then prepare each request.
func Example() {
	model, err := preprocess.LoadModel("../testdata/models/tiny", preprocess.ModelOptions{})
	if err != nil {
		panic(err)
	}
	p := preprocess.New(model, preprocess.Options{ServedModel: "tiny-qwen3"})

	var req openai.ChatRequest
	_ = json.Unmarshal([]byte(`{"model":"tiny","messages":[{"role":"user","content":"Hi!"}],
		"tools":[{"type":"function","function":{"name":"ls","parameters":{"type":"object"}}}]}`), &req)
	prep, err := p.Chat(context.Background(), &req)
	if err != nil {
		panic(err)
	}
	fmt.Println("family:", model.Family)
	fmt.Println("parsers:", prep.Parsers.ToolParser, prep.Parsers.ReasoningParser)
	fmt.Printf("prompt ends: %q\n", prep.Engine.Prompt[len(prep.Engine.Prompt)-53:])
	fmt.Println("prompt tokens:", len(prep.Engine.PromptIDs) == prep.Response.PromptTokens)
	fmt.Println("max tokens:", prep.Engine.MaxTokens == model.ContextLength-prep.Response.PromptTokens)
	fmt.Println("hidden stop ids:", prep.Engine.Stop.HiddenIDs)
	// Output:
	// family: Qwen3
	// parsers: hermes qwen3
	// prompt ends: "<|im_start|>user\nHi!<|im_end|>\n<|im_start|>assistant\n"
	// prompt tokens: true
	// max tokens: true
	// hidden stop ids: [263 261]
}
