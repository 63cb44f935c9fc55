package parsers

// internlm is the InternLM2 / Intern-S1 tool-call grammar (PARSER_CASES.md,
// "JSON arguments"): one JSON call object in an action block of the plugin
// kind.
//
//	I'll check.<|action_start|><|plugin|>
//	{"name": "get_weather", "parameters": {"city": "Tokyo"}}<|action_end|>
//
// It is the hermes machine (hermes.go) with <|action_start|> and
// <|action_end|> as its tags and <|plugin|> required after the opener
// (whitespace before it is allowed: Intern-S1 writes "<|action_start|>
// <|plugin|>"). The body is a call object ("parameters" or "arguments"; an
// array of them is accepted too) and blocks repeat. A block of another kind
// (InternLM2's <|interpreter|> code) is not a call and is dropped up to
// <|action_end|>, as any block whose body is not a call. Calls to undeclared
// tools are emitted (vLLM's Intern-S1 parser and SGLang drop them).
//
// Reasoning (Intern-S1): <think>…</think>; an action block met inside the
// span ends it (reasoning parser interns1), where vLLM moves the block out
// of the reasoning and keeps reasoning after it: here the text after the
// block is content.
var internThink = &reasoningSpec{name: "interns1", starts: []string{"<think>"}, ends: []string{"</think>"},
	toolStarts: []string{"<|action_start|>"}}

func init() {
	registerTool(ToolInfo{
		Malformed: "a block whose opener is not followed by <|plugin|> (after optional whitespace), or whose body is not " +
			"a call object (or array of them), is markup: the call is abandoned and the block dropped up to " +
			"<|action_end|> (or up to the next <|action_start|>); non-whitespace after a closed body is content",
		Truncated: "a closed body is a call even without <|action_end|>; a body cut mid-value is abandoned and its " +
			"markup dropped",
	}, newInternLM,
		"internlm",  // vLLM (InternLM2)
		"interns1",  // SGLang
		"intern-s1", // vLLM
	)
	registerReasoning(internThink, "interns1", "intern-s1", "intern_s1")
}

// internLM is the hermes machine with a lead: the bytes that must follow the
// opener (after optional whitespace) before the body. A block without them
// is not a call and is dropped up to its closer.
type internLM struct {
	*hermes
	lead    string
	leadN   int  // bytes of lead matched in the current block
	leading bool // the lead is still expected in the current block
}

func newInternLM(out *sink) toolGrammar {
	g := &internLM{hermes: newWrappedJSON(out, "<|action_start|>", "<|action_end|>"), lead: "<|plugin|>"}
	g.hermes.reopened = g.expectLead
	return g
}

// expectLead starts a block: its lead comes first.
func (g *internLM) expectLead() { g.leadN, g.leading = 0, true }

func (g *internLM) open(arg int) {
	g.hermes.open(arg)
	g.expectLead()
}

func (g *internLM) feed(b []byte, final bool) (int, blockStatus) {
	if !g.leading {
		return g.hermes.feed(b, final)
	}
	n, ok := g.feedLead(b)
	if !ok {
		// Not a plugin call: dropped up to the closer, as a broken body.
		g.leading = false
		g.skipping = true
		m, st := g.skipBroken(b[n:], final)
		return n + m, st
	}
	if n == len(b) {
		return n, blockMore
	}
	m, st := g.hermes.feed(b[n:], final)
	return n + m, st
}

// feedLead matches the lead (whitespace before it is skipped): it returns
// the bytes consumed and false at the first byte that does not continue it.
func (g *internLM) feedLead(b []byte) (int, bool) {
	i := 0
	if g.leadN == 0 {
		i = spaceLen(b)
	}
	for ; i < len(b) && g.leadN < len(g.lead); i++ {
		if b[i] != g.lead[g.leadN] {
			return i, false
		}
		g.leadN++
	}
	g.leading = g.leadN < len(g.lead)
	return i, true
}
