package openai

import (
	"fmt"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/internal/wire"
	"github.com/agentwire/agentwire/protocols/nvext"
)

// CompletionRequest is the body of POST /v1/completions.
type CompletionRequest struct {
	Model            string             `json:"model,omitzero"`
	Prompt           Prompt             `json:"prompt,omitzero"`
	PromptEmbeds     RawJSON            `json:"prompt_embeds,omitzero"` // bypasses tokenisation
	Suffix           string             `json:"suffix,omitzero"`
	Echo             Opt[bool]          `json:"echo,omitzero"`
	BestOf           Opt[int]           `json:"best_of,omitzero"`
	MaxTokens        Opt[int]           `json:"max_tokens,omitzero"`
	Temperature      Opt[float64]       `json:"temperature,omitzero"`
	TopP             Opt[float64]       `json:"top_p,omitzero"`
	N                Opt[int]           `json:"n,omitzero"`
	Stream           Opt[bool]          `json:"stream,omitzero"`
	StreamOptions    *StreamOptions     `json:"stream_options,omitzero"`
	Logprobs         Opt[int]           `json:"logprobs,omitzero"`
	Stop             Opt[Stop]          `json:"stop,omitzero"`
	Seed             Opt[int64]         `json:"seed,omitzero"`
	PresencePenalty  Opt[float64]       `json:"presence_penalty,omitzero"`
	FrequencyPenalty Opt[float64]       `json:"frequency_penalty,omitzero"`
	LogitBias        map[string]float64 `json:"logit_bias,omitzero"`
	User             string             `json:"user,omitzero"`

	EngineExt

	NvExt *nvext.NvExt `json:"nvext,omitzero"`

	// Original is the body the request was decoded from, set by the
	// package's Decode function (not by UnmarshalJSON): for proxies that
	// forward the client's exact bytes. It aliases the caller's buffer (no
	// copy): do not modify that buffer while the request is in use.
	Original []byte `json:"-"`

	Extra protocols.Extra `json:"-"`
}

// Prompt is a completions prompt: a string, an array of strings, an array
// of token ids, or an array of token-id arrays. Exactly one member is set
// (Text for a bare string). Dynamo serves only one prompt per request: see
// Prompt.Single.
type Prompt struct {
	Text        Opt[string]
	Texts       []string
	Tokens      []uint32
	TokenArrays [][]uint32
}

// IsZero reports whether no prompt was given.
func (p Prompt) IsZero() bool {
	return p.Text.IsZero() && p.Texts == nil && p.Tokens == nil && p.TokenArrays == nil
}

// MarshalJSON writes the form that is set.
func (p Prompt) MarshalJSON() ([]byte, error) {
	switch {
	case p.Texts != nil:
		return jsonx.Marshal(p.Texts)
	case p.Tokens != nil:
		return jsonx.Marshal(p.Tokens)
	case p.TokenArrays != nil:
		return jsonx.Marshal(p.TokenArrays)
	}
	return jsonx.AppendString(nil, p.Text.Value()), nil
}

// UnmarshalJSON reads any of the four forms.
func (p *Prompt) UnmarshalJSON(data []byte) error {
	*p = Prompt{}
	switch jsonx.Kind(data) {
	case '"':
		var s string
		if err := jsonx.Decode(data, &s); err != nil {
			return err
		}
		p.Text = protocols.Some(s)
		return nil
	case '[':
		var raw []RawJSON
		if err := jsonx.Decode(data, &raw); err != nil {
			return err
		}
		if len(raw) == 0 {
			p.Texts = []string{}
			return nil
		}
		var err error
		switch jsonx.Kind(raw[0]) {
		case '"':
			p.Texts = []string{}
			err = jsonx.Decode(data, &p.Texts)
		case '[':
			p.TokenArrays = [][]uint32{}
			err = jsonx.Decode(data, &p.TokenArrays)
		default:
			p.Tokens = []uint32{}
			err = jsonx.Decode(data, &p.Tokens)
		}
		if err != nil {
			return fmt.Errorf("openai: prompt must be a string, strings, token ids or arrays of token ids: %w", err)
		}
		return nil
	}
	return fmt.Errorf("openai: prompt must be a string or an array, got %s", wire.KindName(data))
}

// Single returns the one prompt of the request, as text or token ids. More
// than one prompt is Dynamo's 400 "Batch text input not supported for more
// than one text in requests (got N)".
func (p Prompt) Single() (text string, tokens []uint32, err error) {
	switch {
	case p.Texts != nil:
		if len(p.Texts) != 1 {
			return "", nil, BadRequest(fmt.Sprintf("Batch text input not supported for more than one text in requests (got %d)", len(p.Texts)))
		}
		return p.Texts[0], nil, nil
	case p.TokenArrays != nil:
		if len(p.TokenArrays) != 1 {
			return "", nil, BadRequest(fmt.Sprintf("Batch text input not supported for more than one text in requests (got %d)", len(p.TokenArrays)))
		}
		return "", p.TokenArrays[0], nil
	case p.Tokens != nil:
		return "", p.Tokens, nil
	}
	return p.Text.Value(), nil, nil
}

// CompletionResponse is a text_completion: the unary response and, with the
// same shape, each stream chunk (choices carry text fragments).
type CompletionResponse struct {
	ID                string             `json:"id"`
	Object            string             `json:"object"` // "text_completion"
	Created           int64              `json:"created"`
	Model             string             `json:"model"`
	SystemFingerprint Opt[string]        `json:"system_fingerprint,omitzero"`
	Choices           []CompletionChoice `json:"choices"`
	Usage             Opt[Usage]         `json:"usage,omitzero"`
	NvExt             *nvext.Response    `json:"nvext,omitzero"`

	Extra protocols.Extra `json:"-"`
}

// CompletionChoice is one completions choice.
type CompletionChoice struct {
	Index        int         `json:"index"`
	Text         string      `json:"text"`
	Logprobs     RawJSON     `json:"logprobs"` // legacy {tokens, token_logprobs, top_logprobs, text_offset}; null unless requested
	FinishReason Opt[string] `json:"finish_reason"`

	Extra protocols.Extra `json:"-"`
}

func (r CompletionRequest) MarshalJSON() ([]byte, error) {
	type plain CompletionRequest
	return wire.Marshal("", plain(r), r.Extra)
}

func (r *CompletionRequest) UnmarshalJSON(data []byte) error {
	type plain CompletionRequest
	return wire.Decode(data, (*plain)(r), &r.Extra)
}

func (r CompletionResponse) MarshalJSON() ([]byte, error) {
	type plain CompletionResponse
	return wire.Marshal("", plain(r), r.Extra)
}

func (r *CompletionResponse) UnmarshalJSON(data []byte) error {
	type plain CompletionResponse
	return wire.Decode(data, (*plain)(r), &r.Extra)
}

func (c CompletionChoice) MarshalJSON() ([]byte, error) {
	type plain CompletionChoice
	return wire.Marshal("", plain(c), c.Extra)
}

func (c *CompletionChoice) UnmarshalJSON(data []byte) error {
	type plain CompletionChoice
	return wire.Decode(data, (*plain)(c), &c.Extra)
}
