package engine

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strconv"

	"github.com/valyala/fastjson"

	"github.com/agentwire/agentwire/protocols"
)

// ErrorKind classifies an engine failure in the library's one error
// vocabulary (protocols.ErrorKind), which each API renders in its own
// shape. The kinds an engine failure has:
type ErrorKind = protocols.ErrorKind

const (
	ErrorUpstream      = protocols.ErrorUpstream      // any other engine failure (5xx, a refused connection)
	ErrorContextLength = protocols.ErrorContextLength // the prompt (plus max_tokens) exceeds the context
	ErrorOverloaded    = protocols.ErrorOverloaded    // the engine is out of capacity (503, queue full)
	ErrorRateLimited   = protocols.ErrorRateLimited   // 429
	ErrorBadRequest    = protocols.ErrorBadRequest    // the engine rejected the request (4xx)
	ErrorTimeout       = protocols.ErrorTimeout       // connect, first-token or idle timeout
	ErrorMalformed     = protocols.ErrorMalformed     // the engine's stream could not be decoded
	ErrorCanceled      = protocols.ErrorCanceled      // the client went away
)

// Error is an engine failure with its kind, the HTTP status the engine
// answered (0 if none) and its message (bounded to 512 bytes). Every
// adapter classifies the failures it sees the same way (Error.Kind;
// Error.Status is the engine's HTTP status):
//
//	an HTTP 4xx whose message is a context-length message  ErrorContextLength
//	  (vLLM "maximum context length is N tokens … (P in the messages",
//	  "request has P input tokens"; SGLang "The input (P tokens) is longer
//	  than the model's context length (N tokens)"; PromptTokens and
//	  MaxContext are filled when the message states them)
//	429                                                    ErrorRateLimited
//	503, 529, "overloaded" / "queue is full" messages      ErrorOverloaded
//	401, 403, 404, 405 (the server's key, URL or model
//	  name is wrong: not the client's fault)               ErrorUpstream
//	other 4xx                                              ErrorBadRequest
//	5xx, refused connection, dropped connection,
//	  stream ended with a choice unfinished (with or
//	  without [DONE])                                      ErrorUpstream
//	undecodable JSON, a line or event over the limits      ErrorMalformed
//	connect / first-token / idle timeout, caller deadline  ErrorTimeout
//	the caller canceled                                    ErrorCanceled
//
// Errors the engine sends inside the stream ({"error": {...}} or
// {"object": "error", ...} events, SGLang aborts with a status) are mapped
// the same way. The caller's cancellation and deadline unwrap to the
// context's error (errors.Is(err, context.Canceled) holds).
type Error struct {
	Kind    ErrorKind
	Status  int
	Message string
	// PromptTokens and MaxContext are set for ErrorContextLength when known.
	PromptTokens int
	MaxContext   int
	// Err is the underlying cause, when there is one (added): the
	// caller's context error for ErrorCanceled and for ErrorTimeout from the
	// caller's deadline, so errors.Is(err, context.Canceled) holds. Error
	// unwraps to it.
	Err error
}

func (e *Error) Error() string { return e.Message }

// maxMessage bounds the length of an Error's message: an engine's error
// body can be large (a stack trace, the whole prompt echoed back).
const maxMessage = 512

// Unwrap returns the underlying cause (Err), so that errors.Is(err,
// context.Canceled) holds for an ErrorCanceled error caused by the caller.
func (e *Error) Unwrap() error { return e.Err }

// ClientError returns what a client reads of e (protocols.ClientError):
// its kind (a malformed stream is an upstream failure to the client), and
// its message only for a bad request or a context overflow (the engine's
// words about the request, with the prompt and context sizes). The detail
// of every other failure (engine addresses, transport errors, the
// engine's words about its own configuration) is for the server's log.
func (e *Error) ClientError() *protocols.Error {
	c := &protocols.Error{Kind: e.Kind}
	switch e.Kind {
	case ErrorContextLength:
		c.Message, c.PromptTokens, c.MaxContext = e.Message, int64(e.PromptTokens), int64(e.MaxContext)
	case ErrorBadRequest:
		c.Message = e.Message
	case ErrorOverloaded, ErrorRateLimited, ErrorTimeout, ErrorCanceled:
	default: // upstream, malformed, and no other kind comes from an engine
		c.Kind = protocols.ErrorUpstream
	}
	return c
}

// newError returns an Error with msg bounded to maxMessage bytes (cut at a
// UTF-8 boundary).
func newError(kind ErrorKind, status int, msg string) *Error {
	return &Error{Kind: kind, Status: status, Message: boundMessage(msg)}
}

func boundMessage(msg string) string {
	if len(msg) <= maxMessage {
		return msg
	}
	cut := maxMessage
	for cut > 0 && msg[cut]&0xC0 == 0x80 {
		cut--
	}
	return msg[:cut] + "…"
}

// ctxError maps the caller's context error: cancellation is ErrorCanceled,
// an expired deadline ErrorTimeout; both unwrap to the context's error.
func ctxError(err error) *Error {
	if errors.Is(err, context.DeadlineExceeded) {
		return &Error{Kind: ErrorTimeout, Message: "engine request: the caller's deadline expired", Err: err}
	}
	return &Error{Kind: ErrorCanceled, Message: "engine request canceled by the caller", Err: err}
}

// httpError maps an engine's HTTP error answer (status and a bounded
// prefix of its body) to an Error.
//
//	400/413/422 with a context-length message  ErrorContextLength
//	429                                         ErrorRateLimited
//	503, 529                                    ErrorOverloaded
//	401, 403, 404, 405                          ErrorUpstream
//	other 4xx                                   ErrorBadRequest
//	5xx, anything else                          ErrorUpstream
//
// 401, 403, 404 and 405 are answers to the server, not to the client's
// request: a wrong engine API key, base URL or served model name (the
// server's own misconfiguration, which its operator must see and its
// clients must not be blamed for). The message is the engine's own
// ("error.message", "message" or "detail" of a JSON body, else the body
// text), bounded.
func httpError(status int, body []byte) *Error {
	msg := errorBodyMessage(body)
	if msg == "" {
		msg = http.StatusText(status)
	}
	msg = "engine answered " + strconv.Itoa(status) + ": " + msg
	e := newError(ErrorUpstream, status, msg)
	switch {
	case status == http.StatusTooManyRequests:
		e.Kind = ErrorRateLimited
	case status == http.StatusServiceUnavailable || status == 529:
		e.Kind = ErrorOverloaded
	case serverMisconfigured(status):
		// ErrorUpstream: the server's configuration, not the request
	case status >= 400 && status < 500:
		e.Kind = ErrorBadRequest
		if isContextOverflow(msg) {
			e.Kind = ErrorContextLength
			e.PromptTokens, e.MaxContext = contextNumbers(msg)
		}
	}
	if e.Kind == ErrorUpstream && isOverloaded(msg) {
		e.Kind = ErrorOverloaded
	}
	return e
}

// serverMisconfigured reports the statuses an engine answers a server
// whose configuration is wrong (its key, its URL, its model name).
func serverMisconfigured(status int) bool {
	switch status {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusMethodNotAllowed:
		return true
	}
	return false
}

// streamError maps an error object the engine sent inside its stream
// ({"error": {...}} or {"object": "error", ...}).
func streamError(v *fastjson.Value) *Error {
	obj := v
	if ev := v.Get("error"); ev != nil {
		obj = ev
	}
	var msg []byte
	switch obj.Type() {
	case fastjson.TypeString:
		msg = obj.GetStringBytes()
	case fastjson.TypeObject:
		msg = obj.GetStringBytes("message")
	}
	code := 0
	if c := obj.Get("code"); c != nil && c.Type() == fastjson.TypeNumber {
		code = c.GetInt()
	}
	if len(msg) == 0 {
		msg = []byte("the engine reported an error in its stream")
	}
	if code >= 400 && code < 600 {
		return httpError(code, msg)
	}
	e := newError(ErrorUpstream, 0, "engine error: "+string(msg))
	switch {
	case isContextOverflow(e.Message):
		e.Kind = ErrorContextLength
		e.PromptTokens, e.MaxContext = contextNumbers(e.Message)
	case isOverloaded(e.Message):
		e.Kind = ErrorOverloaded
	}
	return e
}

// errorBodyMessage extracts the message of an engine error body: vLLM
// ({"error": {"message"}} or the older {"object": "error", "message"}),
// SGLang ({"error": {"message"}} or {"detail"}), trtllm-serve
// ({"message"}), FastAPI ({"detail": str | [{"msg"}]}); else the body as
// text.
func errorBodyMessage(body []byte) string {
	body = bytes.TrimSpace(body)
	var p fastjson.Parser
	v, err := p.ParseBytes(body)
	if err != nil || v.Type() != fastjson.TypeObject {
		return string(body)
	}
	if e := v.Get("error"); e != nil {
		if e.Type() == fastjson.TypeString {
			return string(e.GetStringBytes())
		}
		if m := e.GetStringBytes("message"); len(m) > 0 {
			return string(m)
		}
	}
	if m := v.GetStringBytes("message"); len(m) > 0 {
		return string(m)
	}
	if d := v.Get("detail"); d != nil {
		switch d.Type() {
		case fastjson.TypeString:
			return string(d.GetStringBytes())
		case fastjson.TypeArray:
			if a := d.GetArray(); len(a) > 0 {
				if m := a[0].GetStringBytes("msg"); len(m) > 0 {
					return string(m)
				}
			}
		}
	}
	return string(body)
}

// contextMarkers are substrings of the engines' context-overflow messages:
//
//	vLLM:   "This model's maximum context length is 4096 tokens. However, you
//	        requested 5000 tokens (4000 in the messages, 1000 in the
//	        completion)…", "…your request has 5000 input tokens…",
//	        "'max_tokens' … is too large: 1000. This model's maximum context
//	        length is 4096 tokens and your request has 3500 input tokens…"
//	SGLang: "The input (5000 tokens) is longer than the model's context
//	        length (4096 tokens).", "Requested token count exceeds the
//	        model's maximum context length of 4096 tokens…"
//	        "The decoder prompt (length 5000) is longer than the maximum
//	        model length of 4096. Make sure that `max_model_len` is …"
//	trtllm: "Prompt length (5000) exceeds max_seq_len (4096)"-style messages
var contextMarkers = []string{
	"maximum context length",
	"context length",
	"context window",
	"max_model_len",
	"max_seq_len",
	"prompt is too long",
	"input is too long",
	"too many tokens",
}

func isContextOverflow(msg string) bool {
	m := []byte(msg)
	for _, k := range contextMarkers {
		if containsFold(m, k) {
			return true
		}
	}
	return false
}

func isOverloaded(msg string) bool {
	m := []byte(msg)
	return containsFold(m, "overloaded") || containsFold(m, "queue is full") ||
		containsFold(m, "server is busy") || containsFold(m, "out of capacity")
}

// containsFold reports whether s contains the lower-case ASCII substring
// sub, ignoring ASCII case in s.
func containsFold(s []byte, sub string) bool {
	n := len(sub)
	for i := 0; i+n <= len(s); i++ {
		j := 0
		for ; j < n; j++ {
			c := s[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != sub[j] {
				break
			}
		}
		if j == n {
			return true
		}
	}
	return false
}

// contextNumbers extracts the prompt length and the context limit from a
// context-overflow message, when it states them (0 when not).
func contextNumbers(msg string) (prompt, limit int) {
	m := []byte(msg)
	limit = numberAfter(m, "maximum context length is ")
	if limit == 0 {
		limit = numberAfter(m, "maximum context length of ")
	}
	if limit == 0 {
		limit = numberAfter(m, "context length (")
	}
	if limit == 0 {
		limit = numberAfter(m, "maximum model length of ")
	}
	if limit == 0 {
		limit = numberAfter(m, "max_seq_len (")
	}
	prompt = numberAfter(m, "request has ")
	for _, k := range []string{"The input (", "prompt (length ", "Prompt length (", "tokens: "} {
		if prompt != 0 {
			break
		}
		prompt = numberAfter(m, k)
	}
	if prompt == 0 {
		if n := numberAfter(m, "requested "); n > 0 {
			// "you requested 5000 tokens (4000 in the messages, …)": the
			// prompt is the number in parentheses.
			prompt = numberAfter(m, "tokens (")
			if prompt == 0 {
				prompt = n
			}
		}
	}
	return prompt, limit
}

// numberAfter returns the decimal number right after the first occurrence
// of key in m, or 0.
func numberAfter(m []byte, key string) int {
	i := bytes.Index(m, []byte(key))
	if i < 0 {
		return 0
	}
	n := 0
	for _, c := range m[i+len(key):] {
		if c < '0' || c > '9' || n > 1<<40 {
			break
		}
		n = n*10 + int(c-'0')
	}
	return n
}
