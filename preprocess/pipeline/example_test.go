package pipeline_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/agentwire/agentwire/parsers"
	"github.com/agentwire/agentwire/preprocess"
	"github.com/agentwire/agentwire/preprocess/api"
	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/agentwire/agentwire/preprocess/pipeline"
	"github.com/agentwire/agentwire/protocols"
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
		API:      api.Chat,
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

// A harness backend is a short program: Claude Code's Messages API served
// from a Hugging Face model directory and a vLLM engine (started without
// its own reasoning and tool parsers). The request half renders, tokenizes
// and decides; the pipeline streams (or aggregates) the answer, and
// answers errors in the API's shape.
func Example_harnessBackend() {
	model, err := preprocess.LoadModel("/models/Qwen3-8B", preprocess.ModelOptions{}) // parsers from the family table
	if err != nil {
		log.Fatal(err)
	}
	pre := preprocess.New(model, preprocess.Options{ServedModel: "Qwen/Qwen3-8B"})
	eng := engine.NewVLLM(engine.VLLMConfig{Config: engine.Config{BaseURL: "http://127.0.0.1:8000/v1"}, TokenIDsOnly: true})

	http.HandleFunc("POST /v1/messages", func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, protocols.MaxRequestBytes))
		var req api.Request
		if err == nil {
			req, err = api.Messages.Decode(body, api.DecodeOptions{}) // Anthropic Messages, checked
		}
		var prep *preprocess.Prepared
		if err == nil {
			prep, err = pre.Prepare(r.Context(), req) // template, PRE.1–PRE.6, tokens, stops
		}
		if err != nil {
			api.WriteError(w, api.Messages, err) // the API's own error shape
			return
		}
		_ = pipeline.Serve(r.Context(), w, eng, prep) // SSE or JSON; a client disconnect stops the engine
	})
	log.Fatal(http.ListenAndServe("127.0.0.1:8080", nil))
}
