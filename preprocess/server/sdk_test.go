package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	aoption "github.com/anthropics/anthropic-sdk-go/option"
	"github.com/openai/openai-go/v3"
	ooption "github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"

	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/agentwire/agentwire/preprocess/server"
	"github.com/agentwire/agentwire/preprocess/server/scripted"
)

const testKey = "test-key"

// newServer serves a scripted backend with cfg (Backend defaulted) and
// the test key.
func newServer(t *testing.T, cfg server.Config) *httptest.Server {
	t.Helper()
	if cfg.Backend == nil {
		cfg.Backend = &scripted.Backend{}
	}
	if cfg.APIKey == "" {
		cfg.APIKey = testKey
	}
	cfg.Logger = discardLogger()
	s, err := server.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return ts
}

func anthropicClient(ts *httptest.Server, key string) *anthropic.Client {
	c := anthropic.NewClient(aoption.WithBaseURL(ts.URL), aoption.WithAPIKey(key), aoption.WithMaxRetries(0))
	return &c
}

func openaiClient(ts *httptest.Server, key string) *openai.Client {
	c := openai.NewClient(ooption.WithBaseURL(ts.URL+"/v1"), ooption.WithAPIKey(key), ooption.WithMaxRetries(0))
	return &c
}

func bashTool() anthropic.ToolUnionParam {
	return anthropic.ToolUnionParam{OfTool: &anthropic.ToolParam{
		Name: "Bash",
		InputSchema: anthropic.ToolInputSchemaParam{
			Properties: map[string]any{"command": map[string]any{"type": "string"}, "description": map[string]any{"type": "string"}},
			Required:   []string{"command"},
		},
	}}
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// TestAnthropicToolTurn plays a Claude Code turn with the Anthropic SDK:
// a streamed Bash tool_use (with thinking on), the tool result, the text
// answer.
func TestAnthropicToolTurn(t *testing.T) {
	ts := newServer(t, server.Config{})
	c := anthropicClient(ts, testKey)
	ctx := ctxT(t)
	params := anthropic.MessageNewParams{
		Model:     "claude-sonnet-4-5",
		MaxTokens: 1024,
		Thinking:  anthropic.ThinkingConfigParamOfEnabled(1024),
		Tools:     []anthropic.ToolUnionParam{bashTool()},
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("say hello with the shell"))},
	}
	stream := c.Messages.NewStreaming(ctx, params)
	var msg anthropic.Message
	for stream.Next() {
		if err := msg.Accumulate(stream.Current()); err != nil {
			t.Fatal(err)
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	if msg.StopReason != anthropic.StopReasonToolUse {
		t.Fatalf("stop_reason %q, want tool_use", msg.StopReason)
	}
	var thinking, use int
	var useID string
	for _, b := range msg.Content {
		switch b.Type {
		case "thinking":
			thinking++
			if !strings.Contains(b.Thinking, "Bash") {
				t.Errorf("thinking %q", b.Thinking)
			}
		case "tool_use":
			use++
			useID = b.ID
			if b.Name != "Bash" || string(b.Input) != `{"command":"echo hello"}` {
				t.Errorf("tool_use %s %s", b.Name, b.Input)
			}
		case "text":
			t.Errorf("unexpected text block %q", b.Text)
		}
	}
	if thinking != 1 || use != 1 {
		t.Fatalf("thinking %d, tool_use %d blocks: %+v", thinking, use, msg.Content)
	}

	// the tool result turn, unary
	params.Messages = append(params.Messages, msg.ToParam(),
		anthropic.NewUserMessage(anthropic.NewToolResultBlock(useID, "hello", false)))
	final, err := c.Messages.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if final.StopReason != anthropic.StopReasonEndTurn {
		t.Fatalf("stop_reason %q", final.StopReason)
	}
	last := final.Content[len(final.Content)-1]
	if last.Type != "text" || !strings.Contains(last.Text, "hello") {
		t.Fatalf("answer %+v", final.Content)
	}
	if final.Usage.InputTokens == 0 || final.Usage.OutputTokens == 0 {
		t.Errorf("usage %+v", final.Usage)
	}
}

// TestAnthropicThinkingHidden: without thinking enabled, the reasoning the
// model emits is not sent as a thinking block.
func TestAnthropicThinkingHidden(t *testing.T) {
	ts := newServer(t, server.Config{})
	c := anthropicClient(ts, testKey)
	msg, err := c.Messages.New(ctxT(t), anthropic.MessageNewParams{
		Model: "agent", MaxTokens: 256,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("hi"))},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(msg.Content) != 1 || msg.Content[0].Type != "text" || !strings.HasPrefix(msg.Content[0].Text, "Hello!") {
		t.Fatalf("content %+v", msg.Content)
	}
}

func shellTool() openai.ChatCompletionToolUnionParam {
	return openai.ChatCompletionFunctionTool(openai.FunctionDefinitionParam{
		Name: "shell",
		Parameters: openai.FunctionParameters{
			"type":       "object",
			"properties": map[string]any{"command": map[string]any{"type": "array", "items": map[string]any{"type": "string"}}},
			"required":   []string{"command"},
		},
	})
}

// TestChatParallelToolTurn streams parallel tool calls through the openai
// SDK's accumulator, sends the results and gets the text answer.
func TestChatParallelToolTurn(t *testing.T) {
	ts := newServer(t, server.Config{})
	c := openaiClient(ts, testKey)
	ctx := ctxT(t)
	params := openai.ChatCompletionNewParams{
		Model:    "agent",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("run two commands in parallel")},
		Tools:    []openai.ChatCompletionToolUnionParam{shellTool()},
	}
	stream := c.Chat.Completions.NewStreaming(ctx, params)
	var acc openai.ChatCompletionAccumulator
	for stream.Next() {
		acc.AddChunk(stream.Current())
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	if len(acc.Choices) != 1 {
		t.Fatalf("%d choices", len(acc.Choices))
	}
	m := acc.Choices[0].Message
	if acc.Choices[0].FinishReason != "tool_calls" {
		t.Fatalf("finish_reason %q", acc.Choices[0].FinishReason)
	}
	var got []string
	for _, tc := range m.ToolCalls {
		got = append(got, tc.Function.Name+" "+tc.Function.Arguments)
	}
	want := []string{`shell {"command":["echo","hello"]}`, `shell {"command":["echo","world"]}`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("calls\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if m.ToolCalls[0].ID == m.ToolCalls[1].ID || m.ToolCalls[0].ID == "" {
		t.Fatalf("ids %q %q", m.ToolCalls[0].ID, m.ToolCalls[1].ID)
	}
	params.Messages = append(params.Messages, m.ToParam(),
		openai.ToolMessage("hello", m.ToolCalls[0].ID), openai.ToolMessage("world", m.ToolCalls[1].ID))
	resp, err := c.Chat.Completions.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	content := resp.Choices[0].Message.Content
	if resp.Choices[0].FinishReason != "stop" || !strings.Contains(content, "hello") || !strings.Contains(content, "world") {
		t.Fatalf("answer %q (%s)", content, resp.Choices[0].FinishReason)
	}
	var raw struct {
		Choices []struct {
			Message struct {
				ReasoningContent string `json:"reasoning_content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal([]byte(resp.RawJSON()), &raw); err != nil || !strings.Contains(raw.Choices[0].Message.ReasoningContent, "tool finished") {
		t.Fatalf("reasoning_content: %v %s", err, resp.RawJSON())
	}
}

// TestResponsesToolTurn plays a Codex turn with the openai SDK's
// Responses client: a streamed exec_command call, its output, the answer.
func TestResponsesToolTurn(t *testing.T) {
	ts := newServer(t, server.Config{})
	c := openaiClient(ts, testKey)
	ctx := ctxT(t)
	tool := responses.ToolUnionParam{OfFunction: &responses.FunctionToolParam{
		Name: "exec_command",
		Parameters: map[string]any{
			"type":       "object",
			"properties": map[string]any{"cmd": map[string]any{"type": "string"}, "login": map[string]any{"type": "boolean"}},
			"required":   []string{"cmd"},
		},
	}}
	input := responses.ResponseInputParam{responses.ResponseInputItemParamOfMessage("say hello", responses.EasyInputMessageRoleUser)}
	params := responses.ResponseNewParams{
		Model: "gpt-5.5",
		Input: responses.ResponseNewParamsInputUnion{OfInputItemList: input},
		Tools: []responses.ToolUnionParam{tool},
	}
	stream := c.Responses.NewStreaming(ctx, params)
	var done *responses.Response
	deltas := 0
	for stream.Next() {
		ev := stream.Current()
		switch ev.Type {
		case "response.function_call_arguments.delta":
			deltas++
		case "response.completed":
			r := ev.Response
			done = &r
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	if done == nil {
		t.Fatal("no response.completed")
	}
	var call *responses.ResponseOutputItemUnion
	for i := range done.Output {
		if done.Output[i].Type == "function_call" {
			call = &done.Output[i]
		}
	}
	if call == nil || call.Name != "exec_command" || call.Arguments.OfString != `{"cmd":"echo hello"}` || deltas == 0 {
		t.Fatalf("function call %+v (%d deltas)", call, deltas)
	}
	input = append(input,
		responses.ResponseInputItemParamOfFunctionCall(call.Arguments.OfString, call.CallID, call.Name),
		responses.ResponseInputItemParamOfFunctionCallOutput(call.CallID, "hello"))
	params.Input = responses.ResponseNewParamsInputUnion{OfInputItemList: input}
	resp, err := c.Responses.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if text := resp.OutputText(); !strings.Contains(text, "hello") || resp.Status != "completed" {
		t.Fatalf("answer %q status %s", text, resp.Status)
	}
}

// TestErrors checks the error shapes the SDKs see.
func TestErrors(t *testing.T) {
	ctx := ctxT(t)
	t.Run("401", func(t *testing.T) {
		ts := newServer(t, server.Config{})
		_, err := anthropicClient(ts, "wrong").Messages.New(ctx, anthropic.MessageNewParams{Model: "agent", MaxTokens: 10,
			Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("hi"))}})
		var ae *anthropic.Error
		if !errors.As(err, &ae) || ae.StatusCode != 401 || !strings.Contains(ae.RawJSON(), `"authentication_error"`) {
			t.Fatalf("anthropic: %v", err)
		}
		_, err = openaiClient(ts, "wrong").Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: "agent",
			Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")}})
		var oe *openai.Error
		if !errors.As(err, &oe) || oe.StatusCode != 401 || oe.Code != "invalid_api_key" {
			t.Fatalf("openai: %v", err)
		}
		// the right key in either header; /health and /metrics open
		for _, h := range [][2]string{{"Authorization", "Bearer " + testKey}, {"x-api-key", testKey}} {
			req, _ := http.NewRequest("GET", ts.URL+"/v1/models", nil)
			req.Header.Set(h[0], h[1])
			if st := status(t, req); st != 200 {
				t.Errorf("%s: %d", h[0], st)
			}
		}
		for _, p := range []string{"/health", "/metrics"} {
			req, _ := http.NewRequest("GET", ts.URL+p, nil)
			if st := status(t, req); st != 200 {
				t.Errorf("%s: %d", p, st)
			}
		}
	})
	t.Run("context too long", func(t *testing.T) {
		ts := newServer(t, server.Config{Backend: &scripted.Backend{ContextWindow: 64}})
		long := strings.Repeat("word ", 100)
		_, err := anthropicClient(ts, testKey).Messages.New(ctx, anthropic.MessageNewParams{Model: "agent", MaxTokens: 10,
			Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(long))}})
		var ae *anthropic.Error
		var body struct {
			Error struct{ Type, Message string }
		}
		if !errors.As(err, &ae) || ae.StatusCode != 400 || json.Unmarshal([]byte(ae.RawJSON()), &body) != nil ||
			body.Error.Type != "invalid_request_error" || !regexp.MustCompile(`^prompt is too long: \d+ tokens > 64 maximum$`).MatchString(body.Error.Message) {
			t.Fatalf("anthropic: %v", err)
		}
		_, err = openaiClient(ts, testKey).Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: "agent",
			Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(long)}})
		var oe *openai.Error
		if !errors.As(err, &oe) || oe.StatusCode != 400 || oe.Code != "context_length_exceeded" {
			t.Fatalf("openai: %v", err)
		}
	})
	t.Run("overloaded", func(t *testing.T) {
		eng := &blockingEngine{started: make(chan struct{}, 1)}
		ts := newServer(t, server.Config{MaxConcurrent: 1, Backend: &scripted.Backend{Engine: eng}})
		hold, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() {
			defer close(done)
			_, _ = anthropicClient(ts, testKey).Messages.New(hold, anthropic.MessageNewParams{Model: "agent", MaxTokens: 10,
				Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("hold"))}})
		}()
		<-eng.started
		_, err := anthropicClient(ts, testKey).Messages.New(ctx, anthropic.MessageNewParams{Model: "agent", MaxTokens: 10,
			Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("hi"))}})
		var ae *anthropic.Error
		if !errors.As(err, &ae) || ae.StatusCode != 529 || !strings.Contains(ae.RawJSON(), `"overloaded_error"`) {
			t.Errorf("anthropic: %v", err)
		}
		_, err = openaiClient(ts, testKey).Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: "agent",
			Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")}})
		var oe *openai.Error
		if !errors.As(err, &oe) || oe.StatusCode != 503 {
			t.Errorf("openai: %v", err)
		}
		cancel()
		<-done
	})
	t.Run("body limit and unknown replay", func(t *testing.T) {
		ts := newServer(t, server.Config{MaxBodyBytes: 1024})
		_, err := anthropicClient(ts, testKey).Messages.New(ctx, anthropic.MessageNewParams{Model: "agent", MaxTokens: 10,
			Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(strings.Repeat("x", 2000)))}})
		var ae *anthropic.Error
		if !errors.As(err, &ae) || ae.StatusCode != 413 || !strings.Contains(ae.RawJSON(), `"request_too_large"`) {
			t.Errorf("anthropic: %v", err)
		}
		_, err = openaiClient(ts, testKey).Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: "replay/nope",
			Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")}})
		var oe *openai.Error
		if !errors.As(err, &oe) || oe.StatusCode != 404 {
			t.Errorf("openai: %v", err)
		}
	})
}

func status(t *testing.T, req *http.Request) int {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestReplaySDK replays real captures (gpt-oss-20b on vLLM, Qwen3-0.6B on
// SGLang) token by token through their model's parsers to the SDKs.
func TestReplaySDK(t *testing.T) {
	recs, err := engine.LoadRecordings("../../testdata/engine-streams")
	if err != nil {
		t.Fatal(err)
	}
	ts := newServer(t, server.Config{Backend: &scripted.Backend{Recordings: recs}})
	ctx := ctxT(t)
	stream := anthropicClient(ts, testKey).Messages.NewStreaming(ctx, anthropic.MessageNewParams{
		Model: "replay/vllm/gpt-oss-20b/chat_completion_stream_f0c86d72-tool.json", MaxTokens: 1000,
		Thinking: anthropic.ThinkingConfigParamOfEnabled(500),
		Tools: []anthropic.ToolUnionParam{{OfTool: &anthropic.ToolParam{Name: "get_weather",
			InputSchema: anthropic.ToolInputSchemaParam{Properties: map[string]any{"location": map[string]any{"type": "string"}}}}}},
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("weather in SF?"))},
	})
	var msg anthropic.Message
	for stream.Next() {
		if err := msg.Accumulate(stream.Current()); err != nil {
			t.Fatal(err)
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	if len(msg.Content) != 2 || msg.Content[0].Type != "thinking" || msg.Content[1].Type != "tool_use" ||
		msg.Content[1].Name != "get_weather" || msg.StopReason != anthropic.StopReasonToolUse {
		t.Fatalf("%s %+v", msg.StopReason, msg.Content)
	}
	var args map[string]string
	if err := json.Unmarshal(msg.Content[1].Input, &args); err != nil || args["location"] != "San Francisco, CA" {
		t.Fatalf("input %s", msg.Content[1].Input)
	}

	resp, err := openaiClient(ts, testKey).Chat.Completions.New(ctx, openai.ChatCompletionNewParams{
		Model:    "replay/sglang/qwen3-0.6B/chat_completion_stream_f121d1ca-no-tool.json",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")},
	})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Choices[0].Message.Content == "" || strings.Contains(resp.Choices[0].Message.Content, "<think>") ||
		!strings.Contains(resp.RawJSON(), `"reasoning_content":`) {
		t.Fatalf("%s", resp.RawJSON())
	}
}
