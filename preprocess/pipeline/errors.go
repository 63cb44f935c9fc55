package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/agentwire/agentwire/preprocess"
	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/agentwire/agentwire/protocols/openai"
	"github.com/agentwire/agentwire/protocols/responses"
)

// StatusCanceled is the status recorded (never sent: the client is gone)
// when the client went away, as nginx logs it.
const StatusCanceled = 499

// Status returns the HTTP status an error is answered with before the
// first byte of the response was written:
//
//	context length, bad request  400 (or the engine's 4xx)
//	rate limited                 429
//	overloaded                   503 (529 on Anthropic Messages)
//	timeout                      504
//	malformed stream, upstream   502
//	client gone                  499
//
// API errors of the protocols packages keep their own status.
func Status(api preprocess.API, err error) int {
	var oe *openai.APIError
	var ae *anthropic.APIError
	var re *responses.APIError
	var ee *engine.Error
	switch {
	case errors.As(err, &oe):
		return oe.Status
	case errors.As(err, &ae):
		return ae.Status
	case errors.As(err, &re):
		return re.Status
	case errors.Is(err, context.Canceled):
		return StatusCanceled
	case errors.Is(err, context.DeadlineExceeded):
		return http.StatusGatewayTimeout
	case errors.As(err, &ee):
		switch ee.Kind {
		case engine.ErrContextLength:
			return http.StatusBadRequest
		case engine.ErrBadRequest:
			if ee.Status >= 400 && ee.Status < 500 {
				return ee.Status
			}
			return http.StatusBadRequest
		case engine.ErrRateLimited:
			return http.StatusTooManyRequests
		case engine.ErrOverloaded:
			if api == preprocess.APIMessages {
				return 529
			}
			return http.StatusServiceUnavailable
		case engine.ErrTimeout:
			return http.StatusGatewayTimeout
		case engine.ErrCanceled:
			return StatusCanceled
		}
		return http.StatusBadGateway
	}
	return http.StatusInternalServerError
}

// ErrorBody returns the status and JSON body of err in api's error shape.
// This is the one place the pipeline maps errors to API errors.
func ErrorBody(api preprocess.API, err error) (int, []byte) {
	status := Status(api, err)
	var v any
	var oe *openai.APIError
	var ae *anthropic.APIError
	var re *responses.APIError
	switch {
	case errors.As(err, &oe):
		v = oe.Body
	case errors.As(err, &ae):
		v = ae.Body
	case errors.As(err, &re):
		v = re.Body
	default:
		msg := errorMessage(err)
		switch api {
		case preprocess.APIMessages:
			v = anthropic.NewAPIError(status, msg).Body
		case preprocess.APIResponses:
			v = responses.NewAPIError(status, msg).Body
		default:
			v = openai.ErrorResponse{Error: openai.ErrorObject{Message: msg, Type: openaiErrorType(status),
				Code: openai.RawJSON(appendInt(nil, int64(status)))}}
		}
	}
	body, mErr := json.Marshal(v)
	if mErr != nil {
		body = []byte(`{"error":{"message":"internal error","type":"server_error","param":null,"code":500}}`)
	}
	return status, body
}

func openaiErrorType(status int) string {
	switch {
	case status == http.StatusNotFound:
		return openai.ErrTypeNotFound
	case status >= 400 && status < 500:
		return openai.ErrTypeInvalidRequest
	}
	return openai.ErrTypeServer
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
// (chat, completions, Anthropic Messages): `event: error` with the API's
// error object, its type following Status (so an overloaded engine is
// overloaded_error on Anthropic, a context overflow invalid_request_error).
// This is the one place in-stream errors are shaped.
func appendStreamError(dst []byte, api preprocess.API, err error) []byte {
	status := Status(api, err)
	msg := errorMessage(err)
	if api == preprocess.APIMessages {
		dst = append(dst, "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":"...)
		dst = appendStr(dst, anthropic.ErrorTypeForStatus(status))
		dst = append(dst, `,"message":`...)
		dst = appendStr(dst, msg)
		return append(dst, "}}\n\n"...)
	}
	dst = append(dst, "event: error\ndata: {\"error\":{\"message\":"...)
	dst = appendStr(dst, msg)
	dst = append(dst, `,"type":`...)
	dst = appendStr(dst, openaiErrorType(status))
	dst = append(dst, `,"param":null,"code":`...)
	dst = appendInt(dst, int64(status))
	return append(dst, "}}\n\n"...)
}
