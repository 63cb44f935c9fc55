// Package openai holds the wire types of the OpenAI-compatible endpoints —
// Chat Completions (request, response, stream chunk), Completions, models
// list/retrieve, vLLM's tokenize/detokenize — with Dynamo's extensions, and
// Emitter, the zero-allocation encoder of chat-completion stream chunks.
//
// # Decoding
//
// Every object type keeps the members it does not model in an Extra bag and
// writes them back when encoded, so a request survives decode → encode.
// DecodeChatRequest with Strict set rejects unknown members instead, with the
// message Dynamo uses ("Unsupported parameter(s): `a`, `b`").
// Optional scalars whose zero value means something (`"temperature": 0`,
// `"store": false`) are protocols.Opt values, as are the fields where the
// protocol distinguishes null from absent.
//
// # Streaming
//
// Emitter implements protocols.Emitter: it turns content, reasoning and
// tool-call events into `data: {chat.completion.chunk}` SSE frames appended
// to a caller's buffer, rewrites the finish reason to tool_calls, writes the
// usage chunk and `data: [DONE]`, and optionally the tool_call_dispatch and
// reasoning_dispatch side-channel events. After warm-up it does not allocate.
package openai
