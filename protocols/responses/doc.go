// Package responses holds the wire types of the OpenAI Responses API — the
// request with its input items (including the shapes Codex sends), tools,
// the response object and every stream event — and Emitter, the encoder of
// the Responses event stream with sequence numbers.
//
// # Decoding
//
// Object types keep unknown members in Extra; items and tools of types this
// package does not model are kept whole (Raw) so they survive decode →
// encode. DecodeRequest with Strict set rejects unknown members.
//
// # Streaming
//
// Emitter implements protocols.Emitter: response.created and
// response.in_progress, one output item at a time in generation order
// (reasoning, message, function_call), each with its added / delta / done
// events, then response.completed, response.incomplete or response.failed.
// Per-token events do not allocate after warm-up; the envelope events
// (created, in_progress, and the terminal event with the full output) are
// encoded from a Response value and allocate once per stream.
package responses
