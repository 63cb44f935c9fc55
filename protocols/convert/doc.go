// Package convert holds the stateless translators between the APIs: the
// "hourglass" that turns Anthropic Messages and Responses requests into one
// chat completion request (carrying, in a context value, what the response
// path needs to answer in the client's API), and the way back for unary
// responses — a chat response to an Anthropic message or a Responses
// response.
//
// Interleaved reasoning survives the translation: assistant thinking blocks
// and reasoning items become reasoning_content segments aligned with the
// tool calls they preceded (segments[i] precedes tool_calls[i]; the last
// segment trails), so a template can re-render
// <think>r1</think><call A><think>r2</think><call B> token for token.
//
// Tool results follow their calls: after an assistant message with tool
// calls, the tool messages answering them are put in the order of the calls
// (clients send parallel results in completion order; templates such as
// Qwen3's pair <tool_response> blocks with calls by position), and any user
// text sent alongside them follows.
//
// Responses tools: function tools are passed on; a namespace's tools are
// flattened to their bare names (ResponsesContext.Tools remembers the
// namespace); a custom (freeform) tool is declared as a function with one
// string parameter "input" (CustomInputSchema) and its calls are turned back
// into custom_tool_call items; hosted tools the engine cannot run
// (web_search, tool_search, …) are listed in ResponsesContext.DroppedTools.
//
// The functions do not modify their inputs; the results share no mutable
// memory with them except raw JSON values (schemas, tool inputs), which are
// treated as immutable.
package convert
