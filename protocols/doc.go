// Package protocols is the root of agentwire's protocols module: the wire
// types of the APIs agent harnesses speak (OpenAI Chat Completions,
// Completions, Responses, Anthropic Messages), the translators between them
// and the zero-allocation stream emitters. The module depends on nothing
// else of agentwire.
//
// Packages:
//
//	protocols            Opt (absent / null / value), StringOrArray, Extra
//	                     (unknown members), UnknownFields (strict mode),
//	                     the neutral Emitter interface, FinishReason, Usage,
//	                     IDSource, SSE framing
//	protocols/openai     chat, completions, models, tokenize types;
//	                     Emitter, Aggregator, NormalizeThinking
//	protocols/anthropic  Messages types, SSE events, errors, count_tokens;
//	                     Emitter, EstimateTokens
//	protocols/responses  Responses types, items, events; Emitter
//	protocols/nvext      Dynamo's nvext and agent_hints (always strict)
//	protocols/convert    Anthropic → chat, Responses → chat, and back
//	protocols/sse        server-sent event reader and writer
//
// # Decoding
//
// Every object type keeps the members it does not model in an Extra bag
// and writes them back, so a request survives decode → encode. Strict
// decoding (DecodeOptions.Strict in each API package) is the same decode
// followed by UnknownFields, answered with the API's own error. JSON goes
// through one internal package (github.com/goccy/go-json by default;
// build tag agentwire_stdjson switches to encoding/json).
//
// # Emitters
//
// An Emitter turns the neutral event sequence of one generated choice —
//
//	{ Content | Reasoning | ToolCallStart { ToolCallArgs } ( ToolCallEnd | ToolCallAbandoned ) } ( Finish | Fail )
//
// — into one API's wire bytes, appended to a buffer the caller owns and
// passes in (dst); the emitter never retains dst or the byte slices it is
// given, so they may alias a parser's buffers. Emitters are not safe for
// concurrent use: one per stream, reused with Reset. After warm-up the
// per-token methods do not allocate.
package protocols
