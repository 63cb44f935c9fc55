package pipeline_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"time"

	"github.com/agentwire/agentwire/parsers"
	"github.com/agentwire/agentwire/preprocess"
	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/agentwire/agentwire/preprocess/pipeline"
	"github.com/agentwire/agentwire/protocols/openai"
)

// textEngine is an in-memory engine that streams fixed text deltas.
type textEngine []string

func (e textEngine) Generate(ctx context.Context, _ *engine.Request) (engine.Stream, error) {
	return &textStream{deltas: e}, nil
}

type textStream struct {
	deltas []string
	out    engine.Output
}

func (s *textStream) Next() (*engine.Output, error) {
	if len(s.deltas) == 0 {
		return nil, io.EOF
	}
	s.out = engine.Output{Text: []byte(s.deltas[0]), HasText: true}
	if s.deltas = s.deltas[1:]; len(s.deltas) == 0 {
		s.out.Finish = engine.FinishEOS
	}
	return &s.out, nil
}

func (s *textStream) Close() error { return nil }

// A Qwen3 output with reasoning and a Hermes tool call becomes a unary
// chat completion with reasoning_content and tool_calls.
func ExampleServeWith() {
	eng := textEngine{"<think>", "Weather lookup.", "</think>", "\n\n", "<tool_call>\n",
		`{"name": "get_weather", "arguments": {"city": "Paris"}}`, "\n</tool_call>"}
	prep := &preprocess.Prepared{
		API:      preprocess.APIChat,
		Stream:   false,
		Engine:   engine.Request{Model: "Qwen/Qwen3-0.6B", MaxTokens: 256, RequestID: "1"},
		Parsers:  parsers.Config{ToolParser: "hermes", ReasoningParser: "qwen3"},
		Response: preprocess.ResponsePlan{Model: "qwen3", PromptTokens: 20},
	}
	w := httptest.NewRecorder()
	err := pipeline.ServeWith(context.Background(), w, eng, prep, pipeline.Options{
		Now:  func() time.Time { return time.Unix(1700000000, 0) },
		Seed: 1, // deterministic ids, for this example only
	})
	var resp openai.ChatResponse
	_ = json.Unmarshal(w.Body.Bytes(), &resp)
	msg := resp.Choices[0].Message
	fmt.Println(err, w.Code, resp.Choices[0].FinishReason.Value())
	fmt.Printf("reasoning: %q\n", openai.FlattenReasoning(msg.ReasoningContent.Value()))
	fmt.Printf("call: %s %s\n", msg.ToolCalls[0].Function.Name, msg.ToolCalls[0].Function.Arguments)
	fmt.Printf("usage: %d prompt, %d completion\n", resp.Usage.PromptTokens, resp.Usage.CompletionTokens)
	// Output:
	// <nil> 200 tool_calls
	// reasoning: "Weather lookup."
	// call: get_weather {"city": "Paris"}
	// usage: 20 prompt, 7 completion
}
