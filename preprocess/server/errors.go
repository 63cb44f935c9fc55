package server

import (
	"net/http"
	"strconv"

	"github.com/agentwire/agentwire/preprocess"
	"github.com/agentwire/agentwire/preprocess/pipeline"
	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/agentwire/agentwire/protocols/openai"
	"github.com/agentwire/agentwire/protocols/responses"
)

// apiError returns an error with status and message in api's shape:
// Anthropic {"type":"error","error":{"type","message"}} with the type the
// status implies (401 authentication_error, 404 not_found_error, 413
// request_too_large, 529 overloaded_error, …), OpenAI and Responses
// {"error":{"message","type","param","code"}}.
func apiError(api preprocess.API, status int, msg string) error {
	switch api {
	case preprocess.APIMessages:
		return anthropic.NewAPIError(status, msg)
	case preprocess.APIResponses:
		e := responses.NewAPIError(status, msg)
		if code := openaiCode(status); code != "" {
			e.Body.Error.Code = protocols.Some(code)
		}
		return e
	}
	typ := openai.ErrorTypeInvalidRequest
	switch {
	case status == http.StatusNotFound:
		typ = openai.ErrorTypeNotFound
	case status >= 500:
		typ = openai.ErrorTypeServer
	}
	e := &openai.APIError{Status: status, Body: openai.ErrorResponse{Error: openai.ErrorObject{Message: msg, Type: typ}}}
	if code := openaiCode(status); code != "" {
		e.Body.Error.Code = openai.RawJSON(strconv.Quote(code))
	}
	return e
}

// openaiCode is the OpenAI error code for the statuses the server itself
// answers.
func openaiCode(status int) string {
	switch status {
	case http.StatusUnauthorized:
		return "invalid_api_key"
	case http.StatusNotFound:
		return "model_not_found"
	case http.StatusRequestTimeout:
		return "request_timeout"
	case http.StatusRequestEntityTooLarge:
		return "request_too_large"
	case http.StatusServiceUnavailable:
		return "overloaded"
	case http.StatusGatewayTimeout:
		return "timeout"
	}
	return ""
}

// writeError answers err in api's shape (status and body).
func writeError(w http.ResponseWriter, api preprocess.API, err error) {
	pipeline.WriteError(w, api, err)
}

// errOverloaded is the concurrency limit's answer: Anthropic 529
// overloaded_error, OpenAI and Responses 503.
var errOverloaded = &protocols.Error{Kind: protocols.ErrorOverloaded,
	Message: "The server is overloaded: too many concurrent requests. Retry later."}

// BadRequest returns a 400 in the request's API shape.
func BadRequest(msg string) error {
	return &protocols.Error{Kind: protocols.ErrorBadRequest, Message: msg}
}
