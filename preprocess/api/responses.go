package api

import (
	"net/http"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/convert"
	"github.com/agentwire/agentwire/protocols/openai"
	"github.com/agentwire/agentwire/protocols/responses"
)

// Responses is OpenAI Responses, POST /v1/responses (Codex): translated
// to the chat request (convert.ResponsesToChat), streamed as
// response.created … response.completed with one output per response and
// reasoning on the channel the server's policy picks
// (WriterConfig.Reasoning), answered unary through the chat aggregate
// (convert.ChatToResponses); failures end a stream with response.failed.
var Responses API = responsesAPI{}

type responsesAPI struct{}

func (responsesAPI) String() string                    { return "responses" }
func (responsesAPI) Path() string                      { return "/v1/responses" }
func (responsesAPI) RawText() bool                     { return false }
func (responsesAPI) NewWriter() Writer                 { return &responsesWriter{} }
func (responsesAPI) SetHeader(http.Header, string)     {}
func (responsesAPI) ErrorBody(err error) (int, []byte) { return errorBody(err, responses.ErrorBody) }
func (responsesAPI) APIError(e *protocols.Error) protocols.APIError {
	return responses.APIErrorFor(e)
}

func (responsesAPI) Decode(body []byte, opts DecodeOptions) (Request, error) {
	r, err := responses.DecodeRequest(body, responses.DecodeOptions{Strict: opts.Strict, MaxBytes: opts.MaxBytes})
	if err != nil {
		return nil, err
	}
	return responsesRequest{r}, nil
}

// FromResponses returns a decoded Responses request as a Request.
func FromResponses(r *responses.Request) Request { return responsesRequest{r} }

type responsesRequest struct{ r *responses.Request }

func (q responsesRequest) API() API      { return Responses }
func (q responsesRequest) Model() string { return q.r.Model }
func (q responsesRequest) Stream() bool  { return q.r.Stream.Or(false) }

func (q responsesRequest) Check() error {
	if err := checkLimits(limit{"max_output_tokens", q.r.MaxOutputTokens}); err != nil {
		return err
	}
	if in, ok := q.r.Input.Get(); !ok || in.String == "" && len(in.Array) == 0 {
		return badRequest("input must not be empty")
	}
	return nil
}

// Translate never hides reasoning: the Responses emitter sends reasoning
// items (with the encrypted passback Codex replays), as summary or as
// reasoning text per the server's policy.
func (q responsesRequest) Translate(opts TranslateOptions) (*Translation, error) {
	chat, rctx, err := convert.ResponsesToChat(q.r, opts.Responses)
	if err != nil {
		return nil, err
	}
	return &Translation{Chat: chat, Stream: q.Stream(), Model: q.r.Model, Responses: rctx}, nil
}

// responsesWriter writes the response of the first choice with a
// responses.Emitter and answers unary requests through the chat
// aggregate.
type responsesWriter struct {
	cfg *WriterConfig
	em  *responses.Emitter
	agg aggregate
}

func (w *responsesWriter) Reset(cfg *WriterConfig) { w.cfg = cfg }

func (w *responsesWriter) Emitter(i int) protocols.Emitter {
	c := w.cfg
	if !c.Stream {
		return w.agg.emitter(i, openai.AggregatorConfig{Model: c.Model, Created: c.Created})
	}
	if i > 0 {
		return discard{}
	}
	var cfg responses.EmitterConfig
	if ctx := c.Responses; ctx != nil && ctx.Request != nil {
		cfg = ctx.EmitterConfig(c.Reasoning)
	} else {
		cfg.Response = responses.ResponseFrom(&responses.Request{Model: c.Model})
	}
	cfg.IDs, cfg.Now = c.IDs, c.Now
	if cfg.Response.Model == "" {
		cfg.Response.Model = c.Model
	}
	if w.em == nil {
		w.em = responses.NewEmitter(cfg)
	} else {
		w.em.Reset(cfg)
	}
	return w.em
}

func (w *responsesWriter) Unary(usage protocols.Usage) any {
	c := w.cfg
	chat := w.agg.response(c.N, usage)
	w.agg.cutShort(chat)
	r := convert.ChatToResponses(chat, c.Responses, convert.BackOptions{IDs: c.IDs, Reasoning: c.Reasoning})
	if r.Model == "" {
		r.Model = c.Model
	}
	return r
}
