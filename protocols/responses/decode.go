package responses

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/internal/wire"
)

// APIError is an error that carries the HTTP status and the OpenAI-shaped
// body to answer with.
type APIError struct {
	Status int
	Body   ErrorResponse
}

func (e *APIError) Error() string {
	return fmt.Sprintf("responses: %d %s: %s", e.Status, e.Body.Error.Type, e.Body.Error.Message)
}

// StatusBody returns the status and JSON body e is answered with
// (protocols.APIError).
func (e *APIError) StatusBody() (int, []byte) { return wire.ErrorBody(e.Status, e.Body) }

// NewAPIError returns an APIError; type is invalid_request_error for 4xx
// and server_error otherwise (not_implemented_error for 501).
func NewAPIError(status int, message string) *APIError {
	e := &APIError{Status: status}
	e.Body.Error.Message = wire.ClipMessage(message)
	switch {
	case status == http.StatusNotImplemented:
		e.Body.Error.Type = "not_implemented_error"
	case status >= 400 && status < 500:
		e.Body.Error.Type = "invalid_request_error"
	default:
		e.Body.Error.Type = "server_error"
	}
	return e
}

// DecodeOptions select how requests are decoded.
type DecodeOptions struct {
	// Strict rejects members the types do not model with Dynamo's 400
	// "Unsupported parameter(s): `a`, `b`"; otherwise they are kept.
	Strict bool
	// MaxBytes is the largest body accepted (413 beyond it): 0 means
	// protocols.MaxRequestBytes, a negative value no limit.
	MaxBytes int
}

// DecodeRequest decodes a /v1/responses body. Errors are *APIError values.
func DecodeRequest(data []byte, opts DecodeOptions) (*Request, error) {
	limit := opts.MaxBytes
	if limit == 0 {
		limit = protocols.MaxRequestBytes
	}
	if limit > 0 && len(data) > limit {
		return nil, NewAPIError(http.StatusRequestEntityTooLarge,
			fmt.Sprintf("Request body too large: %d bytes; the maximum is %d.", len(data), limit))
	}
	var r Request
	if err := jsonx.Unmarshal(data, &r); err != nil {
		var nested *nestedToolError
		if errors.As(err, &nested) {
			e := NewAPIError(http.StatusBadRequest, nested.Error())
			e.Body.Error.Param = protocols.Some(nestedToolParam(data))
			e.Body.Error.Code = protocols.Some("invalid_value")
			return nil, e
		}
		return nil, NewAPIError(http.StatusBadRequest, err.Error())
	}
	if opts.Strict {
		if fields := protocols.UnknownFields(&r); len(fields) > 0 {
			fields = wire.ClipList(fields)
			quoted := make([]string, len(fields))
			for i, f := range fields {
				quoted[i] = "`" + f + "`"
			}
			return nil, NewAPIError(http.StatusBadRequest, "Unsupported parameter(s): "+strings.Join(quoted, ", "))
		}
	}
	r.Original = data
	return &r, nil
}
