package parsers

// lfm2 is Liquid AI's LFM2 / LFM2.5 tool-call grammar (PARSER_CASES.md,
// "Pythonic arguments"): a Python call list between two special tokens.
//
//	<|tool_call_start|>[get_weather(location="Paris"), get_time(tz='UTC')]<|tool_call_end|>
//
// The list is the pythonic grammar's (pythonic.go), run with a wrapper:
// the block is markup, so a call is emitted, whole, as soon as its ')'
// closes, and the text state never holds a '['. Decisions:
//
//   - The block ends at the list's ']', as a hermes body ends at its '}':
//     <|tool_call_end|> after it (whitespace before it is markup) is an
//     orphan closer, removed, and other text after it is content.
//   - Inside the wrapper the list's brackets may be missing: calls one
//     after another, separated by ',' or line breaks, up to
//     <|tool_call_end|> (ollama accepts that form too).
//   - true, false and null are literals besides True, False and None
//     (vLLM's pythonic helpers and ollama accept both spellings).
//   - A line break inside a quoted string is the string's (escaped in the
//     JSON), not an unterminated string (vLLM escapes raw control
//     characters in strings before parsing).
//   - A body that does not parse is markup: the calls that closed before
//     the error stand and the rest is dropped up to <|tool_call_end|> (or
//     up to the next <|tool_call_start|>, which starts a new block; the
//     wrapper's tokens outside strings always end a broken call). vLLM
//     returns the whole output as content instead; the library never lets
//     markup reach content.
//   - End of stream: the calls that closed stand; the rest of an open block
//     is dropped.
//   - LFM2 sometimes echoes a call after the block and closes it again:
//     the second <|tool_call_end|> is an orphan closer, removed, and the
//     echoed text stays content (vLLM drops it; the library keeps text it
//     cannot prove to be markup).
//   - Blocks repeat; whitespace between blocks is markup.
//
// Reasoning comes in <think>…</think> (reasoning parser lfm2-thinking, the
// basic one: LFM2.5-Thinking writes the opener itself when it reasons).
var lfm2Spec = pySpec{open: "<|tool_call_start|>", close: "<|tool_call_end|>", bare: true, jsonWords: true}

func init() {
	registerTool(ToolInfo{
		Malformed: "a body that is not a Python call list (or calls without its brackets) is markup: the calls that " +
			"closed before the error stand, the rest is dropped up to <|tool_call_end|> (or the next " +
			"<|tool_call_start|>); text after the list's ']' is content; positional arguments and keyword values " +
			"outside the literal subset are skipped and the call kept; a call longer than the per-call limit drops " +
			"the rest of the block",
		Truncated: "each call is emitted when its ')' closes, so the calls before the cut stand; a call cut before " +
			"its ')' is dropped with the rest of the block; <|tool_call_end|> may be missing",
	}, func(out *sink) toolGrammar { return newPyGrammar(out, &lfm2Spec) },
		"lfm2",          // vLLM, SGLang, ollama
		"lfm2-thinking", // ollama: the same calls, reasoning on
	)
	registerReasoning(thinkPlain, "lfm2-thinking", "lfm2_thinking")
}
