package api

import (
	"net/http"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/openai"
)

// Chat is OpenAI Chat Completions, POST /v1/chat/completions: the
// hourglass itself (its request is the chat request), chat.completion.chunk
// streams (n > 1 interleaved, per-step logprobs chunks, the usage chunk,
// [DONE]) and chat.completion answers, the OpenAI error shape.
var Chat API = chatAPI{}

type chatAPI struct{}

func (chatAPI) String() string                    { return "chat" }
func (chatAPI) Path() string                      { return "/v1/chat/completions" }
func (chatAPI) RawText() bool                     { return false }
func (chatAPI) NewWriter() Writer                 { return &chatWriter{} }
func (chatAPI) SetHeader(http.Header, string)     {}
func (chatAPI) ErrorBody(err error) (int, []byte) { return errorBody(err, openai.ErrorBody) }
func (chatAPI) APIError(e *protocols.Error) protocols.APIError {
	return openai.APIErrorFor(e)
}

func (chatAPI) Decode(body []byte, opts DecodeOptions) (Request, error) {
	r, err := openai.DecodeChatRequest(body, openai.DecodeOptions{Strict: opts.Strict, MaxBytes: opts.MaxBytes})
	if err != nil {
		return nil, err
	}
	return chatRequest{r}, nil
}

// FromChat returns a decoded chat completion request as a Request.
func FromChat(r *openai.ChatRequest) Request { return chatRequest{r} }

type chatRequest struct{ r *openai.ChatRequest }

func (q chatRequest) API() API      { return Chat }
func (q chatRequest) Model() string { return q.r.Model }
func (q chatRequest) Stream() bool  { return q.r.Stream.Or(false) }

func (q chatRequest) Check() error {
	if err := checkLimits(limit{"max_tokens", q.r.MaxTokens}, limit{"max_completion_tokens", q.r.MaxCompletionTokens},
		limit{"n", q.r.N}); err != nil {
		return err
	}
	if len(q.r.Messages) == 0 {
		return badRequest("messages must not be empty")
	}
	return nil
}

func (q chatRequest) Translate(TranslateOptions) (*Translation, error) {
	return &Translation{Chat: q.r, Stream: q.Stream()}, nil
}

// chatWriter writes chat.completion.chunk streams, one openai.Emitter per
// choice (the first ends the response with the usage chunk and [DONE]),
// and chat.completion answers from one aggregator per choice.
type chatWriter struct {
	cfg *WriterConfig
	id  string
	ems []*openai.Emitter
	agg aggregate
}

func (w *chatWriter) Reset(cfg *WriterConfig) {
	w.cfg = cfg
	w.id = "chatcmpl-" + cfg.requestID()
}

func (w *chatWriter) Emitter(i int) protocols.Emitter {
	c := w.cfg
	if !c.Stream {
		return w.agg.emitter(i, openai.AggregatorConfig{ID: w.id, Model: c.Model, Created: c.Created, Logprobs: c.Logprobs})
	}
	for len(w.ems) <= i {
		w.ems = append(w.ems, nil)
	}
	cfg := openai.EmitterConfig{ID: w.id, Model: c.Model, Created: c.Created, ChoiceIndex: i,
		IncludeUsage: c.IncludeUsage, ToolCallDispatch: c.ToolCallDispatch}
	if w.ems[i] == nil {
		w.ems[i] = openai.NewEmitter(cfg)
	} else {
		w.ems[i].Reset(cfg)
	}
	return w.ems[i]
}

func (w *chatWriter) Unary(usage protocols.Usage) any { return w.agg.response(w.cfg.N, usage) }
