package responses

import (
	"net/http"
	"strconv"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/internal/wire"
)

// APIErrorFor maps a neutral error to the Responses status and body (the
// OpenAI shape; param input for a context overflow):
//
//	context length    400 invalid_request_error code context_length_exceeded
//	overloaded        503 server_error          code server_is_overloaded
//	rate limited      429 requests              code rate_limit_exceeded
//	bad request       400 invalid_request_error
//	not found         404 not_found_error       code model_not_found
//	request too large 413 invalid_request_error
//	timeout           504 server_error          code timeout
//	upstream          500 server_error          code server_error
//	malformed         as upstream
//	canceled          499 invalid_request_error
//	unauthorized      401 invalid_request_error code invalid_api_key
//	request timeout   408 invalid_request_error code request_timeout
//	not implemented   501 not_implemented_error
//
// The codes are the ones Codex acts on: context_length_exceeded (it
// reports the window as full), server_is_overloaded and
// rate_limit_exceeded (it retries).
func APIErrorFor(e *protocols.Error) *APIError {
	status, typ, code, msg, param := shape(e)
	a := &APIError{Status: status}
	a.Body.Error.Message, a.Body.Error.Type = msg, typ
	if param != "" {
		a.Body.Error.Param = protocols.Some(param)
	}
	if code != "" {
		a.Body.Error.Code = protocols.Some(code)
	}
	return a
}

func shape(e *protocols.Error) (status int, typ, code, msg, param string) {
	custom := e.Message != ""
	switch e.Kind {
	case protocols.ErrorContextLength:
		status, typ, code, param = http.StatusBadRequest, "invalid_request_error", "context_length_exceeded", "input"
		msg = "Your input exceeds the context window of this model."
		if e.PromptTokens > 0 && e.MaxContext > 0 {
			msg = "Your input exceeds the context window of this model: " + strconv.FormatInt(e.PromptTokens, 10) +
				" input tokens > " + strconv.FormatInt(e.MaxContext, 10) + " maximum. Please adjust your input and try again."
			custom = false
		}
	case protocols.ErrorOverloaded:
		status, typ, code, msg = http.StatusServiceUnavailable, "server_error", "server_is_overloaded", "The server is overloaded. Please retry later."
	case protocols.ErrorRateLimited:
		status, typ, code, msg = http.StatusTooManyRequests, "requests", "rate_limit_exceeded", "Rate limit reached. Please retry later."
	case protocols.ErrorBadRequest:
		status, typ, msg, param = http.StatusBadRequest, "invalid_request_error", "Invalid request.", e.Param
	case protocols.ErrorNotFound:
		status, typ, code, msg = http.StatusNotFound, "not_found_error", "model_not_found", "Not found."
		if e.Model != "" {
			msg = "The model `" + e.Model + "` does not exist."
		}
	case protocols.ErrorRequestTooLarge:
		status, typ, msg = http.StatusRequestEntityTooLarge, "invalid_request_error", "Request body too large."
	case protocols.ErrorTimeout:
		status, typ, code, msg = http.StatusGatewayTimeout, "server_error", "timeout", "The engine did not answer in time."
	case protocols.ErrorCanceled:
		status, typ, msg = 499, "invalid_request_error", "Client closed the request."
	case protocols.ErrorUnauthorized:
		status, typ, code, msg = http.StatusUnauthorized, "invalid_request_error", "invalid_api_key", "Incorrect API key provided."
	case protocols.ErrorRequestTimeout:
		status, typ, code, msg = http.StatusRequestTimeout, "invalid_request_error", "request_timeout", "The request body did not arrive in time."
	case protocols.ErrorNotImplemented:
		status, typ, msg = http.StatusNotImplemented, "not_implemented_error", "Not implemented."
	default: // upstream, malformed
		status, typ, code, msg = http.StatusInternalServerError, "server_error", "server_error", "The server had an error while processing your request."
	}
	if custom {
		msg = e.Message
	}
	return status, typ, code, wire.ClipMessage(msg), param
}

// ErrorBody returns the HTTP status and JSON body that answer e before a
// stream has started.
func ErrorBody(e *protocols.Error) (status int, body []byte) {
	a := APIErrorFor(e)
	b, err := jsonx.Marshal(a.Body)
	if err != nil { // not reachable: strings only
		b = []byte(`{"error":{"message":"internal error","type":"server_error","param":null,"code":null}}`)
	}
	return a.Status, b
}

// FailError ends the stream with response.failed whose error carries e's
// code (context_length_exceeded, server_is_overloaded, rate_limit_exceeded,
// timeout, server_error, or the type for the others) and message; Fail is
// FailError with an upstream error and a message of its own.
func (e *Emitter) FailError(dst []byte, err *protocols.Error) []byte {
	_, typ, code, msg, _ := shape(err)
	if code == "" {
		code = typ
	}
	return e.fail(dst, code, msg)
}
