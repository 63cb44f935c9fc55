package server

import (
	"strconv"

	"github.com/agentwire/agentwire/preprocess"
	"github.com/agentwire/agentwire/protocols"
)

// validate applies the checks every generation request passes before the
// Backend sees it, each failure the API's 400: a model name of at most
// MaxModelNameBytes; something to answer (chat messages, a completions
// prompt, Responses input; Anthropic's own Validate, run at decoding,
// covers messages and max_tokens); and output limits and choice counts
// that are at least 1 when given (max_tokens, max_completion_tokens,
// max_output_tokens, n). max_tokens 0, n 0 and bodies without messages
// used to be served with 200.
func validate(req *Request) error {
	if err := checkModelName(req.Model); err != nil {
		return err
	}
	bad := BadRequest
	for _, lim := range limitsOf(req) {
		if v, ok := lim.v.Get(); ok && v <= 0 {
			return bad(lim.name + " must be at least 1, got " + strconv.Itoa(v))
		}
	}
	switch req.API {
	case preprocess.APIChat:
		if len(req.Chat.Messages) == 0 {
			return bad("messages must not be empty")
		}
	case preprocess.APICompletions:
		if req.Completion.Prompt.IsZero() {
			return bad("prompt is required")
		}
	case preprocess.APIResponses:
		if in, ok := req.Responses.Input.Get(); !ok || in.String == "" && len(in.Array) == 0 {
			return bad("input must not be empty")
		}
	}
	return nil
}

type limit struct {
	name string
	v    protocols.Opt[int]
}

// limitsOf returns the request's output limits and choice count.
func limitsOf(req *Request) []limit {
	switch req.API {
	case preprocess.APIChat:
		c := req.Chat
		return []limit{{"max_tokens", c.MaxTokens}, {"max_completion_tokens", c.MaxCompletionTokens}, {"n", c.N}}
	case preprocess.APICompletions:
		c := req.Completion
		return []limit{{"max_tokens", c.MaxTokens}, {"n", c.N}}
	case preprocess.APIResponses:
		return []limit{{"max_output_tokens", req.Responses.MaxOutputTokens}}
	}
	return nil
}

// checkModelName rejects a model name longer than MaxModelNameBytes (a
// 400 each API shapes; the name itself is not echoed).
func checkModelName(model string) error {
	if len(model) <= MaxModelNameBytes {
		return nil
	}
	return BadRequest("model: the name is " + strconv.Itoa(len(model)) + " bytes; the limit is " + strconv.Itoa(MaxModelNameBytes))
}
