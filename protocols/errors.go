package protocols

import (
	"context"
	"errors"
	"strconv"
)

// ErrorKind is a condition a server reports to a client, independent of the
// API: each API package turns an Error into its own status, body and
// in-stream event (openai.ErrorBody / AppendErrorEvent, anthropic.ErrorBody /
// AppendErrorEvent, responses.ErrorBody / Emitter.FailError). It is the one
// error vocabulary of the whole library: an engine failure carries one too
// (the root module's engine.Error).
type ErrorKind uint8

const (
	ErrorUpstream        ErrorKind = iota // the engine failed (5xx, refused connection)
	ErrorContextLength                    // the prompt (plus the output budget) exceeds the context window
	ErrorOverloaded                       // out of capacity (engine 503, queue full, model not ready)
	ErrorRateLimited                      // too many requests (429)
	ErrorBadRequest                       // the request is invalid (the engine's or the server's 4xx)
	ErrorTimeout                          // connect, first-token or idle timeout
	ErrorCanceled                         // the client went away (nothing reaches it; for logs and status)
	ErrorNotFound                         // unknown model
	ErrorRequestTooLarge                  // body over the limit (MaxRequestBytes)
	ErrorMalformed                        // the engine's output could not be decoded (answered as upstream)
	ErrorUnauthorized                     // a missing or wrong API key (401)
	ErrorRequestTimeout                   // the request body did not arrive in time (408)
	ErrorNotImplemented                   // the server does not offer the route (501)
)

var errorKindNames = [...]string{"upstream", "context_length", "overloaded", "rate_limited", "bad_request",
	"timeout", "canceled", "not_found", "request_too_large", "malformed", "unauthorized", "request_timeout",
	"not_implemented"}

func (k ErrorKind) String() string {
	if int(k) < len(errorKindNames) {
		return errorKindNames[k]
	}
	return "ErrorKind(" + strconv.Itoa(int(k)) + ")"
}

// Error is a condition to report to a client. Message is what the client
// reads; when empty each API writes its standard text for the kind. The
// API packages clip the message they write (1 KiB).
type Error struct {
	Kind    ErrorKind
	Message string
	// PromptTokens and MaxContext are the prompt size and the context
	// window for ErrorContextLength (Anthropic's message "prompt is too
	// long: N tokens > M maximum" is built from them; Claude Code compacts
	// the conversation when it reads it).
	PromptTokens int64
	MaxContext   int64
	// Param names the offending request member (ErrorBadRequest), Model
	// the unknown model (ErrorNotFound).
	Param string
	Model string
}

func (e *Error) Error() string {
	if e.Message != "" {
		return e.Kind.String() + ": " + e.Message
	}
	return e.Kind.String()
}

// An APIError is an error already in one API's shape, carrying the HTTP
// status and JSON body it is answered with: the API packages' APIError
// values (their decoders' and validators' errors, and the errors the
// translators in package convert return). A server answers it as it is.
type APIError interface {
	error
	StatusBody() (status int, body []byte)
}

// A ClientError is an error that knows what a client may read of it: the
// errors of the layers below the API (an engine failure, a request the
// preprocessor cannot serve) implement it where they are defined.
type ClientError interface {
	error
	ClientError() *Error
}

// ErrorOf returns what a client reads of err, in the one vocabulary the API
// packages render: the *Error in err's chain (the server wrote it for the
// client); else the ClientError in the chain's own answer; a canceled
// context as ErrorCanceled, an expired one as ErrorTimeout; anything else
// as ErrorUpstream with no message (its detail is for the server's log).
func ErrorOf(err error) *Error {
	var pe *Error
	if errors.As(err, &pe) {
		return pe
	}
	var ce ClientError
	switch {
	case errors.As(err, &ce):
		return ce.ClientError()
	case errors.Is(err, context.Canceled):
		return &Error{Kind: ErrorCanceled}
	case errors.Is(err, context.DeadlineExceeded):
		return &Error{Kind: ErrorTimeout}
	}
	return &Error{Kind: ErrorUpstream}
}
