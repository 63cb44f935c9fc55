package anthropic

import (
	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
)

// EmitterConfig configures an Emitter for one stream.
type EmitterConfig struct {
	// MessageID is the message id ("msg_" + 32 hex). Empty: one is minted.
	MessageID string
	// Model is the model name to report.
	Model string
	// InputTokens and CachedTokens are the prompt size for message_start:
	// the exact count when the library tokenized the prompt, else the
	// count_tokens estimate (EstimateTokens).
	InputTokens  int64
	CachedTokens int64
	// Ping writes a ping event after message_start, as the API does.
	Ping bool
	// Signature is the signature_delta sent when a shown thinking block
	// closes (default SignatureErased). An omitted block's signature
	// carries its reasoning instead (AppendThinkingSignature).
	Signature string
	// DisableParallelToolUse streams only the first tool call
	// (tool_choice.disable_parallel_tool_use).
	DisableParallelToolUse bool
	// IDs mints the message and tool_use ids; the zero value means a
	// source seeded from crypto/rand (set a seeded one for reproducible
	// output in tests).
	IDs protocols.IDSource
	// DeltaUsage adds Dynamo's running "usage" to every content_block_delta
	// (output tokens estimated +1 per delta until Finish). Not in the
	// official schema; off by default.
	DeltaUsage bool
	// Thinking says how reasoning is shown (ThinkingDisplayFor): as
	// thinking blocks with text (the zero value), as thinking blocks with
	// empty text and a signature that carries the text
	// (ThinkingSignaturePrefix), or not at all.
	Thinking ThinkingDisplay
}

type blockKind uint8

const (
	blockNone blockKind = iota
	blockThinking
	blockText
	blockToolUse
)

// Emitter writes the Messages SSE stream: message_start, content blocks in
// generation order (a thinking block opens on the first reasoning and
// closes, with a signature delta, when text or a tool call starts; text
// after a tool call opens a new text block; each tool call is a tool_use
// block whose input streams as input_json_delta fragments), message_delta
// with stop_reason and usage, and message_stop.
//
// It implements protocols.Emitter. Methods append to the caller's dst and
// return it; no reference to dst or to byte-slice arguments is kept. After
// warm-up no method allocates. An Emitter is not safe for concurrent use;
// reuse it with Reset.
type Emitter struct {
	cfg EmitterConfig
	ids protocols.IDSource

	started   bool
	finished  bool
	open      blockKind
	openCall  int // tool call index of the open tool_use block
	next      int // index of the next block
	completed int // tool calls completed (and shown)
	shown     int // tool calls shown (DisableParallelToolUse shows one)
	abandoned bool
	skipCall  int // index of a suppressed call, -1 if none
	deltas    int64
	stopSeq   []byte
	hasStop   bool
	msgID     []byte
	callID    []byte // the id of the tool_use block the last ToolCallStart opened
	// thinking is the open thinking block's reasoning when it is omitted:
	// its signature carries it. It is as long as the block's reasoning
	// (bounded by the turn's output) and reused across Reset up to
	// maxRetainedThinking.
	thinking []byte
}

// maxRetainedThinking is the largest omitted-reasoning buffer Reset keeps.
const maxRetainedThinking = 1 << 20

var _ protocols.Emitter = (*Emitter)(nil)

// NewEmitter returns an emitter for one stream.
func NewEmitter(cfg EmitterConfig) *Emitter {
	e := &Emitter{ids: protocols.NewIDSource()}
	e.Reset(cfg)
	return e
}

// Reset prepares e for a new stream.
func (e *Emitter) Reset(cfg EmitterConfig) {
	if cfg.Signature == "" {
		cfg.Signature = SignatureErased
	}
	if !cfg.IDs.IsZero() {
		e.ids = cfg.IDs
	}
	msgID := e.msgID[:0]
	if cfg.MessageID == "" {
		msgID = e.ids.AppendHex(msgID, "msg_")
	} else {
		msgID = append(msgID, cfg.MessageID...)
	}
	thinking := e.thinking[:0]
	if cap(thinking) > maxRetainedThinking {
		thinking = nil // one long answer does not pin its buffer to a pooled emitter
	}
	*e = Emitter{cfg: cfg, ids: e.ids, skipCall: -1, stopSeq: e.stopSeq[:0], msgID: msgID, callID: e.callID[:0],
		thinking: thinking}
}

// SetStopSequence records the request stop sequence that ended generation;
// a FinishStop or FinishStopSequence then reports stop_reason
// "stop_sequence" with this string (unless a tool call completed).
func (e *Emitter) SetStopSequence(s []byte) {
	e.stopSeq = append(e.stopSeq[:0], s...)
	e.hasStop = true
}

// SetInputUsage replaces EmitterConfig.InputTokens and CachedTokens
// before message_start is written: a server that learns the prompt's
// cache hits from the engine's first output (SGLang reports them with its
// first token) reports them in message_start, as the API does. After
// Start it changes only what later events report when they have no
// prompt count of their own (Finish with a usage without prompt tokens,
// DeltaUsage).
func (e *Emitter) SetInputUsage(inputTokens, cachedTokens int64) {
	e.cfg.InputTokens, e.cfg.CachedTokens = inputTokens, cachedTokens
}

// SetUsage sets the prompt counts message_start reports (u.PromptTokens,
// the whole prompt, and u.CachedTokens; see SetInputUsage).
func (e *Emitter) SetUsage(u protocols.Usage) { e.SetInputUsage(u.PromptTokens, u.CachedTokens) }

// SetLogprobs does nothing: the Messages API has no log probabilities.
func (e *Emitter) SetLogprobs([]protocols.Logprob) {}

// FlushLogprobs appends nothing.
func (e *Emitter) FlushLogprobs(dst []byte) []byte { return dst }

// MessageID returns the message id of the current stream (valid until
// Reset).
func (e *Emitter) MessageID() []byte { return e.msgID }

// Start appends message_start (and ping) if not yet written. Every other
// method calls it first, so calling it is needed only to flush the envelope
// before the first token.
func (e *Emitter) Start(dst []byte) []byte {
	if e.started {
		return dst
	}
	e.started = true
	u := UsageFrom(protocols.Usage{PromptTokens: e.cfg.InputTokens, CachedTokens: e.cfg.CachedTokens})
	dst = append(dst, "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":"...)
	dst = jsonx.AppendString(dst, e.msgID)
	dst = append(dst, `,"type":"message","role":"assistant","content":[],"model":`...)
	dst = jsonx.AppendString(dst, e.cfg.Model)
	dst = append(dst, `,"stop_reason":null,"stop_sequence":null,"usage":`...)
	dst = appendUsage(dst, u)
	dst = append(dst, "}}\n\n"...)
	if e.cfg.Ping {
		dst = append(dst, "event: ping\ndata: {\"type\":\"ping\"}\n\n"...)
	}
	return dst
}

func appendUsage(dst []byte, u Usage) []byte {
	dst = append(dst, `{"input_tokens":`...)
	dst = jsonx.AppendInt(dst, u.InputTokens)
	dst = append(dst, `,"output_tokens":`...)
	dst = jsonx.AppendInt(dst, u.OutputTokens)
	dst = append(dst, `,"cache_creation_input_tokens":`...)
	dst = jsonx.AppendInt(dst, u.CacheCreationInputTokens)
	dst = append(dst, `,"cache_read_input_tokens":`...)
	dst = jsonx.AppendInt(dst, u.CacheReadInputTokens)
	return append(dst, '}')
}

// closeBlock appends the end of the open block, if any.
func (e *Emitter) closeBlock(dst []byte) []byte {
	if e.open == blockNone {
		return dst
	}
	if e.open == blockThinking {
		dst = e.deltaHead(dst)
		dst = append(dst, `"signature_delta","signature":`...)
		if e.cfg.Thinking == ThinkingOmitted {
			// The prefix and base64 need no JSON escaping.
			dst = append(dst, '"')
			dst = AppendThinkingSignature(dst, e.thinking)
			dst = append(dst, '"')
			e.thinking = e.thinking[:0]
		} else {
			dst = jsonx.AppendString(dst, e.cfg.Signature)
		}
		dst = e.deltaTail(dst)
	}
	dst = append(dst, "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":"...)
	dst = jsonx.AppendInt(dst, int64(e.next-1))
	dst = append(dst, "}\n\n"...)
	e.open = blockNone
	return dst
}

// openBlock closes the open block and starts a new one of kind k; the
// content_block object is written by the caller between the two appends.
func (e *Emitter) startHead(dst []byte) []byte {
	dst = append(dst, "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":"...)
	dst = jsonx.AppendInt(dst, int64(e.next))
	e.next++
	return append(dst, `,"content_block":`...)
}

// deltaHead writes a content_block_delta up to the delta type's value.
func (e *Emitter) deltaHead(dst []byte) []byte {
	dst = append(dst, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":"...)
	dst = jsonx.AppendInt(dst, int64(e.next-1))
	return append(dst, `,"delta":{"type":`...)
}

func (e *Emitter) deltaTail(dst []byte) []byte {
	dst = append(dst, '}')
	if e.cfg.DeltaUsage {
		e.deltas++
		u := UsageFrom(protocols.Usage{PromptTokens: e.cfg.InputTokens, CachedTokens: e.cfg.CachedTokens, CompletionTokens: e.deltas})
		dst = append(dst, `,"usage":`...)
		dst = appendDeltaUsage(dst, u)
	}
	return append(dst, "}\n\n"...)
}

func appendDeltaUsage(dst []byte, u Usage) []byte {
	dst = appendUsage(dst, u)
	dst = dst[:len(dst)-1]
	dst = append(dst, `,"total_tokens":`...)
	dst = jsonx.AppendInt(dst, u.InputTokens+u.CacheReadInputTokens+u.CacheCreationInputTokens+u.OutputTokens)
	return append(dst, '}')
}

// Reasoning appends a thinking_delta, opening a thinking block first if
// needed. Empty text appends nothing. With EmitterConfig.Thinking
// ThinkingOmitted the block is opened but no text is sent: the emitter
// keeps the block's text and its signature_delta carries it
// (AppendThinkingSignature), so a client that sends the block back hands
// the reasoning back (ThinkingBlock.Reasoning). With ThinkingHidden
// nothing is sent.
func (e *Emitter) Reasoning(dst, text []byte) []byte {
	if len(text) == 0 || e.finished || e.cfg.Thinking == ThinkingHidden {
		return dst
	}
	dst = e.Start(dst)
	if e.open != blockThinking {
		dst = e.closeBlock(dst)
		dst = e.startHead(dst)
		dst = append(dst, `{"type":"thinking","thinking":"","signature":""}}`+"\n\n"...)
		e.open = blockThinking
		e.thinking = e.thinking[:0]
	}
	if e.cfg.Thinking == ThinkingOmitted {
		e.thinking = append(e.thinking, text...)
		return dst
	}
	dst = e.deltaHead(dst)
	dst = append(dst, `"thinking_delta","thinking":`...)
	dst = jsonx.AppendString(dst, text)
	return e.deltaTail(dst)
}

// Content appends a text_delta, opening a text block first if needed. Empty
// text appends nothing.
func (e *Emitter) Content(dst, text []byte) []byte {
	if len(text) == 0 || e.finished {
		return dst
	}
	dst = e.Start(dst)
	if e.open != blockText {
		dst = e.closeBlock(dst)
		dst = e.startHead(dst)
		dst = append(dst, `{"type":"text","text":""}}`+"\n\n"...)
		e.open = blockText
	}
	dst = e.deltaHead(dst)
	dst = append(dst, `"text_delta","text":`...)
	dst = jsonx.AppendString(dst, text)
	return e.deltaTail(dst)
}

// ToolCallStart opens a tool_use block with a freshly minted toolu_ id (id
// is not exposed) and the function name.
func (e *Emitter) ToolCallStart(dst []byte, index int, id, name []byte) []byte {
	e.callID = e.callID[:0]
	if e.finished {
		return dst
	}
	dst = e.Start(dst)
	if e.cfg.DisableParallelToolUse && e.shown > 0 {
		e.skipCall = index
		return dst
	}
	e.shown++
	dst = e.closeBlock(dst)
	dst = e.startHead(dst)
	dst = append(dst, `{"type":"tool_use","id":"`...)
	n := len(dst)
	dst = e.ids.AppendHex(dst, "toolu_")
	e.callID = append(e.callID[:0], dst[n:]...)
	dst = append(dst, `","name":`...)
	dst = jsonx.AppendString(dst, name)
	dst = append(dst, `,"input":{}}}`+"\n\n"...)
	e.open = blockToolUse
	e.openCall = index
	return dst
}

// ToolUseID returns the id of the tool_use block the last ToolCallStart
// opened, or nil when that call was not shown (parallel tool use disabled,
// or the stream had finished). It is valid until the next ToolCallStart or
// Reset; a server keeps it to recognise the call when the client sends it
// back.
func (e *Emitter) ToolUseID() []byte { return e.callID }

func (e *Emitter) isOpenCall(index int) bool {
	return e.open == blockToolUse && e.openCall == index
}

// ToolCallArgs appends an input_json_delta with the fragment.
func (e *Emitter) ToolCallArgs(dst []byte, index int, fragment []byte) []byte {
	if len(fragment) == 0 || e.finished || !e.isOpenCall(index) {
		return dst
	}
	dst = e.deltaHead(dst)
	dst = append(dst, `"input_json_delta","partial_json":`...)
	dst = jsonx.AppendString(dst, fragment)
	return e.deltaTail(dst)
}

// ToolCallEnd closes the call's tool_use block.
func (e *Emitter) ToolCallEnd(dst []byte, index int) []byte {
	if e.finished || !e.isOpenCall(index) {
		return dst
	}
	e.completed++
	return e.closeBlock(dst)
}

// ToolCallAbandoned closes the call's tool_use block; the turn then ends
// with max_tokens (what the API does when it stops inside a tool call).
func (e *Emitter) ToolCallAbandoned(dst []byte, index int) []byte {
	if e.finished || !e.isOpenCall(index) {
		return dst
	}
	e.abandoned = true
	return e.closeBlock(dst)
}

// StopReasonFor maps the neutral finish reason to stop_reason: tool_use when
// a call completed (over stop_sequence), max_tokens for length or an
// abandoned call, refusal for content_filter, stop_sequence when hasStop,
// else end_turn.
func StopReasonFor(r protocols.FinishReason, completed int, abandoned, hasStop bool) string {
	switch {
	case r == protocols.FinishLength || abandoned:
		return StopMaxTokens
	case r == protocols.FinishContentFilter:
		return StopRefusal
	case completed > 0:
		return StopToolUse
	case r == protocols.FinishToolCalls:
		return StopEndTurn // every call was suppressed
	case hasStop && (r == protocols.FinishStop || r == protocols.FinishStopSequence):
		return StopStopSequence
	}
	return StopEndTurn
}

// Finish closes the open block (or writes one empty text block when the
// turn produced nothing), then appends message_delta with the stop reason
// and usage, and message_stop.
func (e *Emitter) Finish(dst []byte, reason protocols.FinishReason, usage protocols.Usage) []byte {
	if e.finished {
		return dst
	}
	dst = e.Start(dst)
	if e.next == 0 {
		dst = e.startHead(dst)
		dst = append(dst, `{"type":"text","text":""}}`+"\n\n"...)
		e.open = blockText
	}
	dst = e.closeBlock(dst)
	e.finished = true
	stop := StopReasonFor(reason, e.completed, e.abandoned, e.hasStop)
	dst = append(dst, "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":"...)
	dst = jsonx.AppendString(dst, stop)
	dst = append(dst, `,"stop_sequence":`...)
	if stop == StopStopSequence {
		dst = jsonx.AppendString(dst, e.stopSeq)
	} else {
		dst = append(dst, "null"...)
	}
	dst = append(dst, `},"usage":`...)
	if usage.PromptTokens == 0 {
		usage.PromptTokens, usage.CachedTokens = e.cfg.InputTokens, e.cfg.CachedTokens
	}
	dst = appendUsage(dst, UsageFrom(usage))
	dst = append(dst, "}\n\n"...)
	return append(dst, "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"...)
}

// FinishChoice is Finish with the stop sequence that ended generation
// (SetStopSequence), when stop is not empty. A message has one choice.
func (e *Emitter) FinishChoice(dst []byte, reason protocols.FinishReason, stop []byte, usage protocols.Usage) []byte {
	if len(stop) > 0 && !e.finished {
		e.SetStopSequence(stop)
	}
	return e.Finish(dst, reason, usage)
}

// Done appends nothing: Finish wrote message_stop.
func (e *Emitter) Done(dst []byte, _ protocols.Usage) []byte { return dst }

// Fail replaces the end events with an error event (api_error) carrying
// message; use MessageInternalError to hide backend details.
func (e *Emitter) Fail(dst []byte, message string) []byte {
	if e.finished {
		return dst
	}
	e.finished = true
	dst = append(dst, "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":"...)
	dst = jsonx.AppendString(dst, message)
	return append(dst, "}}\n\n"...)
}
