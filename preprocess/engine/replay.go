package engine

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strconv"
	"sync"
	"time"
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
// StopTokenID); MinTokens defers the stops. N > 1 replays the recording
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
	if req.N > maxChoices {
		return nil, newError(ErrorBadRequest, 0, "replay engine: n is larger than "+strconv.Itoa(maxChoices))
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
	recUse  *Usage // the recording's own usage, if any
	cache   bool   // prompt holds the prefix cache's counts
	prompt  Usage  // the prompt and cached tokens (with cache)
	first   Usage  // the first step's usage (with cache)
	maxStop int
	closed  bool
	err     error
}

// replayChoice is the state of one choice.
type replayChoice struct {
	pos    int    // next step
	tokens int    // tokens sent
	done   bool   // finished
	held   []byte // unsent text that may start a stop string
	text   []byte // the text of the current step
	ids    []uint32
}

func (s *replayStream) reset(ctx context.Context, e *Replay, req *Request, rec *Recording) {
	s.ctx, s.e, s.req, s.rec = ctx, e, req, rec
	n := req.N
	if n < 1 {
		n = 1
	}
	if cap(s.choices) < n {
		s.choices = make([]replayChoice, n)
	}
	s.choices = s.choices[:n]
	for i := range s.choices {
		c := &s.choices[i]
		c.pos, c.tokens, c.done = 0, 0, false
		c.held, c.text, c.ids = c.held[:0], c.text[:0], c.ids[:0]
	}
	s.turn, s.left, s.started, s.stepped, s.closed, s.err = 0, n, false, false, false, nil
	s.usage, s.recUse = Usage{}, nil
	s.cache, s.prompt = false, Usage{}
	s.maxStop = 0
	for _, st := range req.Stop.Strings {
		s.maxStop = max(s.maxStop, len(st))
	}
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
	heldHere, matched := false, false
	switch {
	case len(rec.TokenIDs) > 0:
		s.stepIDs(c, rec.TokenIDs, limit)
	case rec.HasText:
		c.tokens++
		if s.maxStop > 0 {
			heldHere, matched = s.stepText(c, rec.Text)
		} else {
			s.out.Text = rec.Text
		}
		if limit > 0 && c.tokens >= limit && s.out.Finish == FinishNone && c.pos < len(s.rec.Steps) {
			s.out.Finish = FinishLength
		}
	case len(rec.Reasoning) > 0 || len(rec.ToolCalls) > 0:
		c.tokens++
	}
	if s.out.Finish == FinishNone && c.pos >= len(s.rec.Steps) {
		s.out.Finish = FinishEOS // a recording without a finish
	}
	if s.out.Finish != FinishNone && !matched && len(c.held) > 0 {
		// The choice ends without a stop-string match: what was held for a
		// possible match is sent.
		if heldHere {
			s.out.Text = c.text // the held bytes are its tail
		} else {
			c.text = append(append(c.text[:0], c.held...), s.out.Text...)
			s.out.Text = c.text
		}
		s.out.HasText = true
		c.held = c.held[:0]
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
// stop id (after MinTokens).
func (s *replayStream) stepIDs(c *replayChoice, ids []uint32, limit int) {
	c.ids = c.ids[:0]
	for _, id := range ids {
		c.ids = append(c.ids, id)
		c.tokens++
		if c.tokens > s.req.MinTokens && !s.req.IgnoreEOS && s.isStopID(id) {
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

func (s *replayStream) isStopID(id uint32) bool {
	for _, h := range s.req.Stop.HiddenIDs {
		if h == id {
			return true
		}
	}
	for _, v := range s.req.Stop.VisibleIDs {
		if v == id {
			return true
		}
	}
	return false
}

// stepText applies the stop strings to one text step: the earliest match
// wins (the longest at one position); without a match, the longest
// suffix that is a proper prefix of a stop string is held back.
// It reports whether text was held back in this step and whether a stop
// string matched.
func (s *replayStream) stepText(c *replayChoice, delta []byte) (held, matched bool) {
	c.text = append(append(c.text[:0], c.held...), delta...)
	c.held = c.held[:0]
	if c.tokens <= s.req.MinTokens {
		s.out.Text = c.text
		return false, false
	}
	at, stop := -1, ""
	for _, st := range s.req.Stop.Strings {
		if st == "" {
			continue
		}
		if k := bytes.Index(c.text, []byte(st)); k >= 0 && (at < 0 || k < at || k == at && len(st) > len(stop)) {
			at, stop = k, st
		}
	}
	if at >= 0 {
		end := at
		if s.req.Stop.IncludeStrings {
			end += len(stop)
		}
		s.out.Text = c.text[:end]
		s.out.Finish = FinishStop
		s.out.StopReason = c.text[at : at+len(stop)]
		return false, true
	}
	hold := 0
	for _, st := range s.req.Stop.Strings {
		for k := min(len(st)-1, len(c.text)); k > hold; k-- {
			if bytes.HasSuffix(c.text, []byte(st[:k])) {
				hold = k
				break
			}
		}
	}
	c.held = append(c.held, c.text[len(c.text)-hold:]...)
	s.out.Text = c.text[:len(c.text)-hold]
	return hold > 0, false
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
