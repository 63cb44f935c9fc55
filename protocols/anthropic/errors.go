package anthropic

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/internal/wire"
)

// ErrorResponse is the body of an error response: {"type":"error","error"}.
type ErrorResponse struct {
	Type  string      `json:"type"` // "error"
	Error ErrorObject `json:"error"`
}

// ErrorObject describes an error.
type ErrorObject struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// Error types.
const (
	ErrorTypeInvalidRequest  = "invalid_request_error"
	ErrorTypeAuthentication  = "authentication_error"
	ErrorTypePermission      = "permission_error"
	ErrorTypeNotFound        = "not_found_error"
	ErrorTypeRequestTooLarge = "request_too_large"
	ErrorTypeRateLimit       = "rate_limit_error"
	ErrorTypeAPI             = "api_error"
	ErrorTypeOverloaded      = "overloaded_error"

	// MessageInternalError is what the stream's error event says on a
	// backend failure (the backend's message is not exposed).
	MessageInternalError = "An internal error occurred during generation."
)

// ErrorTypeForStatus maps an HTTP status to the Anthropic error type.
func ErrorTypeForStatus(status int) string {
	switch status {
	case http.StatusBadRequest:
		return ErrorTypeInvalidRequest
	case http.StatusUnauthorized:
		return ErrorTypeAuthentication
	case http.StatusForbidden:
		return ErrorTypePermission
	case http.StatusNotFound:
		return ErrorTypeNotFound
	case http.StatusRequestEntityTooLarge:
		return ErrorTypeRequestTooLarge
	case http.StatusTooManyRequests:
		return ErrorTypeRateLimit
	case http.StatusServiceUnavailable, 529:
		return ErrorTypeOverloaded
	case http.StatusGatewayTimeout:
		return ErrorTypeTimeout
	}
	return ErrorTypeAPI
}

// APIError is an error that carries the HTTP status and body to answer.
type APIError struct {
	Status int
	Body   ErrorResponse
}

// NewAPIError returns an APIError with the type that status implies.
func NewAPIError(status int, message string) *APIError {
	message = wire.ClipMessage(message)
	return &APIError{Status: status, Body: ErrorResponse{Type: "error", Error: ErrorObject{Type: ErrorTypeForStatus(status), Message: message}}}
}

func (e *APIError) Error() string {
	return fmt.Sprintf("anthropic: %d %s: %s", e.Status, e.Body.Error.Type, e.Body.Error.Message)
}

// StatusBody returns the status and JSON body e is answered with
// (protocols.APIError).
func (e *APIError) StatusBody() (int, []byte) { return wire.ErrorBody(e.Status, e.Body) }

// DecodeOptions select how requests are decoded.
type DecodeOptions struct {
	// Strict rejects members the types do not model with the API's 400
	// "<path>: Extra inputs are not permitted" (all offending paths, joined
	// with "; "). Otherwise they are kept and written back on encode.
	Strict bool
	// MaxBytes is the largest body accepted (413 request_too_large
	// beyond it): 0 means protocols.MaxRequestBytes, a negative value no
	// limit.
	MaxBytes int
}

// DecodeMessagesRequest decodes a /v1/messages body. Errors are *APIError
// values (400 invalid_request_error).
func DecodeMessagesRequest(data []byte, opts DecodeOptions) (*MessagesRequest, error) {
	var r MessagesRequest
	if err := decode(data, &r, opts); err != nil {
		return nil, err
	}
	r.Original = data
	return &r, nil
}

// DecodeCountTokensRequest decodes a /v1/messages/count_tokens body.
func DecodeCountTokensRequest(data []byte, opts DecodeOptions) (*CountTokensRequest, error) {
	var r CountTokensRequest
	if err := decode(data, &r, opts); err != nil {
		return nil, err
	}
	r.Original = data
	return &r, nil
}

func decode(data []byte, v any, opts DecodeOptions) error {
	limit := opts.MaxBytes
	if limit == 0 {
		limit = protocols.MaxRequestBytes
	}
	if limit > 0 && len(data) > limit {
		return NewAPIError(http.StatusRequestEntityTooLarge,
			fmt.Sprintf("Request exceeds the maximum allowed number of bytes (%d).", limit))
	}
	if err := jsonx.Unmarshal(data, v); err != nil {
		var nested *nestedBlockError
		if errors.As(err, &nested) {
			return NewAPIError(http.StatusBadRequest, nestedBlockPath(data)+": "+nested.Error())
		}
		return NewAPIError(http.StatusBadRequest, err.Error())
	}
	if opts.Strict {
		if fields := protocols.UnknownFields(v); len(fields) > 0 {
			return ExtraInputsError(fields)
		}
	}
	return nil
}

// ExtraInputsError is the API's rejection of unknown members.
func ExtraInputsError(fields []string) *APIError {
	fields = wire.ClipList(fields)
	msgs := make([]string, len(fields))
	for i, f := range fields {
		msgs[i] = f + ": Extra inputs are not permitted"
	}
	return NewAPIError(http.StatusBadRequest, strings.Join(msgs, "; "))
}

// Validate applies the request rules the API enforces before any
// translation: model and max_tokens present and positive, messages
// non-empty.
func (r *MessagesRequest) Validate() error {
	if r.Model == "" {
		return NewAPIError(http.StatusBadRequest, "model: Field required")
	}
	n, ok := r.MaxTokens.Get()
	if !ok {
		return NewAPIError(http.StatusBadRequest, "max_tokens: Field required")
	}
	if n <= 0 {
		return NewAPIError(http.StatusBadRequest, "max_tokens: must be greater than 0")
	}
	if len(r.Messages) == 0 {
		return NewAPIError(http.StatusBadRequest, "messages: at least one message is required")
	}
	return nil
}

// NvExtCacheSalt applies the gate for nvext on the Anthropic path when the
// deployment disables nvext: only a non-empty string cache_salt survives
// (null or absent → ""), other keys are discarded (dropped reports them so
// the caller can warn); a non-string cache_salt is a 400.
func (r *MessagesRequest) NvExtCacheSalt() (salt string, dropped []string, err error) {
	if len(r.NvExt) == 0 || jsonx.IsNull(r.NvExt) {
		return "", nil, nil
	}
	var m map[string]RawJSON
	if err := jsonx.Unmarshal(r.NvExt, &m); err != nil {
		return "", nil, NewAPIError(http.StatusBadRequest, "invalid nvext: expected an object")
	}
	for k, v := range m {
		if k != "cache_salt" {
			dropped = append(dropped, k)
			continue
		}
		if jsonx.IsNull(v) {
			continue
		}
		if jsonx.Kind(v) != '"' || jsonx.Unmarshal(v, &salt) != nil {
			return "", nil, NewAPIError(http.StatusBadRequest, "invalid nvext.cache_salt: expected a string or null")
		}
	}
	return salt, dropped, nil
}
