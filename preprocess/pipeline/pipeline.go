package pipeline

import (
	"cmp"
	"strconv"
	"time"

	"github.com/agentwire/agentwire/parsers"
	"github.com/agentwire/agentwire/preprocess"
	"github.com/agentwire/agentwire/preprocess/api"
	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/responses"
)

// What one Pipeline decides across its choices:
//
// Usage. Prompt, completion and cached tokens are the engine's when it
// reports them; otherwise the prompt comes from ResponsePlan and the
// completion tokens are the generated ids counted here (one per text step
// for text engines). Reasoning tokens are estimated: each step's tokens are
// credited to reasoning in proportion to the reasoning bytes the step
// produced. An engine that finished every choice by itself is read to the
// end of its stream, since its usage may follow the finish (vLLM, SGLang's
// OpenAI API and trtllm-serve send it in a chunk of its own), for at most
// Options.UsageWait (2 s by default; engines send it at once); after a
// local stop the engine is not waited for and the counts are the
// pipeline's. These are the only token counts: Options.Trace hands them
// (and each engine output, as it is read) to an observer such as the
// server's metrics and logs.
//
// Cached tokens (the engine's prefix-cache hits) are reported as each API
// does: chat and completions usage.prompt_tokens_details.cached_tokens
// (when non-zero; prompt_tokens includes them), Responses
// usage.input_tokens_details.cached_tokens (input_tokens includes them),
// Anthropic usage.cache_read_input_tokens with input_tokens the uncached
// rest (input_tokens + cache_read_input_tokens = the prompt;
// cache_creation_input_tokens 0), streamed and unary alike. Anthropic's
// message_start carries the prompt counts known when the stream starts:
// the engine's, when its first output reports them (SGLang's native API,
// the replay engine with a prefix cache), else ResponsePlan's with no
// cache reads; message_delta carries the final counts, cumulative as the
// API's are (clients take its input and cache numbers over
// message_start's).
//
// n > 1 (at most engine.MaxChoices, 128: more is the API's 400). Every
// choice has its own pipeline; chat and completions interleave
// the choices' chunks in one stream, write each finish chunk, then one
// usage chunk and [DONE]. Anthropic Messages and Responses have one output
// per response: choices past the first are dropped.

// Options configure a Pipeline beyond what Prepared decides.
type Options struct {
	// Now returns the current time (created timestamps); nil means
	// time.Now.
	Now func() time.Time
	// Seed, when not 0, makes the minted ids deterministic (tests and
	// replays; never in production).
	Seed uint64
	// Reasoning is the server's reasoning policy on the Responses API:
	// reasoning goes out on one channel, as a summary when the request
	// asks for one (or sets no reasoning.summary and DefaultSummary is
	// set), else as reasoning text.
	Reasoning responses.ReasoningPolicy
	// ToolCallDispatch adds the tool_call_dispatch side channel to chat
	// streams: one event per completed call, so a harness can start the
	// tool while the model is still generating (openai.EmitterConfig). Off by
	// default: the official SDKs ignore the extra events, but strict
	// clients may not.
	ToolCallDispatch bool
	// UsageWait bounds how long Serve reads on after the engine finished
	// every choice, for the usage chunk that follows the finish (vLLM,
	// SGLang's OpenAI API, trtllm-serve): engines send it at once, so the
	// bound only matters for one that goes silent. 0 means 2s; a
	// negative value stops reading at the finish (the usage is then the
	// pipeline's count, with no cached tokens).
	UsageWait time.Duration
	// WriteTimeout bounds every write Serve makes to the client (each
	// flush of a stream, the unary body, an error body): a client that
	// stops reading blocks the write once the connection's buffers are
	// full, and after WriteTimeout the write fails, the stream ends and
	// the engine request is canceled. 0: no bound (Serve clears the
	// connection's write deadline, so a server WriteTimeout does not cut a
	// long stream either).
	WriteTimeout time.Duration
	// Trace, when not nil, observes the request as Serve serves it
	// (metrics, logs).
	Trace *Trace
}

// Trace observes one request as Serve serves it, the way
// net/http/httptrace.ClientTrace observes an HTTP request: a struct of
// callbacks, each optional (nil is skipped), called on the goroutine that
// serves the request. A callback must not block, and must not keep what it
// is given after it returns.
type Trace struct {
	// Output is called for each engine output Serve reads, as it is read
	// (the first one marks the time to the first token).
	Output func(out *engine.Output)
	// Usage is called once the answer (or its error) was written, with the
	// request's usage as the answer reports it (Pipeline.Usage: the
	// engine's numbers where it sent them, else the pipeline's count), so
	// an observer counts tokens by the same rule as the client. It is not
	// called for a request refused before the engine was asked (Reset
	// failed: too many choices, a parser configuration).
	Usage func(u protocols.Usage)
}

// defaultUsageWait is Options.UsageWait's default.
const defaultUsageWait = 2 * time.Second

// Pipeline turns the engine outputs of one request into one API's bytes
// (streaming) or value (unary). It holds one per-choice pipeline for each
// of the n choices and writes their events into one output stream.
//
// Call sequence:
//
//	New (or Reset) → Start → { Step } → ( Finish | Fail ) → Unary (unary requests) → Release
//
// Start, Step, Finish and Fail append to the caller's dst and return it.
// Step reads the Output only during the call. After warm-up (a previous
// request on the same Pipeline, or the first few tokens), Step allocates
// nothing per token. A Pipeline is not safe for concurrent use; reuse one
// with Reset (Serve pools them).
type Pipeline struct {
	prep    *preprocess.Prepared
	opts    Options
	now     func() time.Time
	ids     protocols.IDSource
	seeded  bool // ids is a seeded (test) source
	created int64

	pools   [2]*parsers.Pool
	choices []*choice
	order   []int // choice indices in the order they finished
	buf     []byte

	// the answer's writer: one per API served, reused
	w       api.Writer
	writers map[api.API]api.Writer
	wcfg    api.WriterConfig

	usage    engine.Usage
	hasUsage bool

	started  bool
	finished bool
	err      error // the failure given to Fail
}

// New returns a Pipeline for prep.
func New(prep *preprocess.Prepared, opts Options) (*Pipeline, error) {
	p := &Pipeline{}
	if err := p.Reset(prep, opts); err != nil {
		return nil, err
	}
	return p, nil
}

// errTooManyChoices is the message of a request whose n is past
// engine.MaxChoices.
var errTooManyChoices = "n must be at most " + strconv.Itoa(engine.MaxChoices)

// Reset prepares p for a new request, keeping its buffers, emitters and
// decoders. It fails for a parser configuration the parsers package
// rejects or too many choices; p is then unusable until the next Reset.
func (p *Pipeline) Reset(prep *preprocess.Prepared, opts Options) error {
	p.Release()
	n := prep.Engine.N
	if n <= 0 {
		n = 1
	}
	if n > engine.MaxChoices {
		return &engine.Error{Kind: engine.ErrorBadRequest, Status: 400, Message: errTooManyChoices}
	}
	p.prep, p.opts = prep, opts
	p.now = opts.Now
	if p.now == nil {
		p.now = time.Now
	}
	if opts.Seed != 0 {
		p.ids, p.seeded = protocols.NewSeededIDSource(opts.Seed), true
	} else if p.ids.IsZero() || p.seeded {
		p.ids, p.seeded = protocols.NewIDSource(), false
	}
	p.created = p.now().Unix()
	model := prep.Response.Model
	if model == "" {
		model = prep.Engine.Model
	}
	p.order = p.order[:0]
	p.buf = p.buf[:0]
	p.usage, p.hasUsage = engine.Usage{}, false
	p.started, p.finished, p.err = false, false, nil

	if !prep.API.RawText() {
		pools, err := poolsFor(prep)
		if err != nil {
			return err
		}
		p.pools = pools
	}
	if p.w = p.writers[prep.API]; p.w == nil {
		if p.writers == nil {
			p.writers = map[api.API]api.Writer{}
		}
		p.w = prep.API.NewWriter()
		p.writers[prep.API] = p.w
	}
	plan := &prep.Response
	p.wcfg = api.WriterConfig{RequestID: prep.Engine.RequestID, Model: model, Created: p.created, N: n,
		Stream: prep.Stream, IncludeUsage: plan.IncludeUsage, Logprobs: plan.Logprobs,
		PromptTokens: int64(plan.PromptTokens), CachedTokens: int64(plan.CachedTokens),
		IDs: p.ids, Now: p.now, Reasoning: opts.Reasoning, ToolCallDispatch: opts.ToolCallDispatch,
		Anthropic: plan.Anthropic, Responses: plan.Responses}
	if plan.ToolArgs != nil {
		p.wcfg.ToolArgs = plan.ToolArgs
	}
	p.w.Reset(&p.wcfg)
	for len(p.choices) < n {
		p.choices = append(p.choices, &choice{})
	}
	p.choices = p.choices[:n]
	for i := 0; i < n; i++ {
		p.choices[i].reset(p, i, p.w.Emitter(i))
	}
	return nil
}

// Release returns the parsers to their pools. The Pipeline may be Reset
// and used again.
func (p *Pipeline) Release() {
	for _, c := range p.choices {
		if c.main != nil || c.alt != nil {
			c.release(p)
		}
	}
}

// Start appends the envelope a stream opens with (Anthropic message_start
// and ping, Responses response.created and response.in_progress; nothing
// for chat and completions, whose first chunk carries the role).
func (p *Pipeline) Start(dst []byte) []byte {
	if p.started || !p.prep.Stream {
		return dst
	}
	p.started = true
	for _, c := range p.choices {
		if u := p.usage; p.hasUsage && (u.PromptTokens > 0 || u.CachedTokens > 0) {
			// The engine's first output reported the prompt (SGLang, the
			// replay engine with a prefix cache): Anthropic's
			// message_start carries its cache hits.
			c.em.SetUsage(protocols.Usage{PromptTokens: cmp.Or(u.PromptTokens, int64(p.prep.Response.PromptTokens)),
				CachedTokens: u.CachedTokens})
		}
		dst = c.em.Start(dst)
	}
	return dst
}

// Step appends the bytes for one engine output. An output for a choice
// index outside [0, n) is an error, as is an output that failed
// (engine.FinishError): the caller then ends the stream with Fail.
func (p *Pipeline) Step(dst []byte, out *engine.Output) ([]byte, error) {
	if p.finished {
		return dst, nil
	}
	if out.Usage != nil {
		p.usage, p.hasUsage = *out.Usage, true
	}
	if !p.started {
		dst = p.Start(dst)
	}
	if out.Index < 0 || out.Index >= len(p.choices) {
		if out.Usage != nil && len(out.TokenIDs) == 0 && !out.HasText && out.Finish == engine.FinishNone {
			return dst, nil // a usage-only step
		}
		return dst, &engine.Error{Kind: engine.ErrorMalformed, Message: "engine output for choice index out of range"}
	}
	p.buf = dst
	err := p.choices[out.Index].step(p, out)
	dst, p.buf = p.buf, nil
	return dst, err
}

// Done reports whether every choice has ended (by the engine's finish or a
// local stop): the caller may stop reading the engine and call Finish.
func (p *Pipeline) Done() bool { return len(p.order) == len(p.choices) }

// EngineFinished reports whether every choice ended with the engine's own
// finish reason (none by a local stop): the engine stopped generating, and
// what its stream still holds is its usage and its end — vLLM, SGLang's
// OpenAI API and trtllm-serve send the usage, with the prompt's cache
// hits, in a chunk after the finish. A caller that wants the engine's
// usage in the answer keeps passing outputs to Step until the stream
// ends (Step takes a usage after Done); Serve does.
func (p *Pipeline) EngineFinished() bool {
	if !p.Done() {
		return false
	}
	for _, c := range p.choices {
		if !c.engineEnd {
			return false
		}
	}
	return true
}

// Usage returns the usage of the response so far: the engine's numbers
// where it reported them, else counted here.
func (p *Pipeline) Usage() protocols.Usage {
	plan := &p.prep.Response
	u := protocols.Usage{PromptTokens: int64(plan.PromptTokens), CachedTokens: int64(plan.CachedTokens)}
	var counted, reasoning int64
	for _, c := range p.choices {
		counted += c.completionTokens()
		reasoning += c.reasoningTk
	}
	u.CompletionTokens = counted
	if p.hasUsage {
		if p.usage.PromptTokens > 0 {
			u.PromptTokens = p.usage.PromptTokens
		}
		if p.usage.CompletionTokens > 0 {
			u.CompletionTokens = p.usage.CompletionTokens
		}
		if p.usage.CachedTokens > 0 {
			u.CachedTokens = p.usage.CachedTokens
		}
	}
	u.ReasoningTokens = min(reasoning, u.CompletionTokens)
	return u
}

// Finish ends every choice that has not ended (the engine's stream ended:
// a choice without a finish reason ends as stop) and appends the terminal
// events: per choice finish chunks, the usage chunk, [DONE] (chat and
// completions), message_delta and message_stop (Anthropic), the terminal
// response event (Responses).
func (p *Pipeline) Finish(dst []byte) []byte {
	if p.finished {
		return dst
	}
	if !p.started {
		dst = p.Start(dst)
	}
	p.buf = dst
	for _, c := range p.choices {
		if !c.done {
			c.end(p, engine.FinishStop, nil)
		}
	}
	p.finished = true
	u := p.Usage()
	dst, p.buf = p.buf, nil
	for _, i := range p.order {
		c := p.choices[i]
		dst = c.em.FinishChoice(dst, c.finish, c.stopStr, u)
		c.calledEnd = true
	}
	if p.prep.Stream {
		dst = p.choices[0].em.Done(dst, u)
	}
	return dst
}

// Fail ends the response with err: an in-stream error event for a stream
// (the API's shape, for what a client may read of err: protocols.ErrorOf),
// or the error Unary returns.
func (p *Pipeline) Fail(dst []byte, err error) []byte {
	if p.finished {
		return dst
	}
	p.finished = true
	p.err = err
	if !p.prep.Stream {
		return dst
	}
	// One error event per response (Responses: response.failed, with the
	// output so far).
	return p.choices[0].em.FailError(dst, protocols.ErrorOf(err))
}

// Err returns the error given to Fail.
func (p *Pipeline) Err() error { return p.err }

// isStopString reports whether s is one of the request's stop strings.
func (p *Pipeline) isStopString(s []byte) bool {
	for _, str := range p.prep.Engine.Stop.Strings {
		if str == string(s) {
			return true
		}
	}
	return false
}
