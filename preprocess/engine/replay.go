package engine

import (
	"context"
	"errors"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/agentwire/agentwire/tokenizers"
)

// A Source produces what the Replay engine streams for one request: a
// recorded capture (a *Recording is a Source), or a scripted agent that
// builds its answer from the request.
type Source interface {
	// Recording returns the steps to stream for req. The Recording must not
	// be modified afterwards (it may be shared by concurrent replays).
	Recording(req *Request) (*Recording, error)
}

// SourceFunc adapts a function to Source.
type SourceFunc func(req *Request) (*Recording, error)

// Recording implements Source.
func (f SourceFunc) Recording(req *Request) (*Recording, error) { return f(req) }

// Replay is the in-process engine: it streams recorded (or scripted)
// output step by step, as a text or token-id engine would, with optional
// pacing. It is the embedded engine of the example server and of tests.
// Replay is safe for concurrent use; its fields must not change once it
// is in use.
//
// Like a real engine it applies the request's limits: generation stops
// after MaxTokens tokens (FinishLength), at a stop string (the text before
// it, or through it with Stop.IncludeStrings; a stop string split across
// steps is never partially sent; FinishStop with StopReason), and at a
// stop token id of a token-id recording (the id is sent, FinishStop with
// StopTokenID), all through a tokenizers.StopDecoder; as in vLLM, no stop
// applies to the first MinTokens tokens. N > 1 replays the recording
// once per choice, interleaved. When the recording carries no usage, the
// last step reports the prompt length (len(PromptIDs)) and the number of
// tokens sent (one per text step, one per id).
//
// With a PrefixCache, the replay reports cache hits as a prefix-caching
// engine would: the first step carries Usage with the prompt length and
// the cached tokens (as SGLang's first event does; the Anthropic
// message_start reports them), and the last step's usage has the same
// prompt and cached counts (replacing a recording's own, which describe
// the captured prompt, not this one).
type Replay struct {
	// Select picks the source for a request (by model name, by a marker in
	// the prompt, round robin, …). An error is returned by Generate as it
	// is when it is an *Error, else as ErrorBadRequest.
	Select func(req *Request) (Source, error)

	// FirstToken is the delay before the first step (a simulated prefill)
	// and PerToken the delay before every later step; 0 streams as fast as
	// the consumer reads.
	FirstToken time.Duration
	PerToken   time.Duration

	// PrefixCache, when set, computes every request's cached prompt
	// tokens (nil: none are reported).
	PrefixCache *PrefixCache
}

var replayStreams = sync.Pool{New: func() any { return new(replayStream) }}

// Generate implements Engine.
func (e *Replay) Generate(ctx context.Context, req *Request) (Stream, error) {
	if err := ctx.Err(); err != nil {
		return nil, ctxError(err)
	}
	if req.N > MaxChoices {
		return nil, newError(ErrorBadRequest, 0, "replay engine: n is larger than "+strconv.Itoa(MaxChoices))
	}
	if e.Select == nil {
		return nil, newError(ErrorUpstream, 0, "replay engine: no Select function")
	}
	src, err := e.Select(req)
	if err == nil && src == nil {
		err = errors.New("no recording selected")
	}
	if err != nil {
		var ee *Error
		if errors.As(err, &ee) {
			return nil, ee
		}
		return nil, newError(ErrorBadRequest, 400, "replay engine: "+err.Error())
	}
	rec, err := src.Recording(req)
	if err != nil {
		var ee *Error
		if errors.As(err, &ee) {
			return nil, ee
		}
		return nil, newError(ErrorUpstream, 0, "replay engine: "+err.Error())
	}
	if rec == nil || len(rec.Steps) == 0 {
		return nil, newError(ErrorUpstream, 0, "replay engine: empty recording")
	}
	s := replayStreams.Get().(*replayStream)
	s.reset(ctx, e, req, rec)
	if e.PrefixCache != nil {
		s.cache = true
		s.prompt.PromptTokens, s.prompt.CachedTokens = e.PrefixCache.Use(req)
	}
	return s, nil
}

// replayStream is one running replay.
type replayStream struct {
	ctx     context.Context
	e       *Replay
	req     *Request
	rec     *Recording
	choices []replayChoice
	turn    int  // the choice whose step comes next (round robin)
	left    int  // choices not finished
	started bool // paced the first step
	stepped bool // sent the first step
	timer   *time.Timer
	out     Output
	usage   Usage
	recUse  *Usage   // the recording's own usage, if any
	cache   bool     // prompt holds the prefix cache's counts
	prompt  Usage    // the prompt and cached tokens (with cache)
	first   Usage    // the first step's usage (with cache)
	strs    []string // the request's non-empty stop strings
	closed  bool
	err     error
}

// replayChoice is the state of one choice.
type replayChoice struct {
	pos    int                     // next step
	tokens int                     // tokens sent
	done   bool                    // finished
	stop   *tokenizers.StopDecoder // the stop ids and strings (text is not decoded here)
	text   []byte                  // the text of the current step, when it is assembled
	reason []byte                  // the stop string that matched
	ids    []uint32
}

func (s *replayStream) reset(ctx context.Context, e *Replay, req *Request, rec *Recording) {
	s.ctx, s.e, s.req, s.rec = ctx, e, req, rec
	n := req.N
	if n < 1 {
		n = 1
	}
	if cap(s.choices) < n {
		s.choices = append(s.choices[:cap(s.choices)], make([]replayChoice, n-cap(s.choices))...)
	}
	s.choices = s.choices[:n]
	s.strs = s.strs[:0]
	for _, st := range req.Stop.Strings {
		if st != "" {
			s.strs = append(s.strs, st)
		}
	}
	// As vLLM does, a stop is looked for only once more than MinTokens
	// tokens were generated; stop ids are not with IgnoreEOS. The id is
	// sent either way (FinishStop with StopTokenID): hiding it is the
	// response pipeline's decision.
	cfg := tokenizers.StopConfig{MinTokens: req.MinTokens + 1}
	if !req.IgnoreEOS {
		cfg.HiddenStopIDs, cfg.VisibleStopIDs = req.Stop.HiddenIDs, req.Stop.VisibleIDs
	}
	if req.Stop.IncludeStrings {
		cfg.VisibleStopStrings = s.strs
	} else {
		cfg.StopStrings = s.strs
	}
	for i := range s.choices {
		c := &s.choices[i]
		c.pos, c.tokens, c.done = 0, 0, false
		c.text, c.reason, c.ids = c.text[:0], c.reason[:0], c.ids[:0]
		if c.stop == nil {
			c.stop, _ = tokenizers.NewStopDecoder(nil, cfg) // no empty strings: no error
		} else {
			_ = c.stop.ResetWith(nil, cfg)
		}
	}
	s.turn, s.left, s.started, s.stepped, s.closed, s.err = 0, n, false, false, false, nil
	s.usage, s.recUse = Usage{}, nil
	s.cache, s.prompt = false, Usage{}
}

// Next implements Stream.
func (s *replayStream) Next() (*Output, error) {
	if s.err != nil {
		return nil, s.err
	}
	if s.left == 0 {
		s.err = io.EOF
		return nil, io.EOF
	}
	if err := s.pace(); err != nil {
		s.err = err
		return nil, err
	}
	for s.choices[s.turn].done {
		s.turn = (s.turn + 1) % len(s.choices)
	}
	i := s.turn
	s.turn = (s.turn + 1) % len(s.choices)
	first := !s.stepped
	s.stepped = true
	s.step(i)
	if first && s.cache && s.out.Usage == nil {
		s.first = s.prompt
		s.out.Usage = &s.first
	}
	return &s.out, nil
}

// pace waits before a step: FirstToken before the first, PerToken before
// the others, returning early with the caller's cancellation.
func (s *replayStream) pace() error {
	d := s.e.PerToken
	if !s.started {
		s.started = true
		d = s.e.FirstToken
	}
	if d <= 0 {
		if err := s.ctx.Err(); err != nil {
			return ctxError(err)
		}
		return nil
	}
	if s.timer == nil {
		s.timer = time.NewTimer(d)
	} else {
		s.timer.Reset(d)
	}
	select {
	case <-s.ctx.Done():
		s.timer.Stop()
		return ctxError(s.ctx.Err())
	case <-s.timer.C:
		return nil
	}
}

// step fills s.out with the next step of choice i.
func (s *replayStream) step(i int) {
	c := &s.choices[i]
	rec := s.rec.Steps[c.pos]
	c.pos++
	s.out = Output{Index: i, Reasoning: rec.Reasoning, ToolCalls: rec.ToolCalls, Logprobs: rec.Logprobs,
		HasText: rec.HasText, Finish: rec.Finish, StopReason: rec.StopReason,
		StopTokenID: rec.StopTokenID, HasStopTokenID: rec.HasStopTokenID, Err: rec.Err}
	if rec.Usage != nil && len(s.choices) == 1 {
		s.recUse = rec.Usage
	}
	limit := s.req.MaxTokens
	matched := false
	switch {
	case len(rec.TokenIDs) > 0:
		s.stepIDs(c, rec.TokenIDs, limit)
	case rec.HasText:
		c.tokens++
		text, stopped, _ := c.stop.StepText(rec.Text, 1)
		s.out.Text = text
		if stopped {
			c.reason = append(c.reason[:0], c.stop.Reason().String...)
			s.out.Finish, s.out.StopReason, matched = FinishStop, c.reason, true
		}
		if limit > 0 && c.tokens >= limit && s.out.Finish == FinishNone && c.pos < len(s.rec.Steps) {
			s.out.Finish = FinishLength
		}
	case len(rec.Reasoning) > 0 || len(rec.ToolCalls) > 0:
		c.tokens++
		_, _, _ = c.stop.StepText(nil, 1) // counted for MinTokens
	}
	if s.out.Finish == FinishNone && c.pos >= len(s.rec.Steps) {
		s.out.Finish = FinishEOS // a recording without a finish
	}
	if s.out.Finish != FinishNone && !matched {
		// The choice ends without a stop-string match: what was held for a
		// possible match is sent.
		c.text = append(c.text[:0], s.out.Text...)
		if tail, err := c.stop.Finish(); err == nil && len(tail) > 0 {
			s.out.Text, s.out.HasText = append(c.text, tail...), true
			c.text = s.out.Text
		}
	}
	if s.out.Finish != FinishNone {
		c.done = true
		s.left--
		if s.left == 0 {
			s.out.Usage = s.finalUsage()
		}
	}
}

// stepIDs sends token ids: up to the token limit and through the first
// stop id.
func (s *replayStream) stepIDs(c *replayChoice, ids []uint32, limit int) {
	c.ids = c.ids[:0]
	for _, id := range ids {
		c.ids = append(c.ids, id)
		c.tokens++
		if _, stopped, _ := c.stop.Step(id); stopped {
			s.out.Finish, s.out.StopTokenID, s.out.HasStopTokenID = FinishStop, id, true
			break
		}
		if limit > 0 && c.tokens >= limit {
			if s.out.Finish == FinishNone || len(c.ids) < len(ids) {
				s.out.Finish = FinishLength
			}
			break
		}
	}
	s.out.TokenIDs = c.ids
}

// finalUsage is the recording's usage, or the counted one; with the
// prefix cache, its prompt and cached counts.
func (s *replayStream) finalUsage() *Usage {
	if s.recUse != nil {
		s.usage = *s.recUse
	} else {
		s.usage = Usage{PromptTokens: int64(len(s.req.PromptIDs))}
		for i := range s.choices {
			s.usage.CompletionTokens += int64(s.choices[i].tokens)
		}
	}
	if s.cache {
		s.usage.PromptTokens, s.usage.CachedTokens = s.prompt.PromptTokens, s.prompt.CachedTokens
	}
	return &s.usage
}

// Close implements Stream.
func (s *replayStream) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	if s.timer != nil {
		s.timer.Stop()
	}
	s.ctx, s.req, s.rec, s.recUse = nil, nil, nil, nil
	if s.err == nil {
		s.err = &Error{Kind: ErrorCanceled, Message: "engine stream closed", Err: errClosed}
	}
	replayStreams.Put(s)
	return nil
}
