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
	typ := openai.ErrTypeInvalidRequest
	switch {
	case status == http.StatusNotFound:
		typ = openai.ErrTypeNotFound
	case status >= 500:
		typ = openai.ErrTypeServer
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

// overloaded is the concurrency limit's answer: Anthropic 529
// overloaded_error, OpenAI and Responses 503.
func overloaded(api preprocess.API) error {
	if api == preprocess.APIMessages {
		return anthropic.NewAPIError(529, "Overloaded")
	}
	return apiError(api, http.StatusServiceUnavailable, "The server is overloaded: too many concurrent requests. Retry later.")
}

// ContextLengthError is the answer to a prompt that does not fit the
// model's context, in api's shape: Anthropic 400 invalid_request_error
// "prompt is too long: N tokens > M maximum" (the message Claude Code
// reacts to by compacting the conversation), OpenAI and Responses 400
// with code context_length_exceeded and vLLM's wording.
func ContextLengthError(api preprocess.API, promptTokens, maxContext int) error {
	if api == preprocess.APIMessages {
		return anthropic.NewAPIError(http.StatusBadRequest,
			"prompt is too long: "+strconv.Itoa(promptTokens)+" tokens > "+strconv.Itoa(maxContext)+" maximum")
	}
	msg := "This model's maximum context length is " + strconv.Itoa(maxContext) + " tokens. However, your request has " +
		strconv.Itoa(promptTokens) + " input tokens. Please reduce the length of the input messages."
	if api == preprocess.APIResponses {
		e := responses.NewAPIError(http.StatusBadRequest, msg)
		e.Body.Error.Code = protocols.Some("context_length_exceeded")
		return e
	}
	e := apiError(api, http.StatusBadRequest, msg).(*openai.APIError)
	e.Body.Error.Code = openai.RawJSON(`"context_length_exceeded"`)
	return e
}

// BadRequest returns a 400 in api's shape.
func BadRequest(api preprocess.API, msg string) error {
	return apiError(api, http.StatusBadRequest, msg)
}
