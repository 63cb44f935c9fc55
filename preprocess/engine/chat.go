package engine

import (
	"bytes"
	"context"

	"github.com/valyala/fastjson"
)

// ChatConfig configures the OpenAI-compatible chat adapter.
type ChatConfig struct {
	Config

	// Strict sends only members of the OpenAI chat API (for endpoints that
	// reject unknown ones). By default the vLLM/SGLang extensions are sent
	// when the request uses them: min_tokens, top_k, min_p,
	// repetition_penalty, stop_token_ids, include_stop_str_in_output,
	// ignore_eos, skip_special_tokens, structured_outputs.
	Strict bool
}

// Chat is the adapter for an OpenAI-compatible /v1/chat/completions
// endpoint of an engine that runs its own chat template, reasoning parser
// and tool parser: the deltas' reasoning_content (or reasoning) and
// tool_calls are passed through as Output.Reasoning and Output.ToolCalls,
// content as Text, and nothing is re-parsed. The request's messages come
// from Request.Chat. It is safe for concurrent use.
//
// Read per chunk: delta.content → Text, delta.reasoning_content (or
// delta.reasoning) → Reasoning, delta.tool_calls → ToolCalls, chat
// logprobs, finish_reason (mapped as Completions maps it), vLLM's
// stop_reason, usage.
type Chat struct {
	c      client
	strict bool
	pool   streamPool
}

// NewChat returns the chat adapter. cfg.BaseURL is the API root
// ("http://127.0.0.1:8000/v1"). The request body is Request.Chat's
// members (messages, tools, tool_choice, …; images stay in the messages)
// first; then model, max_tokens, n, the sampling fields, stop,
// logprobs/top_logprobs, and unless ChatConfig.Strict the vLLM extensions
// (min_tokens, stop_token_ids, include_stop_str_in_output, ignore_eos,
// skip_special_tokens false, structured_outputs, cache_salt); stream and
// stream_options.include_usage; ExtraArgs last.
func NewChat(cfg ChatConfig) *Chat {
	e := &Chat{c: newClient(cfg.Config, ""), strict: cfg.Strict}
	e.c.url = openAIBase(cfg.BaseURL) + "/chat/completions"
	e.pool.newDecoder = func() decoder { return &chatDecoder{} }
	return e
}

// Generate implements Engine.
func (e *Chat) Generate(ctx context.Context, req *Request) (Stream, error) {
	body, err := appendChatRequest(make([]byte, 0, 512+len(req.Chat)), req, e.strict)
	if err != nil {
		return nil, err
	}
	return generate(ctx, &e.c, &e.pool, req, body)
}

// appendChatRequest appends the chat body: Request.Chat's members, then
// the request's own fields (so the adapter's limits win over a stale
// max_tokens in Chat), then ExtraArgs.
func appendChatRequest(b []byte, req *Request, strict bool) ([]byte, error) {
	if req.MaxTokens <= 0 {
		return b, newError(ErrorBadRequest, 0, "engine request: MaxTokens must be set (> 0)")
	}
	chat := bytes.TrimSpace(req.Chat)
	if len(chat) == 0 {
		return b, newError(ErrorBadRequest, 0, "engine request: the chat adapter needs Request.Chat (the messages)")
	}
	j := newObj(b)
	if err := j.extra(chat); err != nil {
		return j.b, newError(ErrorBadRequest, 0, "engine request: Request.Chat is not a JSON object")
	}
	if req.Model != "" {
		j.str("model", req.Model)
	}
	j.int("max_tokens", int64(req.MaxTokens))
	if req.N > 1 {
		j.int("n", int64(req.N))
	}
	s := req.Sampling
	if strict {
		s.TopK, s.MinP, s.RepetitionPenalty = nil, nil, nil
	}
	appendSampling(&j, &s, false)
	if len(req.Stop.Strings) > 0 {
		j.strs("stop", req.Stop.Strings)
	}
	if req.Logprobs {
		j.bool("logprobs", true)
		if req.TopLogprobs > 0 {
			j.int("top_logprobs", int64(req.TopLogprobs))
		}
	}
	if !strict {
		if req.MinTokens > 0 {
			j.int("min_tokens", int64(req.MinTokens))
		}
		if len(req.Stop.HiddenIDs)+len(req.Stop.VisibleIDs) > 0 && !req.IgnoreEOS {
			j.ids("stop_token_ids", req.Stop.HiddenIDs, req.Stop.VisibleIDs)
		}
		if req.Stop.IncludeStrings {
			j.bool("include_stop_str_in_output", true)
		}
		if req.IgnoreEOS {
			j.bool("ignore_eos", true)
		}
		if !req.SkipSpecialTokens {
			j.bool("skip_special_tokens", false)
		}
		if req.Guided != nil {
			if err := appendGuided(&j, req.Guided, completionsOptions{flavor: flavorVLLM}); err != nil {
				return j.b, err
			}
		}
		if req.CacheSalt != "" {
			j.str("cache_salt", req.CacheSalt)
		}
	}
	j.bool("stream", true)
	j.raw("stream_options", []byte(`{"include_usage":true}`))
	if err := j.extra(req.ExtraArgs); err != nil {
		return j.b, err
	}
	return j.close(), nil
}

// chatDecoder decodes chat.completion.chunk events:
//
//	{"choices": [{"index", "delta": {"role"?, "content"?,
//	  "reasoning_content"? | "reasoning"?, "tool_calls"?: [{"index", "id"?,
//	  "type"?, "function": {"name"?, "arguments"?}}]},
//	  "logprobs"?: {"content": [{"token", "logprob", "top_logprobs"}]},
//	  "finish_reason", "stop_reason"?}],
//	 "usage"?: {…}}
type chatDecoder struct {
	completionsDecoder // outs, logprob buffers, usage, finish tracking
	calls              []ToolCallDelta
	callSpans          []span
}

func (d *chatDecoder) feed(data []byte, isError bool) error {
	d.outs, d.next = d.outs[:0], 0
	v, err := d.p.ParseBytes(data)
	if err != nil {
		if isError {
			return newError(ErrorUpstream, 0, "engine error: "+string(data))
		}
		return malformed("engine sent malformed JSON", err)
	}
	if isError || v.Type() == fastjson.TypeObject && (v.Get("error") != nil || string(v.GetStringBytes("object")) == "error") {
		return streamError(v)
	}
	if v.Type() != fastjson.TypeObject {
		return malformed("engine chunk is not an object", nil)
	}
	// A chunk without choices ("{}", a keep-alive; a usage chunk) has no
	// outputs; choices of another type is malformed.
	chs := v.Get("choices")
	if chs != nil && chs.Type() != fastjson.TypeArray && chs.Type() != fastjson.TypeNull {
		return malformed("engine chunk has no choices array", nil)
	}
	d.calls, d.callSpans = d.calls[:0], d.callSpans[:0]
	d.lps, d.lpSpans, d.tops, d.topSpan = d.lps[:0], d.lpSpans[:0], d.tops[:0], d.topSpan[:0]
	for _, c := range chs.GetArray() {
		if c.Type() != fastjson.TypeObject {
			return malformed("engine choice is not an object", nil)
		}
		d.outs = append(d.outs, Output{})
		out := &d.outs[len(d.outs)-1]
		if out.Index, err = choiceIndex(c); err != nil {
			return err
		}
		callStart := len(d.calls)
		if delta := c.Get("delta"); delta != nil && delta.Type() == fastjson.TypeObject {
			if t := delta.Get("content"); t != nil && t.Type() == fastjson.TypeString {
				out.Text, out.HasText = t.GetStringBytes(), true
			}
			r := delta.Get("reasoning_content")
			if r == nil || r.Type() != fastjson.TypeString {
				r = delta.Get("reasoning")
			}
			if r != nil && r.Type() == fastjson.TypeString {
				out.Reasoning = r.GetStringBytes()
			}
			for _, tc := range delta.GetArray("tool_calls") {
				idx, err := choiceIndex(tc)
				if err != nil {
					return err
				}
				d.calls = append(d.calls, ToolCallDelta{Index: idx, ID: tc.GetStringBytes("id"),
					Name: tc.GetStringBytes("function", "name"), Arguments: tc.GetStringBytes("function", "arguments")})
			}
		}
		d.callSpans = append(d.callSpans, span{int32(callStart), int32(len(d.calls))})
		lpStart := len(d.lps)
		for _, e := range c.GetArray("logprobs", "content") {
			l := Logprob{Token: e.GetStringBytes("token"), Logprob: e.GetFloat64("logprob")}
			ts := len(d.tops)
			for _, tv := range e.GetArray("top_logprobs") {
				d.tops = append(d.tops, TopLogprob{Token: tv.GetStringBytes("token"), Logprob: tv.GetFloat64("logprob")})
			}
			d.lps = append(d.lps, l)
			d.topSpan = append(d.topSpan, span{int32(ts), int32(len(d.tops))})
		}
		d.lpSpans = append(d.lpSpans, span{int32(lpStart), int32(len(d.lps))})
		if err := finishOf(out, c.Get("finish_reason"), c.Get("stop_reason")); err != nil {
			return err
		}
		if out.Finish != FinishNone {
			d.fin.mark(out.Index)
		}
	}
	for i := range d.outs {
		if sp := d.callSpans[i]; sp.end > sp.start {
			d.outs[i].ToolCalls = d.calls[sp.start:sp.end:sp.end]
		}
	}
	d.endStep(v)
	return nil
}
