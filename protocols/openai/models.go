package openai

import (
	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/internal/wire"
)

// ModelList is the OpenAI-shaped body of GET /v1/models.
type ModelList struct {
	Object string  `json:"object"` // "list"
	Data   []Model `json:"data"`
}

// Model is one model (GET /v1/models/{id} answers with one).
type Model struct {
	ID              string     `json:"id"`
	Object          string     `json:"object"` // "model"
	Created         int64      `json:"created"`
	OwnedBy         string     `json:"owned_by"`
	ContextWindow   Opt[int64] `json:"context_window,omitzero"`
	MaxOutputTokens Opt[int64] `json:"max_output_tokens,omitzero"`

	Extra protocols.Extra `json:"-"`
}

func (m Model) MarshalJSON() ([]byte, error) {
	type plain Model
	return wire.Marshal("", plain(m), m.Extra)
}

func (m *Model) UnmarshalJSON(data []byte) error {
	type plain Model
	return wire.Decode(data, (*plain)(m), &m.Extra)
}

// TokenizeRequest is the body of POST /tokenize in either form: completion
// (Prompt) or chat (Messages, which renders the template first).
type TokenizeRequest struct {
	Model                string             `json:"model,omitzero"`
	Prompt               Opt[string]        `json:"prompt,omitzero"`
	Messages             []Message          `json:"messages,omitzero"`
	AddSpecialTokens     Opt[bool]          `json:"add_special_tokens,omitzero"`     // default true (completion form), false (chat form)
	AddGenerationPrompt  Opt[bool]          `json:"add_generation_prompt,omitzero"`  // default true
	ContinueFinalMessage Opt[bool]          `json:"continue_final_message,omitzero"` // default false
	ChatTemplate         string             `json:"chat_template,omitzero"`
	ChatTemplateKwargs   map[string]RawJSON `json:"chat_template_kwargs,omitzero"`
	Tools                []Tool             `json:"tools,omitzero"`
	ReturnTokenStrs      Opt[bool]          `json:"return_token_strs,omitzero"`

	Extra protocols.Extra `json:"-"`
}

// IsChat reports whether r is the chat form.
func (r *TokenizeRequest) IsChat() bool { return r.Messages != nil }

// TokenizeResponse is the body answered by /tokenize.
type TokenizeResponse struct {
	Count       int      `json:"count"`
	MaxModelLen int      `json:"max_model_len"`
	Tokens      []uint32 `json:"tokens"`
	TokenStrs   []string `json:"token_strs,omitzero"`
}

// DetokenizeRequest is the body of POST /detokenize.
type DetokenizeRequest struct {
	Model  string   `json:"model,omitzero"`
	Tokens []uint32 `json:"tokens"`

	Extra protocols.Extra `json:"-"`
}

// DetokenizeResponse is the body answered by /detokenize.
type DetokenizeResponse struct {
	Prompt string `json:"prompt"`
}

func (r TokenizeRequest) MarshalJSON() ([]byte, error) {
	type plain TokenizeRequest
	return wire.Marshal("", plain(r), r.Extra)
}

func (r *TokenizeRequest) UnmarshalJSON(data []byte) error {
	type plain TokenizeRequest
	return wire.Decode(data, (*plain)(r), &r.Extra)
}

func (r DetokenizeRequest) MarshalJSON() ([]byte, error) {
	type plain DetokenizeRequest
	return wire.Marshal("", plain(r), r.Extra)
}

func (r *DetokenizeRequest) UnmarshalJSON(data []byte) error {
	type plain DetokenizeRequest
	return wire.Decode(data, (*plain)(r), &r.Extra)
}
