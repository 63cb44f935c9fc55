package openai

import (
	"errors"
	"strings"

	"github.com/agentwire/agentwire/protocols"
)

// AggregatorConfig configures an Aggregator.
type AggregatorConfig struct {
	ID      string // "chatcmpl-" + request id
	Model   string
	Created int64 // Unix seconds
	// ForceNonemptyContent moves the reasoning into content when the turn
	// produced no content and no tool calls (Nemotron's
	// force_nonempty_content; Dynamo PR #11251).
	ForceNonemptyContent bool
	// Logprobs collects the log probabilities given to SetLogprobs into
	// the choice's logprobs.content (present, possibly empty).
	Logprobs bool
}

// Aggregator builds a unary chat.completion from the neutral event stream
// (unary requests are served by streaming internally, so unary content
// equals the concatenated deltas). Reasoning interrupted by tool calls is
// kept as segments aligned with the calls (segments[i] preceded
// tool_calls[i], the last segment trails), the form ChatToAnthropic and
// ChatToResponses lay out in generation order. Abandoned calls are
// omitted. It implements protocols.Emitter; the dst arguments are returned
// unchanged.
type Aggregator struct {
	cfg       AggregatorConfig
	content   strings.Builder
	segs      []string
	seg       strings.Builder
	calls     []ToolCall
	open      map[int]*pendingCall
	completed int
	abandoned int
	finish    string
	stop      []byte
	logprobs  []TokenLogprob
	usage     protocols.Usage
	done      bool
	err       error
}

type pendingCall struct {
	id, name string
	args     strings.Builder
	seg      string // reasoning segment that preceded the call
}

var _ protocols.Emitter = (*Aggregator)(nil)

// NewAggregator returns an Aggregator for one response.
func NewAggregator(cfg AggregatorConfig) *Aggregator {
	return &Aggregator{cfg: cfg, open: map[int]*pendingCall{}}
}

// Content appends text to the message content.
func (a *Aggregator) Content(dst, text []byte) []byte {
	a.content.Write(text)
	return dst
}

// Reasoning appends text to the current reasoning segment.
func (a *Aggregator) Reasoning(dst, text []byte) []byte {
	a.seg.Write(text)
	return dst
}

// ToolCallStart closes the current reasoning segment and opens call index.
func (a *Aggregator) ToolCallStart(dst []byte, index int, id, name []byte) []byte {
	a.open[index] = &pendingCall{id: string(id), name: string(name), seg: a.seg.String()}
	a.seg.Reset()
	return dst
}

// ToolCallArgs appends an arguments fragment of call index.
func (a *Aggregator) ToolCallArgs(dst []byte, index int, fragment []byte) []byte {
	if c := a.open[index]; c != nil {
		c.args.Write(fragment)
	}
	return dst
}

// ToolCallEnd completes call index.
func (a *Aggregator) ToolCallEnd(dst []byte, index int) []byte {
	c := a.open[index]
	if c == nil {
		return dst
	}
	delete(a.open, index)
	a.segs = append(a.segs, c.seg)
	a.calls = append(a.calls, ToolCall{ID: c.id, Type: ToolTypeFunction, Function: FunctionCall{Name: c.name, Arguments: Arguments(c.args.String())}})
	a.completed++
	return dst
}

// ToolCallAbandoned drops call index; the reasoning that preceded it rejoins
// the current segment.
func (a *Aggregator) ToolCallAbandoned(dst []byte, index int) []byte {
	a.abandoned++
	a.drop(index)
	return dst
}

// drop removes call index (an abandoned call, or one still open at the
// finish).
func (a *Aggregator) drop(index int) {
	c := a.open[index]
	if c == nil {
		return
	}
	delete(a.open, index)
	if c.seg != "" {
		rest := a.seg.String()
		a.seg.Reset()
		a.seg.WriteString(c.seg)
		a.seg.WriteString(rest)
	}
}

// Finish records the finish reason (stop becomes tool_calls when calls
// completed) and the usage.
func (a *Aggregator) Finish(dst []byte, reason protocols.FinishReason, usage protocols.Usage) []byte {
	if a.done {
		return dst
	}
	a.done = true
	for i := range a.open {
		a.drop(i)
	}
	a.finish = FinishReasonFor(reason, a.completed)
	a.usage = usage
	return dst
}

// FinishChoice is Finish that also records the stop sequence that ended
// the choice (StopSequence).
func (a *Aggregator) FinishChoice(dst []byte, reason protocols.FinishReason, stop []byte, usage protocols.Usage) []byte {
	if !a.done {
		a.stop = append(a.stop[:0], stop...)
	}
	return a.Finish(dst, reason, usage)
}

// Done appends nothing: the answer is Response.
func (a *Aggregator) Done(dst []byte, _ protocols.Usage) []byte { return dst }

// SetUsage records the usage so far (Finish replaces it).
func (a *Aggregator) SetUsage(u protocols.Usage) { a.usage = u }

// Start appends nothing.
func (a *Aggregator) Start(dst []byte) []byte { return dst }

// SetLogprobs collects the step's log probabilities (with
// AggregatorConfig.Logprobs).
func (a *Aggregator) SetLogprobs(lps []protocols.Logprob) {
	if a.cfg.Logprobs {
		a.logprobs = appendTokenLogprobs(a.logprobs, lps)
	}
}

// FlushLogprobs appends nothing: SetLogprobs collected them.
func (a *Aggregator) FlushLogprobs(dst []byte) []byte { return dst }

// Fail records a backend error; Response then returns it.
func (a *Aggregator) Fail(dst []byte, message string) []byte {
	if !a.done {
		a.done, a.err = true, errors.New(message)
	}
	return dst
}

// FailError records err; Err then returns it.
func (a *Aggregator) FailError(dst []byte, err *protocols.Error) []byte {
	if !a.done {
		a.done, a.err = true, err
	}
	return dst
}

// StopSequence returns the stop sequence given to FinishChoice (nil when
// none ended the choice).
func (a *Aggregator) StopSequence() []byte { return a.stop }

// Abandoned returns the number of tool calls abandoned
// (ToolCallAbandoned).
func (a *Aggregator) Abandoned() int { return a.abandoned }

// Err returns the error given to Fail, if any.
func (a *Aggregator) Err() error { return a.err }

// Response returns the aggregated chat.completion (call after Finish).
func (a *Aggregator) Response() *ChatResponse {
	msg := ResponseMessage{Role: RoleAssistant, Content: protocols.Null[Content](), ReasoningContent: protocols.Null[Reasoning](), ToolCalls: a.calls}
	segs := append(append([]string(nil), a.segs...), a.seg.String())
	if r := reasoningOf(segs, len(a.calls)); r.Valid() {
		msg.ReasoningContent = r
	}
	switch {
	case a.content.Len() > 0:
		msg.Content = TextContent(a.content.String())
	case a.cfg.ForceNonemptyContent && len(a.calls) == 0 && msg.ReasoningContent.Valid():
		msg.Content = TextContent(FlattenReasoning(msg.ReasoningContent.Value()))
		msg.ReasoningContent = protocols.Null[Reasoning]()
	}
	u := UsageFrom(a.usage)
	finish := a.finish
	if finish == "" {
		finish = FinishReasonFor(protocols.FinishStop, a.completed)
	}
	choice := Choice{Index: 0, Message: msg, FinishReason: protocols.Some(finish)}
	if a.cfg.Logprobs {
		choice.Logprobs = &Logprobs{Content: a.logprobs}
		if choice.Logprobs.Content == nil {
			choice.Logprobs.Content = []TokenLogprob{}
		}
	}
	return &ChatResponse{
		ID: a.cfg.ID, Object: ObjectChatCompletion, Created: a.cfg.Created, Model: a.cfg.Model,
		SystemFingerprint: protocols.Null[string](), ServiceTier: protocols.Null[string](),
		Choices: []Choice{choice},
		Usage:   &u,
	}
}

// reasoningOf applies the segment rule: segments when there are calls and
// any segment is non-empty, else the non-empty segments joined with "\n",
// else absent.
func reasoningOf(segs []string, calls int) Opt[Reasoning] {
	nonEmpty := false
	for _, s := range segs {
		nonEmpty = nonEmpty || s != ""
	}
	switch {
	case !nonEmpty:
		return Opt[Reasoning]{}
	case calls > 0:
		return protocols.Some(protocols.Array(segs...))
	}
	return protocols.Some(protocols.Text[string](FlattenReasoning(protocols.Array(segs...))))
}
