package api

import (
	"net/http"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/openai"
)

// Completions is OpenAI Completions, POST /v1/completions: the prompt is
// sent as it is (no chat template) and the answer is the engine's raw text
// (no parsers), as text_completion frames or a text_completion answer with
// the legacy logprobs object; the OpenAI error shape.
var Completions API = completionsAPI{}

type completionsAPI struct{}

func (completionsAPI) String() string                    { return "completions" }
func (completionsAPI) Path() string                      { return "/v1/completions" }
func (completionsAPI) RawText() bool                     { return true }
func (completionsAPI) NewWriter() Writer                 { return &completionsWriter{} }
func (completionsAPI) SetHeader(http.Header, string)     {}
func (completionsAPI) ErrorBody(err error) (int, []byte) { return errorBody(err, openai.ErrorBody) }
func (completionsAPI) APIError(e *protocols.Error) protocols.APIError {
	return openai.APIErrorFor(e)
}

func (completionsAPI) Decode(body []byte, opts DecodeOptions) (Request, error) {
	r, err := openai.DecodeCompletionRequest(body, openai.DecodeOptions{Strict: opts.Strict, MaxBytes: opts.MaxBytes})
	if err != nil {
		return nil, err
	}
	return completionRequest{r}, nil
}

// FromCompletion returns a decoded completions request as a Request.
func FromCompletion(r *openai.CompletionRequest) Request { return completionRequest{r} }

type completionRequest struct{ r *openai.CompletionRequest }

func (q completionRequest) API() API      { return Completions }
func (q completionRequest) Model() string { return q.r.Model }
func (q completionRequest) Stream() bool  { return q.r.Stream.Or(false) }

func (q completionRequest) Check() error {
	if err := checkLimits(limit{"max_tokens", q.r.MaxTokens}, limit{"n", q.r.N}); err != nil {
		return err
	}
	if q.r.Prompt.IsZero() {
		return badRequest("prompt is required")
	}
	return nil
}

func (q completionRequest) Translate(TranslateOptions) (*Translation, error) {
	return &Translation{Completion: q.r, Stream: q.Stream()}, nil
}

// completionsWriter writes one openai.CompletionEmitter per choice (the
// first ends the response with the usage frame and [DONE]); in a unary
// answer the same emitters collect the choices.
type completionsWriter struct {
	cfg *WriterConfig
	id  string
	ems []*openai.CompletionEmitter
}

func (w *completionsWriter) Reset(cfg *WriterConfig) {
	w.cfg = cfg
	w.id = "cmpl-" + cfg.requestID()
}

func (w *completionsWriter) Emitter(i int) protocols.Emitter {
	c := w.cfg
	for len(w.ems) <= i {
		w.ems = append(w.ems, &openai.CompletionEmitter{})
	}
	w.ems[i].Reset(openai.CompletionEmitterConfig{ID: w.id, Model: c.Model, Created: c.Created, ChoiceIndex: i,
		IncludeUsage: c.IncludeUsage, Logprobs: c.Logprobs, Aggregate: !c.Stream})
	return w.ems[i]
}

func (w *completionsWriter) Unary(usage protocols.Usage) any {
	c := w.cfg
	r := &openai.CompletionResponse{ID: w.id, Object: openai.ObjectTextCompletion, Created: c.Created,
		Model: c.Model, Usage: protocols.Some(openai.UsageFrom(usage))}
	for _, e := range w.ems[:c.N] {
		r.Choices = append(r.Choices, e.Choice())
	}
	return r
}
