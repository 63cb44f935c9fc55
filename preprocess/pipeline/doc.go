// Package pipeline is the response half of agentwire: engine outputs in,
// API bytes out. Start at Serve: it runs one preprocess.Prepared on an
// engine.Engine and writes the API's stream or unary answer (ServeWith
// takes Options; New and a Pipeline's Start, Step, Finish drive the same
// steps by hand).
//
// One Pipeline serves one request; inside it, one per-choice pipeline per
// generated choice runs
//
//	engine.Output (token ids and/or text deltas, finish, usage, logprobs)
//	→ detokenizer (tokenizers.DecodeStream, only when ids arrive without text)
//	→ stop handling (only on that token-id path: text engines applied the stops)
//	→ gates (PRE.4 shape detection, PRE.6 leading <think> strip)
//	→ parsers (reasoning, tool calls; pooled per configuration)
//	→ whitespace framing
//	→ the choice's protocols.Emitter, from the request's API (api.Writer)
//
// and the unary answer is aggregated from the very same events (the
// writer's aggregators, then its API's unary answer), so a streamed and a
// unary answer to the same output cannot differ. The pipeline knows no API:
// it calls the emitter contract (events, SetLogprobs/FlushLogprobs,
// FinishChoice with the matched stop sequence, Done, FailError) and asks
// the API whether its answers are raw text (api.API.RawText: Completions,
// where no gate, parser or framing runs).
//
// # Where the rules are
//
// Each rule is written down beside the code that applies it:
//
//	stop handling, whitespace framing, reasoning   choice.go
//	visibility, pass-through of engine-parsed
//	output, the max_tokens bound, finish reasons,
//	logprobs, a call's last argument byte held
//	until the call ends
//	PRE.4 shape detection, PRE.6 <think> strip     gate.go
//	immediate mode (tool_choice required/named)    immediate.go
//	usage and cached tokens, n > 1                 pipeline.go
//	the engine stream, flushing, the usage wait    serve.go
//
// # Speed
//
// After warm-up a Step allocates nothing per token on every API surface
// (asserted in tests with testing.AllocsPerRun); BenchmarkPipeline* report
// ns/token and allocs/token.
package pipeline
