package protocols

import "strconv"

// ErrorKind is a condition a server reports to a client, independent of the
// API: each API package turns an Error into its own status, body and
// in-stream event (openai.ErrorBody / AppendErrorEvent, anthropic.ErrorBody /
// AppendErrorEvent, responses.ErrorBody / Emitter.FailError).
type ErrorKind uint8

const (
	ErrorUpstream        ErrorKind = iota // the engine failed (5xx, refused connection, undecodable stream)
	ErrorContextLength                    // the prompt (plus the output budget) exceeds the context window
	ErrorOverloaded                       // out of capacity (engine 503, queue full, model not ready)
	ErrorRateLimited                      // too many requests (429)
	ErrorBadRequest                       // the request is invalid (the engine's or the server's 4xx)
	ErrorTimeout                          // connect, first-token or idle timeout
	ErrorCanceled                         // the client went away (nothing reaches it; for logs and status)
	ErrorNotFound                         // unknown model
	ErrorRequestTooLarge                  // body over the limit (MaxRequestBytes)
)

var errorKindNames = [...]string{"upstream", "context_length", "overloaded", "rate_limited", "bad_request",
	"timeout", "canceled", "not_found", "request_too_large"}

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
