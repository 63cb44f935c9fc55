package openai_test

import (
	"fmt"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/openai"
)

// A parser's events become chat.completion.chunk SSE frames appended to a
// reused buffer. The finish reason is rewritten to tool_calls because a call
// completed.
func ExampleEmitter() {
	e := openai.NewEmitter(openai.EmitterConfig{ID: "chatcmpl-1", Model: "qwen3", Created: 1767225600, IncludeUsage: true})
	buf := make([]byte, 0, 4096)
	buf = e.Reasoning(buf, []byte("Need weather."))
	buf = e.ToolCallStart(buf, 0, []byte("call_1"), []byte("get_weather"))
	buf = e.ToolCallArgs(buf, 0, []byte(`{"city":"SF"}`))
	buf = e.ToolCallEnd(buf, 0)
	buf = e.Finish(buf, protocols.FinishStop, protocols.Usage{PromptTokens: 12, CompletionTokens: 9})
	fmt.Print(string(buf))
	// Output:
	// data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1767225600,"model":"qwen3","choices":[{"index":0,"delta":{"role":"assistant","reasoning_content":"Need weather."},"logprobs":null,"finish_reason":null}],"usage":null}
	//
	// data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1767225600,"model":"qwen3","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":""}}]},"logprobs":null,"finish_reason":null}],"usage":null}
	//
	// data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1767225600,"model":"qwen3","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\":\"SF\"}"}}]},"logprobs":null,"finish_reason":null}],"usage":null}
	//
	// data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1767225600,"model":"qwen3","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"tool_calls"}],"usage":null}
	//
	// data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1767225600,"model":"qwen3","choices":[],"usage":{"prompt_tokens":12,"completion_tokens":9,"total_tokens":21}}
	//
	// data: [DONE]
}

// Strict decoding rejects members the types do not model with the message
// Dynamo uses; the default keeps them and writes them back.
func ExampleDecodeChatRequest() {
	body := []byte(`{"model":"m","messages":[{"role":"user","content":"hi"}],"frobnicate":1}`)
	_, err := openai.DecodeChatRequest(body, openai.DecodeOptions{Strict: true})
	fmt.Println(err.(*openai.APIError).Body.Error.Message)

	req, _ := openai.DecodeChatRequest(body, openai.DecodeOptions{})
	fmt.Println(string(req.Extra["frobnicate"]))
	// Output:
	// Unsupported parameter(s): `frobnicate`
	// 1
}

// The Aggregator builds the unary response from the same events.
func ExampleAggregator() {
	a := openai.NewAggregator(openai.AggregatorConfig{ID: "chatcmpl-1", Model: "qwen3", Created: 1})
	a.Reasoning(nil, []byte("plan"))
	a.ToolCallStart(nil, 0, []byte("call_1"), []byte("f"))
	a.ToolCallArgs(nil, 0, []byte("{}"))
	a.ToolCallEnd(nil, 0)
	a.Finish(nil, protocols.FinishStop, protocols.Usage{})
	m := a.Response().Choices[0]
	fmt.Println(m.FinishReason.Value(), m.Message.ReasoningContent.Value().Array, m.Message.Content.IsNull())
	// Output:
	// tool_calls [plan ] true
}
