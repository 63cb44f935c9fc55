// Package anthropic holds the wire types of the Anthropic Messages API —
// the request with every content block (text, image, tool_use, tool_result,
// thinking, redacted_thinking, server tools, cache_control), the response,
// every SSE event, the error shape, count_tokens and the models endpoints —
// and Emitter, the zero-allocation encoder of the Messages SSE stream.
//
// # Decoding
//
// Object types keep members they do not model in an Extra bag and write them
// back when encoded; content blocks of unknown type are kept whole
// (ContentBlock.Raw). DecodeMessagesRequest with Strict set rejects unknown
// members with the API's own error (400 invalid_request_error,
// "context_management: Extra inputs are not permitted").
//
// # Streaming
//
// Emitter implements protocols.Emitter: message_start (with input_tokens),
// thinking / text / tool_use blocks with their deltas and stops in
// generation order, message_delta with stop_reason and usage, message_stop.
// Tool-use ids are minted (`toolu_` + 32 hex); the backend's ids are never
// exposed. After warm-up it does not allocate.
package anthropic
