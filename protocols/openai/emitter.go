package openai

import (
	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/sse"
)

// EmitterConfig configures an Emitter for one stream.
type EmitterConfig struct {
	ID          string // the chunk id, e.g. "chatcmpl-" + request id
	Model       string // the model name to report
	Created     int64  // Unix seconds
	ChoiceIndex int    // the choice this emitter writes (0 unless n > 1)

	// IncludeUsage writes "usage":null on every chunk and, after the
	// finish chunk, one usage chunk with "choices":[]
	// (stream_options.include_usage).
	IncludeUsage bool
	// ContinuousUsage writes the usage last given to SetUsage on every
	// chunk instead of null (stream_options.continuous_usage_stats).
	ContinuousUsage bool
	// WholeCalls emits each tool call in one chunk when it ends (id, name
	// and complete arguments), Dynamo's jail shape, instead of streaming
	// argument fragments.
	WholeCalls bool
	// ToolCallDispatch writes a `tool_call_dispatch` event for every
	// completed call as soon as it ends.
	ToolCallDispatch bool
	// ReasoningDispatch writes a `reasoning_dispatch` event with the whole
	// reasoning block when it ends (at the next non-reasoning event or at
	// the finish).
	ReasoningDispatch bool
	// OmitDone leaves out the final `data: [DONE]`.
	OmitDone bool
}

// Emitter writes a chat completion stream: `data: {chunk}` frames, the
// finish chunk with finish_reason rewritten to tool_calls when calls were
// completed, the optional usage chunk, `data: [DONE]`, and the optional
// tool_call_dispatch / reasoning_dispatch side-channel events.
//
// It implements protocols.Emitter. Methods append to the caller's dst and
// return it; the emitter keeps no reference to dst or to its byte-slice
// arguments. After the first few events of a stream (warm-up of its own
// buffers), no method allocates. An Emitter is not safe for concurrent
// use; reuse it across streams with Reset.
type Emitter struct {
	// immutable until Reset
	cfg    EmitterConfig
	head   []byte // `{"id":…,"model":…,` shared by every chunk
	choice int    // offset in head where `"choices":[{"index":…,"delta":{` starts
	tail   []byte // `},"logprobs":null,"finish_reason":null}]` + usage + `}`

	// stream state; zeroed by Reset
	started   bool
	finished  bool
	completed int // tool calls ended (not abandoned)
	usage     protocols.Usage
	calls     []callState
	reasoning []byte              // pending reasoning block (ReasoningDispatch)
	args      []byte              // arguments of the open call (WholeCalls / ToolCallDispatch)
	lps       []protocols.Logprob // the step's log probabilities (SetLogprobs), until FlushLogprobs
}

type callState struct {
	index  int
	id     []byte
	name   []byte
	done   bool // ended or abandoned
	closed bool // dispatched (dedup)
}

var _ protocols.Emitter = (*Emitter)(nil)

// NewEmitter returns an emitter for one stream.
func NewEmitter(cfg EmitterConfig) *Emitter {
	e := &Emitter{}
	e.Reset(cfg)
	return e
}

// Reset prepares e for a new stream, keeping its buffers.
func (e *Emitter) Reset(cfg EmitterConfig) {
	calls := e.calls[:0]
	*e = Emitter{
		cfg:       cfg,
		head:      e.head[:0],
		tail:      e.tail[:0],
		calls:     calls,
		reasoning: e.reasoning[:0],
		args:      e.args[:0],
	}
	h := append(e.head, `{"id":`...)
	h = jsonx.AppendString(h, cfg.ID)
	h = append(h, `,"object":"chat.completion.chunk","created":`...)
	h = jsonx.AppendInt(h, cfg.Created)
	h = append(h, `,"model":`...)
	h = jsonx.AppendString(h, cfg.Model)
	h = append(h, ',')
	e.choice = len(h)
	h = append(h, `"choices":[{"index":`...)
	h = jsonx.AppendInt(h, int64(cfg.ChoiceIndex))
	h = append(h, `,"delta":{`...)
	e.head = h
	e.tail = append(e.tail, `},"logprobs":null,"finish_reason":null}]`...)
}

// SetUsage records the usage so far, written on every chunk with
// ContinuousUsage.
func (e *Emitter) SetUsage(u protocols.Usage) { e.usage = u }

// Start appends nothing: a chat stream opens with its first chunk, which
// carries the role.
func (e *Emitter) Start(dst []byte) []byte { return dst }

// SetLogprobs gives the log probabilities of the tokens of one engine
// step; FlushLogprobs writes them after the step's events.
func (e *Emitter) SetLogprobs(lps []protocols.Logprob) { e.lps = lps }

// FlushLogprobs appends a chunk of its own carrying the log probabilities
// given to SetLogprobs (an empty delta and logprobs.content), if any.
func (e *Emitter) FlushLogprobs(dst []byte) []byte {
	lps := e.lps
	e.lps = nil
	if len(lps) == 0 || e.finished {
		return dst
	}
	dst = append(dst, "data: "...)
	dst = append(dst, e.head...)
	dst = append(dst, `},"logprobs":{"content":[`...)
	for i := range lps {
		if i > 0 {
			dst = append(dst, ',')
		}
		lp := &lps[i]
		dst = appendTokenLogprob(dst, lp.Token, lp.Logprob)
		dst = append(dst, `,"top_logprobs":[`...)
		for k := range lp.Top {
			if k > 0 {
				dst = append(dst, ',')
			}
			dst = appendTokenLogprob(dst, lp.Top[k].Token, lp.Top[k].Logprob)
			dst = append(dst, '}')
		}
		dst = append(dst, "]}"...)
	}
	dst = append(dst, `]},"finish_reason":null}]`...)
	return e.closeUsage(dst)
}

// open starts a chunk frame up to the delta's first member.
func (e *Emitter) open(dst []byte) []byte {
	dst = append(dst, "data: "...)
	dst = append(dst, e.head...)
	if !e.started {
		e.started = true
		dst = append(dst, `"role":"assistant",`...)
	}
	return dst
}

// close ends a chunk frame opened by open with finish_reason null.
func (e *Emitter) close(dst []byte) []byte {
	dst = append(dst, e.tail...)
	return e.closeUsage(dst)
}

func (e *Emitter) closeUsage(dst []byte) []byte {
	switch {
	case e.cfg.ContinuousUsage:
		dst = append(dst, `,"usage":`...)
		dst = appendUsage(dst, e.usage)
	case e.cfg.IncludeUsage:
		dst = append(dst, `,"usage":null`...)
	}
	return append(dst, "}\n\n"...)
}

// Content appends a chunk carrying text as delta.content. Empty text
// appends nothing.
func (e *Emitter) Content(dst, text []byte) []byte {
	if len(text) == 0 || e.finished {
		return dst
	}
	dst = e.flushReasoning(dst)
	dst = e.open(dst)
	dst = append(dst, `"content":`...)
	dst = jsonx.AppendString(dst, text)
	return e.close(dst)
}

// Reasoning appends a chunk carrying text as delta.reasoning_content. Empty
// text appends nothing.
func (e *Emitter) Reasoning(dst, text []byte) []byte {
	if len(text) == 0 || e.finished {
		return dst
	}
	if e.cfg.ReasoningDispatch {
		e.reasoning = append(e.reasoning, text...)
	}
	dst = e.open(dst)
	dst = append(dst, `"reasoning_content":`...)
	dst = jsonx.AppendString(dst, text)
	return e.close(dst)
}

func (e *Emitter) call(index int) *callState {
	for i := len(e.calls) - 1; i >= 0; i-- {
		if e.calls[i].index == index {
			return &e.calls[i]
		}
	}
	return nil
}

// ToolCallStart opens call index. In streaming mode it appends the call's
// first delta (index, id, type, name, "arguments":"").
func (e *Emitter) ToolCallStart(dst []byte, index int, id, name []byte) []byte {
	if e.finished {
		return dst
	}
	dst = e.flushReasoning(dst)
	if len(e.calls) < cap(e.calls) {
		e.calls = e.calls[:len(e.calls)+1]
	} else {
		e.calls = append(e.calls, callState{})
	}
	c := &e.calls[len(e.calls)-1]
	*c = callState{index: index, id: append(c.id[:0], id...), name: append(c.name[:0], name...)}
	e.args = e.args[:0]
	if e.cfg.WholeCalls {
		return dst
	}
	dst = e.open(dst)
	dst = append(dst, `"tool_calls":[{"index":`...)
	dst = jsonx.AppendInt(dst, int64(index))
	dst = append(dst, `,"id":`...)
	dst = jsonx.AppendString(dst, id)
	dst = append(dst, `,"type":"function","function":{"name":`...)
	dst = jsonx.AppendString(dst, name)
	dst = append(dst, `,"arguments":""}}]`...)
	return e.close(dst)
}

// ToolCallArgs appends a chunk carrying an arguments fragment of call index
// (buffered instead in WholeCalls mode).
func (e *Emitter) ToolCallArgs(dst []byte, index int, fragment []byte) []byte {
	if len(fragment) == 0 || e.finished {
		return dst
	}
	if e.cfg.WholeCalls || e.cfg.ToolCallDispatch {
		e.args = append(e.args, fragment...)
	}
	if e.cfg.WholeCalls {
		return dst
	}
	dst = e.open(dst)
	dst = append(dst, `"tool_calls":[{"index":`...)
	dst = jsonx.AppendInt(dst, int64(index))
	dst = append(dst, `,"function":{"arguments":`...)
	dst = jsonx.AppendString(dst, fragment)
	dst = append(dst, `}}]`...)
	return e.close(dst)
}

// ToolCallEnd closes call index. It appends the tool_call_dispatch event
// (with ToolCallDispatch) and, in WholeCalls mode, the call's one chunk.
func (e *Emitter) ToolCallEnd(dst []byte, index int) []byte {
	c := e.call(index)
	if c == nil || c.done || e.finished {
		return dst
	}
	c.done = true
	e.completed++
	if e.cfg.ToolCallDispatch && !c.closed {
		c.closed = true
		dst = append(dst, "event: tool_call_dispatch\ndata: {\"choice_index\":"...)
		dst = jsonx.AppendInt(dst, int64(e.cfg.ChoiceIndex))
		dst = append(dst, `,"tool_call":`...)
		dst = e.appendWholeCall(dst, c)
		dst = append(dst, "}\n\n"...)
	}
	if e.cfg.WholeCalls {
		dst = e.open(dst)
		dst = append(dst, `"tool_calls":[`...)
		dst = e.appendWholeCall(dst, c)
		dst = append(dst, ']')
		dst = e.close(dst)
	}
	e.args = e.args[:0]
	return dst
}

func (e *Emitter) appendWholeCall(dst []byte, c *callState) []byte {
	dst = append(dst, `{"index":`...)
	dst = jsonx.AppendInt(dst, int64(c.index))
	dst = append(dst, `,"id":`...)
	dst = jsonx.AppendString(dst, c.id)
	dst = append(dst, `,"type":"function","function":{"name":`...)
	dst = jsonx.AppendString(dst, c.name)
	dst = append(dst, `,"arguments":`...)
	dst = jsonx.AppendString(dst, e.args)
	return append(dst, `}}`...)
}

// ToolCallAbandoned closes call index without completing it: it simply
// receives no more fragments (in WholeCalls mode it is never shown), and it
// does not turn the finish reason into tool_calls.
func (e *Emitter) ToolCallAbandoned(dst []byte, index int) []byte {
	if c := e.call(index); c != nil {
		c.done = true
	}
	e.args = e.args[:0]
	return dst
}

// flushReasoning appends the reasoning_dispatch event for the block that
// just ended, if any.
func (e *Emitter) flushReasoning(dst []byte) []byte {
	if !e.cfg.ReasoningDispatch || len(e.reasoning) == 0 {
		return dst
	}
	dst = append(dst, "event: reasoning_dispatch\ndata: {\"index\":"...)
	dst = jsonx.AppendInt(dst, int64(e.cfg.ChoiceIndex))
	dst = append(dst, `,"reasoning_content":`...)
	dst = jsonx.AppendString(dst, e.reasoning)
	e.reasoning = e.reasoning[:0]
	return append(dst, "}\n\n"...)
}

// FinishReasonFor maps a neutral finish reason to the chat finish_reason:
// stop becomes tool_calls when completed > 0; length stays length.
func FinishReasonFor(r protocols.FinishReason, completed int) string {
	switch r {
	case protocols.FinishLength:
		return FinishLength
	case protocols.FinishContentFilter:
		return FinishContentFilter
	case protocols.FinishToolCalls:
		return FinishToolCalls
	}
	if completed > 0 {
		return FinishToolCalls
	}
	return FinishStop
}

// Finish appends the finish chunk (exactly one per choice), the usage chunk
// when IncludeUsage is set, and `data: [DONE]` unless OmitDone. Calls after
// Finish append nothing.
func (e *Emitter) Finish(dst []byte, reason protocols.FinishReason, usage protocols.Usage) []byte {
	if e.finished {
		return dst
	}
	dst = e.FinishChoice(dst, reason, nil, usage)
	return e.Done(dst, usage)
}

// FinishChoice appends only the finish chunk of this choice (for n > 1
// streams; one emitter per choice, then Done on one of them). A chat
// stream does not report the stop sequence.
func (e *Emitter) FinishChoice(dst []byte, reason protocols.FinishReason, _ []byte, usage protocols.Usage) []byte {
	if e.finished {
		return dst
	}
	dst = e.flushReasoning(dst)
	e.finished = true
	e.usage = usage
	dst = append(dst, "data: "...)
	dst = append(dst, e.head...)
	if !e.started {
		e.started = true
		dst = append(dst, `"role":"assistant"`...)
	}
	dst = append(dst, `},"logprobs":null,"finish_reason":`...)
	dst = jsonx.AppendString(dst, FinishReasonFor(reason, e.completed))
	dst = append(dst, "}]"...)
	return e.closeUsage(dst)
}

// Done appends the usage chunk of the response (with IncludeUsage or
// ContinuousUsage) and `data: [DONE]` (unless OmitDone).
func (e *Emitter) Done(dst []byte, usage protocols.Usage) []byte {
	e.usage = usage
	if e.cfg.IncludeUsage || e.cfg.ContinuousUsage {
		dst = append(dst, "data: "...)
		dst = append(dst, e.head[:e.choice]...)
		dst = append(dst, `"choices":[],"usage":`...)
		dst = appendUsage(dst, e.usage)
		dst = append(dst, "}\n\n"...)
	}
	if !e.cfg.OmitDone {
		dst = append(dst, sse.Done...)
	}
	return dst
}

// Fail appends an `event: error` frame carrying message as a server_error
// and ends the stream (no finish chunk and no [DONE] follow).
func (e *Emitter) Fail(dst []byte, message string) []byte {
	if e.finished {
		return dst
	}
	e.finished = true
	dst = append(dst, "event: error\ndata: {\"error\":{\"message\":"...)
	dst = jsonx.AppendString(dst, message)
	dst = append(dst, `,"type":"server_error","param":null,"code":null}}`...)
	return append(dst, "\n\n"...)
}

// CompletedCalls returns the number of tool calls ended so far.
func (e *Emitter) CompletedCalls() int { return e.completed }

// appendUsage writes u as the chat usage object (UsageFrom's shape).
func appendUsage(dst []byte, u protocols.Usage) []byte {
	dst = append(dst, `{"prompt_tokens":`...)
	dst = jsonx.AppendInt(dst, u.PromptTokens)
	dst = append(dst, `,"completion_tokens":`...)
	dst = jsonx.AppendInt(dst, u.CompletionTokens)
	dst = append(dst, `,"total_tokens":`...)
	dst = jsonx.AppendInt(dst, u.PromptTokens+u.CompletionTokens)
	if u.CachedTokens > 0 {
		dst = append(dst, `,"prompt_tokens_details":{"cached_tokens":`...)
		dst = jsonx.AppendInt(dst, u.CachedTokens)
		dst = append(dst, '}')
	}
	if u.ReasoningTokens > 0 {
		dst = append(dst, `,"completion_tokens_details":{"reasoning_tokens":`...)
		dst = jsonx.AppendInt(dst, u.ReasoningTokens)
		dst = append(dst, '}')
	}
	return append(dst, '}')
}
