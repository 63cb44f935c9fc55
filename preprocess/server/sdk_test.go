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
	"github.com/stretchr/testify/require"
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
	require.NoError(t, err)
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
		require.NoError(t, msg.Accumulate(stream.Current()))
	}
	require.NoError(t, stream.Err())
	require.Equal(t, anthropic.StopReasonToolUse, msg.StopReason, "stop_reason %q, want tool_use", msg.StopReason)
	var thinking, use int
	var useID string
	for _, b := range msg.Content {
		switch b.Type {
		case "thinking":
			thinking++
			require.Contains(t, b.Thinking, "Bash", "thinking %q", b.Thinking)
		case "tool_use":
			use++
			useID = b.ID
			require.Equal(t, "Bash", b.Name, "tool_use %s %s", b.Name, b.Input)
			require.Equal(t, `{"command":"echo hello"}`, string(b.Input), "tool_use %s %s", b.Name, b.Input)
		case "text":
			t.Errorf("unexpected text block %q", b.Text)
		}
	}
	require.Equal(t, 1, thinking, "thinking %d, tool_use %d blocks: %+v", thinking, use, msg.Content)
	require.Equal(t, 1, use, "thinking %d, tool_use %d blocks: %+v", thinking, use, msg.Content)

	// the tool result turn, unary
	params.Messages = append(params.Messages, msg.ToParam(),
		anthropic.NewUserMessage(anthropic.NewToolResultBlock(useID, "hello", false)))
	final, err := c.Messages.New(ctx, params)
	require.NoError(t, err)
	require.Equal(t, anthropic.StopReasonEndTurn, final.StopReason, "stop_reason %q", final.StopReason)
	last := final.Content[len(final.Content)-1]
	require.Equal(t, "text", last.Type, "answer %+v", final.Content)
	require.Contains(t, last.Text, "hello", "answer %+v", final.Content)
	require.NotEqual(t, int64(0), final.Usage.InputTokens, "usage %+v", final.Usage)
	require.NotEqual(t, int64(0), final.Usage.OutputTokens, "usage %+v", final.Usage)
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
	require.NoError(t, err)
	require.Len(t, msg.Content, 1, "content %+v", msg.Content)
	require.Equal(t, "text", msg.Content[0].Type, "content %+v", msg.Content)
	require.True(t, strings.HasPrefix(msg.Content[0].Text, "Hello!"), "content %+v", msg.Content)
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
	require.NoError(t, stream.Err())
	require.Len(t, acc.Choices, 1, "%d choices", len(acc.Choices))
	m := acc.Choices[0].Message
	require.Equal(t, "tool_calls", acc.Choices[0].FinishReason, "finish_reason %q", acc.Choices[0].FinishReason)
	var got []string
	for _, tc := range m.ToolCalls {
		got = append(got, tc.Function.Name+" "+tc.Function.Arguments)
	}
	want := []string{`shell {"command":["echo","hello"]}`, `shell {"command":["echo","world"]}`}
	require.Equal(t, strings.Join(want, "\n"), strings.Join(got, "\n"), "calls\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	require.NotEqual(t, m.ToolCalls[1].ID, m.ToolCalls[0].ID, "ids %q %q", m.ToolCalls[0].ID, m.ToolCalls[1].ID)
	require.NotEqual(t, "", m.ToolCalls[0].ID, "ids %q %q", m.ToolCalls[0].ID, m.ToolCalls[1].ID)
	params.Messages = append(params.Messages, m.ToParam(),
		openai.ToolMessage("hello", m.ToolCalls[0].ID), openai.ToolMessage("world", m.ToolCalls[1].ID))
	resp, err := c.Chat.Completions.New(ctx, params)
	require.NoError(t, err)
	content := resp.Choices[0].Message.Content
	require.Equal(t, "stop", resp.Choices[0].FinishReason, "answer %q (%s)", content, resp.Choices[0].FinishReason)
	require.Contains(t, content, "hello", "answer %q (%s)", content, resp.Choices[0].FinishReason)
	require.Contains(t, content, "world", "answer %q (%s)", content, resp.Choices[0].FinishReason)
	var raw struct {
		Choices []struct {
			Message struct {
				ReasoningContent string `json:"reasoning_content"`
			} `json:"message"`
		} `json:"choices"`
	}
	require.NoError(t, json.Unmarshal([]byte(resp.RawJSON()), &raw), "reasoning_content: %s", resp.RawJSON())
	require.NotEmpty(t, raw.Choices, "reasoning_content: %s", resp.RawJSON())
	require.Contains(t, raw.Choices[0].Message.ReasoningContent, "tool finished", "reasoning_content: %s", resp.RawJSON())
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
	require.NoError(t, stream.Err())
	require.NotNil(t, done, "no response.completed")
	var call *responses.ResponseOutputItemUnion
	for i := range done.Output {
		if done.Output[i].Type == "function_call" {
			call = &done.Output[i]
		}
	}
	require.NotNil(t, call, "function call %+v (%d deltas)", call, deltas)
	require.Equal(t, "exec_command", call.Name, "function call %+v (%d deltas)", call, deltas)
	require.Equal(t, `{"cmd":"echo hello"}`, call.Arguments.OfString, "function call %+v (%d deltas)", call, deltas)
	require.NotEqual(t, 0, deltas, "function call %+v (%d deltas)", call, deltas)
	input = append(input,
		responses.ResponseInputItemParamOfFunctionCall(call.Arguments.OfString, call.CallID, call.Name),
		responses.ResponseInputItemParamOfFunctionCallOutput(call.CallID, "hello"))
	params.Input = responses.ResponseNewParamsInputUnion{OfInputItemList: input}
	resp, err := c.Responses.New(ctx, params)
	require.NoError(t, err)
	text := resp.OutputText()
	require.Contains(t, text, "hello", "answer %q status %s", text, resp.Status)
	require.Equal(t, responses.ResponseStatus("completed"), resp.Status, "answer %q status %s", text, resp.Status)
}

// TestErrors checks the error shapes the SDKs see.
func TestErrors(t *testing.T) {
	ctx := ctxT(t)
	t.Run("401", func(t *testing.T) {
		ts := newServer(t, server.Config{})
		_, err := anthropicClient(ts, "wrong").Messages.New(ctx, anthropic.MessageNewParams{Model: "agent", MaxTokens: 10,
			Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("hi"))}})
		var ae *anthropic.Error
		require.True(t, errors.As(err, &ae), "anthropic: %v", err)
		require.Equal(t, 401, ae.StatusCode, "anthropic: %v", err)
		require.Contains(t, ae.RawJSON(), `"authentication_error"`, "anthropic: %v", err)
		_, err = openaiClient(ts, "wrong").Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: "agent",
			Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")}})
		var oe *openai.Error
		require.True(t, errors.As(err, &oe), "openai: %v", err)
		require.Equal(t, 401, oe.StatusCode, "openai: %v", err)
		require.Equal(t, "invalid_api_key", oe.Code, "openai: %v", err)
		// the right key in either header; /health and /metrics open
		for _, h := range [][2]string{{"Authorization", "Bearer " + testKey}, {"x-api-key", testKey}} {
			req, _ := http.NewRequest("GET", ts.URL+"/v1/models", nil)
			req.Header.Set(h[0], h[1])
			st := status(t, req)
			require.Equal(t, 200, st, "%s: %d", h[0], st)
		}
		for _, p := range []string{"/health", "/metrics"} {
			req, _ := http.NewRequest("GET", ts.URL+p, nil)
			st := status(t, req)
			require.Equal(t, 200, st, "%s: %d", p, st)
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
		require.True(t, errors.As(err, &ae), "anthropic: %v", err)
		require.Equal(t, 400, ae.StatusCode, "anthropic: %v", err)
		require.NoError(t, json.Unmarshal([]byte(ae.RawJSON()), &body), "anthropic: %v", err)
		require.Equal(t, "invalid_request_error", body.Error.Type, "anthropic: %v", err)
		require.True(t, regexp.MustCompile(`^prompt is too long: \d+ tokens > 64 maximum$`).MatchString(body.Error.Message), "anthropic: %v", err)
		_, err = openaiClient(ts, testKey).Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: "agent",
			Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(long)}})
		var oe *openai.Error
		require.True(t, errors.As(err, &oe), "openai: %v", err)
		require.Equal(t, 400, oe.StatusCode, "openai: %v", err)
		require.Equal(t, "context_length_exceeded", oe.Code, "openai: %v", err)
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
		require.True(t, errors.As(err, &ae), "anthropic: %v", err)
		require.Equal(t, 529, ae.StatusCode, "anthropic: %v", err)
		require.Contains(t, ae.RawJSON(), `"overloaded_error"`, "anthropic: %v", err)
		_, err = openaiClient(ts, testKey).Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: "agent",
			Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")}})
		var oe *openai.Error
		require.True(t, errors.As(err, &oe), "openai: %v", err)
		require.Equal(t, 503, oe.StatusCode, "openai: %v", err)
		cancel()
		<-done
	})
	t.Run("body limit and unknown replay", func(t *testing.T) {
		ts := newServer(t, server.Config{MaxBodyBytes: 1024})
		_, err := anthropicClient(ts, testKey).Messages.New(ctx, anthropic.MessageNewParams{Model: "agent", MaxTokens: 10,
			Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(strings.Repeat("x", 2000)))}})
		var ae *anthropic.Error
		require.True(t, errors.As(err, &ae), "anthropic: %v", err)
		require.Equal(t, 413, ae.StatusCode, "anthropic: %v", err)
		require.Contains(t, ae.RawJSON(), `"request_too_large"`, "anthropic: %v", err)
		_, err = openaiClient(ts, testKey).Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: "replay/nope",
			Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")}})
		var oe *openai.Error
		require.True(t, errors.As(err, &oe), "openai: %v", err)
		require.Equal(t, 404, oe.StatusCode, "openai: %v", err)
	})
}

func status(t *testing.T, req *http.Request) int {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	return resp.StatusCode
}

// TestReplaySDK replays real captures (gpt-oss-20b on vLLM, Qwen3-0.6B on
// SGLang) token by token through their model's parsers to the SDKs.
func TestReplaySDK(t *testing.T) {
	recs, err := engine.LoadRecordings("../../testdata/engine-streams")
	require.NoError(t, err)
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
		require.NoError(t, msg.Accumulate(stream.Current()))
	}
	require.NoError(t, stream.Err())
	require.Len(t, msg.Content, 2, "%s %+v", msg.StopReason, msg.Content)
	require.Equal(t, "thinking", msg.Content[0].Type, "%s %+v", msg.StopReason, msg.Content)
	require.Equal(t, "tool_use", msg.Content[1].Type, "%s %+v", msg.StopReason, msg.Content)
	require.Equal(t, "get_weather", msg.Content[1].Name, "%s %+v", msg.StopReason, msg.Content)
	require.Equal(t, anthropic.StopReasonToolUse, msg.StopReason, "%s %+v", msg.StopReason, msg.Content)
	var args map[string]string
	require.False(t, json.Unmarshal(msg.Content[1].Input, &args) != nil || args["location"] != "San Francisco, CA", "input %s", msg.Content[1].Input)

	resp, err := openaiClient(ts, testKey).Chat.Completions.New(ctx, openai.ChatCompletionNewParams{
		Model:    "replay/sglang/qwen3-0.6B/chat_completion_stream_f121d1ca-no-tool.json",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")},
	})
	require.NoError(t, err)
	require.NotEqual(t, "", resp.Choices[0].Message.Content, "%s", resp.RawJSON())
	require.NotContains(t, resp.Choices[0].Message.Content, "<think>", "%s", resp.RawJSON())
	require.Contains(t, resp.RawJSON(), `"reasoning_content":`, "%s", resp.RawJSON())
}
