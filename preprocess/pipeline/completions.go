package pipeline

import (
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
}

var _ protocols.Emitter = (*completionEmitter)(nil)

func (e *completionEmitter) reset(id, model string, created int64, index int, includeUsage, aggregate bool) {
	h := append(e.head[:0], `data: {"id":`...)
	h = appendStr(h, id)
	h = append(h, `,"object":"text_completion","created":`...)
	h = appendInt(h, created)
	h = append(h, `,"model":`...)
	h = appendStr(h, model)
	e.usageHead = append(append(e.usageHead[:0], h...), `,"choices":[],"usage":`...)
	h = append(h, `,"choices":[{"index":`...)
	h = appendInt(h, int64(index))
	h = append(h, `,"text":`...)
	e.head = h
	e.usage, e.aggregate = includeUsage, aggregate
	e.text = e.text[:0]
	e.finish = ""
}

func (e *completionEmitter) frame(dst, text []byte, finish string) []byte {
	dst = append(dst, e.head...)
	dst = appendString(dst, text)
	dst = append(dst, `,"logprobs":null,"finish_reason":`...)
	if finish == "" {
		dst = append(dst, "null"...)
	} else {
		dst = appendStr(dst, finish)
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
