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
// The functions do not modify their inputs; the results share no mutable
// memory with them except raw JSON values (schemas, tool inputs), which are
// treated as immutable.
package convert
