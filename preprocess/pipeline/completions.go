package pipeline

import (
	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/openai"
)

// completionEmitter writes the text_completion stream of one choice of a
// /v1/completions request: `data: {…"choices":[{"index":i,"text":…}]}`
// frames, the finish frame, and (from the Pipeline) the usage frame and
// `data: [DONE]`. protocols has no completions emitter; the completions API
// carries raw text only, so reasoning and tool-call events are ignored (the
// pipeline never parses completions output). In aggregate mode nothing is
// written and the text is collected for the unary answer.
type completionEmitter struct {
	head      []byte // `data: {"id":…,"object":"text_completion",…,"choices":[{"index":i,"text":`
	usageHead []byte // `data: {"id":…,…,"choices":[],"usage":`
	usage     bool   // include "usage":null on every frame
	aggregate bool
	text      []byte // aggregate mode: the choice's text
	finish    string

	// legacy logprobs ({tokens, token_logprobs, top_logprobs, text_offset})
	logprobs bool
	pending  []engine.Logprob // the step's logprobs, for its next frame (aliases the engine output)
	offset   int64            // text offset of the next token
	agg      [4][]byte        // aggregate mode: the four arrays' elements
}

var _ protocols.Emitter = (*completionEmitter)(nil)

func (e *completionEmitter) reset(id, model string, created int64, index int, includeUsage, aggregate bool) {
	h := append(e.head[:0], `data: {"id":`...)
	h = protocols.AppendJSONString(h, id)
	h = append(h, `,"object":"text_completion","created":`...)
	h = appendInt(h, created)
	h = append(h, `,"model":`...)
	h = protocols.AppendJSONString(h, model)
	e.usageHead = append(append(e.usageHead[:0], h...), `,"choices":[],"usage":`...)
	h = append(h, `,"choices":[{"index":`...)
	h = appendInt(h, int64(index))
	h = append(h, `,"text":`...)
	e.head = h
	e.usage, e.aggregate = includeUsage, aggregate
	e.text = e.text[:0]
	e.finish = ""
	e.logprobs, e.pending, e.offset = false, nil, 0
	for i := range e.agg {
		e.agg[i] = e.agg[i][:0]
	}
}

// setLogprobs gives the logprobs of the current step; they go with the
// step's first frame (flushLogprobs writes them alone if the step emitted
// no text).
func (e *completionEmitter) setLogprobs(lps []engine.Logprob) {
	e.pending = lps
}

// flushLogprobs writes pending logprobs in a frame of their own.
func (e *completionEmitter) flushLogprobs(dst []byte) []byte {
	if len(e.pending) == 0 {
		return dst
	}
	if e.aggregate {
		e.aggLogprobs()
		return dst
	}
	return e.frame(dst, nil, "")
}

// appendLogprobs writes the pending logprobs as the legacy object.
func (e *completionEmitter) appendLogprobs(dst []byte) []byte {
	lps := e.pending
	e.pending = nil
	dst = append(dst, `{"tokens":[`...)
	for i := range lps {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = protocols.AppendJSONString(dst, lps[i].Token)
	}
	dst = append(dst, `],"token_logprobs":[`...)
	for i := range lps {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendFloat(dst, lps[i].Logprob)
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
		dst = appendInt(dst, e.offset)
		e.offset += int64(len(lps[i].Token))
	}
	return append(dst, "]}"...)
}

func appendTop(dst []byte, top []engine.TopLogprob) []byte {
	dst = append(dst, '{')
	for k := range top {
		if k > 0 {
			dst = append(dst, ',')
		}
		dst = protocols.AppendJSONString(dst, top[k].Token)
		dst = append(dst, ':')
		dst = appendFloat(dst, top[k].Logprob)
	}
	return append(dst, '}')
}

// aggLogprobs adds the pending logprobs to the unary arrays.
func (e *completionEmitter) aggLogprobs() {
	for _, lp := range e.pending {
		for i := range e.agg {
			if len(e.agg[i]) > 0 {
				e.agg[i] = append(e.agg[i], ',')
			}
		}
		e.agg[0] = protocols.AppendJSONString(e.agg[0], lp.Token)
		e.agg[1] = appendFloat(e.agg[1], lp.Logprob)
		e.agg[2] = appendTop(e.agg[2], lp.Top)
		e.agg[3] = appendInt(e.agg[3], e.offset)
		e.offset += int64(len(lp.Token))
	}
	e.pending = nil
}

// unaryLogprobs returns the unary choice's logprobs (null unless asked).
func (e *completionEmitter) unaryLogprobs() openai.RawJSON {
	if !e.logprobs {
		return openai.RawJSON("null")
	}
	b := append([]byte(`{"tokens":[`), e.agg[0]...)
	b = append(append(b, `],"token_logprobs":[`...), e.agg[1]...)
	b = append(append(b, `],"top_logprobs":[`...), e.agg[2]...)
	b = append(append(b, `],"text_offset":[`...), e.agg[3]...)
	return append(b, "]}"...)
}

func (e *completionEmitter) frame(dst, text []byte, finish string) []byte {
	dst = append(dst, e.head...)
	dst = protocols.AppendJSONString(dst, text)
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
		dst = protocols.AppendJSONString(dst, finish)
	}
	dst = append(dst, "}]"...)
	if e.usage {
		dst = append(dst, `,"usage":null`...)
	}
	return append(dst, "}\n\n"...)
}

func (e *completionEmitter) Content(dst, text []byte) []byte {
	if len(text) == 0 {
		return dst
	}
	if e.aggregate {
		e.text = append(e.text, text...)
		if len(e.pending) > 0 {
			e.aggLogprobs()
		}
		return dst
	}
	return e.frame(dst, text, "")
}

func (e *completionEmitter) Reasoning(dst, text []byte) []byte                           { return dst }
func (e *completionEmitter) ToolCallStart(dst []byte, index int, id, name []byte) []byte { return dst }
func (e *completionEmitter) ToolCallArgs(dst []byte, index int, fragment []byte) []byte  { return dst }
func (e *completionEmitter) ToolCallEnd(dst []byte, index int) []byte                    { return dst }
func (e *completionEmitter) ToolCallAbandoned(dst []byte, index int) []byte              { return dst }

// Finish appends the finish frame of this choice (the usage frame and
// [DONE] are written once per response by the Pipeline).
func (e *completionEmitter) Finish(dst []byte, reason protocols.FinishReason, usage protocols.Usage) []byte {
	e.finish = openai.FinishReasonFor(reason, 0)
	if e.aggregate {
		return dst
	}
	return e.frame(dst, nil, e.finish)
}

// Fail is written by the Pipeline (one error frame per response).
func (e *completionEmitter) Fail(dst []byte, message string) []byte { return dst }

// appendUsageFrame appends the usage frame of a completions stream.
func (e *completionEmitter) appendUsageFrame(dst []byte, u protocols.Usage) []byte {
	dst = append(dst, e.usageHead...)
	dst = appendChatUsage(dst, u)
	return append(dst, "}\n\n"...)
}

// appendChatUsage writes u as the OpenAI usage object.
func appendChatUsage(dst []byte, u protocols.Usage) []byte {
	dst = append(dst, `{"prompt_tokens":`...)
	dst = appendInt(dst, u.PromptTokens)
	dst = append(dst, `,"completion_tokens":`...)
	dst = appendInt(dst, u.CompletionTokens)
	dst = append(dst, `,"total_tokens":`...)
	dst = appendInt(dst, u.PromptTokens+u.CompletionTokens)
	if u.CachedTokens > 0 {
		dst = append(dst, `,"prompt_tokens_details":{"cached_tokens":`...)
		dst = appendInt(dst, u.CachedTokens)
		dst = append(dst, '}')
	}
	if u.ReasoningTokens > 0 {
		dst = append(dst, `,"completion_tokens_details":{"reasoning_tokens":`...)
		dst = appendInt(dst, u.ReasoningTokens)
		dst = append(dst, '}')
	}
	return append(dst, '}')
}
