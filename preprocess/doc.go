// Package preprocess is the request half of serving a model to agent
// harnesses. Start at LoadModel and New: a Preprocessor's Prepare turns a
// decoded API request into a Prepared, the engine request and response plan.
//
// # How a request travels
//
// Top to bottom through the packages under preprocess/ (package server
// runs every stage; the README's backend example does it in a few lines):
//
//	preprocess/server        HTTP: routes, limits, ids, access; a server.Job to its Backend
//	preprocess/api           the harness API: decode and check (api.Request), translate to
//	                         the chat request, later write the answer and the errors
//	preprocess               this package: chat template, PRE.1–PRE.6, tokens, stops →
//	                         Prepared (plan.go, the contract with the response half)
//	preprocess/chattemplate  the chat template, rendered as transformers renders it
//	preprocess/engine        the engine adapters: Prepared.Engine out, engine.Output steps in
//	preprocess/pipeline      engine outputs → detokenizer, stops, parsers → the API's
//	                         emitter (api.Writer): SSE or the unary answer
//
// Package preprocess/server/scripted is an embedded engine and Backend for
// the example server and the tests. The rest of this documentation is the
// request half in detail.
//
// A Model is a Hugging Face model directory loaded once (LoadModel): the
// tokenizer, the chat templates (tokenizer_config.json's chat_template as a
// string or a list of named templates, chat_template.jinja), the special
// tokens, the EOS ids of generation_config.json, the context length of
// config.json, and the tool and reasoning parser names from the
// model-family table (family.go), which the caller may override.
//
// A Preprocessor serves one Model and is safe for concurrent use. Prepare
// takes a request of any API (api.Request; Chat, Messages, Responses and
// Completion take decoded values) and returns a *Prepared:
//
//  1. The request is translated by its API (api.Request.Translate):
//     Anthropic and Responses requests to the chat request (package
//     protocols/convert), whose translation contexts go to the response
//     plan; a completions prompt is used as sent (no template).
//  2. The chat template is rendered as transformers' apply_chat_template
//     renders it (package preprocess/chattemplate), from a template input
//     built as vLLM builds it: tool-call arguments as objects, tool results
//     with their ids and names, text parts joined, earlier turns' reasoning
//     replayed (passed as reasoning_content when the template reads it,
//     without the whitespace the template writes around it itself, else
//     folded into the content between the reasoning parser's own
//     markers), chat_template_kwargs and the API's thinking options as
//     top-level template variables. The APIs' effort and thinking controls
//     (Chat reasoning_effort, Responses reasoning.effort, Anthropic
//     thinking and output_config.effort) arrive as one reasoning_effort
//     and enable_thinking; reasoning_effort is mapped onto the values the
//     template knows, which a probe at load time finds (effort.go,
//     Template.Effort; PARSER_CASES.md has the tables), so no value an API
//     allows fails on a template that raises on unknown ones. So that the
//     next turn's prompt starts with this turn's prompt and the model's
//     output (the engine's prefix cache), a template that prints string
//     arguments gets the model's own text: the client's string on Chat and
//     Responses, and on Anthropic Messages the text the server emitted for
//     that tool_use id (ToolArgs), else the object.
//  3. PRE.1–PRE.6 and the tool-parsing jail are decided from one table
//     keyed by canonical parser name (rules.go); PARSER_CASES.md shows
//     the same table and a test keeps them equal.
//  4. The prompt is tokenized (NUL bytes stripped), checked against the
//     context length (an *engine.Error of kind ErrorContextLength carrying
//     both numbers), and the engine request is assembled: max_tokens always
//     explicit (context − prompt by default, an explicit value clamped to
//     the room left), stop strings and hidden/visible stop ids (EOS ids
//     hidden; a tool parser's end token that is an EOS id visible; the
//     request's stop_token_ids hidden), sampling, and guided decoding for
//     tool_choice required/named.
//
// Images (images.go; PARSER_CASES.md, "Images"): the image parts of user
// and tool messages become engine.Request.Images in prompt order (data or
// http(s) URL, media type, SHA-256, size, dimensions read from the header
// only), bounded by Options.MaxImageBytes and MaxImages. The template gets
// them as {"type":"image"} parts and writes its own placeholder, which a
// probe at load time finds (Template.ImagePlaceholder); the prompt must
// hold one per image. A text-only model or a template without a
// placeholder refuses images (engine.ErrNoImages, a 400). The context
// check and max_tokens reserve Options.ImageTokens per image (else the
// family's); the engine's processor expands the placeholders.
//
// Request errors (a template's raise_exception, PRE.1's rejection, a
// tool_choice naming an undeclared tool, a render past the template's
// bounds: ErrRenderLimit) are *BadRequestError values: a client reads them
// as a 400 (protocols.ClientError) and they unwrap to the 400 error value
// of the request's API. Other template failures are the server's errors.
//
// The prefix cache: the next turn of a conversation re-renders the previous
// prompt plus the new messages, so the token ids of the unchanged prefix
// are reused up to the last added-token boundary that the tokenizer
// proves safe (tokenizers.BPE.Boundaries); the result is identical to a cold encode, which a test
// checks on every captured Claude Code and Codex conversation. It holds at
// most Options.PrefixCacheEntries prompts and Options.PrefixCacheBytes
// bytes, and only prompts of accepted requests: a prompt answered with an
// error or only counted is never kept.
package preprocess
