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
	"github.com/stretchr/testify/require"
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
	require.NoError(t, err)
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
		require.NoError(t, msg.Accumulate(stream.Current()))
	}
	require.NoError(t, stream.Err())
	var use *anthropic.ContentBlockUnion
	for i, b := range msg.Content {
		if b.Type == "tool_use" {
			use = &msg.Content[i]
		}
	}
	require.Equal(t, anthropic.StopReasonToolUse, msg.StopReason, "turn 1: %s %+v", msg.StopReason, msg.Content)
	require.NotNil(t, use, "turn 1: %s %+v", msg.StopReason, msg.Content)
	require.Equal(t, "Bash", use.Name, "turn 1: %s %+v", msg.StopReason, msg.Content)
	require.Equal(t, `{"command":"echo hello"}`, string(use.Input), "turn 1: %s %+v", msg.StopReason, msg.Content)
	require.Equal(t, "thinking", msg.Content[0].Type, "no thinking block first: %+v", msg.Content)
	params.Messages = append(params.Messages, msg.ToParam(), anthropic.NewUserMessage(anthropic.NewToolResultBlock(use.ID, "hello", false)))
	final, err := ac.Messages.New(ctx, params)
	require.NoError(t, err)
	last := final.Content[len(final.Content)-1]
	require.Equal(t, anthropic.StopReasonEndTurn, final.StopReason, "turn 2: %s %+v", final.StopReason, final.Content)
	require.Equal(t, "Done. The tool returned:\n\nhello", last.Text, "turn 2: %s %+v", final.StopReason, final.Content)
	require.NotEqual(t, int64(0), final.Usage.InputTokens, "usage %+v", final.Usage)
	require.NotEqual(t, int64(0), final.Usage.OutputTokens, "usage %+v", final.Usage)

	// chat, unary, with reasoning
	oc := openaiClient(ts, testKey)
	resp, err := oc.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: "Qwen/tiny",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")}})
	require.NoError(t, err)
	c := resp.Choices[0].Message.Content
	require.Equal(t, "Hello! I am the agentwire scripted agent. You said: hi", c, "chat: %q", c)
	require.Contains(t, resp.RawJSON(), `"reasoning_content":"`, "no reasoning_content: %s", resp.RawJSON())

	// count_tokens and tokenize use the real tokenizer
	n, err := ac.Messages.CountTokens(ctx, anthropic.MessageCountTokensParams{Model: "x",
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("hi"))}})
	require.NoError(t, err, "count_tokens: %v %+v", err, n)
	require.Greater(t, n.InputTokens, int64(0), "count_tokens: %v %+v", err, n)
	req, _ := http.NewRequest("POST", ts.URL+"/tokenize", strings.NewReader(`{"prompt":"hello world"}`))
	req.Header.Set("Authorization", "Bearer "+testKey)
	r, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	var tok struct {
		Count, MaxModelLen int
		Tokens             []uint32
	}
	_ = json.NewDecoder(r.Body).Decode(&tok)
	r.Body.Close()
	require.Equal(t, 200, r.StatusCode, "tokenize %d %+v", r.StatusCode, tok)
	require.NotEqual(t, 0, tok.Count, "tokenize %d %+v", r.StatusCode, tok)
	require.Len(t, tok.Tokens, tok.Count, "tokenize %d %+v", r.StatusCode, tok)
}

// TestUpstreamErrors: an overloaded engine is each API's overloaded
// error; a prompt past the model's context is the API's context error.
func TestUpstreamErrors(t *testing.T) {
	ctx := ctxT(t)
	ts := newServer(t, server.Config{Backend: tinyBackend(t, http.StatusServiceUnavailable)})
	_, err := anthropicClient(ts, testKey).Messages.New(ctx, anthropic.MessageNewParams{Model: "x", MaxTokens: 10,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("hi"))}})
	var ae *anthropic.Error
	require.True(t, errors.As(err, &ae), "anthropic: %v", err)
	require.Equal(t, 529, ae.StatusCode, "anthropic: %v", err)
	require.Contains(t, ae.RawJSON(), "overloaded_error", "anthropic: %v", err)
	_, err = openaiClient(ts, testKey).Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: "x",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")}})
	var oe *openai.Error
	require.True(t, errors.As(err, &oe), "openai: %v", err)
	require.Equal(t, 503, oe.StatusCode, "openai: %v", err)

	long := strings.Repeat("many words ", 400) // the tiny model's context is 2048 tokens
	_, err = anthropicClient(ts, testKey).Messages.New(ctx, anthropic.MessageNewParams{Model: "x", MaxTokens: 10,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(long))}})
	require.True(t, errors.As(err, &ae), "anthropic context: %v", err)
	require.Equal(t, 400, ae.StatusCode, "anthropic context: %v", err)
	require.Contains(t, ae.RawJSON(), "prompt is too long", "anthropic context: %v", err)
	_, err = openaiClient(ts, testKey).Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: "x",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(long)}})
	require.True(t, errors.As(err, &oe), "openai context: %v", err)
	require.Equal(t, 400, oe.StatusCode, "openai context: %v", err)
}
