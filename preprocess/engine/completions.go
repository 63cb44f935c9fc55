package engine

import (
	"github.com/valyala/fastjson"
)

// This file holds what the OpenAI-compatible /v1/completions adapters
// (vLLM, SGLang's OpenAI API, trtllm-serve) share: the stream decoder and
// the finish-reason mapping. Each adapter's request mapping is in its own
// file.

// completionsDecoder decodes `text_completion` stream chunks:
//
//	{"id", "object": "text_completion", "model",
//	 "choices": [{"index", "text", "token_ids"?, "logprobs"?,
//	              "finish_reason", "stop_reason" | "matched_stop"}],
//	 "usage": {"prompt_tokens", "completion_tokens",
//	           "prompt_tokens_details": {"cached_tokens"}} | null}
//
// and in-stream errors ({"error": {...}} or {"object": "error", ...}).
// feedFast decodes the common chunk shape without fastjson; anything
// else goes to feedJSON: one fastjson.Parser reused for every chunk. The
// outputs alias the parser's buffer and the decoder's own buffers.
type completionsDecoder struct {
	p         fastjson.Parser
	stopField string // the per-choice stop reason member
	idsOnly   bool   // drop the text of chunks that carry token ids

	outs    []Output
	next    int
	ids     []uint32
	idSpans []span
	lps     []Logprob
	lpSpans []span
	tops    []TopLogprob
	topSpan []span // per entry of lps
	usage   Usage
	fin     finishTracker

	// The fast path's copies of text and stop strings, and their spans
	// (two per output: text, stop reason).
	text      []byte
	textSpans []span
	// The bytes of the last fast-decoded chunk up to its choices, and
	// whether usage and object preceded them.
	prefix                    []byte
	prefixUsage, prefixObject bool

	// tmpl is the last fast-decoded chunk of the common shape, around its
	// text and token ids; cand the positions of those in the chunk being
	// scanned (see chunkTemplate).
	tmpl chunkTemplate
	cand templateCandidate
}

// span is a [start, end) range of a decoder buffer, turned into a slice
// once the buffer stopped growing.
type span struct{ start, end int32 }

func (d *completionsDecoder) reset(req *Request) {
	d.outs, d.next = d.outs[:0], 0
	d.fin.reset(req.N)
	d.tmpl.ok = false
}

func (d *completionsDecoder) finished() bool { return d.fin.all() }

func (d *completionsDecoder) pop() (*Output, bool) {
	if d.next >= len(d.outs) {
		return nil, false
	}
	d.next++
	return &d.outs[d.next-1], true
}

func (d *completionsDecoder) feed(data []byte, isError bool) error {
	if !isError && (d.feedTemplate(data) || d.feedFast(data)) {
		return nil
	}
	return d.feedJSON(data, isError)
}

// feedJSON is the general decoder: any chunk, with fastjson.
func (d *completionsDecoder) feedJSON(data []byte, isError bool) error {
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
	arr := chs.GetArray()
	d.ids, d.idSpans = d.ids[:0], d.idSpans[:0]
	d.lps, d.lpSpans, d.tops, d.topSpan = d.lps[:0], d.lpSpans[:0], d.tops[:0], d.topSpan[:0]
	for _, c := range arr {
		if c.Type() != fastjson.TypeObject {
			return malformed("engine choice is not an object", nil)
		}
		d.outs = append(d.outs, Output{})
		out := &d.outs[len(d.outs)-1]
		idx, err := choiceIndex(c)
		if err != nil {
			return err
		}
		out.Index = idx
		if t := c.Get("text"); t != nil && t.Type() != fastjson.TypeNull {
			if t.Type() != fastjson.TypeString {
				return malformed("engine choice text is not a string", nil)
			}
			out.Text, out.HasText = t.GetStringBytes(), true
		}
		start := len(d.ids)
		tv := c.Get("token_ids")
		if d.ids, err = appendIDs(d.ids, tv); err != nil {
			return err
		}
		d.idSpans = append(d.idSpans, span{int32(start), int32(len(d.ids))})
		if d.idsOnly && (len(out.Text) == 0 || tv != nil && tv.Type() == fastjson.TypeArray) {
			out.Text, out.HasText = nil, false
		}
		lpStart := len(d.lps)
		if lp := c.Get("logprobs"); lp != nil && lp.Type() == fastjson.TypeObject {
			if err := d.completionLogprobs(lp, d.ids[start:]); err != nil {
				return err
			}
		}
		d.lpSpans = append(d.lpSpans, span{int32(lpStart), int32(len(d.lps))})
		if err := finishOf(out, c.Get("finish_reason"), c.Get(d.stopField)); err != nil {
			return err
		}
		if out.Finish != FinishNone {
			d.fin.mark(out.Index)
		}
	}
	// Slices into the grown buffers.
	for i := range d.outs {
		if sp := d.idSpans[i]; sp.end > sp.start {
			d.outs[i].TokenIDs = d.ids[sp.start:sp.end:sp.end]
		}
	}
	d.endStep(v)
	return nil
}

// endStep finishes a decoded chunk for both the completions and the chat
// decoder: it points each output at its logprobs (and each logprob at its
// alternatives) in the grown buffers, and attaches the chunk's usage, if
// any, to the last output (a usage-only step when there is none).
func (d *completionsDecoder) endStep(v *fastjson.Value) {
	for i := range d.outs {
		if sp := d.lpSpans[i]; sp.end > sp.start {
			d.outs[i].Logprobs = d.lps[sp.start:sp.end:sp.end]
		}
	}
	for i := range d.lps {
		if sp := d.topSpan[i]; sp.end > sp.start {
			d.lps[i].Top = d.tops[sp.start:sp.end:sp.end]
		}
	}
	if u := v.Get("usage"); u != nil && u.Type() == fastjson.TypeObject {
		readUsage(&d.usage, u)
		if len(d.outs) == 0 {
			d.outs = append(d.outs, Output{}) // a usage-only step
		}
		d.outs[len(d.outs)-1].Usage = &d.usage
	}
}

// completionLogprobs reads the completions logprobs object
// {"tokens": [str], "token_logprobs": [num|null], "top_logprobs":
// [{str: num}|null], "text_offset": [int]}; ids are the choice's token ids
// of this chunk (used when they line up with the tokens).
func (d *completionsDecoder) completionLogprobs(lp *fastjson.Value, ids []uint32) error {
	toks := lp.GetArray("tokens")
	vals := lp.GetArray("token_logprobs")
	tops := lp.GetArray("top_logprobs")
	for i, t := range toks {
		var l Logprob
		l.Token = t.GetStringBytes()
		if i < len(vals) {
			l.Logprob = vals[i].GetFloat64()
		}
		if len(ids) == len(toks) {
			l.TokenID = ids[i]
		}
		topStart := len(d.tops)
		if i < len(tops) {
			if o, err := tops[i].Object(); err == nil {
				o.Visit(func(key []byte, v *fastjson.Value) {
					d.tops = append(d.tops, TopLogprob{Token: key, Logprob: v.GetFloat64()})
				})
			}
		}
		d.lps = append(d.lps, l)
		d.topSpan = append(d.topSpan, span{int32(topStart), int32(len(d.tops))})
	}
	return nil
}

// choiceIndex reads a choice's "index" (absent means 0).
func choiceIndex(c *fastjson.Value) (int, error) {
	iv := c.Get("index")
	if iv == nil || iv.Type() == fastjson.TypeNull {
		return 0, nil
	}
	n, err := iv.Int()
	if err != nil || n < 0 || n > MaxChoices {
		return 0, malformed("engine choice index is not a small non-negative integer", nil)
	}
	return n, nil
}

// appendIDs appends a JSON array of token ids (absent or null: none).
func appendIDs(dst []uint32, v *fastjson.Value) ([]uint32, error) {
	if v == nil || v.Type() == fastjson.TypeNull {
		return dst, nil
	}
	arr, err := v.Array()
	if err != nil {
		return dst, malformed("engine token ids are not an array", nil)
	}
	for _, e := range arr {
		id, err := e.Uint64()
		if err != nil || id > 1<<32-1 {
			return dst, malformed("engine token id is not a uint32", nil)
		}
		dst = append(dst, uint32(id))
	}
	return dst, nil
}

// finishOf sets out's finish from an OpenAI-style finish_reason and the
// stop reason (vLLM's stop_reason, SGLang's matched_stop: the matched stop
// string, or the matched stop token id).
//
//	"stop"                          FinishStop with a stop reason, else FinishEOS
//	"eos"                           FinishEOS
//	"length"                        FinishLength
//	"abort", "cancelled"            FinishCancelled
//	"content_filter"                FinishContentFilter
//	"error", "error: <msg>"         FinishError (Output.Err says why)
//	"tool_calls", "function_call"   FinishStop (engines with their own parsers)
//	anything else                   FinishStop
func finishOf(out *Output, fr, sr *fastjson.Value) error {
	if fr == nil || fr.Type() == fastjson.TypeNull {
		return nil
	}
	if fr.Type() != fastjson.TypeString {
		return malformed("engine finish_reason is not a string", nil)
	}
	reason := fr.GetStringBytes()
	if len(reason) == 0 {
		return nil
	}
	hasStop := false
	if sr != nil {
		switch sr.Type() {
		case fastjson.TypeString:
			out.StopReason, hasStop = sr.GetStringBytes(), true
		case fastjson.TypeNumber:
			id, err := sr.Uint64()
			if err == nil && id <= 1<<32-1 {
				out.StopTokenID, out.HasStopTokenID, hasStop = uint32(id), true, true
			}
		}
	}
	out.Finish = mapFinish(reason, hasStop)
	if out.Finish == FinishError {
		out.Err = finishError(reason)
	}
	return nil
}

// finishError is the Output.Err of an "error" or "error: <msg>" finish.
func finishError(reason []byte) error {
	msg := "the engine failed the generation"
	if len(reason) > len("error: ") && string(reason[:7]) == "error: " {
		msg = "engine error: " + string(reason[7:])
	}
	return newError(ErrorUpstream, 0, msg)
}

func mapFinish(reason []byte, hasStop bool) Finish {
	switch string(reason) {
	case "stop":
		if hasStop {
			return FinishStop
		}
		return FinishEOS
	case "eos":
		return FinishEOS
	case "length":
		return FinishLength
	case "abort", "cancelled", "canceled":
		return FinishCancelled
	case "content_filter":
		return FinishContentFilter
	case "error":
		return FinishError
	}
	if len(reason) > 6 && string(reason[:6]) == "error:" {
		return FinishError
	}
	return FinishStop
}

// readUsage reads an OpenAI usage object.
func readUsage(u *Usage, v *fastjson.Value) {
	*u = Usage{
		PromptTokens:     v.GetInt64("prompt_tokens"),
		CompletionTokens: v.GetInt64("completion_tokens"),
		CachedTokens:     v.GetInt64("prompt_tokens_details", "cached_tokens"),
	}
}

// finishTracker records which choices reported their finish.
type finishTracker struct {
	n    int
	done []bool
	cnt  int
}

func (f *finishTracker) reset(n int) {
	if n < 1 {
		n = 1
	}
	f.n, f.cnt = n, 0
	if cap(f.done) < n {
		f.done = make([]bool, n)
	}
	f.done = f.done[:n]
	clear(f.done)
}

func (f *finishTracker) mark(i int) {
	if i >= 0 && i < f.n && !f.done[i] {
		f.done[i] = true
		f.cnt++
	}
}

func (f *finishTracker) all() bool { return f.cnt >= f.n }

// malformed returns an ErrorMalformed error for a stream that cannot be
// decoded (the parser's message, bounded, when there is one).
func malformed(what string, err error) *Error {
	if err != nil {
		what += ": " + err.Error()
	}
	return newError(ErrorMalformed, 0, what)
}

// ---- request mapping shared by the completions adapters ----

// completionsFlavor selects the parameter names of one engine's
// /v1/completions dialect.
type completionsFlavor uint8

const (
	flavorVLLM completionsFlavor = iota
	flavorSGLang
	flavorTRT
)

// completionsOptions are the adapter options that change the request.
type completionsOptions struct {
	flavor         completionsFlavor
	noTokenIDs     bool // vLLM: do not ask for return_token_ids
	legacyGuided   bool // vLLM: guided_* instead of structured_outputs
	maxTopLogprobs int  // trtllm: clamp logprobs (0: no clamp)
	idsOnly        bool // vLLM: pass on token ids without their text
}

// appendCompletionsRequest appends the JSON body of req for the flavor.
func appendCompletionsRequest(b []byte, req *Request, o completionsOptions) ([]byte, error) {
	if req.MaxTokens <= 0 {
		return b, newError(ErrorBadRequest, 0, "engine request: MaxTokens must be set (> 0)")
	}
	j := newObj(b)
	j.str("model", req.Model)
	if len(req.PromptIDs) > 0 {
		j.ids("prompt", req.PromptIDs)
	} else {
		j.str("prompt", req.Prompt)
	}
	j.int("max_tokens", int64(req.MaxTokens))
	if req.MinTokens > 0 {
		j.int("min_tokens", int64(req.MinTokens))
	}
	if req.N > 1 {
		j.int("n", int64(req.N))
	}
	appendSampling(&j, &req.Sampling, o.flavor == flavorTRT)
	includeKey := "include_stop_str_in_output"
	if o.flavor == flavorSGLang {
		includeKey = "no_stop_trim"
	}
	appendStops(&j, req, includeKey)
	if req.Logprobs {
		n := req.TopLogprobs
		if o.maxTopLogprobs > 0 && n > o.maxTopLogprobs {
			n = o.maxTopLogprobs
		}
		if o.flavor == flavorTRT && n < 1 {
			n = 1 // trtllm-serve: 0 means "no logprobs"
		}
		j.int("logprobs", int64(n))
	}
	if g := req.Guided; g != nil {
		if err := appendGuided(&j, g, o); err != nil {
			return j.b, err
		}
	}
	j.bool("stream", true)
	j.raw("stream_options", []byte(`{"include_usage":true}`))
	switch o.flavor {
	case flavorVLLM:
		if !o.noTokenIDs {
			j.bool("return_token_ids", true)
		}
		if req.RequestID != "" {
			j.str("request_id", req.RequestID)
		}
		if req.CacheSalt != "" {
			j.str("cache_salt", req.CacheSalt)
		}
	case flavorSGLang:
		if req.RequestID != "" {
			j.str("rid", req.RequestID)
		}
	}
	if err := j.extra(req.ExtraArgs); err != nil {
		return j.b, err
	}
	return j.close(), nil
}

// appendSampling appends the sampling options under their OpenAI/vLLM
// names (shared by vLLM, SGLang's OpenAI API and trtllm-serve). trtllm
// has no "all tokens" top_k below 1: top_k <= 0 is left out there.
// appendStops writes the stop conditions and the special-token switches,
// as every token-in request spells them: stop, stop_token_ids (not with
// IgnoreEOS), includeKey (vLLM's include_stop_str_in_output, SGLang's
// no_stop_trim), ignore_eos, skip_special_tokens and
// spaces_between_special_tokens. Visible stop ids must reach the output
// text, which these engines only do with includeKey; it also keeps stop
// strings, so it is only set for visible ids when no hidden stop string
// exists.
func appendStops(j *jsonObj, req *Request, includeKey string) {
	if len(req.Stop.Strings) > 0 {
		j.strs("stop", req.Stop.Strings)
	}
	if len(req.Stop.HiddenIDs)+len(req.Stop.VisibleIDs) > 0 && !req.IgnoreEOS {
		j.ids("stop_token_ids", req.Stop.HiddenIDs, req.Stop.VisibleIDs)
	}
	if req.Stop.IncludeStrings || len(req.Stop.VisibleIDs) > 0 && len(req.Stop.Strings) == 0 {
		j.bool(includeKey, true)
	}
	if req.IgnoreEOS {
		j.bool("ignore_eos", true)
	}
	j.bool("skip_special_tokens", req.SkipSpecialTokens)
	if !req.SkipSpecialTokens {
		j.bool("spaces_between_special_tokens", false)
	}
}

func appendSampling(j *jsonObj, s *Sampling, trt bool) {
	if s.Temperature != nil {
		j.float("temperature", *s.Temperature)
	}
	if s.TopP != nil {
		j.float("top_p", *s.TopP)
	}
	if s.TopK != nil && !(trt && *s.TopK <= 0) {
		j.int("top_k", int64(*s.TopK))
	}
	if s.MinP != nil {
		j.float("min_p", *s.MinP)
	}
	if s.PresencePenalty != nil {
		j.float("presence_penalty", *s.PresencePenalty)
	}
	if s.FrequencyPenalty != nil {
		j.float("frequency_penalty", *s.FrequencyPenalty)
	}
	if s.RepetitionPenalty != nil {
		j.float("repetition_penalty", *s.RepetitionPenalty)
	}
	if s.Seed != nil {
		j.int("seed", *s.Seed)
	}
}

// appendGuided maps the guided-decoding constraint:
//
//	vLLM        structured_outputs {json | regex | choice | grammar | structural_tag (JSON text)}
//	vLLM legacy guided_json, guided_regex, guided_choice, guided_grammar,
//	            response_format (structural tag)
//	SGLang      json_schema (JSON text), regex, ebnf, response_format
//	            (structural tag); a choice becomes a regex
//	trtllm      response_format {type: json, schema} | {type: regex, regex} |
//	            {type: ebnf, ebnf} | the structural tag; a choice becomes a regex
func appendGuided(j *jsonObj, g *Guided, o completionsOptions) error {
	switch o.flavor {
	case flavorVLLM:
		if o.legacyGuided {
			switch {
			case len(g.JSONSchema) > 0:
				j.raw("guided_json", g.JSONSchema)
			case g.Regex != "":
				j.str("guided_regex", g.Regex)
			case len(g.Choice) > 0:
				j.strs("guided_choice", g.Choice)
			case g.Grammar != "":
				j.str("guided_grammar", g.Grammar)
			case len(g.StructuralTag) > 0:
				j.raw("response_format", g.StructuralTag)
			}
			return nil
		}
		so := newObj(nil)
		switch {
		case len(g.JSONSchema) > 0:
			so.raw("json", g.JSONSchema)
		case g.Regex != "":
			so.str("regex", g.Regex)
		case len(g.Choice) > 0:
			so.strs("choice", g.Choice)
		case g.Grammar != "":
			so.str("grammar", g.Grammar)
		case len(g.StructuralTag) > 0:
			so.str("structural_tag", string(g.StructuralTag))
		}
		j.raw("structured_outputs", so.close())
	case flavorSGLang:
		switch {
		case len(g.JSONSchema) > 0:
			j.str("json_schema", string(g.JSONSchema))
		case g.Regex != "":
			j.str("regex", g.Regex)
		case len(g.Choice) > 0:
			j.str("regex", choiceRegex(g.Choice))
		case g.Grammar != "":
			j.str("ebnf", g.Grammar)
		case len(g.StructuralTag) > 0:
			j.raw("response_format", g.StructuralTag)
		}
	case flavorTRT:
		rf := newObj(nil)
		switch {
		case len(g.JSONSchema) > 0:
			rf.str("type", "json")
			rf.raw("schema", g.JSONSchema)
		case g.Regex != "" || len(g.Choice) > 0:
			re := g.Regex
			if re == "" {
				re = choiceRegex(g.Choice)
			}
			rf.str("type", "regex")
			rf.str("regex", re)
		case g.Grammar != "":
			rf.str("type", "ebnf")
			rf.str("ebnf", g.Grammar)
		case len(g.StructuralTag) > 0:
			j.raw("response_format", g.StructuralTag)
			return nil
		default:
			return nil
		}
		j.raw("response_format", rf.close())
	}
	return nil
}

// choiceRegex is a regular expression matching exactly one of choices.
func choiceRegex(choices []string) string {
	b := []byte("(")
	for i, c := range choices {
		if i > 0 {
			b = append(b, '|')
		}
		for k := 0; k < len(c); k++ {
			switch c[k] {
			case '\\', '.', '+', '*', '?', '(', ')', '|', '[', ']', '{', '}', '^', '$':
				b = append(b, '\\')
			}
			b = append(b, c[k])
		}
	}
	return string(append(b, ')'))
}
