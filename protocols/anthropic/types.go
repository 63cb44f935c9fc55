package anthropic

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/internal/wire"
)

// Opt is protocols.Opt, repeated here for brevity.
type Opt[T any] = protocols.Opt[T]

// RawJSON is a raw JSON value passed through without interpretation.
type RawJSON = jsonx.RawMessage

// Fixed strings.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"

	BlockText                = "text"
	BlockImage               = "image"
	BlockToolUse             = "tool_use"
	BlockToolResult          = "tool_result"
	BlockThinking            = "thinking"
	BlockRedactedThinking    = "redacted_thinking"
	BlockServerToolUse       = "server_tool_use"
	BlockWebSearchToolResult = "web_search_tool_result"

	StopEndTurn      = "end_turn"
	StopMaxTokens    = "max_tokens"
	StopStopSequence = "stop_sequence"
	StopToolUse      = "tool_use"
	StopRefusal      = "refusal"
	StopPauseTurn    = "pause_turn"

	// SignatureErased is the placeholder signature written on thinking
	// blocks the library produces (clients that require a signature on
	// replayed thinking accept it; incoming signatures are not validated).
	SignatureErased = "erased"
)

// MessagesRequest is the body of POST /v1/messages.
type MessagesRequest struct {
	Model             string        `json:"model"`
	MaxTokens         Opt[int]      `json:"max_tokens,omitzero"` // required; see Validate
	Messages          []Message     `json:"messages"`
	System            Opt[System]   `json:"system,omitzero"`
	Temperature       Opt[float64]  `json:"temperature,omitzero"`
	TopP              Opt[float64]  `json:"top_p,omitzero"`
	TopK              Opt[int]      `json:"top_k,omitzero"`
	StopSequences     []string      `json:"stop_sequences,omitzero"`
	Stream            Opt[bool]     `json:"stream,omitzero"`
	Metadata          *Metadata     `json:"metadata,omitzero"`
	ServiceTier       string        `json:"service_tier,omitzero"`
	Container         RawJSON       `json:"container,omitzero"`
	Tools             []Tool        `json:"tools,omitzero"`
	ToolChoice        *ToolChoice   `json:"tool_choice,omitzero"`
	Thinking          *Thinking     `json:"thinking,omitzero"`
	CacheControl      *CacheControl `json:"cache_control,omitzero"`      // top-level automatic caching
	OutputConfig      RawJSON       `json:"output_config,omitzero"`      // opaque (Claude Code: effort)
	ContextManagement RawJSON       `json:"context_management,omitzero"` // beta; opaque
	// Safeguards is sent by interactive Claude Code sessions (its shape is
	// not documented; kept opaque and written back). Strict decoding must
	// accept it: Claude Code retries without its safeguards when refused.
	Safeguards RawJSON `json:"safeguards,omitzero"`
	NvExt      RawJSON `json:"nvext,omitzero"` // gated; see NvExtCacheSalt

	// Original is the body the request was decoded from, set by the
	// package's Decode function (not by UnmarshalJSON): for proxies that
	// forward the client's exact bytes. It aliases the caller's buffer (no
	// copy): do not modify that buffer while the request is in use.
	Original []byte `json:"-"`

	Extra protocols.Extra `json:"-"`
}

// System is the system prompt: a string or an array of text blocks.
type System = protocols.StringOrArray[TextBlock]

// SystemText joins the system blocks with "\n" (a string is returned as is).
func SystemText(s System) string {
	if !s.IsArray() {
		return s.String
	}
	parts := make([]string, len(s.Array))
	for i, b := range s.Array {
		parts[i] = b.Text
	}
	return strings.Join(parts, "\n")
}

// Message is one conversation turn.
type Message struct {
	Role    string  `json:"role"`
	Content Content `json:"content"`
	// OutputConfig is a per-turn output_config (Claude Code sends one on
	// the system message it puts inside messages; beta
	// per-turn-control). Opaque.
	OutputConfig RawJSON `json:"output_config,omitzero"`

	Extra protocols.Extra `json:"-"`
}

// Content is message content: a string or an array of blocks.
type Content = protocols.StringOrArray[ContentBlock]

// Metadata is the request metadata.
type Metadata struct {
	UserID string `json:"user_id,omitzero"` // Claude Code sends a JSON document as a string

	Extra protocols.Extra `json:"-"`
}

// Tool is a tool definition. Type is absent or "custom" for client tools
// (which require InputSchema); any other type is a server tool
// (web_search_…), which agentwire does not execute.
type Tool struct {
	Type         string        `json:"type,omitzero"`
	Name         string        `json:"name"`
	Description  string        `json:"description,omitzero"`
	InputSchema  RawJSON       `json:"input_schema,omitzero"`
	CacheControl *CacheControl `json:"cache_control,omitzero"`
	DeferLoading Opt[bool]     `json:"defer_loading,omitzero"` // advanced tool use (Claude Code)
	// EagerInputStreaming asks for the tool's input to stream without
	// server-side buffering (pi sends it on every tool). Accepted and
	// ignored: input_json_delta events always stream as the model writes.
	EagerInputStreaming Opt[bool] `json:"eager_input_streaming,omitzero"`

	Extra protocols.Extra `json:"-"`
}

// IsCustom reports whether t is a client tool.
func (t *Tool) IsCustom() bool { return t.Type == "" || t.Type == "custom" }

// ToolChoice is {"type":"auto"|"any"|"none"} or {"type":"tool","name"}.
type ToolChoice struct {
	Type                   string    `json:"type"`
	Name                   string    `json:"name,omitzero"`
	DisableParallelToolUse Opt[bool] `json:"disable_parallel_tool_use,omitzero"`

	Extra protocols.Extra `json:"-"`
}

// Thinking is the thinking configuration: enabled (with budget_tokens),
// disabled, or adaptive.
type Thinking struct {
	Type         string   `json:"type"`
	BudgetTokens Opt[int] `json:"budget_tokens,omitzero"`
	Display      string   `json:"display,omitzero"` // Claude Code: "omitted"

	Extra protocols.Extra `json:"-"`
}

// CacheControl is a cache breakpoint: {"type":"ephemeral","ttl"?}.
type CacheControl struct {
	Type string  `json:"type"`
	TTL  RawJSON `json:"ttl,omitzero"` // "5m", "1h" or integer seconds

	Extra protocols.Extra `json:"-"`
}

// TTLSeconds returns the breakpoint's time to live: "5m" = 300, "1h" =
// 3600, or integer seconds, clamped to [300, 3600]; missing or unrecognised
// values give 300.
func (c *CacheControl) TTLSeconds() int {
	if c == nil || len(c.TTL) == 0 {
		return 300
	}
	var s string
	if jsonx.Kind(c.TTL) == '"' {
		if jsonx.Decode(c.TTL, &s) != nil {
			return 300
		}
		switch s {
		case "5m":
			return 300
		case "1h":
			return 3600
		}
		return 300
	}
	n, err := strconv.ParseInt(string(c.TTL), 10, 64)
	if err != nil {
		return 300
	}
	return int(min(max(n, 300), 3600))
}

// ContentBlock is one content block: exactly one Of… member is set, or Raw
// holds a block of a type this package does not model (kept verbatim so it
// survives decode → encode; translators reject it).
type ContentBlock struct {
	OfText                *TextBlock                `json:"-"`
	OfImage               *ImageBlock               `json:"-"`
	OfToolUse             *ToolUseBlock             `json:"-"`
	OfToolResult          *ToolResultBlock          `json:"-"`
	OfThinking            *ThinkingBlock            `json:"-"`
	OfRedactedThinking    *RedactedThinkingBlock    `json:"-"`
	OfServerToolUse       *ServerToolUseBlock       `json:"-"`
	OfWebSearchToolResult *WebSearchToolResultBlock `json:"-"`
	Raw                   RawJSON                   `json:"-"`
}

// Type returns the block's type.
func (b *ContentBlock) Type() string {
	switch {
	case b.OfText != nil:
		return BlockText
	case b.OfImage != nil:
		return BlockImage
	case b.OfToolUse != nil:
		return BlockToolUse
	case b.OfToolResult != nil:
		return BlockToolResult
	case b.OfThinking != nil:
		return BlockThinking
	case b.OfRedactedThinking != nil:
		return BlockRedactedThinking
	case b.OfServerToolUse != nil:
		return BlockServerToolUse
	case b.OfWebSearchToolResult != nil:
		return BlockWebSearchToolResult
	}
	t, _ := wire.PeekType(b.Raw)
	return t
}

// MarshalJSON writes the set variant.
func (b ContentBlock) MarshalJSON() ([]byte, error) {
	return wire.MarshalUnion("anthropic.ContentBlock", b.Raw, b.OfText, b.OfImage, b.OfToolUse, b.OfToolResult,
		b.OfThinking, b.OfRedactedThinking, b.OfServerToolUse, b.OfWebSearchToolResult)
}

// ErrUnsupportedBlock is wrapped by errors about content blocks that are not
// objects, have no type, or have a type the API does not accept here.
var ErrUnsupportedBlock = fmt.Errorf("anthropic: unsupported content block")

// UnmarshalJSON decodes by "type"; an unknown type is kept in Raw.
func (b *ContentBlock) UnmarshalJSON(data []byte) error {
	*b = ContentBlock{}
	typ, err := wire.PeekType(data)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrUnsupportedBlock, err)
	}
	switch typ {
	case BlockText:
		b.OfText = new(TextBlock)
		return jsonx.Decode(data, b.OfText)
	case BlockImage:
		b.OfImage = new(ImageBlock)
		return jsonx.Decode(data, b.OfImage)
	case BlockToolUse:
		b.OfToolUse = new(ToolUseBlock)
		return jsonx.Decode(data, b.OfToolUse)
	case BlockToolResult:
		b.OfToolResult = new(ToolResultBlock)
		return jsonx.Decode(data, b.OfToolResult)
	case BlockThinking:
		b.OfThinking = new(ThinkingBlock)
		return jsonx.Decode(data, b.OfThinking)
	case BlockRedactedThinking:
		b.OfRedactedThinking = new(RedactedThinkingBlock)
		return jsonx.Decode(data, b.OfRedactedThinking)
	case BlockServerToolUse:
		b.OfServerToolUse = new(ServerToolUseBlock)
		return jsonx.Decode(data, b.OfServerToolUse)
	case BlockWebSearchToolResult:
		b.OfWebSearchToolResult = new(WebSearchToolResultBlock)
		return jsonx.Decode(data, b.OfWebSearchToolResult)
	case "":
		return fmt.Errorf("%w: missing type", ErrUnsupportedBlock)
	}
	b.Raw = append(RawJSON(nil), data...)
	return nil
}

// Block constructors.

// TextBlockOf returns a text block.
func TextBlockOf(text string) ContentBlock { return ContentBlock{OfText: &TextBlock{Text: text}} }

// TextBlock is {"type":"text","text"}.
type TextBlock struct {
	Text         string        `json:"text"`
	Citations    RawJSON       `json:"citations,omitzero"`
	CacheControl *CacheControl `json:"cache_control,omitzero"`

	Extra protocols.Extra `json:"-"`
}

// ImageBlock is {"type":"image","source"}.
type ImageBlock struct {
	Source       ImageSource   `json:"source"`
	CacheControl *CacheControl `json:"cache_control,omitzero"`

	Extra protocols.Extra `json:"-"`
}

// ImageSource is an image's source: base64 (MediaType, Data) or url (URL).
type ImageSource struct {
	Type      string `json:"type"`
	MediaType string `json:"media_type,omitzero"`
	Data      string `json:"data,omitzero"`
	URL       string `json:"url,omitzero"`

	Extra protocols.Extra `json:"-"`
}

// ToolUseBlock is a tool call by the assistant. Input is written as {} when
// empty.
type ToolUseBlock struct {
	ID           string        `json:"id"`
	Name         string        `json:"name"`
	Input        RawJSON       `json:"input"`
	CacheControl *CacheControl `json:"cache_control,omitzero"`

	Extra protocols.Extra `json:"-"`
}

// ToolResultBlock is the result of a tool call, in a user turn.
type ToolResultBlock struct {
	ToolUseID    string                                     `json:"tool_use_id"`
	Content      Opt[protocols.StringOrArray[ContentBlock]] `json:"content,omitzero"`
	IsError      Opt[bool]                                  `json:"is_error,omitzero"`
	CacheControl *CacheControl                              `json:"cache_control,omitzero"`

	Extra protocols.Extra `json:"-"`
}

// ThinkingBlock is visible reasoning with its signature.
type ThinkingBlock struct {
	Thinking  string `json:"thinking"`
	Signature string `json:"signature"`

	Extra protocols.Extra `json:"-"`
}

// RedactedThinkingBlock is encrypted reasoning.
type RedactedThinkingBlock struct {
	Data string `json:"data"`

	Extra protocols.Extra `json:"-"`
}

// ServerToolUseBlock is a server tool call (web search, …).
type ServerToolUseBlock struct {
	ID    string  `json:"id"`
	Name  string  `json:"name"`
	Input RawJSON `json:"input"`

	Extra protocols.Extra `json:"-"`
}

// WebSearchToolResultBlock is a server web search result.
type WebSearchToolResultBlock struct {
	ToolUseID string  `json:"tool_use_id"`
	Content   RawJSON `json:"content"`

	Extra protocols.Extra `json:"-"`
}

// CountTokensRequest is the body of POST /v1/messages/count_tokens.
type CountTokensRequest struct {
	Model        string        `json:"model"`
	Messages     []Message     `json:"messages"`
	System       Opt[System]   `json:"system,omitzero"`
	Tools        []Tool        `json:"tools,omitzero"`
	ToolChoice   *ToolChoice   `json:"tool_choice,omitzero"`
	Thinking     *Thinking     `json:"thinking,omitzero"`
	CacheControl *CacheControl `json:"cache_control,omitzero"`

	// Original is the body the request was decoded from, set by the
	// package's Decode function (not by UnmarshalJSON): for proxies that
	// forward the client's exact bytes. It aliases the caller's buffer (no
	// copy): do not modify that buffer while the request is in use.
	Original []byte `json:"-"`

	Extra protocols.Extra `json:"-"`
}

// CountTokensResponse is the answer of count_tokens.
type CountTokensResponse struct {
	InputTokens int64 `json:"input_tokens"`
}

// ModelInfo is one model in the Anthropic shape.
type ModelInfo struct {
	ID             string     `json:"id"`
	DisplayName    string     `json:"display_name"`
	Type           string     `json:"type"`       // "model"
	CreatedAt      string     `json:"created_at"` // RFC 3339, "2026-01-01T00:00:00Z"
	MaxInputTokens Opt[int64] `json:"max_input_tokens,omitzero"`
	MaxTokens      Opt[int64] `json:"max_tokens,omitzero"`

	Extra protocols.Extra `json:"-"`
}

// ModelList is the Anthropic-shaped body of GET /v1/models.
type ModelList struct {
	Data    []ModelInfo `json:"data"`
	HasMore bool        `json:"has_more"`
	FirstID Opt[string] `json:"first_id"`
	LastID  Opt[string] `json:"last_id"`
}
