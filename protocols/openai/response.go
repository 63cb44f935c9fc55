package openai

import (
	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/internal/wire"
	"github.com/agentwire/agentwire/protocols/nvext"
)

// ChatResponse is a unary chat.completion.
type ChatResponse struct {
	ID                string          `json:"id"`
	Object            string          `json:"object"` // "chat.completion"
	Created           int64           `json:"created"`
	Model             string          `json:"model"`
	SystemFingerprint Opt[string]     `json:"system_fingerprint"` // null when absent
	ServiceTier       Opt[string]     `json:"service_tier"`       // null when absent
	Choices           []Choice        `json:"choices"`
	Usage             *Usage          `json:"usage,omitzero"`
	NvExt             *nvext.Response `json:"nvext,omitzero"`

	Extra protocols.Extra `json:"-"`
}

// Choice is one choice of a unary response.
type Choice struct {
	Index        int             `json:"index"`
	Message      ResponseMessage `json:"message"`
	FinishReason Opt[string]     `json:"finish_reason"`
	Logprobs     *Logprobs       `json:"logprobs"` // null unless requested

	Extra protocols.Extra `json:"-"`
}

// ResponseMessage is the assistant message of a unary response. content and
// reasoning_content are always written (null when absent; Dynamo DGH-651).
type ResponseMessage struct {
	Role             string         `json:"role"`
	Content          Opt[Content]   `json:"content"`
	ReasoningContent Opt[Reasoning] `json:"reasoning_content"`
	Refusal          Opt[string]    `json:"refusal,omitzero"`
	ToolCalls        []ToolCall     `json:"tool_calls,omitzero"`
	FunctionCall     *FunctionCall  `json:"function_call,omitzero"`
	Audio            RawJSON        `json:"audio,omitzero"`

	Extra protocols.Extra `json:"-"`
}

// Usage is the chat usage object.
type Usage struct {
	PromptTokens            int64                    `json:"prompt_tokens"`
	CompletionTokens        int64                    `json:"completion_tokens"`
	TotalTokens             int64                    `json:"total_tokens"`
	PromptTokensDetails     *PromptTokensDetails     `json:"prompt_tokens_details,omitzero"`
	CompletionTokensDetails *CompletionTokensDetails `json:"completion_tokens_details,omitzero"`

	Extra protocols.Extra `json:"-"`
}

// PromptTokensDetails is usage.prompt_tokens_details.
type PromptTokensDetails struct {
	CachedTokens int64 `json:"cached_tokens"`

	Extra protocols.Extra `json:"-"` // audio_tokens, …
}

// CompletionTokensDetails is usage.completion_tokens_details.
type CompletionTokensDetails struct {
	ReasoningTokens int64 `json:"reasoning_tokens"`

	Extra protocols.Extra `json:"-"` // audio_tokens, accepted_prediction_tokens, …
}

// UsageFrom converts neutral usage to the chat usage object. Details are
// written only when non-zero.
func UsageFrom(u protocols.Usage) Usage {
	out := Usage{
		PromptTokens:     u.PromptTokens,
		CompletionTokens: u.CompletionTokens,
		TotalTokens:      u.PromptTokens + u.CompletionTokens,
	}
	if u.CachedTokens > 0 {
		out.PromptTokensDetails = &PromptTokensDetails{CachedTokens: u.CachedTokens}
	}
	if u.ReasoningTokens > 0 {
		out.CompletionTokensDetails = &CompletionTokensDetails{ReasoningTokens: u.ReasoningTokens}
	}
	return out
}

// Neutral converts the chat usage object to neutral usage.
func (u *Usage) Neutral() protocols.Usage {
	if u == nil {
		return protocols.Usage{}
	}
	out := protocols.Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens}
	if u.PromptTokensDetails != nil {
		out.CachedTokens = u.PromptTokensDetails.CachedTokens
	}
	if u.CompletionTokensDetails != nil {
		out.ReasoningTokens = u.CompletionTokensDetails.ReasoningTokens
	}
	return out
}

// Logprobs is the logprobs object of a choice.
type Logprobs struct {
	Content []TokenLogprob `json:"content"`
	Refusal []TokenLogprob `json:"refusal,omitzero"`

	Extra protocols.Extra `json:"-"`
}

// TokenLogprob is one sampled token with its alternatives.
type TokenLogprob struct {
	Token       string       `json:"token"`
	Logprob     float64      `json:"logprob"`
	Bytes       []int        `json:"bytes"`
	TopLogprobs []TopLogprob `json:"top_logprobs"`
	TokenID     Opt[uint32]  `json:"token_id,omitzero"` // Dynamo extension
}

// TopLogprob is one alternative token.
type TopLogprob struct {
	Token   string      `json:"token"`
	Logprob float64     `json:"logprob"`
	Bytes   []int       `json:"bytes"`
	TokenID Opt[uint32] `json:"token_id,omitzero"`
}

// ChatChunk is one chat.completion.chunk of a stream. The usage chunk has an
// empty (non-nil) Choices and Usage set.
type ChatChunk struct {
	ID                string          `json:"id"`
	Object            string          `json:"object"` // "chat.completion.chunk"
	Created           int64           `json:"created"`
	Model             string          `json:"model"`
	SystemFingerprint Opt[string]     `json:"system_fingerprint,omitzero"`
	ServiceTier       Opt[string]     `json:"service_tier,omitzero"`
	Choices           []ChunkChoice   `json:"choices"`
	Usage             Opt[Usage]      `json:"usage,omitzero"` // null on every chunk but the last with include_usage
	NvExt             *nvext.Response `json:"nvext,omitzero"`

	Extra protocols.Extra `json:"-"`
}

// ChunkChoice is one choice of a stream chunk.
type ChunkChoice struct {
	Index        int         `json:"index"`
	Delta        Delta       `json:"delta"`
	Logprobs     *Logprobs   `json:"logprobs"`
	FinishReason Opt[string] `json:"finish_reason"`

	Extra protocols.Extra `json:"-"`
}

// Delta is the change carried by a chunk. Absent members are omitted;
// content is omitted rather than "".
type Delta struct {
	Role             string          `json:"role,omitzero"`
	Content          Opt[string]     `json:"content,omitzero"`
	ReasoningContent Opt[string]     `json:"reasoning_content,omitzero"`
	ToolCalls        []ToolCallDelta `json:"tool_calls,omitzero"`
	Refusal          Opt[string]     `json:"refusal,omitzero"`
	FunctionCall     RawJSON         `json:"function_call,omitzero"`

	Extra protocols.Extra `json:"-"`
}

// ToolCallDelta is one tool call fragment: the first carries index, id,
// type, name and "arguments":""; later ones index and an arguments fragment.
type ToolCallDelta struct {
	Index    int            `json:"index"`
	ID       string         `json:"id,omitzero"`
	Type     string         `json:"type,omitzero"`
	Function *FunctionDelta `json:"function,omitzero"`
}

// FunctionDelta is the function part of a ToolCallDelta.
type FunctionDelta struct {
	Name      string      `json:"name,omitzero"`
	Arguments Opt[string] `json:"arguments,omitzero"`
}

// ToolCallDispatch is the data of a `tool_call_dispatch` side-channel event:
// one complete call, sent as soon as it is known.
type ToolCallDispatch struct {
	ChoiceIndex int                  `json:"choice_index"`
	ToolCall    ToolCallDispatchCall `json:"tool_call"`
}

// ToolCallDispatchCall is ToolCall with its position, as the dispatch event
// writes it.
type ToolCallDispatchCall struct {
	Index    int          `json:"index"`
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function FunctionCall `json:"function"`
}

// ReasoningDispatch is the data of a `reasoning_dispatch` side-channel
// event: one whole reasoning block.
type ReasoningDispatch struct {
	Index            int    `json:"index"`
	ReasoningContent string `json:"reasoning_content"`
}

// Side-channel SSE event names.
const (
	EventToolCallDispatch  = "tool_call_dispatch"
	EventReasoningDispatch = "reasoning_dispatch"
	EventError             = "error"
)

func (r ChatResponse) MarshalJSON() ([]byte, error) {
	type plain ChatResponse
	return wire.Marshal("", plain(r), r.Extra)
}

func (r *ChatResponse) UnmarshalJSON(data []byte) error {
	type plain ChatResponse
	return wire.Decode(data, (*plain)(r), &r.Extra)
}

func (c Choice) MarshalJSON() ([]byte, error) {
	type plain Choice
	return wire.Marshal("", plain(c), c.Extra)
}

func (c *Choice) UnmarshalJSON(data []byte) error {
	type plain Choice
	return wire.Decode(data, (*plain)(c), &c.Extra)
}

func (m ResponseMessage) MarshalJSON() ([]byte, error) {
	type plain ResponseMessage
	return wire.Marshal("", plain(m), m.Extra)
}

func (m *ResponseMessage) UnmarshalJSON(data []byte) error {
	type plain ResponseMessage
	return wire.Decode(data, (*plain)(m), &m.Extra)
}

func (u Usage) MarshalJSON() ([]byte, error) {
	type plain Usage
	return wire.Marshal("", plain(u), u.Extra)
}

func (u *Usage) UnmarshalJSON(data []byte) error {
	type plain Usage
	return wire.Decode(data, (*plain)(u), &u.Extra)
}

func (d PromptTokensDetails) MarshalJSON() ([]byte, error) {
	type plain PromptTokensDetails
	return wire.Marshal("", plain(d), d.Extra)
}

func (d *PromptTokensDetails) UnmarshalJSON(data []byte) error {
	type plain PromptTokensDetails
	return wire.Decode(data, (*plain)(d), &d.Extra)
}

func (d CompletionTokensDetails) MarshalJSON() ([]byte, error) {
	type plain CompletionTokensDetails
	return wire.Marshal("", plain(d), d.Extra)
}

func (d *CompletionTokensDetails) UnmarshalJSON(data []byte) error {
	type plain CompletionTokensDetails
	return wire.Decode(data, (*plain)(d), &d.Extra)
}

func (l Logprobs) MarshalJSON() ([]byte, error) {
	type plain Logprobs
	return wire.Marshal("", plain(l), l.Extra)
}

func (l *Logprobs) UnmarshalJSON(data []byte) error {
	type plain Logprobs
	return wire.Decode(data, (*plain)(l), &l.Extra)
}

func (c ChatChunk) MarshalJSON() ([]byte, error) {
	type plain ChatChunk
	return wire.Marshal("", plain(c), c.Extra)
}

func (c *ChatChunk) UnmarshalJSON(data []byte) error {
	type plain ChatChunk
	return wire.Decode(data, (*plain)(c), &c.Extra)
}

func (c ChunkChoice) MarshalJSON() ([]byte, error) {
	type plain ChunkChoice
	return wire.Marshal("", plain(c), c.Extra)
}

func (c *ChunkChoice) UnmarshalJSON(data []byte) error {
	type plain ChunkChoice
	return wire.Decode(data, (*plain)(c), &c.Extra)
}

func (d Delta) MarshalJSON() ([]byte, error) {
	type plain Delta
	return wire.Marshal("", plain(d), d.Extra)
}

func (d *Delta) UnmarshalJSON(data []byte) error {
	type plain Delta
	return wire.Decode(data, (*plain)(d), &d.Extra)
}
