package parsers

// GigaChat 3 markers: special tokens of its tokenizer (the template writes
// "<|message_sep|>\n\n" and "<|role_sep|>\n").
const (
	gcMessageSep   = "<|message_sep|>"
	gcFunctionCall = "<|function_call|>"
	gcRoleHeader   = "function call<|role_sep|>"
	gcEOS          = "</s>"
)

// gigaChat3 is Sber GigaChat 3's tool-call grammar (PARSER_CASES.md,
// "GigaChat 3 / 3.5"): after the answer, the template's next message is a
// call, one JSON object after a role header (GigaChat 3) or after
// <|function_call|> (GigaChat 3.1):
//
//	I'll check that for you.<|message_sep|>
//
//	function call<|role_sep|>
//	{"name": "manage_user_memory", "arguments": {"action": "create"}}</s>
//
// It is the hermes machine (hermes.go) with these openers and no closer
// of its own: the call ends when its object closes; </s> after it (the end
// token, when the engine leaves it in the text) and <|message_sep|> are
// markup wherever they appear in content.
type gigaChat3 struct{ *hermes }

func init() {
	registerTool(ToolInfo{
		Malformed: "a body that is not a call object (or array of them) is markup: the call is abandoned and the body dropped up to " +
			"</s> or the next opener; <|message_sep|> and </s> in content are removed",
		Truncated: "a closed object is a call; one cut mid-value is abandoned and its markup dropped",
	}, func(out *sink) toolGrammar { return gigaChat3{newWrappedJSON(out, gcFunctionCall, gcEOS)} },
		"gigachat3", // vLLM, SGLang
	)
}

// textMarkers: the two openers, and the end token and message separator
// (with the template's "\n\n", when it follows), removed as markup.
func (g gigaChat3) textMarkers() []marker {
	return []marker{
		{text: gcFunctionCall, act: actToolOpen},
		{text: gcRoleHeader, act: actToolOpen},
		{text: gcEOS, act: actToolClose},
		{text: gcMessageSep + "\n\n", act: actToolClose},
		{text: gcMessageSep, act: actToolClose},
	}
}
