package server

import (
	"github.com/agentwire/agentwire/protocols"
)

// The server classifies the errors it finds itself (access, limits,
// request checks) as *protocols.Error values, the library's one error
// vocabulary; the route's API renders them (status, body, in-stream
// event), as it renders the engine's and the preprocessor's.

// errOverloaded is the concurrency limit's answer: Anthropic 529
// overloaded_error, OpenAI and Responses 503.
var errOverloaded = &protocols.Error{Kind: protocols.ErrorOverloaded,
	Message: "The server is overloaded: too many concurrent requests. Retry later."}

// errUnauthorized answers a missing or wrong API key: 401 in the API's
// shape (Anthropic authentication_error, OpenAI invalid_api_key).
var errUnauthorized = &protocols.Error{Kind: protocols.ErrorUnauthorized}

// BadRequest returns a 400 in the request's API shape.
func BadRequest(msg string) error {
	return &protocols.Error{Kind: protocols.ErrorBadRequest, Message: msg}
}
