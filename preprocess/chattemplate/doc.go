// Package chattemplate renders a model's chat template the way Hugging Face
// transformers' apply_chat_template renders it, byte for byte. Start at
// Parse: it compiles a template once; Template.Render renders it for one
// request and is safe for concurrent use.
//
// The engine (internal/jinja, grown
// from github.com/ardanlabs/jinja; its README lists the changes) has
// Python's jinja2 semantics, configured as transformers configures jinja2:
//
//   - an immutable sandbox: attributes starting with "_" and the methods
//     that modify a dict or list (append, update, setdefault …) are
//     undefined values whose use is an error; list.pop and list.clear are
//     allowed, as in jinja2; range() is at most 100000 items;
//   - trim_blocks and lstrip_blocks, a trailing newline of the template
//     dropped, \r\n read as \n;
//   - loop controls ({% break %}, {% continue %}) and {% generation %}
//     blocks, which render their body;
//   - raise_exception(message), returned as a *TemplateError carrying the
//     template's message (a server answers 400 with it);
//   - strftime_now(format) formatting Options.Now (C locale, naive time);
//   - tojson as Python's json.dumps(ensure_ascii=False), with transformers'
//     parameters (ensure_ascii, indent, separators, sort_keys);
//   - every filter and test of jinja2, with its keyword arguments; values
//     printed and compared as Python prints and compares them; Python's
//     arithmetic, typing and string methods; jinja2's grammar and its
//     constant folding.
//
// # The template context
//
// Input carries the variables as JSON so they reach the template exactly
// as Python's json.loads would give them (object key order, 1 vs 1.0). As
// in transformers, the context holds messages, tools (None when absent),
// documents (None when absent), add_generation_prompt, the special tokens
// that are set (an empty BOSToken, EOSToken or UnkToken leaves the variable
// undefined, as for a tokenizer without that token), and last every key of
// Kwargs (a request's chat_template_kwargs), which overrides all the others.
// What goes into messages (reasoning replay, tool-call arguments as objects
// or strings, content parts) is the caller's decision; this package renders
// what it is given.
//
// # Bounds
//
// A template is code shipped with a model and renders request data, so each
// render is bounded: MaxSteps statements and loop iterations, MaxBytes for
// the output and any string built, 4×MaxBytes for all the strings built
// together, MaxDepth nested macro calls, and JSON input nested at most 512
// levels. A render over a bound fails with an error wrapping ErrLimit
// (a range of more than 100000 items fails as in jinja2's sandbox, with
// an OverflowError). Parse rejects expressions and blocks nested more than
// 200 deep, and folds constant expressions under the same byte bound. An
// engine panic is recovered and returned as an error. The tools cache
// (Options.ToolsCache) is off for a template that could pop from or clear
// a list, since jinja2 allows both.
//
// # Exactness
//
// The tests render 24 templates (23 real ones, with provenance, and one
// feature template) with 15 agent-shaped conversations and with the recorded
// 49 KB Claude Code request, 394 small expression templates covering every
// filter and test of jinja2 with their keyword arguments, and 2441 random
// ones, and compare with goldens written by an oracle
// (testdata/chattemplate/oracle.py: Python's jinja2 set up as transformers
// sets it up). All template renders and random expressions are
// byte-identical; four expressions are not, each listed with its reason in
// known_differences.tsv: integers beyond 64 bits (Python's are unbounded;
// here they are an OverflowError, and JSON integers beyond int64 become
// floats), complex numbers, and bytes (str.encode). Other known limits: a
// lone UTF-16 surrogate in the JSON input or a string literal becomes
// U+FFFD (Python keeps it); a printed generator or function shows another
// address than Python's.
package chattemplate
