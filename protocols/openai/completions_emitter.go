package openai

import (
	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/sse"
)

// CompletionEmitterConfig configures a CompletionEmitter for one choice
// of one /v1/completions response.
type CompletionEmitterConfig struct {
	ID          string // the response id, e.g. "cmpl-" + request id
	Model       string // the model name to report
	Created     int64  // Unix seconds
	ChoiceIndex int    // the choice this emitter writes (0 unless n > 1)

	// IncludeUsage writes "usage":null on every frame and, at Done, one
	// usage frame with "choices":[] (stream_options.include_usage).
	IncludeUsage bool
	// Logprobs writes the legacy logprobs object ({tokens, token_logprobs,
	// top_logprobs, text_offset}) in the frame of the step's text; the
	// unary choice's logprobs is null without it.
	Logprobs bool
	// Aggregate writes nothing: the choice is collected for Choice (a
	// unary answer).
	Aggregate bool
}

// CompletionEmitter writes the text_completion stream of one choice of a
// /v1/completions response: `data: {…"choices":[{"index":i,"text":…}]}`
// frames, the finish frame, and at Done the usage frame and `data:
// [DONE]`; or, with Aggregate, nothing, collecting the choice for the
// unary answer (Choice). The Completions API carries raw text: reasoning
// and tool-call events are ignored.
//
// It implements protocols.Emitter. After warm-up no method allocates in
// streaming mode. A CompletionEmitter is not safe for concurrent use;
// reuse it with Reset.
type CompletionEmitter struct {
	cfg       CompletionEmitterConfig
	head      []byte // `data: {"id":…,"object":"text_completion",…,"choices":[{"index":i,"text":`
	usageHead []byte // `data: {"id":…,…,"choices":[],"usage":`
	text      []byte // aggregate mode: the choice's text
	finish    string
	finished  bool

	pending []protocols.Logprob // the step's log probabilities (SetLogprobs), until a frame carries them
	offset  int64               // text offset of the next token
	agg     [4][]byte           // aggregate mode: the four logprobs arrays' elements
}

var _ protocols.Emitter = (*CompletionEmitter)(nil)

// NewCompletionEmitter returns an emitter for one choice.
func NewCompletionEmitter(cfg CompletionEmitterConfig) *CompletionEmitter {
	e := &CompletionEmitter{}
	e.Reset(cfg)
	return e
}

// Reset prepares e for a new response, keeping its buffers.
func (e *CompletionEmitter) Reset(cfg CompletionEmitterConfig) {
	e.cfg = cfg
	h := append(e.head[:0], `data: {"id":`...)
	h = jsonx.AppendString(h, cfg.ID)
	h = append(h, `,"object":"text_completion","created":`...)
	h = jsonx.AppendInt(h, cfg.Created)
	h = append(h, `,"model":`...)
	h = jsonx.AppendString(h, cfg.Model)
	e.usageHead = append(append(e.usageHead[:0], h...), `,"choices":[],"usage":`...)
	h = append(h, `,"choices":[{"index":`...)
	h = jsonx.AppendInt(h, int64(cfg.ChoiceIndex))
	h = append(h, `,"text":`...)
	e.head = h
	e.text = e.text[:0]
	e.finish, e.finished = "", false
	e.pending, e.offset = nil, 0
	for i := range e.agg {
		e.agg[i] = e.agg[i][:0]
	}
}

// SetUsage does nothing: the usage frame is written at Done.
func (e *CompletionEmitter) SetUsage(protocols.Usage) {}

// Start appends nothing: the stream opens with its first frame.
func (e *CompletionEmitter) Start(dst []byte) []byte { return dst }

// SetLogprobs gives the log probabilities of one engine step: the step's
// first text frame carries them (FlushLogprobs writes them in a frame of
// their own if no text came).
func (e *CompletionEmitter) SetLogprobs(lps []protocols.Logprob) { e.pending = lps }

// FlushLogprobs appends the pending log probabilities in a frame without
// text (in aggregate mode, collects them).
func (e *CompletionEmitter) FlushLogprobs(dst []byte) []byte {
	if len(e.pending) == 0 || e.finished {
		e.pending = nil
		return dst
	}
	if e.cfg.Aggregate {
		e.aggLogprobs()
		return dst
	}
	return e.frame(dst, nil, "")
}

// Content appends a frame carrying text (and the pending log
// probabilities). Empty text appends nothing.
func (e *CompletionEmitter) Content(dst, text []byte) []byte {
	if len(text) == 0 || e.finished {
		return dst
	}
	if e.cfg.Aggregate {
		e.text = append(e.text, text...)
		if len(e.pending) > 0 {
			e.aggLogprobs()
		}
		return dst
	}
	return e.frame(dst, text, "")
}

// Reasoning, ToolCallStart, ToolCallArgs, ToolCallEnd and
// ToolCallAbandoned append nothing: completions carry raw text.
func (e *CompletionEmitter) Reasoning(dst, _ []byte) []byte                      { return dst }
func (e *CompletionEmitter) ToolCallStart(dst []byte, _ int, _, _ []byte) []byte { return dst }
func (e *CompletionEmitter) ToolCallArgs(dst []byte, _ int, _ []byte) []byte     { return dst }
func (e *CompletionEmitter) ToolCallEnd(dst []byte, _ int) []byte                { return dst }
func (e *CompletionEmitter) ToolCallAbandoned(dst []byte, _ int) []byte          { return dst }

// Finish ends a response of one choice: FinishChoice, then Done.
func (e *CompletionEmitter) Finish(dst []byte, reason protocols.FinishReason, usage protocols.Usage) []byte {
	if e.finished {
		return dst
	}
	dst = e.FinishChoice(dst, reason, nil, usage)
	return e.Done(dst, usage)
}

// FinishChoice appends the finish frame of this choice (in aggregate mode,
// records the finish reason).
func (e *CompletionEmitter) FinishChoice(dst []byte, reason protocols.FinishReason, _ []byte, _ protocols.Usage) []byte {
	if e.finished {
		return dst
	}
	e.finished = true
	e.finish = FinishReasonFor(reason, 0)
	if e.cfg.Aggregate {
		return dst
	}
	return e.frame(dst, nil, e.finish)
}

// Done appends the usage frame (with IncludeUsage) and `data: [DONE]`;
// nothing in aggregate mode.
func (e *CompletionEmitter) Done(dst []byte, usage protocols.Usage) []byte {
	if e.cfg.Aggregate {
		return dst
	}
	if e.cfg.IncludeUsage {
		dst = append(dst, e.usageHead...)
		dst = appendUsage(dst, usage)
		dst = append(dst, "}\n\n"...)
	}
	return append(dst, sse.Done...)
}

// Fail appends an `event: error` frame carrying message as a server_error
// and ends the stream.
func (e *CompletionEmitter) Fail(dst []byte, message string) []byte {
	return e.FailError(dst, &protocols.Error{Kind: protocols.ErrorUpstream, Message: message})
}

// FailError ends the stream with the error frame for err (see
// AppendErrorEvent); no finish frame and no [DONE] follow.
func (e *CompletionEmitter) FailError(dst []byte, err *protocols.Error) []byte {
	if e.finished {
		return dst
	}
	e.finished = true
	if e.cfg.Aggregate {
		return dst
	}
	return AppendErrorEvent(dst, err)
}

// Choice returns the unary choice collected in aggregate mode.
func (e *CompletionEmitter) Choice() CompletionChoice {
	return CompletionChoice{Index: e.cfg.ChoiceIndex, Text: string(e.text), Logprobs: e.unaryLogprobs(),
		FinishReason: protocols.Some(e.finish)}
}

func (e *CompletionEmitter) frame(dst, text []byte, finish string) []byte {
	dst = append(dst, e.head...)
	dst = jsonx.AppendString(dst, text)
	if len(e.pending) > 0 {
		dst = append(dst, `,"logprobs":`...)
		dst = e.appendLogprobs(dst)
		dst = append(dst, `,"finish_reason":`...)
	} else {
		dst = append(dst, `,"logprobs":null,"finish_reason":`...)
	}
	if finish == "" {
		dst = append(dst, "null"...)
	} else {
		dst = jsonx.AppendString(dst, finish)
	}
	dst = append(dst, "}]"...)
	if e.cfg.IncludeUsage {
		dst = append(dst, `,"usage":null`...)
	}
	return append(dst, "}\n\n"...)
}

// appendLogprobs writes the pending log probabilities as the legacy
// object.
func (e *CompletionEmitter) appendLogprobs(dst []byte) []byte {
	lps := e.pending
	e.pending = nil
	dst = append(dst, `{"tokens":[`...)
	for i := range lps {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonx.AppendString(dst, lps[i].Token)
	}
	dst = append(dst, `],"token_logprobs":[`...)
	for i := range lps {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendLogprob(dst, lps[i].Logprob)
	}
	dst = append(dst, `],"top_logprobs":[`...)
	for i := range lps {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendTop(dst, lps[i].Top)
	}
	dst = append(dst, `],"text_offset":[`...)
	for i := range lps {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonx.AppendInt(dst, e.offset)
		e.offset += int64(len(lps[i].Token))
	}
	return append(dst, "]}"...)
}

// appendTop writes one position's alternatives as {"token": logprob, …}.
func appendTop(dst []byte, top []protocols.TopLogprob) []byte {
	dst = append(dst, '{')
	for k := range top {
		if k > 0 {
			dst = append(dst, ',')
		}
		dst = jsonx.AppendString(dst, top[k].Token)
		dst = append(dst, ':')
		dst = appendLogprob(dst, top[k].Logprob)
	}
	return append(dst, '}')
}

// aggLogprobs adds the pending log probabilities to the unary arrays.
func (e *CompletionEmitter) aggLogprobs() {
	for _, lp := range e.pending {
		for i := range e.agg {
			if len(e.agg[i]) > 0 {
				e.agg[i] = append(e.agg[i], ',')
			}
		}
		e.agg[0] = jsonx.AppendString(e.agg[0], lp.Token)
		e.agg[1] = appendLogprob(e.agg[1], lp.Logprob)
		e.agg[2] = appendTop(e.agg[2], lp.Top)
		e.agg[3] = jsonx.AppendInt(e.agg[3], e.offset)
		e.offset += int64(len(lp.Token))
	}
	e.pending = nil
}

// unaryLogprobs returns the unary choice's logprobs (null unless asked).
func (e *CompletionEmitter) unaryLogprobs() RawJSON {
	if !e.cfg.Logprobs {
		return RawJSON("null")
	}
	b := append([]byte(`{"tokens":[`), e.agg[0]...)
	b = append(append(b, `],"token_logprobs":[`...), e.agg[1]...)
	b = append(append(b, `],"top_logprobs":[`...), e.agg[2]...)
	b = append(append(b, `],"text_offset":[`...), e.agg[3]...)
	return append(b, "]}"...)
}
