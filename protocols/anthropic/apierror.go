package anthropic

import (
	"net/http"
	"strconv"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/internal/wire"
)

// ErrorTypeTimeout is the error type of 504 answers.
const ErrorTypeTimeout = "timeout_error"

// StatusOverloaded is the API's status for overloaded_error.
const StatusOverloaded = 529

// StatusClientClosed is the status recorded for a request whose client
// went away (nginx's 499; nothing reaches the client).
const StatusClientClosed = 499

// APIErrorFor maps a neutral error to the Anthropic status, type and
// message:
//
//	context length    400 invalid_request_error "prompt is too long: N tokens > M maximum"
//	overloaded        529 overloaded_error      "Overloaded"
//	rate limited      429 rate_limit_error
//	bad request       400 invalid_request_error
//	not found         404 not_found_error       "model: X"
//	request too large 413 request_too_large
//	timeout           504 timeout_error
//	upstream          500 api_error             MessageInternalError (engine details are not exposed)
//	malformed         as upstream
//	canceled          499 invalid_request_error "Client closed the request"
//	unauthorized      401 authentication_error  "invalid x-api-key"
//	request timeout   408 timeout_error
//	not implemented   501 api_error
func APIErrorFor(e *protocols.Error) *APIError {
	status, typ, msg := http.StatusInternalServerError, ErrorTypeAPI, MessageInternalError
	custom := e.Message != ""
	switch e.Kind {
	case protocols.ErrorContextLength:
		status, typ, msg = http.StatusBadRequest, ErrorTypeInvalidRequest, "prompt is too long"
		if e.PromptTokens > 0 && e.MaxContext > 0 {
			msg = "prompt is too long: " + strconv.FormatInt(e.PromptTokens, 10) + " tokens > " + strconv.FormatInt(e.MaxContext, 10) + " maximum"
			custom = false // the counted form is what clients parse
		}
	case protocols.ErrorOverloaded:
		status, typ, msg = StatusOverloaded, ErrorTypeOverloaded, "Overloaded"
	case protocols.ErrorRateLimited:
		status, typ, msg = http.StatusTooManyRequests, ErrorTypeRateLimit, "Rate limited: too many requests; retry later."
	case protocols.ErrorBadRequest:
		status, typ, msg = http.StatusBadRequest, ErrorTypeInvalidRequest, "Invalid request."
	case protocols.ErrorNotFound:
		status, typ, msg = http.StatusNotFound, ErrorTypeNotFound, "Not found."
		if e.Model != "" {
			msg = "model: " + e.Model
		}
	case protocols.ErrorRequestTooLarge:
		status, typ, msg = http.StatusRequestEntityTooLarge, ErrorTypeRequestTooLarge, "Request exceeds the maximum allowed number of bytes."
	case protocols.ErrorTimeout:
		status, typ, msg = http.StatusGatewayTimeout, ErrorTypeTimeout, "Request timed out."
	case protocols.ErrorCanceled:
		status, typ, msg = StatusClientClosed, ErrorTypeInvalidRequest, "Client closed the request."
	case protocols.ErrorUnauthorized:
		status, typ, msg = http.StatusUnauthorized, ErrorTypeAuthentication, "invalid x-api-key"
	case protocols.ErrorRequestTimeout:
		status, typ, msg = http.StatusRequestTimeout, ErrorTypeTimeout, "The request body did not arrive in time."
	case protocols.ErrorNotImplemented:
		status, typ, msg = http.StatusNotImplemented, ErrorTypeAPI, "Not implemented."
	default: // upstream, malformed: engine details are not exposed
		custom = false
	}
	if custom {
		msg = e.Message
	}
	if e.Kind == protocols.ErrorBadRequest && e.Param != "" {
		msg = e.Param + ": " + msg
	}
	return &APIError{Status: status, Body: ErrorResponse{Type: "error", Error: ErrorObject{Type: typ, Message: wire.ClipMessage(msg)}}}
}

// ErrorBody returns the HTTP status and JSON body that answer e before a
// stream has started: {"type":"error","error":{"type","message"}}.
func ErrorBody(e *protocols.Error) (status int, body []byte) {
	a := APIErrorFor(e)
	return a.Status, a.Body.appendJSON(nil)
}

// AppendErrorEvent appends the in-stream error event for e:
// `event: error` with the same body as ErrorBody. Emitter.FailError writes
// it and ends the stream.
func AppendErrorEvent(dst []byte, e *protocols.Error) []byte {
	dst = append(dst, "event: error\ndata: "...)
	dst = APIErrorFor(e).Body.appendJSON(dst)
	return append(dst, "\n\n"...)
}

func (b ErrorResponse) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"type":"error","error":{"type":`...)
	dst = jsonx.AppendString(dst, b.Error.Type)
	dst = append(dst, `,"message":`...)
	dst = jsonx.AppendString(dst, b.Error.Message)
	return append(dst, "}}"...)
}

// FailError ends the stream with the error event for e (see
// AppendErrorEvent); Fail is FailError with an upstream error.
func (e *Emitter) FailError(dst []byte, err *protocols.Error) []byte {
	if e.finished {
		return dst
	}
	e.finished = true
	return AppendErrorEvent(dst, err)
}
