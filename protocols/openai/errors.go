package openai

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/internal/wire"
)

// ErrorResponse is the body of an OpenAI error response, and the data of an
// `event: error` frame after a stream has started.
type ErrorResponse struct {
	Error ErrorObject `json:"error"`
}

// ErrorObject describes an error.
type ErrorObject struct {
	Message string      `json:"message"`
	Type    string      `json:"type"`
	Param   Opt[string] `json:"param"`
	Code    RawJSON     `json:"code"` // string or number; null when absent
}

// Error types.
const (
	ErrorTypeInvalidRequest = "invalid_request_error"
	ErrorTypeNotFound       = "not_found_error"
	ErrorTypeServer         = "server_error"
	ErrorTypeNotImplemented = "not_implemented_error"
)

// APIError is an error that carries the HTTP status and body an OpenAI
// endpoint answers with.
type APIError struct {
	Status int
	Body   ErrorResponse
}

func (e *APIError) Error() string {
	return fmt.Sprintf("openai: %d %s: %s", e.Status, e.Body.Error.Type, e.Body.Error.Message)
}

// StatusBody returns the status and JSON body e is answered with
// (protocols.APIError).
func (e *APIError) StatusBody() (int, []byte) { return wire.ErrorBody(e.Status, e.Body) }

// BadRequest returns a 400 invalid_request_error with message.
func BadRequest(message string) *APIError {
	message = wire.ClipMessage(message)
	return &APIError{Status: http.StatusBadRequest, Body: ErrorResponse{Error: ErrorObject{Message: message, Type: ErrorTypeInvalidRequest}}}
}

// UnsupportedParameters returns Dynamo's rejection of unknown request
// members: 400 "Unsupported parameter(s): `a`, `b`".
func UnsupportedParameters(fields []string) *APIError {
	fields = wire.ClipList(fields)
	quoted := make([]string, len(fields))
	for i, f := range fields {
		quoted[i] = "`" + f + "`"
	}
	return BadRequest("Unsupported parameter(s): " + strings.Join(quoted, ", "))
}

// unknownFieldsError converts a *protocols.UnknownFieldsError.
func unknownFieldsError(err *protocols.UnknownFieldsError) *APIError {
	return UnsupportedParameters(err.Fields)
}
