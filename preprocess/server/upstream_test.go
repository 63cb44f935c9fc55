package server_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/openai/openai-go/v3"

	"github.com/agentwire/agentwire/preprocess"
	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/agentwire/agentwire/preprocess/server"
	"github.com/agentwire/agentwire/preprocess/server/scripted"
)

const tinyDir = "../../testdata/models/tiny"

// scriptedVLLM is an httptest upstream that speaks vLLM's streamed
// /v1/completions with the scripted agent as the model (scripted.VLLM);
// status, when not 0, is answered instead, with vLLM's error body.
func scriptedVLLM(t *testing.T, m *preprocess.Model, status int) *httptest.Server {
	v := &scripted.VLLM{Tok: m.Tokenizer, Model: "tiny"}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if status != 0 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			fmt.Fprintf(w, `{"object":"error","message":"upstream says %d","type":"ServiceUnavailableError","param":null,"code":%d}`, status, status)
			return
		}
		v.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return ts
}

func tinyBackend(t *testing.T, upstreamStatus int) *server.ModelBackend {
	t.Helper()
	m, err := preprocess.LoadModel(tinyDir, preprocess.ModelOptions{ToolParser: "hermes", ReasoningParser: "qwen3"})
	if err != nil {
		t.Fatal(err)
	}
	up := scriptedVLLM(t, m, upstreamStatus)
	return &server.ModelBackend{
		Preprocessor:   preprocess.New(m, preprocess.Options{ServedModel: "tiny"}),
		Engine:         engine.NewVLLM(engine.VLLMConfig{Config: engine.Config{BaseURL: up.URL + "/v1"}, TokenIDsOnly: true}),
		Name:           "Qwen/tiny",
		AcceptAnyModel: true,
	}
}

// TestUpstreamVLLM runs Claude Code- and Codex-shaped tool turns through
// the real request half (the Qwen3 chat template, the tokenizer) and the
// vLLM adapter against an upstream that speaks vLLM's completions SSE.
func TestUpstreamVLLM(t *testing.T) {
	ts := newServer(t, server.Config{Backend: tinyBackend(t, 0)})
	ctx := ctxT(t)

	ac := anthropicClient(ts, testKey)
	params := anthropic.MessageNewParams{
		Model: "claude-sonnet-4-5", MaxTokens: 512,
		Thinking: anthropic.ThinkingConfigParamOfEnabled(256),
		Tools:    []anthropic.ToolUnionParam{bashTool()},
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("say hello"))},
	}
	stream := ac.Messages.NewStreaming(ctx, params)
	var msg anthropic.Message
	for stream.Next() {
		if err := msg.Accumulate(stream.Current()); err != nil {
			t.Fatal(err)
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	var use *anthropic.ContentBlockUnion
	for i, b := range msg.Content {
		if b.Type == "tool_use" {
			use = &msg.Content[i]
		}
	}
	if msg.StopReason != anthropic.StopReasonToolUse || use == nil || use.Name != "Bash" || string(use.Input) != `{"command":"echo hello"}` {
		t.Fatalf("turn 1: %s %+v", msg.StopReason, msg.Content)
	}
	if msg.Content[0].Type != "thinking" {
		t.Errorf("no thinking block first: %+v", msg.Content)
	}
	params.Messages = append(params.Messages, msg.ToParam(), anthropic.NewUserMessage(anthropic.NewToolResultBlock(use.ID, "hello", false)))
	final, err := ac.Messages.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if last := final.Content[len(final.Content)-1]; final.StopReason != anthropic.StopReasonEndTurn || last.Text != "Done. The tool returned:\n\nhello" {
		t.Fatalf("turn 2: %s %+v", final.StopReason, final.Content)
	}
	if final.Usage.InputTokens == 0 || final.Usage.OutputTokens == 0 {
		t.Errorf("usage %+v", final.Usage)
	}

	// chat, unary, with reasoning
	oc := openaiClient(ts, testKey)
	resp, err := oc.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: "Qwen/tiny",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")}})
	if err != nil {
		t.Fatal(err)
	}
	if c := resp.Choices[0].Message.Content; c != "Hello! I am the agentwire scripted agent. You said: hi" {
		t.Fatalf("chat: %q", c)
	}
	if !strings.Contains(resp.RawJSON(), `"reasoning_content":"`) {
		t.Errorf("no reasoning_content: %s", resp.RawJSON())
	}

	// count_tokens and tokenize use the real tokenizer
	n, err := ac.Messages.CountTokens(ctx, anthropic.MessageCountTokensParams{Model: "x",
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("hi"))}})
	if err != nil || n.InputTokens <= 0 {
		t.Fatalf("count_tokens: %v %+v", err, n)
	}
	req, _ := http.NewRequest("POST", ts.URL+"/tokenize", strings.NewReader(`{"prompt":"hello world"}`))
	req.Header.Set("Authorization", "Bearer "+testKey)
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var tok struct {
		Count, MaxModelLen int
		Tokens             []uint32
	}
	_ = json.NewDecoder(r.Body).Decode(&tok)
	r.Body.Close()
	if r.StatusCode != 200 || tok.Count == 0 || tok.Count != len(tok.Tokens) {
		t.Fatalf("tokenize %d %+v", r.StatusCode, tok)
	}
}

// TestUpstreamErrors: an overloaded engine is each API's overloaded
// error; a prompt past the model's context is the API's context error.
func TestUpstreamErrors(t *testing.T) {
	ctx := ctxT(t)
	ts := newServer(t, server.Config{Backend: tinyBackend(t, http.StatusServiceUnavailable)})
	_, err := anthropicClient(ts, testKey).Messages.New(ctx, anthropic.MessageNewParams{Model: "x", MaxTokens: 10,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("hi"))}})
	var ae *anthropic.Error
	if !errors.As(err, &ae) || ae.StatusCode != 529 || !strings.Contains(ae.RawJSON(), "overloaded_error") {
		t.Errorf("anthropic: %v", err)
	}
	_, err = openaiClient(ts, testKey).Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: "x",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")}})
	var oe *openai.Error
	if !errors.As(err, &oe) || oe.StatusCode != 503 {
		t.Errorf("openai: %v", err)
	}

	long := strings.Repeat("many words ", 400) // the tiny model's context is 2048 tokens
	_, err = anthropicClient(ts, testKey).Messages.New(ctx, anthropic.MessageNewParams{Model: "x", MaxTokens: 10,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(long))}})
	if !errors.As(err, &ae) || ae.StatusCode != 400 || !strings.Contains(ae.RawJSON(), "prompt is too long") {
		t.Errorf("anthropic context: %v", err)
	}
	_, err = openaiClient(ts, testKey).Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: "x",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(long)}})
	if !errors.As(err, &oe) || oe.StatusCode != 400 {
		t.Errorf("openai context: %v", err)
	}
}
