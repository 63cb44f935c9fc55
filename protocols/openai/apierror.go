package openai

import (
	"net/http"
	"strconv"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/internal/wire"
)

// StatusClientClosed is the status recorded for a request whose client
// went away (nginx's 499; nothing reaches the client).
const StatusClientClosed = 499

// errorShape is the OpenAI-family answer to a neutral error: status, type,
// code, message. param is the member a context overflow names.
func errorShape(e *protocols.Error, param string) (status int, typ, code, msg, outParam string) {
	custom := e.Message != ""
	switch e.Kind {
	case protocols.ErrorContextLength:
		status, typ, code, outParam = http.StatusBadRequest, ErrorTypeInvalidRequest, "context_length_exceeded", param
		msg = "The input is longer than the model's context window."
		if e.PromptTokens > 0 && e.MaxContext > 0 {
			msg = "This model's maximum context length is " + strconv.FormatInt(e.MaxContext, 10) +
				" tokens. However, your request has " + strconv.FormatInt(e.PromptTokens, 10) +
				" input tokens. Please reduce the length of the input."
			custom = false
		}
	case protocols.ErrorOverloaded:
		status, typ, code, msg = http.StatusServiceUnavailable, ErrorTypeServer, "server_is_overloaded", "The server is overloaded. Please retry later."
	case protocols.ErrorRateLimited:
		status, typ, code, msg = http.StatusTooManyRequests, "requests", "rate_limit_exceeded", "Rate limit reached. Please retry later."
	case protocols.ErrorBadRequest:
		status, typ, msg, outParam = http.StatusBadRequest, ErrorTypeInvalidRequest, "Invalid request.", e.Param
	case protocols.ErrorNotFound:
		status, typ, code, msg = http.StatusNotFound, ErrorTypeNotFound, "model_not_found", "Not found."
		if e.Model != "" {
			msg = "The model `" + e.Model + "` does not exist."
		}
	case protocols.ErrorRequestTooLarge:
		status, typ, msg = http.StatusRequestEntityTooLarge, ErrorTypeInvalidRequest, "Request body too large."
	case protocols.ErrorTimeout:
		status, typ, code, msg = http.StatusGatewayTimeout, ErrorTypeServer, "timeout", "The engine did not answer in time."
	case protocols.ErrorCanceled:
		status, typ, msg = StatusClientClosed, ErrorTypeInvalidRequest, "Client closed the request."
	case protocols.ErrorUnauthorized:
		status, typ, code, msg = http.StatusUnauthorized, ErrorTypeInvalidRequest, "invalid_api_key", "Incorrect API key provided."
	case protocols.ErrorRequestTimeout:
		status, typ, code, msg = http.StatusRequestTimeout, ErrorTypeInvalidRequest, "request_timeout", "The request body did not arrive in time."
	case protocols.ErrorNotImplemented:
		status, typ, msg = http.StatusNotImplemented, ErrorTypeServer, "Not implemented."
	default: // upstream, malformed
		status, typ, msg = http.StatusInternalServerError, ErrorTypeServer, "The server had an error while processing your request."
	}
	if custom {
		msg = e.Message
	}
	return status, typ, code, wire.ClipMessage(msg), outParam
}

// APIErrorFor maps a neutral error to the chat/completions status and body:
//
//	context length    400 invalid_request_error code context_length_exceeded, param messages
//	overloaded        503 server_error          code server_is_overloaded
//	rate limited      429 requests              code rate_limit_exceeded
//	bad request       400 invalid_request_error param e.Param
//	not found         404 not_found_error       code model_not_found
//	request too large 413 invalid_request_error
//	timeout           504 server_error          code timeout
//	upstream          500 server_error          (e.Message when set)
//	malformed         as upstream
//	canceled          499 invalid_request_error
//	unauthorized      401 invalid_request_error code invalid_api_key
//	request timeout   408 invalid_request_error code request_timeout
//	not implemented   501 server_error
func APIErrorFor(e *protocols.Error) *APIError {
	status, typ, code, msg, param := errorShape(e, "messages")
	a := &APIError{Status: status, Body: ErrorResponse{Error: ErrorObject{Message: msg, Type: typ, Code: RawJSON("null")}}}
	if param != "" {
		a.Body.Error.Param = protocols.Some(param)
	}
	if code != "" {
		a.Body.Error.Code = jsonx.AppendString(nil, code)
	}
	return a
}

// ErrorBody returns the HTTP status and JSON body that answer e before a
// stream has started: {"error":{"message","type","param","code"}}.
func ErrorBody(e *protocols.Error) (status int, body []byte) {
	a := APIErrorFor(e)
	return a.Status, a.Body.appendJSON(nil)
}

// AppendErrorEvent appends the in-stream error frame for e: `event: error`
// with the ErrorBody JSON as data (what Emitter.Fail writes).
// Emitter.FailError writes it and ends the stream.
func AppendErrorEvent(dst []byte, e *protocols.Error) []byte {
	dst = append(dst, "event: error\ndata: "...)
	dst = APIErrorFor(e).Body.appendJSON(dst)
	return append(dst, "\n\n"...)
}

func (b ErrorResponse) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"error":{"message":`...)
	dst = jsonx.AppendString(dst, b.Error.Message)
	dst = append(dst, `,"type":`...)
	dst = jsonx.AppendString(dst, b.Error.Type)
	dst = append(dst, `,"param":`...)
	if p, ok := b.Error.Param.Get(); ok {
		dst = jsonx.AppendString(dst, p)
	} else {
		dst = append(dst, "null"...)
	}
	dst = append(dst, `,"code":`...)
	if len(b.Error.Code) > 0 {
		dst = append(dst, b.Error.Code...)
	} else {
		dst = append(dst, "null"...)
	}
	return append(dst, "}}"...)
}

// FailError ends the stream with the error frame for e (see
// AppendErrorEvent); no finish chunk and no [DONE] follow.
func (e *Emitter) FailError(dst []byte, err *protocols.Error) []byte {
	if e.finished {
		return dst
	}
	e.finished = true
	return AppendErrorEvent(dst, err)
}
