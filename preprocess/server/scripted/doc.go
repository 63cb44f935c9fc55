// Package scripted is the embedded engine of the example server and of
// tests. Start at Backend: a server.Backend that needs no model directory,
// tokenizer or GPU (its zero value serves the scripted Agent and replays).
//
// A request selects what answers it by its model name:
//
//   - "replay/NAME" replays a captured engine stream (NAME is its path
//     under testdata/engine-streams, e.g.
//     replay/vllm/qwen3-0.6B/chat_completion_stream_8f33c28b-tool.json):
//     the real model output of vLLM and SGLang captures (Qwen3-0.6B,
//     gpt-oss-20b, Nemotron, DeepSeek) streamed step by step, one delta per
//     token as captured, through the parsers of the model that produced it
//     (ReplayParsers), whatever the request asked. The harness replays
//     (replays/harness/…) carry already-parsed deltas and pass through.
//   - any other name ("agent", or whatever a harness sends:
//     claude-sonnet-…, gpt-5.5) is the scripted Agent: the request is
//     rendered as a ChatML (Qwen3-format) prompt and the agent writes
//     Qwen3-format text — <think> reasoning, hermes <tool_call> blocks —
//     which the real qwen3 and hermes parsers and the API emitters turn
//     into the answer. It calls a declared tool (a shell tool with
//     "echo hello" when there is one) and answers with text once the
//     tool result is back, so a real Claude Code or Codex turn completes.
//
// Prompts are not tokenized: 4 bytes count as one token for usage and the
// context check. The context check and max_tokens follow the
// Preprocessor's one rule (preprocess.OutputLimit, with MaxOutputTokens as
// the default). The tool parser runs when the request declares tools and
// tool_choice is not "none", also for "required" and a named tool, which
// a model directory serves with guided decoding and immediate mode: the
// scripted engine has no guided decoding, it writes hermes calls. The engine reports prefix-cache hits as vLLM would
// (engine.PrefixCache: whole 16-token blocks of the prompt seen in an
// earlier request, at most 65,536 blocks remembered), so a conversation's
// later turns show the earlier prompt as cached tokens on every API. The scripted agent also reads prompts rendered by a real
// Qwen3 chat template, so it can play the engine behind a real model
// directory (the server package's tests do that over vLLM's protocol).
package scripted
