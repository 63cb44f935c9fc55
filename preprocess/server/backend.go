package server

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/agentwire/agentwire/preprocess"
	"github.com/agentwire/agentwire/preprocess/api"
	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/agentwire/agentwire/protocols/openai"
)

// Job is one generation request as the server hands it to a Backend: the
// decoded API request (Body, an api.Request) with what the server knows
// of the exchange (ids, header). The values are owned by the request; a
// Backend may keep them only until Prepare's Prepared has been served.
type Job struct {
	// ID is the request id, minted by the server for every request
	// (unique: engines key aborts on it). It is the engine's request id
	// unless Prepare sets one, the Anthropic request-id header and the
	// log's request_id. ClientID is the client's X-Request-Id when it sent
	// a usable one (echoed back in X-Request-Id, logged as
	// client_request_id); it is never the engine's id.
	ID       string
	ClientID string

	Model  string // the model the client asked for
	Stream bool   // the client asked for a stream

	// Header is the request's HTTP header (anthropic-beta, …).
	Header http.Header

	// Body is the decoded request in its API's own type: Body.API() is
	// the API it arrived on, Body.Translate the chat request it narrows
	// to; preprocess.Preprocessor.Prepare takes it as it is.
	Body api.Request
}

// Backend turns decoded requests into engine work. Implementations are
// safe for concurrent use.
type Backend interface {
	// Models lists the models served (GET /v1/models); the first is the
	// default for requests that name none.
	Models() []ModelCard

	// Prepare decides everything for one request (chat template, tokens,
	// PRE.1–PRE.6, parsers, reasoning visibility) and names the engine
	// that runs it. The Prepared's API is the request's (req.Body.API()).
	// Errors are answered in the request's API shape (api.API.ErrorBody):
	// protocols API errors keep their status, *engine.Error values map
	// like engine failures (preprocess.ContextLengthError → 400 with the
	// API's "prompt is too long" message), *protocols.Error values are
	// shaped per API, and ModelNotFound gives 404.
	Prepare(ctx context.Context, req *Job) (*preprocess.Prepared, engine.Engine, error)
}

// TokenCounter is implemented by Backends that count prompt tokens with
// the model's own tokenizer and chat template (POST
// /v1/messages/count_tokens). Without it the server answers with
// anthropic's byte-based estimate.
type TokenCounter interface {
	CountTokens(ctx context.Context, req *anthropic.CountTokensRequest) (int64, error)
}

// Tokenizer is implemented by Backends that serve POST /tokenize and
// POST /detokenize (vLLM's shapes). Without it those routes answer 501.
type Tokenizer interface {
	Tokenize(ctx context.Context, req *openai.TokenizeRequest) (*openai.TokenizeResponse, error)
	Detokenize(ctx context.Context, req *openai.DetokenizeRequest) (*openai.DetokenizeResponse, error)
}

// ModelCard describes one served model for the model listing.
type ModelCard struct {
	ID          string // the served name; may contain slashes (Qwen/Qwen3-32B)
	DisplayName string // Anthropic display_name; ID when empty
	OwnedBy     string // OpenAI owned_by; "agentwire" when empty
	Created     time.Time

	// ContextWindow and MaxOutputTokens are reported when > 0.
	ContextWindow   int
	MaxOutputTokens int
}

// ModelNotFound returns the error a Backend gives for a model it does not
// serve: 404 in the API's shape.
func ModelNotFound(model string) error {
	return &protocols.Error{Kind: protocols.ErrorNotFound, Model: truncate(model, 256),
		Message: fmt.Sprintf("The model `%s` does not exist.", truncate(model, 256))}
}

// truncate bounds echoed client input.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
