package api

import (
	"net/http"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/agentwire/agentwire/protocols/convert"
	"github.com/agentwire/agentwire/protocols/openai"
)

// Messages is Anthropic Messages, POST /v1/messages (Claude Code):
// translated to the chat request (convert.AnthropicToChat; thinking shown,
// omitted or hidden as the request asks), streamed as message_start …
// message_stop with one output per response, answered unary through the
// chat aggregate (convert.ChatToAnthropic), the Anthropic error shape and
// request-id header. Its clients send tool-call arguments back as objects,
// so the answer records the text it emitted per tool_use id
// (Translation.ReplayToolArgs).
var Messages API = messagesAPI{}

type messagesAPI struct{}

func (messagesAPI) String() string                    { return "messages" }
func (messagesAPI) Path() string                      { return "/v1/messages" }
func (messagesAPI) RawText() bool                     { return false }
func (messagesAPI) NewWriter() Writer                 { return &messagesWriter{} }
func (messagesAPI) ErrorBody(err error) (int, []byte) { return errorBody(err, anthropic.ErrorBody) }
func (messagesAPI) APIError(e *protocols.Error) protocols.APIError {
	return anthropic.APIErrorFor(e)
}

// SetHeader sets Anthropic's request-id header.
func (messagesAPI) SetHeader(h http.Header, requestID string) { h.Set("Request-Id", requestID) }

func (messagesAPI) Decode(body []byte, opts DecodeOptions) (Request, error) {
	r, err := anthropic.DecodeMessagesRequest(body, anthropic.DecodeOptions{Strict: opts.Strict, MaxBytes: opts.MaxBytes})
	if err != nil {
		return nil, err
	}
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return messagesRequest{r}, nil
}

// FromMessages returns a decoded Messages request as a Request.
func FromMessages(r *anthropic.MessagesRequest) Request { return messagesRequest{r} }

type messagesRequest struct{ r *anthropic.MessagesRequest }

func (q messagesRequest) API() API      { return Messages }
func (q messagesRequest) Model() string { return q.r.Model }
func (q messagesRequest) Stream() bool  { return q.r.Stream.Or(false) }

// Check has nothing to add: Decode ran the API's own rules (model and
// max_tokens present and positive, messages non-empty).
func (q messagesRequest) Check() error { return nil }

func (q messagesRequest) Translate(opts TranslateOptions) (*Translation, error) {
	chat, actx, err := convert.AnthropicToChat(q.r, opts.Anthropic)
	if err != nil {
		return nil, err
	}
	return &Translation{Chat: chat, Stream: actx.Stream, Model: q.r.Model, Anthropic: actx,
		HideReasoning: actx.Thinking == anthropic.ThinkingHidden, ReplayToolArgs: true}, nil
}

// messagesWriter writes the message of the first choice with an
// anthropic.Emitter (recording the emitted tool-call arguments when asked)
// and answers unary requests through the chat aggregate.
type messagesWriter struct {
	cfg *WriterConfig
	em  *anthropic.Emitter
	rec recorder
	agg aggregate
}

func (w *messagesWriter) Reset(cfg *WriterConfig) { w.cfg = cfg }

func (w *messagesWriter) Emitter(i int) protocols.Emitter {
	c := w.cfg
	if !c.Stream {
		return w.agg.emitter(i, openai.AggregatorConfig{Model: c.Model, Created: c.Created})
	}
	if i > 0 {
		return discard{}
	}
	cfg := anthropic.EmitterConfig{Model: c.Model, InputTokens: c.PromptTokens, CachedTokens: c.CachedTokens}
	if ctx := c.Anthropic; ctx != nil {
		cfg = ctx.EmitterConfig(c.PromptTokens, c.CachedTokens)
		if cfg.Model == "" {
			cfg.Model = c.Model
		}
	}
	cfg.Ping, cfg.IDs = true, c.IDs
	if w.em == nil {
		w.em = anthropic.NewEmitter(cfg)
	} else {
		w.em.Reset(cfg)
	}
	if c.ToolArgs == nil {
		return w.em
	}
	w.rec.reset(w.em, c.ToolArgs)
	return &w.rec
}

func (w *messagesWriter) Unary(usage protocols.Usage) any {
	c := w.cfg
	chat := w.agg.response(c.N, usage)
	w.agg.cutShort(chat)
	msg := convert.ChatToAnthropic(chat, c.Anthropic, convert.BackOptions{
		MatchedStop: string(w.agg.aggs[0].StopSequence()), IDs: c.IDs})
	if c.ToolArgs != nil {
		for _, b := range msg.Content {
			if u := b.OfToolUse; u != nil {
				c.ToolArgs.Put(u.ID, u.Input)
			}
		}
	}
	return msg
}

// recorder is the Anthropic emitter of a streamed answer that records, for
// each tool_use id the emitter minted, the argument text it emitted (at
// most MaxToolArgsBytes; a longer call is not kept).
type recorder struct {
	*anthropic.Emitter
	args ToolArgs
	id   []byte // the open call's tool_use id (empty: not recorded)
	buf  []byte
}

func (r *recorder) reset(em *anthropic.Emitter, args ToolArgs) {
	r.Emitter, r.args = em, args
	r.id, r.buf = r.id[:0], r.buf[:0]
}

func (r *recorder) ToolCallStart(dst []byte, index int, id, name []byte) []byte {
	dst = r.Emitter.ToolCallStart(dst, index, id, name)
	r.id = append(r.id[:0], r.Emitter.ToolUseID()...)
	r.buf = r.buf[:0]
	return dst
}

func (r *recorder) ToolCallArgs(dst []byte, index int, fragment []byte) []byte {
	dst = r.Emitter.ToolCallArgs(dst, index, fragment)
	if len(r.id) > 0 {
		if len(r.buf)+len(fragment) > MaxToolArgsBytes {
			r.id = r.id[:0] // too long to keep
		} else {
			r.buf = append(r.buf, fragment...)
		}
	}
	return dst
}

func (r *recorder) ToolCallEnd(dst []byte, index int) []byte {
	dst = r.Emitter.ToolCallEnd(dst, index)
	if len(r.id) > 0 {
		r.args.Put(string(r.id), r.buf)
		r.id = r.id[:0]
	}
	return dst
}
