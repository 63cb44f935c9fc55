package parsers

// hermes is the JSON-in-wrapper-tags grammar of Hermes, Qwen 2.5 and Qwen3
// (PARSER_CASES.md):
//
//	call-block = "<tool_call>" *WS body *WS "</tool_call>"
//	body       = call-object / "[" [ call-object *( "," call-object ) ] "]"
//
// Blocks repeat; whitespace between blocks is markup. A call ends when its
// object closes, so a complete body without its closer is recovered. A body
// that is not JSON (or breaks mid-way) is markup: the open call is abandoned
// and everything up to the closer is dropped — or up to a new opener, which
// starts a new block. Orphan closers in content are removed.
type hermes struct {
	openTag, closeTag string
	body              jsonCalls
	skip              matcher // closer and opener, while dropping a broken block
	skipping          bool
	// reopened, when set, is told that a new block started at an opener met
	// while dropping a broken one (internlm expects its lead again).
	reopened func()
}

func init() {
	registerTool(ToolInfo{
		Malformed: "a body that is not a call object (or array of them) is markup: the call is abandoned and the block " +
			"is dropped up to its closer (or up to the next opener, which starts a new block); in an array, " +
			"elements that are not call objects are skipped; non-whitespace after a closed body is content",
		Truncated: "a closed body is a call even without its closer; a body cut mid-value is abandoned and its markup " +
			"dropped; in an unclosed array, every closed element is a call; a held partial closer is text",
	}, func(out *sink) toolGrammar { return newWrappedJSON(out, "<tool_call>", "</tool_call>") },
		"hermes",
		"qwen25",   // Dynamo alias
		"granite4", // vLLM: hermes with arguments possibly a JSON string
		"qwen",     // SGLang
		"ernie45",  // vLLM: ERNIE 4.5 writes hermes calls (its <response> wrapper is the ernie45 reasoning parser's)
		"trinity",  // SGLang: Arcee Trinity, hermes with <think> tags stripped (the reasoning parser's markup here)
	)
}

// newWrappedJSON builds the hermes machine with the tags open and close;
// hermes, jamba, nemotron_deci and default differ only in their tags.
func newWrappedJSON(out *sink, open, close string) *hermes {
	h := &hermes{openTag: open, closeTag: close}
	h.body = jsonCalls{
		out:         out,
		allowObject: true,
		allowArray:  true,
		argKeys:     []string{"arguments", "parameters"},
	}
	h.skip = newMatcher(marker{text: close, act: actClose}, marker{text: open, act: actOpen})
	return h
}

// registerArrayWrapped registers the hermes machine under the tags open and
// close for a family whose model writes a JSON array of call objects (a bare
// call object is accepted too): jamba, nemotron_deci.
func registerArrayWrapped(open, close string, names ...string) {
	registerTool(ToolInfo{
		Malformed: "a body that is not an array of call objects (or one call object) is markup: the call is abandoned and " +
			"the block is dropped up to its closer (or up to the next opener); elements that are not call objects are " +
			"skipped; non-whitespace after a closed body is content",
		Truncated: "a closed body is recovered without its closer; in an unclosed array every closed element is a call and " +
			"the truncated one is abandoned; a body cut mid-value is abandoned and its markup dropped",
	}, func(out *sink) toolGrammar { return newWrappedJSON(out, open, close) }, names...)
}

func (h *hermes) textMarkers() []marker {
	return []marker{{text: h.openTag, act: actToolOpen}, {text: h.closeTag, act: actToolClose}}
}

func (h *hermes) open(int) {
	h.skipping = false
	h.body.begin()
}

func (h *hermes) feed(b []byte, final bool) (int, blockStatus) {
	if !h.skipping {
		n, r := h.body.feed(b)
		switch r {
		case jcMore:
			return n, blockMore
		case jcEnd:
			// The body closed: the closer (and whitespace) are handled as
			// the group continuation; text after it is content.
			return n, blockDone
		}
		h.skipping = true
		m, st := h.skipBroken(b[n:], final)
		return n + m, st
	}
	return h.skipBroken(b, final)
}

// skipBroken drops a broken block up to its closer, or up to an opener that
// starts the next block.
func (h *hermes) skipBroken(b []byte, final bool) (int, blockStatus) {
	pos, mi := h.skip.find(b, final)
	if mi < 0 {
		return noMarker(b, pos)
	}
	n := pos + len(h.skip.ms[mi].text)
	if h.skip.ms[mi].act == actClose {
		h.skipping = false
		return n, blockDone
	}
	h.open(0)
	if h.reopened != nil {
		h.reopened()
	}
	return n, blockMore
}

func (h *hermes) finish() {
	h.body.finish()
}

func (h *hermes) reset() { h.open(0) }
