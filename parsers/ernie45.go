package parsers

// ernie45Think is the reasoning parser of Baidu's ERNIE 4.5 thinking models
// (ERNIE-4.5-21B-A3B-Thinking), as vLLM's ernie45 reasoning parser reads
// them:
//
//	reasoning\n</think>\n\n<response>\nanswer\n</response>\n
//
// or, without the wrapper, reasoning\n</think>\nanswer. Forced: the
// template opens the span in the prompt, so the output starts inside
// reasoning (an echoed <think> is dropped). The answer's wrapper
// <response> … </response> is markup: its tags are closers of the span, so
// in content they are removed wherever they appear (as every stray closer
// is), each with the one newline the template writes after it
// ("<response>\n", "</response>\n"); every other byte of the answer is
// content, untrimmed (PARSER_CASES.md, "Content is the output minus markup,
// untrimmed"), so the "\n\n" after </think> stays. A wrapper tag met inside
// reasoning ends the span: the model has started its answer (vLLM keeps it
// as reasoning text until </think>).
//
// ERNIE's tool calls are hermes JSON in <tool_call> tags, written after
// </think>: the tool parser ernie45 is hermes (hermes.go).
var ernie45Think = &reasoningSpec{name: "ernie45", starts: []string{"<think>"}, forced: true,
	ends: []string{"</think>", "<response>\n", "<response>", "</response>\n", "</response>"}}

func init() {
	registerReasoning(ernie45Think, "ernie45") // vLLM
}
