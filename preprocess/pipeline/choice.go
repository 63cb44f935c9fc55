package pipeline

import (
	"errors"

	"github.com/agentwire/agentwire/parsers"
	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/tokenizers"
)

// errNoTokenizer is returned when an engine sends token ids without text
// and the request carries no tokenizer to decode them.
var errNoTokenizer = errors.New("pipeline: the engine sent token ids without text and the request has no tokenizer")

// The rules of one choice, applied in the order of the flow (the gates are
// in gate.go, immediate mode in immediate.go):
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
// The max_tokens bound. The pipeline counts each choice's tokens (ids
// exactly; a text step as one token per 256 bytes, at least one) and ends
// a choice that runs past Engine.MaxTokens as if the engine had finished
// it with length: the ids past the limit are dropped, and the engine
// request is closed once every choice has ended. An engine that ignores
// max_tokens cannot stream past it, and a unary answer never aggregates
// more than 256 × MaxTokens bytes of text per choice.
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
// Logprobs. Chat: each step's logprobs are sent in a chunk of their own
// (empty delta) after the step's events, and collected into the unary
// choice. Completions: the legacy object (tokens, token_logprobs,
// top_logprobs, text_offset) rides in the frame of the step's text (a
// frame of its own when the step's text is held), and the unary choice
// has the whole arrays.

// choice is the per-choice pipeline: decode → stop → gate → parser →
// whitespace framing → emitter. It is reused across requests (reset).
type choice struct {
	index int
	em    protocols.Emitter

	// decoding and stops (token-id engines only): the stop decoder over
	// the detokenizer
	dec       *tokenizers.StopDecoder
	decTok    tokenizers.Tokenizer
	decSkip   bool
	decLive   bool // dec was reset for this request
	localStop bool // a stop id or stop string matched here (not in the engine)
	stopStrs  []string
	acc       []byte // text decoded in this step, after stop handling

	gate    gate
	parser  *parsers.Parser // the parser in use
	main    *parsers.Parser // from pools[0]
	alt     *parsers.Parser // PRE.4 bare-JSON parser (no reasoning), from pools[1]
	rawText bool            // completions: no gate, no parser, no framing
	imm     immediate       // immediate mode (guided tool_choice): parses the content
	immOn   bool

	// whitespace framing
	blockOpen      bool   // a content block is open (non-whitespace content emitted since the last reasoning or call)
	afterReasoning bool   // drop the whitespace run that follows reasoning
	ws             []byte // whitespace-only content held while no block is open

	// pass-through (the engine parsed its output itself)
	pass      bool
	passOpen  bool
	passIdx   int // the engine's index of the open call
	calls     int // calls started (emitter indices)
	abandoned int // calls abandoned

	// The last byte of the open call's arguments, held until the call
	// ends (see callArgs); argBuf joins it to the next fragment.
	argHeld bool
	argLast byte
	argBuf  []byte
	idBuf   []byte

	// accounting
	bounded     int64 // tokens counted against Engine.MaxTokens (the bound)
	tokens      int64 // token ids the engine sent
	textSteps   int64 // text steps without ids (token estimate)
	pendingTok  int64 // tokens not yet attributed to reasoning or output
	reasoningTk int64
	stepReason  int
	stepOther   int

	// end state
	done      bool // no more output is taken (finished or stopped locally)
	engineEnd bool // the engine's own finish ended it (it stopped generating)
	finish    protocols.FinishReason
	stopStr   []byte // the stop string that ended the choice, if known
	calledEnd bool   // the emitter's terminal method was called
}

// reset prepares c for a request. pools[0] serves the request's parser
// configuration; pools[1], when not nil, the PRE.4 bare-JSON variant.
func (c *choice) reset(p *Pipeline, index int, em protocols.Emitter) {
	plan := &p.prep.Response
	c.index, c.em = index, em
	c.acc = c.acc[:0]
	c.decLive, c.localStop = false, false
	c.rawText = p.prep.API.RawText()
	switch {
	case c.rawText:
		c.gate.reset(gateOff, false)
	case plan.ShapeDetect:
		c.gate.reset(gateShape, plan.StripThinkFirst)
	case plan.StripLeadingThink:
		c.gate.reset(gateThink, false)
	default:
		c.gate.reset(gateOff, false)
	}
	if !c.rawText {
		c.main = p.pools[0].Get()
		c.parser = c.main
		if p.pools[1] != nil {
			c.alt = p.pools[1].Get()
		}
	}
	c.immOn = plan.ImmediateTool && !c.rawText
	if c.immOn {
		c.imm.reset(plan.ImmediateToolName, p.prep.Parsers.MaxCallBuffer, p.ids)
	}
	c.blockOpen, c.afterReasoning = false, false
	c.ws = c.ws[:0]
	c.pass, c.passOpen, c.passIdx, c.calls, c.abandoned = false, false, 0, 0, 0
	c.argHeld = false
	c.tokens, c.textSteps, c.pendingTok, c.reasoningTk, c.bounded = 0, 0, 0, 0, 0
	c.stepReason, c.stepOther = 0, 0
	c.done, c.engineEnd, c.finish, c.stopStr, c.calledEnd = false, false, protocols.FinishStop, c.stopStr[:0], false
}

// release returns the parsers to their pools.
func (c *choice) release(p *Pipeline) {
	if c.main != nil {
		p.pools[0].Put(c.main)
	}
	if c.alt != nil {
		p.pools[1].Put(c.alt)
	}
	c.main, c.alt, c.parser, c.em = nil, nil, nil, nil
}

// step consumes one engine output of this choice.
func (c *choice) step(p *Pipeline, out *engine.Output) error {
	if c.done {
		return nil // stopped locally: later output is ignored
	}
	// The server's own max_tokens bound: an engine that runs past the
	// request's limit (it ignored max_tokens) is cut there, as if it had
	// finished with length. Token ids are counted exactly (the ids past
	// the limit are dropped); a text step counts as one token per
	// maxTokenBytes bytes, at least one, so a text engine is cut later,
	// never earlier, than its limit, and never holds more than
	// maxTokenBytes × MaxTokens bytes of output.
	ids := out.TokenIDs
	over := false
	if limit := int64(p.prep.Engine.MaxTokens); limit > 0 {
		text := len(out.Text) + len(out.Reasoning)
		for i := range out.ToolCalls {
			text += len(out.ToolCalls[i].Name) + len(out.ToolCalls[i].Arguments)
		}
		switch {
		case len(ids) > 0 && c.bounded+int64(len(ids)) > limit:
			ids, over = ids[:max(limit-c.bounded, 0)], true
		case len(ids) > 0:
			c.bounded += int64(len(ids))
		case text > 0:
			c.bounded += max(1, int64(text/maxTokenBytes))
			over = c.bounded > limit
		}
		if over && len(ids) == 0 {
			c.end(p, engine.FinishLength, nil)
			return nil
		}
	}
	n := len(ids)
	switch {
	case n > 0:
		c.tokens += int64(n)
		c.pendingTok += int64(n)
	case out.HasText && len(out.Text) > 0 || len(out.Reasoning) > 0 || len(out.ToolCalls) > 0:
		c.textSteps++
		c.pendingTok++
	}
	if p.prep.Response.Logprobs && len(out.Logprobs) > 0 {
		c.em.SetLogprobs(out.Logprobs) // Completions write them with the step's first frame
	}
	switch {
	case len(out.Reasoning) > 0 || len(out.ToolCalls) > 0:
		c.passthrough(p, out)
	case out.HasText:
		c.feed(p, out.Text)
	case n > 0:
		if err := c.decode(p, ids); err != nil {
			return err
		}
	}
	if p.prep.Response.Logprobs && len(out.Logprobs) > 0 {
		p.buf = c.em.FlushLogprobs(p.buf) // chat: a chunk of their own after the step's events
	}
	c.attribute()
	if c.done {
		return nil // a local stop matched in this step
	}
	if over {
		c.end(p, engine.FinishLength, nil)
		return nil
	}
	switch out.Finish {
	case engine.FinishNone:
	case engine.FinishError:
		if out.Err != nil {
			return out.Err
		}
		return &engine.Error{Kind: engine.ErrorUpstream, Message: "the engine failed the generation"}
	case engine.FinishCancelled:
		// The engine aborted a request whose client is still here (a
		// client that left is seen by the caller first): the output is
		// incomplete, not finished.
		return errAborted
	default:
		c.end(p, out.Finish, out.StopReason)
		c.engineEnd = true
	}
	return nil
}

// maxTokenBytes is the most bytes of text the max_tokens bound takes for
// one token (no tokenizer has tokens this long).
const maxTokenBytes = 256

// errAborted is the failure of a choice the engine aborted (vLLM's and
// SGLang's finish_reason "abort").
var errAborted = &engine.Error{Kind: engine.ErrorUpstream, Message: "the engine aborted the generation (finish_reason abort)"}

// decode runs token ids through the detokenizer and the stop conditions
// (tokenizers.StopDecoder).
func (c *choice) decode(p *Pipeline, ids []uint32) error {
	if !c.decLive {
		if err := c.startDecoding(p); err != nil {
			return err
		}
	}
	out := c.acc[:0]
	for _, id := range ids {
		text, stopped, err := c.dec.Step(id)
		if err != nil {
			return &engine.Error{Kind: engine.ErrorMalformed, Message: err.Error()}
		}
		if len(ids) == 1 {
			out = text // one id (the usual step): no copy
		} else {
			out = append(out, text...)
			c.acc = out
		}
		if stopped {
			c.feed(p, out)
			c.stringStop()
			c.localStop = true
			c.end(p, engine.FinishStop, nil)
			return nil
		}
	}
	c.feed(p, out)
	return nil
}

// startDecoding readies the stop decoder for this request: the request's
// tokenizer, prompt and stop conditions (stop strings emitted with
// Stop.IncludeStrings; empty ones ignored; all deferred by MinTokens).
func (c *choice) startDecoding(p *Pipeline) error {
	e := &p.prep.Engine
	tok := p.prep.Response.Tokenizer
	if tok == nil {
		return &engine.Error{Kind: engine.ErrorMalformed, Message: errNoTokenizer.Error()}
	}
	c.stopStrs = c.stopStrs[:0]
	for _, s := range e.Stop.Strings {
		if s != "" {
			c.stopStrs = append(c.stopStrs, s)
		}
	}
	cfg := tokenizers.StopConfig{HiddenStopIDs: e.Stop.HiddenIDs, VisibleStopIDs: e.Stop.VisibleIDs, MinTokens: e.MinTokens}
	if e.Stop.IncludeStrings {
		cfg.VisibleStopStrings = c.stopStrs
	} else {
		cfg.StopStrings = c.stopStrs
	}
	var err error
	if c.dec == nil || c.decTok != tok || c.decSkip != e.SkipSpecialTokens {
		stream := tokenizers.NewDecodeStream(tok, tokenizers.DecodeStreamConfig{Prompt: e.PromptIDs, SkipSpecialTokens: e.SkipSpecialTokens})
		c.dec, err = tokenizers.NewStopDecoder(stream, cfg)
		c.decTok, c.decSkip = tok, e.SkipSpecialTokens
	} else {
		err = c.dec.ResetWith(e.PromptIDs, cfg)
	}
	if err != nil {
		c.dec = nil
		return err
	}
	c.decLive = true
	return nil
}

// stringStop records the stop string that matched, if any.
func (c *choice) stringStop() {
	if r := c.dec.Reason(); r.Kind == tokenizers.StopHiddenString || r.Kind == tokenizers.StopVisibleString {
		c.stopStr = append(c.stopStr[:0], r.String...)
	}
}

// feed passes text through the gate and the parser (or straight to the
// emitter for completions and pass-through engines).
func (c *choice) feed(p *Pipeline, text []byte) {
	if len(text) == 0 {
		return
	}
	if c.rawText {
		p.buf = c.em.Content(p.buf, text)
		c.stepOther += len(text)
		return
	}
	if c.pass {
		c.content(p, text)
		return
	}
	wasDecided := c.gate.decided
	t := c.gate.push(text)
	if !wasDecided && c.gate.decided && c.gate.json && c.alt != nil {
		c.parser = c.alt
	}
	if len(t) == 0 {
		return
	}
	c.bridge(p, c.parser.Feed(t))
}

// bridge turns parser events into emitter calls, applying the whitespace
// framing rule and reasoning visibility. In immediate mode the content is
// the guided call JSON and goes to the immediate parser first.
func (c *choice) bridge(p *Pipeline, evs []parsers.Event) {
	for i := range evs {
		ev := &evs[i]
		switch ev.Kind {
		case parsers.EventContent:
			if c.immOn {
				c.emit(p, c.imm.Feed(ev.Text))
				continue
			}
			c.content(p, ev.Text)
		case parsers.EventReasoning:
			c.reasoning(p, ev.Text)
		case parsers.EventToolCallStart:
			c.callBreak()
			c.stepOther++
			p.buf = c.em.ToolCallStart(p.buf, ev.Index, ev.ID, ev.Name)
			c.calls++
		case parsers.EventToolCallArgs:
			c.stepOther += len(ev.Text)
			endsNow := i+1 < len(evs) && evs[i+1].Kind == parsers.EventToolCallEnd
			c.callArgs(p, ev.Index, ev.Text, endsNow)
		case parsers.EventToolCallEnd:
			if c.argHeld {
				c.argHeld = false
				c.argBuf = append(c.argBuf[:0], c.argLast)
				p.buf = c.em.ToolCallArgs(p.buf, ev.Index, c.argBuf)
			}
			p.buf = c.em.ToolCallEnd(p.buf, ev.Index)
		case parsers.EventToolCallAbandoned:
			c.argHeld = false
			c.abandoned++
			p.buf = c.em.ToolCallAbandoned(p.buf, ev.Index)
		}
	}
}

// callArgs sends a fragment of a call's arguments, all but its last byte
// unless the call ends in the same feed (endsNow): that byte is held until
// the call's end event, and dropped with the call if the parser abandons
// it. A stream thus never shows arguments that parse as complete JSON for
// a call that does not end (DeepSeek's `{}` followed by text instead of
// its end marker; a call cut by the end of the output), so what a client
// accumulates from the stream agrees with the unary answer, which omits
// abandoned calls. The cost is one byte, delayed until the end marker.
func (c *choice) callArgs(p *Pipeline, index int, text []byte, endsNow bool) {
	if c.argHeld {
		c.argBuf = append(append(c.argBuf[:0], c.argLast), text...)
		text, c.argHeld = c.argBuf, false
	}
	if !endsNow && len(text) > 0 {
		c.argLast, c.argHeld = text[len(text)-1], true
		text = text[:len(text)-1]
	}
	if len(text) > 0 {
		p.buf = c.em.ToolCallArgs(p.buf, index, text)
	}
}

// maxHeldSpace bounds the whitespace held by the framing rule and the
// gates: past it the whitespace is released as content (a model that
// writes this much whitespace is not framing a block).
const maxHeldSpace = 64 << 10

// emit bridges events that need no further parsing.
func (c *choice) emit(p *Pipeline, evs []parsers.Event) {
	on := c.immOn
	c.immOn = false
	c.bridge(p, evs)
	c.immOn = on
}

// content applies the whitespace framing rule: no content block is opened
// for whitespace alone (it is held until non-whitespace content follows and
// dropped when reasoning, a tool call or the end comes first), and the
// whitespace run right after reasoning is dropped.
func (c *choice) content(p *Pipeline, text []byte) {
	c.stepOther += len(text)
	if c.afterReasoning {
		text = trimSpaceLeft(text)
		if len(text) == 0 {
			return
		}
		c.afterReasoning = false
	}
	if !c.blockOpen {
		if allSpace(text) && len(c.ws)+len(text) <= maxHeldSpace {
			c.ws = append(c.ws, text...)
			return
		}
		c.blockOpen = true
		if len(c.ws) > 0 {
			c.ws = append(c.ws, text...)
			p.buf = c.em.Content(p.buf, c.ws)
			c.ws = c.ws[:0]
			return
		}
	}
	p.buf = c.em.Content(p.buf, text)
}

// reasoning closes the content block and sends (or, hidden, only counts)
// reasoning text.
func (c *choice) reasoning(p *Pipeline, text []byte) {
	c.stepReason += len(text)
	c.ws = c.ws[:0]
	c.blockOpen, c.afterReasoning = false, true
	if !p.prep.Response.HideReasoning {
		p.buf = c.em.Reasoning(p.buf, text)
	}
}

// callBreak closes the content block before a tool call.
func (c *choice) callBreak() {
	c.ws = c.ws[:0]
	c.blockOpen, c.afterReasoning = false, false
}

// passthrough handles output an engine already parsed (reasoning_content,
// tool_calls deltas): no parser runs on it.
func (c *choice) passthrough(p *Pipeline, out *engine.Output) {
	if !c.pass {
		// Release what the parser held before switching.
		c.flushParser(p)
		c.pass = true
	}
	if len(out.Reasoning) > 0 {
		c.reasoning(p, out.Reasoning)
	}
	if out.HasText && len(out.Text) > 0 {
		c.content(p, out.Text)
	}
	for i := range out.ToolCalls {
		tc := &out.ToolCalls[i]
		if c.passOpen && tc.Index != c.passIdx {
			p.buf = c.em.ToolCallEnd(p.buf, c.calls-1)
			c.passOpen = false
		}
		if !c.passOpen {
			c.passOpen, c.passIdx = true, tc.Index
			c.callBreak()
			id := tc.ID
			if len(id) == 0 {
				c.idBuf = p.ids.AppendHex(c.idBuf[:0], "call_")
				id = c.idBuf
			}
			c.stepOther++
			p.buf = c.em.ToolCallStart(p.buf, c.calls, id, tc.Name)
			c.calls++
		}
		if len(tc.Arguments) > 0 {
			c.stepOther += len(tc.Arguments)
			p.buf = c.em.ToolCallArgs(p.buf, c.calls-1, tc.Arguments)
		}
	}
}

// flushParser ends the gate and the parser and bridges what they held.
func (c *choice) flushParser(p *Pipeline) {
	if c.rawText || c.pass || c.parser == nil {
		return
	}
	if t := c.gate.flush(); len(t) > 0 {
		c.bridge(p, c.parser.Feed(t))
	}
	c.bridge(p, c.parser.Finish())
	if c.immOn {
		c.emit(p, c.imm.Finish())
	}
}

// end finishes the choice: held text is released, the parser finished,
// held whitespace dropped. The emitter's terminal method runs later
// (Pipeline.Finish), once the usage is known.
func (c *choice) end(p *Pipeline, f engine.Finish, stopReason []byte) {
	if c.done {
		return
	}
	if !c.localStop && c.decLive {
		// End of the sequence without a local stop: flush the decoder's
		// held text (a stop string may still complete in it).
		if tail, err := c.dec.Finish(); err == nil {
			c.feed(p, tail)
			c.stringStop()
		}
	}
	c.flushParser(p)
	if c.passOpen {
		p.buf = c.em.ToolCallEnd(p.buf, c.calls-1)
		c.passOpen = false
	}
	c.ws = c.ws[:0]
	c.attribute()
	c.done = true
	switch f {
	case engine.FinishLength:
		c.finish = protocols.FinishLength
	case engine.FinishContentFilter:
		c.finish = protocols.FinishContentFilter
	default:
		c.finish = protocols.FinishStop
	}
	if len(c.stopStr) == 0 && len(stopReason) > 0 && p.isStopString(stopReason) {
		c.stopStr = append(c.stopStr[:0], stopReason...)
	}
	if len(c.stopStr) > 0 {
		c.finish = protocols.FinishStopSequence
	}
	p.order = append(p.order, c.index)
}

// attribute credits the tokens of the steps so far to reasoning in
// proportion to the reasoning bytes they produced (an estimate: a parser
// may hold bytes across steps).
func (c *choice) attribute() {
	total := c.stepReason + c.stepOther
	if total == 0 {
		return
	}
	c.reasoningTk += c.pendingTok * int64(c.stepReason) / int64(total)
	c.pendingTok = 0
	c.stepReason, c.stepOther = 0, 0
}

// completionTokens is the number of generated tokens this choice counted.
func (c *choice) completionTokens() int64 {
	if c.tokens > 0 {
		return c.tokens
	}
	return c.textSteps
}
