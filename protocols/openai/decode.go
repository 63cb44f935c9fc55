package openai

import (
	"fmt"
	"net/http"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
)

// DecodeOptions select how requests are decoded.
type DecodeOptions struct {
	// Strict rejects members the types do not model (anywhere in the
	// request), with Dynamo's 400 "Unsupported parameter(s): `a`, `b`".
	// Otherwise they are kept in Extra bags and written back on encode.
	Strict bool
	// MaxBytes is the largest body accepted (413 beyond it): 0 means
	// protocols.MaxRequestBytes, a negative value no limit.
	MaxBytes int
}

// DecodeChatRequest decodes a chat completion request body. Errors are
// *APIError values with status 400 and the message to send to the client.
func DecodeChatRequest(data []byte, opts DecodeOptions) (*ChatRequest, error) {
	var r ChatRequest
	if err := decode(data, &r, opts); err != nil {
		return nil, err
	}
	r.Original = data
	return &r, nil
}

// DecodeCompletionRequest decodes a completions request body, like
// DecodeChatRequest.
func DecodeCompletionRequest(data []byte, opts DecodeOptions) (*CompletionRequest, error) {
	var r CompletionRequest
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
		e := BadRequest(fmt.Sprintf("Request body too large: %d bytes; the maximum is %d.", len(data), limit))
		e.Status = http.StatusRequestEntityTooLarge
		return e
	}
	if err := jsonx.Unmarshal(data, v); err != nil {
		return BadRequest(err.Error())
	}
	if opts.Strict {
		if fields := protocols.UnknownFields(v); len(fields) > 0 {
			return unknownFieldsError(&protocols.UnknownFieldsError{Fields: fields})
		}
	}
	return nil
}
