// Package api is the seam between agentwire and the harness APIs it
// serves. Start at API: one value per API (Chat, Completions, Messages,
// Responses, registered in All) owns everything in which the APIs differ.
//
// # How a request travels
//
//	HTTP body ──API.Decode──▶ Request ──Check──▶ (the Backend)
//	Request ──Translate──▶ Translation: the chat request (the hourglass) or the completions prompt
//	Translation ──preprocess.Preprocessor──▶ preprocess.Prepared{API, Engine, Parsers, Response}
//	engine outputs ──pipeline──▶ protocols.Emitter events ──Writer──▶ the API's SSE stream or unary answer
//	any error ──API.ErrorBody (before the first byte) or Emitter.FailError (inside a stream)──▶ the API's error shape
//
// A server route holds one API value (package preprocess/server registers
// the routes from All); the preprocessor and the response pipeline receive
// it in the request (Request.API, preprocess.Prepared.API) and ask it,
// never branch on it. What each API decides, and where:
//
//	decoding and the API's own request rules   Decode, Request.Check
//	the translation to and from the chat form  Request.Translate; the Writer's unary answer
//	                                           (convert.AnthropicToChat / ChatToAnthropic,
//	                                           convert.ResponsesToChat / ChatToResponses)
//	raw text or parsed output                  RawText (Completions: no parsers)
//	the stream                                 Writer.Emitter: one protocols.Emitter per choice
//	                                           (one output per response on Messages and
//	                                           Responses), its usage, stop sequence, logprobs
//	the unary answer                           Writer.Unary
//	the error shape and response headers       ErrorBody, APIError, SetHeader
//
// Errors are classified where they happen, in the one vocabulary of
// protocols.Error (an engine failure and a request the preprocessor cannot
// serve answer protocols.ErrorOf themselves), and rendered here once per
// API: ErrorBody writes an error already in an API's shape (the decoders'
// protocols.APIError values) as it is, anything else as what a client may
// read of it (protocols.ErrorOf) in the API's shape.
//
// # Adding an API
//
// One file in this package: an API value (its decoder, its checks, its
// translation to the chat request, its Writer over an emitter that
// implements protocols.Emitter, its error shape) and its line in All. The
// server routes it, the metrics label it, and TestEveryAPIConforms in
// internal/conformance runs it through the conformance suite (streamed and
// unary answers agree, errors in shape, the official SDK accepts the
// answers) once the suite has a client for it. TestOneSeam keeps every
// other package from deciding by the API.
package api
