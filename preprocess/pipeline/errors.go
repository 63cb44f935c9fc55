package pipeline

import (
	"errors"
	"net/http"

	"github.com/agentwire/agentwire/preprocess"
	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/agentwire/agentwire/protocols/openai"
	"github.com/agentwire/agentwire/protocols/responses"
)

// StatusCanceled is the status recorded (never sent: the client is gone)
// when the client went away, as nginx logs it.
const StatusCanceled = 499

// NeutralError returns what a client reads of err (protocols.ErrorOf):
// a *protocols.Error as it is; an engine failure or a request the
// preprocessor cannot serve as their own ClientError (the engine's or the
// preprocessor's words only for bad requests and context overflows); a
// canceled context as canceled, an expired one as a timeout; anything else
// as an upstream failure with the API's standard text. The detail is for
// the server's log, which keeps err itself.
func NeutralError(err error) *protocols.Error { return protocols.ErrorOf(err) }

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
	var ae protocols.APIError
	if errors.As(err, &ae) {
		return ae.StatusBody()
	}
	e := NeutralError(err)
	switch api {
	case preprocess.APIMessages:
		return anthropic.ErrorBody(e)
	case preprocess.APIResponses:
		return responses.ErrorBody(e)
	}
	return openai.ErrorBody(e)
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
