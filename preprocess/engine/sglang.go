package engine

import (
	"bytes"
	"context"
	"strings"

	"github.com/valyala/fastjson"
)

// SGLangConfig configures the SGLang native adapter.
type SGLangConfig struct {
	Config

	// IncrementalText says the server streams text deltas (it runs with
	// --incremental-streaming-output). By default SGLang streams the text
	// so far in every chunk and the adapter diffs it against what it has
	// seen; a chunk that does not extend the text seen fails the stream
	// with ErrorMalformed rather than losing bytes. Token ids and logprobs
	// need no setting: whether they are cumulative is read off
	// meta_info.completion_tokens. Cumulative text makes every chunk as
	// long as the output so far (quadratic bytes over a long generation):
	// for long outputs run the server with --incremental-streaming-output,
	// or use TokenIDsOnly with --stream-output.
	IncrementalText bool

	// TokenIDsOnly passes on only output_ids (Text nil, HasText false) of
	// events that carry them, for the response pipeline to detokenize (see
	// VLLMConfig.TokenIDsOnly). The text is still checked in cumulative
	// mode.
	TokenIDsOnly bool
}

// SGLang is the adapter for SGLang's native /generate API, streamed. It
// is safe for concurrent use.
//
// Read per event: index, text (the text so far unless
// SGLangConfig.IncrementalText: the adapter sends what is new, and fails
// with ErrorMalformed when a chunk does not extend what it saw), output_ids
// and meta_info.output_token_logprobs / output_top_logprobs (cumulative
// when their length equals meta_info.completion_tokens, else increments),
// meta_info.finish_reason (stop with matched string → FinishStop +
// StopReason, with matched id → FinishStop + StopTokenID, without →
// FinishEOS; length → FinishLength; abort → FinishCancelled, or
// FinishError when it carries a status_code ≥ 400 or a context-length
// message) and, on each finishing event, Usage from prompt_tokens,
// cached_tokens and the choices' completion_tokens (on the first event
// that has cached_tokens, Usage with the prompt's two counts only).
type SGLang struct {
	c    client
	pool streamPool
}

// NewSGLang returns the SGLang native adapter. cfg.BaseURL is the server
// root ("http://127.0.0.1:30000"); a trailing /v1 is dropped. It maps a
// Request to /generate members so:
//
//	PromptIDs | Prompt    input_ids | text
//	Images                image_data (the URLs, in order; [[…]] when n > 1)
//	MaxTokens, MinTokens  sampling_params.max_new_tokens, min_new_tokens
//	N                     sampling_params.n
//	Sampling              sampling_params.temperature, top_p, top_k, min_p,
//	                      presence_penalty, frequency_penalty,
//	                      repetition_penalty, sampling_seed
//	Stop                  sampling_params.stop, stop_token_ids, no_stop_trim
//	                      (as include_stop_str_in_output in NewVLLM), ignore_eos
//	SkipSpecialTokens     sampling_params.skip_special_tokens,
//	                      spaces_between_special_tokens
//	Guided                sampling_params.json_schema, regex (a choice as a
//	                      regex), ebnf, structural_tag
//	Logprobs, TopLogprobs return_logprob, top_logprobs_num, logprob_start_len -1
//	RequestID             rid
//	(always)              stream true; ExtraArgs merged last
//
// The stream is read as SGLang says.
func NewSGLang(cfg SGLangConfig) *SGLang {
	base := strings.TrimSuffix(strings.TrimRight(cfg.BaseURL, "/"), "/v1")
	e := &SGLang{c: newClient(cfg.Config, "")}
	e.c.url = base + "/generate"
	incremental, idsOnly := cfg.IncrementalText, cfg.TokenIDsOnly
	e.pool.newDecoder = func() decoder { return &sglangDecoder{incrementalText: incremental, idsOnly: idsOnly} }
	return e
}

// NewSGLangCompletions returns the adapter for SGLang's OpenAI-compatible
// /v1/completions: vLLM's protocol (see NewVLLM) with SGLang's names.
// include_stop_str_in_output → no_stop_trim; guided decoding → json_schema
// (JSON text), regex (a choice as a regex), ebnf, response_format (a
// structural tag); RequestID → rid; no return_token_ids and no cache_salt
// (the stream has text only); images are refused (ErrNoImages). The stop
// reason is read from matched_stop.
func NewSGLangCompletions(cfg Config) *Completions {
	return newCompletions(cfg, completionsOptions{flavor: flavorSGLang})
}

// Generate implements Engine: it posts req to /generate and returns the
// stream once the engine answered.
func (e *SGLang) Generate(ctx context.Context, req *Request) (Stream, error) {
	body, err := appendSGLangRequest(make([]byte, 0, 512+8*len(req.PromptIDs)+len(req.Prompt)), req)
	if err != nil {
		return nil, err
	}
	return generate(ctx, &e.c, &e.pool, req, body)
}

// appendSGLangRequest appends the /generate body of req.
func appendSGLangRequest(b []byte, req *Request) ([]byte, error) {
	if req.MaxTokens <= 0 {
		return b, newError(ErrorBadRequest, 0, "engine request: MaxTokens must be set (> 0)")
	}
	j := newObj(b)
	if len(req.PromptIDs) > 0 {
		j.ids("input_ids", req.PromptIDs)
	} else {
		j.str("text", req.Prompt)
	}
	if len(req.Images) > 0 {
		appendImageData(&j, req.Images, req.N > 1)
	}
	sp := newObj(nil)
	sp.int("max_new_tokens", int64(req.MaxTokens))
	if req.MinTokens > 0 {
		sp.int("min_new_tokens", int64(req.MinTokens))
	}
	if req.N > 1 {
		sp.int("n", int64(req.N))
	}
	s := &req.Sampling
	if s.Temperature != nil {
		sp.float("temperature", *s.Temperature)
	}
	if s.TopP != nil {
		sp.float("top_p", *s.TopP)
	}
	if s.TopK != nil {
		sp.int("top_k", int64(*s.TopK))
	}
	if s.MinP != nil {
		sp.float("min_p", *s.MinP)
	}
	if s.PresencePenalty != nil {
		sp.float("presence_penalty", *s.PresencePenalty)
	}
	if s.FrequencyPenalty != nil {
		sp.float("frequency_penalty", *s.FrequencyPenalty)
	}
	if s.RepetitionPenalty != nil {
		sp.float("repetition_penalty", *s.RepetitionPenalty)
	}
	if s.Seed != nil {
		sp.int("sampling_seed", *s.Seed)
	}
	appendStops(&sp, req, "no_stop_trim")
	if g := req.Guided; g != nil {
		switch {
		case len(g.JSONSchema) > 0:
			sp.str("json_schema", string(g.JSONSchema))
		case g.Regex != "":
			sp.str("regex", g.Regex)
		case len(g.Choice) > 0:
			sp.str("regex", choiceRegex(g.Choice))
		case g.Grammar != "":
			sp.str("ebnf", g.Grammar)
		case len(g.StructuralTag) > 0:
			sp.str("structural_tag", string(g.StructuralTag))
		}
	}
	j.raw("sampling_params", sp.close())
	j.bool("stream", true)
	if req.Logprobs {
		j.bool("return_logprob", true)
		j.int("top_logprobs_num", int64(req.TopLogprobs))
		j.int("logprob_start_len", -1)
	}
	if req.RequestID != "" {
		j.str("rid", req.RequestID)
	}
	if err := j.extra(req.ExtraArgs); err != nil {
		return j.b, err
	}
	return j.close(), nil
}

// sglangChoice is what the decoder has seen of one choice.
type sglangChoice struct {
	text       int      // bytes of text seen (cumulative mode)
	tail       [16]byte // the last bytes of the text seen
	tailN      int
	ids        int // token ids seen
	lps        int // logprob entries seen
	completion int64
}

// sglangDecoder decodes SGLang's /generate stream: one JSON object per
// event,
//
//	{"text", "output_ids", "index"?, "meta_info": {"id", "finish_reason":
//	 null | {"type": "stop", "matched": str | int | null} |
//	 {"type": "length", "length"} | {"type": "abort", "message"},
//	 "prompt_tokens", "completion_tokens", "cached_tokens",
//	 "output_token_logprobs"?: [[logprob, id, text|null]],
//	 "output_top_logprobs"?: [[[logprob, id, text|null]] | null]}}
//
// text is cumulative unless the server streams increments; output_ids and
// the logprob lists are cumulative when their length equals
// completion_tokens (SGLang's default) and increments otherwise
// (--stream-output).
type sglangDecoder struct {
	p               fastjson.Parser
	incrementalText bool
	idsOnly         bool

	choices []sglangChoice
	out     Output
	has     bool
	ids     []uint32
	lps     []Logprob
	tops    []TopLogprob
	usage   Usage
	prompt  bool // the prompt's usage was reported (first event)
	fin     finishTracker
}

func (d *sglangDecoder) reset(req *Request) {
	n := max(req.N, 1)
	if cap(d.choices) < n {
		d.choices = make([]sglangChoice, n)
	}
	d.choices = d.choices[:n]
	clear(d.choices)
	d.has, d.prompt = false, false
	d.fin.reset(n)
}

func (d *sglangDecoder) finished() bool { return d.fin.all() }

func (d *sglangDecoder) pop() (*Output, bool) {
	if !d.has {
		return nil, false
	}
	d.has = false
	return &d.out, true
}

func (d *sglangDecoder) feed(data []byte, isError bool) error {
	d.has = false
	v, err := d.p.ParseBytes(data)
	if err != nil {
		if isError {
			return newError(ErrorUpstream, 0, "engine error: "+string(data))
		}
		return malformed("engine sent malformed JSON", err)
	}
	if v.Type() != fastjson.TypeObject {
		return malformed("engine chunk is not an object", nil)
	}
	if isError || v.Get("error") != nil || string(v.GetStringBytes("object")) == "error" {
		return streamError(v)
	}
	idx, err := choiceIndex(v)
	if err != nil {
		return err
	}
	if idx >= len(d.choices) {
		return malformed("engine choice index out of range", nil)
	}
	c := &d.choices[idx]
	d.out = Output{Index: idx}
	meta := v.Get("meta_info")
	completion := int64(-1)
	if meta != nil {
		if ct := meta.Get("completion_tokens"); ct != nil && ct.Type() == fastjson.TypeNumber {
			completion = ct.GetInt64()
		}
	}

	if t := v.Get("text"); t != nil && t.Type() != fastjson.TypeNull {
		if t.Type() != fastjson.TypeString {
			return malformed("engine text is not a string", nil)
		}
		text := t.GetStringBytes()
		if !d.incrementalText {
			if len(text) < c.text || !bytes.Equal(text[c.text-c.tailN:c.text], c.tail[:c.tailN]) {
				return malformed("engine text does not extend the text streamed so far (is the server streaming increments? set IncrementalText)", nil)
			}
			delta := text[c.text:]
			c.text = len(text)
			c.tailN = copy(c.tail[:], text[len(text)-min(len(text), len(c.tail)):])
			text = delta
		}
		d.out.Text, d.out.HasText = text, true
	}

	d.ids = d.ids[:0]
	if d.ids, err = appendIDs(d.ids, v.Get("output_ids")); err != nil {
		return err
	}
	if n := len(d.ids); n > 0 {
		if cumulativeIDs(n, c.ids, completion) {
			d.ids = d.ids[c.ids:] // cumulative
			c.ids = n
		} else {
			c.ids += n
		}
		d.out.TokenIDs = d.ids
	}
	if d.idsOnly && (len(d.out.Text) == 0 || v.Get("output_ids") != nil) {
		d.out.Text, d.out.HasText = nil, false
	}

	if meta != nil {
		if err := d.logprobs(c, meta, completion); err != nil {
			return err
		}
		if fr := meta.Get("finish_reason"); fr != nil && fr.Type() == fastjson.TypeObject {
			d.finish(fr)
		}
		if d.out.Finish != FinishNone {
			d.fin.mark(idx)
			c.completion = max(completion, 0)
			d.usage = Usage{PromptTokens: meta.GetInt64("prompt_tokens"), CachedTokens: meta.GetInt64("cached_tokens")}
			for i := range d.choices {
				d.usage.CompletionTokens += d.choices[i].completion
			}
			d.out.Usage = &d.usage
		} else if !d.prompt {
			// SGLang's every event has the prompt's counts, cache hits
			// included (known once the prompt is prefilled): the first one
			// reports them, so that they reach the start of the answer
			// (Anthropic's message_start).
			if ct := meta.Get("cached_tokens"); ct != nil && ct.Type() == fastjson.TypeNumber {
				d.usage = Usage{PromptTokens: meta.GetInt64("prompt_tokens"), CachedTokens: ct.GetInt64()}
				d.out.Usage = &d.usage
			}
		}
		d.prompt = true
	}
	d.has = true
	return nil
}

// finish maps meta_info.finish_reason.
func (d *sglangDecoder) finish(fr *fastjson.Value) {
	typ := fr.GetStringBytes("type")
	m := fr.Get("matched")
	switch string(typ) {
	case "stop":
		d.out.Finish = FinishEOS
		if m != nil {
			switch m.Type() {
			case fastjson.TypeString:
				d.out.Finish, d.out.StopReason = FinishStop, m.GetStringBytes()
			case fastjson.TypeNumber:
				if id, err := m.Uint64(); err == nil && id <= 1<<32-1 {
					d.out.Finish, d.out.StopTokenID, d.out.HasStopTokenID = FinishStop, uint32(id), true
				}
			}
		}
	case "length":
		d.out.Finish = FinishLength
	case "abort":
		msg := fr.GetStringBytes("message")
		code := fr.GetInt("status_code")
		switch {
		case code >= 400:
			d.out.Finish, d.out.Err = FinishError, httpError(code, msg)
		case len(msg) > 0 && isContextOverflow(string(msg)):
			e := newError(ErrorContextLength, 0, "engine aborted the request: "+string(msg))
			e.PromptTokens, e.MaxContext = contextNumbers(e.Message)
			d.out.Finish, d.out.Err = FinishError, e
		default:
			d.out.Finish = FinishCancelled
		}
	default:
		d.out.Finish = mapFinish(typ, m != nil && m.Type() != fastjson.TypeNull)
	}
}

// logprobs reads output_token_logprobs / output_top_logprobs (entries
// [logprob, id, text|null]), new entries only.
func (d *sglangDecoder) logprobs(c *sglangChoice, meta *fastjson.Value, completion int64) error {
	lv := meta.Get("output_token_logprobs")
	if lv == nil || lv.Type() != fastjson.TypeArray {
		return nil
	}
	all := lv.GetArray()
	tops := meta.GetArray("output_top_logprobs")
	start := 0
	if cumulativeIDs(len(all), c.lps, completion) {
		start = c.lps
		c.lps = len(all)
	} else {
		c.lps += len(all)
	}
	d.lps, d.tops = d.lps[:0], d.tops[:0]
	for i := start; i < len(all); i++ {
		l := lpEntry(all[i])
		ts := len(d.tops)
		if i < len(tops) {
			for _, tv := range tops[i].GetArray() {
				t := lpEntry(tv)
				d.tops = append(d.tops, TopLogprob{TokenID: t.TokenID, Token: t.Token, Logprob: t.Logprob})
			}
		}
		l.Top = d.tops[ts:len(d.tops):len(d.tops)] // fixed below once d.tops stops growing
		d.lps = append(d.lps, l)
	}
	// Re-slice Top now that d.tops no longer grows.
	off := 0
	for i := range d.lps {
		n := len(d.lps[i].Top)
		d.lps[i].Top = d.tops[off : off+n : off+n]
		off += n
	}
	if len(d.lps) > 0 {
		d.out.Logprobs = d.lps
	}
	return nil
}

// cumulativeIDs reports whether a list of n entries (ids or logprobs) is
// cumulative, seen entries having been seen before: its length equals
// completion_tokens (SGLang's default) — or, when the engine does not send
// completion_tokens, it is longer than what was seen.
func cumulativeIDs(n, seen int, completion int64) bool {
	if completion >= 0 {
		return int64(n) == completion && n >= seen
	}
	return n > seen
}

// lpEntry reads [logprob, id, text|null].
func lpEntry(v *fastjson.Value) Logprob {
	a := v.GetArray()
	var l Logprob
	if len(a) > 0 {
		l.Logprob = a[0].GetFloat64()
	}
	if len(a) > 1 {
		if id, err := a[1].Uint64(); err == nil && id <= 1<<32-1 {
			l.TokenID = uint32(id)
		}
	}
	if len(a) > 2 {
		l.Token = a[2].GetStringBytes()
	}
	return l
}
