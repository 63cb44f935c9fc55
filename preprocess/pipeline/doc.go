// Package pipeline is the response half of agentwire: engine outputs in,
// API bytes out. One Pipeline serves one request; inside it, one
// per-choice pipeline per generated choice runs
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
// # Rules implemented here
//
// Stop handling (token-id engines: tokenizers.StopDecoder over the
// detokenizer). Hidden stop ids (EOS, stop_token_ids)
// end the choice and emit nothing; visible stop ids (tool-call end tokens
// that are also EOS, such as Harmony's <|call|>) are emitted and then end
// it. A stop string is never partially emitted: the longest suffix of
// unemitted text that is a proper prefix of a stop string is held back
// until it either completes (the text before the match is emitted, or
// through it with Stop.IncludeStrings) or can no longer match. The earliest
// match wins, the longest among matches at one position. min_tokens defers
// every stop condition. A choice that stopped here ignores the engine's
// later output; finish_reason is stop and, for a stop string, Anthropic's
// stop_reason is stop_sequence.
//
// PRE.4 (ResponsePlan.ShapeDetect). The output is held while it is only
// whitespace; its first other byte decides once: '[' or '{' sends the whole
// stream to the tool parser without the reasoning parser, anything else
// parses normally. With StripThinkFirst (mistral) a complete leading
// [THINK] is looked past for the decision, and dropped when the decision is
// JSON.
//
// Immediate mode (ResponsePlan.ImmediateTool). With guided decoding for
// tool_choice required or named, the content after reasoning is the call
// JSON itself: an array of {"name", "parameters"} objects, or the arguments
// object of ResponsePlan.ImmediateToolName. The named call streams: it
// starts at the object's first byte, its arguments are sent as they arrive,
// and it is abandoned if they do not end as one JSON object. The array is
// buffered (bounded by Parsers.MaxCallBuffer) and emitted as whole calls
// at the end of the choice. Content of another shape is released as
// content, unchanged. With PRE.4 the bare-JSON branch goes through it too.
//
// PRE.6 (ResponsePlan.StripLeadingThink). The output is held while its
// left-trimmed text is empty or a strict prefix of "<think>"; one leading
// "<think>" is dropped with the whitespace before it; later ones are
// content. An undecided buffer is flushed unchanged at the end.
//
// Whitespace framing. Parsers keep content byte for byte; the pipeline
// never opens a content block for whitespace alone. While no content block
// is open (at the start, after reasoning, after a tool call),
// whitespace-only content is held; it is emitted, in order, with the next
// non-whitespace content, and dropped when reasoning, a tool call or the
// end of the turn comes first. The whitespace run right after reasoning is
// dropped. Once a block is open, whitespace passes through. Completions
// carry raw text: no gate, parser or framing runs for them.
//
// Reasoning visibility. With ResponsePlan.HideReasoning the reasoning is
// parsed (so it never leaks into content) and counted, but not sent.
//
// Pass-through. Outputs that carry Reasoning or ToolCalls come from an
// engine that parsed its own output: from the first such output on, the
// choice bypasses the parser (what the parser held is released first) and
// the deltas go to the emitter as they are; an engine call ends when the
// next call index starts or the choice finishes.
//
// Usage. Prompt, completion and cached tokens are the engine's when it
// reports them; otherwise the prompt comes from ResponsePlan and the
// completion tokens are the generated ids counted here (one per text step
// for text engines). Reasoning tokens are estimated: each step's tokens are
// credited to reasoning in proportion to the reasoning bytes the step
// produced. An engine that finished every choice by itself is read to the
// end of its stream, since its usage may follow the finish (vLLM, SGLang's
// OpenAI API and trtllm-serve send it in a chunk of its own), for at most
// Options.UsageWait (2 s by default; engines send it at once); after a
// local stop the engine is not waited for and the counts are the
// pipeline's. These are the only token counts: Options.Trace hands them
// (and each engine output, as it is read) to an observer such as the
// server's metrics and logs.
//
// Cached tokens (the engine's prefix-cache hits) are reported as each API
// does: chat and completions usage.prompt_tokens_details.cached_tokens
// (when non-zero; prompt_tokens includes them), Responses
// usage.input_tokens_details.cached_tokens (input_tokens includes them),
// Anthropic usage.cache_read_input_tokens with input_tokens the uncached
// rest (input_tokens + cache_read_input_tokens = the prompt;
// cache_creation_input_tokens 0), streamed and unary alike. Anthropic's
// message_start carries the prompt counts known when the stream starts:
// the engine's, when its first output reports them (SGLang's native API,
// the replay engine with a prefix cache), else ResponsePlan's with no
// cache reads; message_delta carries the final counts, cumulative as the
// API's are (clients take its input and cache numbers over
// message_start's).
//
// Finish reasons. eos and stop map to stop (tool_calls / tool_use when a
// call completed), length to length (max_tokens on Anthropic, incomplete on
// Responses), content_filter to content_filter. A failed choice
// (engine.FinishError), a choice the engine aborted (engine.FinishCancelled,
// vLLM's and SGLang's "abort": the client is still there, so the output is
// cut, not finished) or a failed stream ends the whole response with the
// API's error: its HTTP status and body before the first byte was written
// (api.API.ErrorBody), its in-stream error event after
// (protocols.Emitter.FailError). The client sees the detail of bad
// requests and context overflows only; other failures carry the API's
// standard text (protocols.ErrorOf).
//
// The max_tokens bound. The pipeline counts each choice's tokens (ids
// exactly; a text step as one token per 256 bytes, at least one) and ends
// a choice that runs past Engine.MaxTokens as if the engine had finished
// it with length: the ids past the limit are dropped, and the engine
// request is closed once every choice has ended. An engine that ignores
// max_tokens cannot stream past it, and a unary answer never aggregates
// more than 256 × MaxTokens bytes of text per choice.
//
// n > 1 (at most engine.MaxChoices, 128: more is the API's 400). Every
// choice has its own pipeline; chat and completions interleave
// the choices' chunks in one stream, write each finish chunk, then one
// usage chunk and [DONE]. Anthropic Messages and Responses have one output
// per response: choices past the first are dropped.
//
// Logprobs. Chat: each step's logprobs are sent in a chunk of their own
// (empty delta) after the step's events, and collected into the unary
// choice. Completions: the legacy object (tokens, token_logprobs,
// top_logprobs, text_offset) rides in the frame of the step's text (a
// frame of its own when the step's text is held), and the unary choice
// has the whole arrays.
//
// # Speed
//
// After warm-up a Step allocates nothing per token on every API surface
// (asserted in tests with testing.AllocsPerRun); BenchmarkPipeline* report
// ns/token and allocs/token.
package pipeline
