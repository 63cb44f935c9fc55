package pipeline

import (
	"context"
	"errors"
	"net/http"

	"github.com/agentwire/agentwire/preprocess"
	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/agentwire/agentwire/protocols/openai"
	"github.com/agentwire/agentwire/protocols/responses"
)

// StatusCanceled is the status recorded (never sent: the client is gone)
// when the client went away, as nginx logs it.
const StatusCanceled = 499

// NeutralError returns err as the API-neutral error the protocols packages
// shape for each API:
//
//	engine.Error kind          protocols.ErrorKind
//	context length             context length (prompt and context sizes kept)
//	overloaded, rate limited   overloaded, rate limited
//	bad request                bad request
//	timeout                    timeout
//	canceled                   canceled
//	upstream, malformed        upstream
//	context.Canceled           canceled
//	context.DeadlineExceeded   timeout
//	preprocess.BadRequestError bad request
//	anything else              upstream
//
// What the client reads: a *protocols.Error's own message (the server
// wrote it for the client), the message of a bad request or a context
// overflow (the engine's or the preprocessor's words about the request),
// and for every other kind the API's standard text only. The detail of
// an upstream failure, a timeout or an internal error (engine addresses,
// transport errors, parser and template internals) is for the server's
// log, which keeps err itself.
func NeutralError(err error) *protocols.Error {
	var pe *protocols.Error
	var ee *engine.Error
	var be *preprocess.BadRequestError
	switch {
	case errors.As(err, &pe):
		return pe
	case errors.As(err, &ee):
		e := &protocols.Error{Kind: protocols.ErrorUpstream}
		switch ee.Kind {
		case engine.ErrorContextLength:
			e.Kind, e.PromptTokens, e.MaxContext = protocols.ErrorContextLength, int64(ee.PromptTokens), int64(ee.MaxContext)
			e.Message = ee.Message
		case engine.ErrorOverloaded:
			e.Kind = protocols.ErrorOverloaded
		case engine.ErrorRateLimited:
			e.Kind = protocols.ErrorRateLimited
		case engine.ErrorBadRequest:
			e.Kind, e.Message = protocols.ErrorBadRequest, ee.Message
		case engine.ErrorTimeout:
			e.Kind = protocols.ErrorTimeout
		case engine.ErrorCanceled:
			e.Kind = protocols.ErrorCanceled
		}
		return e
	case errors.Is(err, context.Canceled):
		return &protocols.Error{Kind: protocols.ErrorCanceled}
	case errors.Is(err, context.DeadlineExceeded):
		return &protocols.Error{Kind: protocols.ErrorTimeout}
	case errors.As(err, &be):
		return &protocols.Error{Kind: protocols.ErrorBadRequest, Message: be.Error()}
	}
	return &protocols.Error{Kind: protocols.ErrorUpstream}
}

// Status returns the HTTP status err is answered with on api (see
// ErrorBody).
func Status(api preprocess.API, err error) int {
	status, _ := ErrorBody(api, err)
	return status
}

// ErrorBody returns the status and JSON body that answer err on api
// before the first byte of the response was written. The API errors of the
// protocols packages (decode and validation errors) keep their own status
// and body; every other error is shaped from NeutralError by the API's
// package (openai, anthropic, responses ErrorBody).
func ErrorBody(api preprocess.API, err error) (int, []byte) {
	var oe *openai.APIError
	var ae *anthropic.APIError
	var re *responses.APIError
	var v any
	status := 0
	switch {
	case errors.As(err, &oe):
		status, v = oe.Status, oe.Body
	case errors.As(err, &ae):
		status, v = ae.Status, ae.Body
	case errors.As(err, &re):
		status, v = re.Status, re.Body
	default:
		e := NeutralError(err)
		switch api {
		case preprocess.APIMessages:
			return anthropic.ErrorBody(e)
		case preprocess.APIResponses:
			return responses.ErrorBody(e)
		}
		return openai.ErrorBody(e)
	}
	body, mErr := MarshalJSON(v)
	if mErr != nil {
		return http.StatusInternalServerError, []byte(`{"error":{"message":"internal error","type":"server_error","param":null,"code":null}}`)
	}
	return status, body
}

// WriteError answers err in api's error shape (status and body). Use it
// only before the first byte of the response was written.
func WriteError(w http.ResponseWriter, api preprocess.API, err error) {
	status, body := ErrorBody(api, err)
	if status == StatusCanceled {
		return // nobody is listening
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// appendStreamError appends the in-stream error event of api for err
// (chat and completions: `event: error` with the OpenAI error object;
// Anthropic Messages: its error event). Responses ends with
// response.failed instead (Pipeline.Fail).
func appendStreamError(dst []byte, api preprocess.API, err error) []byte {
	if api == preprocess.APIMessages {
		return anthropic.AppendErrorEvent(dst, NeutralError(err))
	}
	return openai.AppendErrorEvent(dst, NeutralError(err))
}
