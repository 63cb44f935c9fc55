package server_test

import (
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

	"github.com/agentwire/agentwire/preprocess/server"
	"github.com/stretchr/testify/require"
)

// checkTurn2Cache checks a second turn's cache reads against the first
// turn's prompt: the embedded engine's prefix cache holds the first
// prompt's whole 16-token blocks, so the second turn reads all of them
// (the prefix holds) and nothing past the first prompt.
func checkTurn2Cache(t *testing.T, what string, prompt1, prompt2, cached int64) {
	t.Helper()
	require.Equal(t, int64(0), cached%16, "%s: turn 2 reads %d cached tokens of %d; turn 1's prompt was %d tokens", what, cached, prompt2, prompt1)
	require.Greater(t, cached, prompt1-16, "%s: turn 2 reads %d cached tokens of %d; turn 1's prompt was %d tokens", what, cached, prompt2, prompt1)
	require.LessOrEqual(t, cached, prompt1, "%s: turn 2 reads %d cached tokens of %d; turn 1's prompt was %d tokens", what, cached, prompt2, prompt1)
	require.Less(t, cached, prompt2, "%s: turn 2 reads %d cached tokens of %d; turn 1's prompt was %d tokens", what, cached, prompt2, prompt1)
}

// anthropicTurn streams params and returns the message and the usage of
// message_start.
func anthropicTurn(t *testing.T, c *anthropic.Client, params anthropic.MessageNewParams) (anthropic.Message, anthropic.Usage) {
	t.Helper()
	stream := c.Messages.NewStreaming(ctxT(t), params)
	var msg anthropic.Message
	var start anthropic.Usage
	for stream.Next() {
		ev := stream.Current()
		if ev.Type == "message_start" {
			start = ev.Message.Usage
		}
		require.NoError(t, msg.Accumulate(ev))
	}
	require.NoError(t, stream.Err())
	return msg, start
}

// TestCacheReadsAnthropic: against the embedded engine, Claude Code's
// second turn reports the first turn's prompt as cache reads, in
// message_start and message_delta (streamed) and in the unary usage, with
// input_tokens the uncached rest.
func TestCacheReadsAnthropic(t *testing.T) {
	ts := newServer(t, server.Config{})
	c := anthropicClient(ts, testKey)
	params := anthropic.MessageNewParams{
		Model: "claude-sonnet-4-5", MaxTokens: 1024,
		Thinking: anthropic.ThinkingConfigParamOfEnabled(1024),
		Tools:    []anthropic.ToolUnionParam{bashTool()},
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("say hello with the shell"))},
	}
	msg, start := anthropicTurn(t, c, params)
	u1 := msg.Usage
	require.Equal(t, int64(0), u1.CacheReadInputTokens, "turn 1 (nothing cached yet): message_start %+v, final %+v", start, u1)
	require.Equal(t, int64(0), start.CacheReadInputTokens, "turn 1 (nothing cached yet): message_start %+v, final %+v", start, u1)
	require.NotEqual(t, int64(0), u1.InputTokens, "turn 1 (nothing cached yet): message_start %+v, final %+v", start, u1)
	require.Equal(t, u1.InputTokens, start.InputTokens, "turn 1 (nothing cached yet): message_start %+v, final %+v", start, u1)
	var useID string
	for _, b := range msg.Content {
		if b.Type == "tool_use" {
			useID = b.ID
		}
	}
	require.NotEqual(t, "", useID, "turn 1: no tool_use: %+v", msg.Content)
	params.Messages = append(params.Messages, msg.ToParam(),
		anthropic.NewUserMessage(anthropic.NewToolResultBlock(useID, "hello", false)))

	msg, start = anthropicTurn(t, c, params)
	u2 := msg.Usage
	prompt2 := u2.InputTokens + u2.CacheReadInputTokens
	checkTurn2Cache(t, "streamed", u1.InputTokens, prompt2, u2.CacheReadInputTokens)
	require.Equal(t, u2.CacheReadInputTokens, start.CacheReadInputTokens, "streamed turn 2: message_start %+v, final %+v", start, u2)
	require.Equal(t, u2.InputTokens, start.InputTokens, "streamed turn 2: message_start %+v, final %+v", start, u2)
	require.Equal(t, int64(0), u2.CacheCreationInputTokens, "streamed turn 2: message_start %+v, final %+v", start, u2)
	require.NotEqual(t, int64(0), u2.OutputTokens, "streamed turn 2: message_start %+v, final %+v", start, u2)

	// the same turn again, unary: now its own blocks are cached too
	final, err := c.Messages.New(ctxT(t), params)
	require.NoError(t, err)
	u3 := final.Usage
	require.Equal(t, prompt2, u3.InputTokens+u3.CacheReadInputTokens, "unary repeat of turn 2: %+v (streamed: %+v)", u3, u2)
	require.GreaterOrEqual(t, u3.CacheReadInputTokens, u2.CacheReadInputTokens, "unary repeat of turn 2: %+v (streamed: %+v)", u3, u2)
	require.Equal(t, int64(0), u3.CacheReadInputTokens%16, "unary repeat of turn 2: %+v (streamed: %+v)", u3, u2)
	require.Greater(t, u3.InputTokens, int64(0), "unary repeat of turn 2: %+v (streamed: %+v)", u3, u2)
}

// TestCacheReadsChat: the second turn of a chat conversation reports
// prompt_tokens_details.cached_tokens, streamed (include_usage) and
// unary.
func TestCacheReadsChat(t *testing.T) {
	ts := newServer(t, server.Config{})
	c := openaiClient(ts, testKey)
	params := openai.ChatCompletionNewParams{
		Model:         "agent",
		Messages:      []openai.ChatCompletionMessageParamUnion{openai.UserMessage("run a command")},
		Tools:         []openai.ChatCompletionToolUnionParam{shellTool()},
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	}
	stream := c.Chat.Completions.NewStreaming(ctxT(t), params)
	var acc openai.ChatCompletionAccumulator
	for stream.Next() {
		acc.AddChunk(stream.Current())
	}
	require.NoError(t, stream.Err())
	require.Len(t, acc.Choices, 1, "turn 1: %+v", acc.Choices)
	require.Len(t, acc.Choices[0].Message.ToolCalls, 1, "turn 1: %+v", acc.Choices)
	u1 := acc.Usage
	require.Equal(t, int64(0), u1.PromptTokensDetails.CachedTokens, "turn 1 (nothing cached yet): %+v", u1)
	require.NotEqual(t, int64(0), u1.PromptTokens, "turn 1 (nothing cached yet): %+v", u1)
	m := acc.Choices[0].Message
	params.Messages = append(params.Messages, m.ToParam(), openai.ToolMessage("hello", m.ToolCalls[0].ID))

	stream = c.Chat.Completions.NewStreaming(ctxT(t), params)
	acc = openai.ChatCompletionAccumulator{}
	for stream.Next() {
		acc.AddChunk(stream.Current())
	}
	require.NoError(t, stream.Err())
	u2 := acc.Usage
	checkTurn2Cache(t, "streamed", u1.PromptTokens, u2.PromptTokens, u2.PromptTokensDetails.CachedTokens)

	params.StreamOptions = openai.ChatCompletionStreamOptionsParam{}
	resp, err := c.Chat.Completions.New(ctxT(t), params)
	require.NoError(t, err)
	u3 := resp.Usage
	require.Equal(t, u2.PromptTokens, u3.PromptTokens, "unary repeat of turn 2: %+v (streamed: %+v)", u3, u2)
	require.GreaterOrEqual(t, u3.PromptTokensDetails.CachedTokens, u2.PromptTokensDetails.CachedTokens, "unary repeat of turn 2: %+v (streamed: %+v)", u3, u2)
}

// TestCacheReadsResponses: Codex's second turn reports
// input_tokens_details.cached_tokens, in response.completed and in the
// unary response.
func TestCacheReadsResponses(t *testing.T) {
	ts := newServer(t, server.Config{})
	c := openaiClient(ts, testKey)
	tool := responses.ToolUnionParam{OfFunction: &responses.FunctionToolParam{
		Name: "exec_command",
		Parameters: map[string]any{"type": "object", "properties": map[string]any{"cmd": map[string]any{"type": "string"}},
			"required": []string{"cmd"}},
	}}
	input := responses.ResponseInputParam{responses.ResponseInputItemParamOfMessage("say hello", responses.EasyInputMessageRoleUser)}
	params := responses.ResponseNewParams{Model: "gpt-5.5", Input: responses.ResponseNewParamsInputUnion{OfInputItemList: input},
		Tools: []responses.ToolUnionParam{tool}}
	completed := func() responses.Response {
		t.Helper()
		stream := c.Responses.NewStreaming(ctxT(t), params)
		var done *responses.Response
		for stream.Next() {
			if ev := stream.Current(); ev.Type == "response.completed" {
				r := ev.Response
				done = &r
			}
		}
		require.NoError(t, stream.Err())
		require.NotNil(t, done, "no response.completed")
		return *done
	}
	r1 := completed()
	u1 := r1.Usage
	require.Equal(t, int64(0), u1.InputTokensDetails.CachedTokens, "turn 1 (nothing cached yet): %+v", u1)
	require.NotEqual(t, int64(0), u1.InputTokens, "turn 1 (nothing cached yet): %+v", u1)
	var call *responses.ResponseOutputItemUnion
	for i := range r1.Output {
		if r1.Output[i].Type == "function_call" {
			call = &r1.Output[i]
		}
	}
	require.NotNil(t, call, "turn 1: no function_call: %+v", r1.Output)
	input = append(input,
		responses.ResponseInputItemParamOfFunctionCall(call.Arguments.OfString, call.CallID, call.Name),
		responses.ResponseInputItemParamOfFunctionCallOutput(call.CallID, "hello"))
	params.Input = responses.ResponseNewParamsInputUnion{OfInputItemList: input}

	u2 := completed().Usage
	checkTurn2Cache(t, "streamed", u1.InputTokens, u2.InputTokens, u2.InputTokensDetails.CachedTokens)

	resp, err := c.Responses.New(ctxT(t), params)
	require.NoError(t, err)
	u3 := resp.Usage
	require.Equal(t, u2.InputTokens, u3.InputTokens, "unary repeat of turn 2: %+v (streamed: %+v)", u3, u2)
	require.GreaterOrEqual(t, u3.InputTokensDetails.CachedTokens, u2.InputTokensDetails.CachedTokens, "unary repeat of turn 2: %+v (streamed: %+v)", u3, u2)
}

// TestCacheReadsUpstreamVLLM: through the real request half and the vLLM
// adapter, a vLLM-speaking upstream that reports
// prompt_tokens_details.cached_tokens (the scripted vLLM, with a prefix
// cache over the prompt's token ids) shows them to the Anthropic client.
func TestCacheReadsUpstreamVLLM(t *testing.T) {
	ts := newServer(t, server.Config{Backend: tinyBackend(t, 0)})
	c := anthropicClient(ts, testKey)
	params := anthropic.MessageNewParams{
		Model: "claude-sonnet-4-5", MaxTokens: 512,
		Thinking: anthropic.ThinkingConfigParamOfEnabled(256),
		Tools:    []anthropic.ToolUnionParam{bashTool()},
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("say hello"))},
	}
	msg, _ := anthropicTurn(t, c, params)
	var useID string
	for _, b := range msg.Content {
		if b.Type == "tool_use" {
			useID = b.ID
		}
	}
	require.NotEqual(t, "", useID, "turn 1: %+v %+v", msg.Usage, msg.Content)
	require.Equal(t, int64(0), msg.Usage.CacheReadInputTokens, "turn 1: %+v %+v", msg.Usage, msg.Content)
	params.Messages = append(params.Messages, msg.ToParam(), anthropic.NewUserMessage(anthropic.NewToolResultBlock(useID, "hello", false)))
	final, err := c.Messages.New(ctxT(t), params)
	require.NoError(t, err)
	u1, u2 := msg.Usage, final.Usage
	checkTurn2Cache(t, "unary", u1.InputTokens, u2.InputTokens+u2.CacheReadInputTokens, u2.CacheReadInputTokens)
}
