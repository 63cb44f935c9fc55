package responses

import (
	"fmt"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/internal/wire"
	"github.com/agentwire/agentwire/protocols/nvext"
)

// Opt is protocols.Opt, repeated here for brevity.
type Opt[T any] = protocols.Opt[T]

// RawJSON is a raw JSON value passed through without interpretation.
type RawJSON = jsonx.RawMessage

// Fixed strings.
const (
	ObjectResponse = "response"

	ItemMessage            = "message"
	ItemFunctionCall       = "function_call"
	ItemFunctionCallOutput = "function_call_output"
	ItemReasoning          = "reasoning"
	ItemReference          = "item_reference"
	ItemCustomToolCall     = "custom_tool_call"
	ItemCustomToolOutput   = "custom_tool_call_output"

	PartInputText     = "input_text"
	PartInputImage    = "input_image"
	PartInputFile     = "input_file"
	PartOutputText    = "output_text"
	PartRefusal       = "refusal"
	PartSummaryText   = "summary_text"
	PartReasoningText = "reasoning_text"

	StatusInProgress = "in_progress"
	StatusCompleted  = "completed"
	StatusIncomplete = "incomplete"
	StatusFailed     = "failed"

	ToolFunction  = "function"
	ToolNamespace = "namespace"
	ToolCustom    = "custom"
)

// Request is the body of POST /v1/responses.
type Request struct {
	Model              string             `json:"model,omitzero"`
	Input              Opt[Input]         `json:"input,omitzero"`
	Instructions       Opt[string]        `json:"instructions,omitzero"`
	Tools              []Tool             `json:"tools,omitzero"`
	ToolChoice         Opt[ToolChoice]    `json:"tool_choice,omitzero"`
	Reasoning          Opt[Reasoning]     `json:"reasoning,omitzero"`
	Text               *TextConfig        `json:"text,omitzero"`
	MaxOutputTokens    Opt[int]           `json:"max_output_tokens,omitzero"`
	MaxToolCalls       Opt[int]           `json:"max_tool_calls,omitzero"`
	Temperature        Opt[float64]       `json:"temperature,omitzero"`
	TopP               Opt[float64]       `json:"top_p,omitzero"`
	TopLogprobs        Opt[int]           `json:"top_logprobs,omitzero"`
	ParallelToolCalls  Opt[bool]          `json:"parallel_tool_calls,omitzero"`
	Store              Opt[bool]          `json:"store,omitzero"`
	Background         Opt[bool]          `json:"background,omitzero"`
	Metadata           map[string]string  `json:"metadata,omitzero"`
	ServiceTier        string             `json:"service_tier,omitzero"`
	PreviousResponseID Opt[string]        `json:"previous_response_id,omitzero"`
	Truncation         string             `json:"truncation,omitzero"`
	Include            []string           `json:"include,omitzero"`
	Stream             Opt[bool]          `json:"stream,omitzero"`
	StreamOptions      RawJSON            `json:"stream_options,omitzero"`
	User               string             `json:"user,omitzero"`
	PromptCacheKey     string             `json:"prompt_cache_key,omitzero"`
	SafetyIdentifier   string             `json:"safety_identifier,omitzero"`
	Prompt             RawJSON            `json:"prompt,omitzero"`       // prompt template reference
	Conversation       RawJSON            `json:"conversation,omitzero"` // conversation reference
	ClientMetadata     map[string]RawJSON `json:"client_metadata,omitzero"`
	NvExt              *nvext.NvExt       `json:"nvext,omitzero"`
	ChatTemplateArgs   map[string]RawJSON `json:"chat_template_args,omitzero"`
	ChatTemplateKwargs map[string]RawJSON `json:"chat_template_kwargs,omitzero"`

	// PromptCacheRetention (in_memory|24h) is accepted and not acted on:
	// prefix caching is the engine's (pi sends "24h" with
	// PI_CACHE_RETENTION=long).
	PromptCacheRetention string `json:"prompt_cache_retention,omitzero"`

	// Original is the body the request was decoded from, set by the
	// package's Decode function (not by UnmarshalJSON): for proxies that
	// forward the client's exact bytes. It aliases the caller's buffer (no
	// copy): do not modify that buffer while the request is in use.
	Original []byte `json:"-"`

	Extra protocols.Extra `json:"-"`
}

// Input is the request input: a string (one user message) or items.
type Input = protocols.StringOrArray[Item]

// Reasoning is the reasoning configuration.
type Reasoning struct {
	Effort          string `json:"effort,omitzero"`
	Summary         string `json:"summary,omitzero"` // auto | concise | detailed
	GenerateSummary string `json:"generate_summary,omitzero"`

	Extra protocols.Extra `json:"-"`
}

// TextConfig is the text output configuration. Verbosity without Format
// means plain text (Codex sends {"verbosity":"low"}).
type TextConfig struct {
	Format    *TextFormat `json:"format,omitzero"`
	Verbosity string      `json:"verbosity,omitzero"`

	Extra protocols.Extra `json:"-"`
}

// TextFormat is text.format: text, json_object or json_schema (name,
// schema, strict, description at the same level).
type TextFormat struct {
	Type        string    `json:"type"`
	Name        string    `json:"name,omitzero"`
	Schema      RawJSON   `json:"schema,omitzero"`
	Strict      Opt[bool] `json:"strict,omitzero"`
	Description string    `json:"description,omitzero"`

	Extra protocols.Extra `json:"-"`
}

// Tool is a tool definition. function, namespace and custom tools are
// modelled (the members that apply to Type); any other type (web_search,
// tool_search, file_search, …) is kept whole in Raw, with Type set.
type Tool struct {
	Type        string    `json:"type"`
	Name        string    `json:"name,omitzero"`
	Description string    `json:"description,omitzero"`
	Parameters  RawJSON   `json:"parameters,omitzero"` // function: JSON Schema
	Strict      Opt[bool] `json:"strict,omitzero"`     // function
	Tools       []Tool    `json:"tools,omitzero"`      // namespace: its functions
	Format      RawJSON   `json:"format,omitzero"`     // custom: text or grammar format

	Extra protocols.Extra `json:"-"`
	Raw   RawJSON         `json:"-"`
}

// MarshalJSON writes Raw for unmodelled tool types, else the members.
func (t Tool) MarshalJSON() ([]byte, error) {
	if len(t.Raw) > 0 {
		return t.Raw, nil
	}
	type plain Tool
	return wire.Marshal("", plain(t), t.Extra)
}

// UnmarshalJSON models function, namespace and custom tools; others are
// kept in Raw.
func (t *Tool) UnmarshalJSON(data []byte) error {
	typ, err := wire.PeekType(data)
	if err != nil {
		return err
	}
	switch typ {
	case ToolNamespace:
		if err := checkNamespaceTools(data); err != nil {
			return err
		}
		fallthrough
	case ToolFunction, ToolCustom:
		type plain Tool
		var p plain
		extra, err := wire.Unmarshal(data, &p, wire.FieldsOf[plain]())
		*t = Tool(p)
		t.Extra = extra
		return err
	case "":
		return fmt.Errorf("responses: tool without type")
	}
	*t = Tool{Type: typ, Raw: append(RawJSON(nil), data...)}
	return nil
}

// ToolChoice is "none" | "auto" | "required" (Mode), or an object naming a
// tool ({"type":"function","name"}, {"type":"custom","name"}); other
// objects (allowed_tools, hosted tools) are kept in Raw with Type set.
type ToolChoice struct {
	Mode string
	Type string
	Name string
	Raw  RawJSON
}

// MarshalJSON writes the mode string or the object.
func (c ToolChoice) MarshalJSON() ([]byte, error) {
	switch {
	case len(c.Raw) > 0:
		return c.Raw, nil
	case c.Type != "":
		b := []byte(`{"type":`)
		b = jsonx.AppendString(b, c.Type)
		if c.Name != "" {
			b = append(b, `,"name":`...)
			b = jsonx.AppendString(b, c.Name)
		}
		return append(b, '}'), nil
	}
	return jsonx.AppendString(nil, c.Mode), nil
}

// UnmarshalJSON reads a string or an object.
func (c *ToolChoice) UnmarshalJSON(data []byte) error {
	*c = ToolChoice{}
	switch jsonx.Kind(data) {
	case '"':
		return jsonx.Decode(data, &c.Mode)
	case '{':
		var v struct {
			Type string `json:"type"`
			Name string `json:"name"`
		}
		if err := jsonx.Decode(data, &v); err != nil {
			return err
		}
		c.Type = v.Type
		if (v.Type == ToolFunction || v.Type == ToolCustom) && v.Name != "" {
			var m map[string]RawJSON
			if err := jsonx.Decode(data, &m); err == nil && len(m) == 2 {
				c.Name = v.Name
				return nil
			}
		}
		c.Raw = append(RawJSON(nil), data...)
		return nil
	}
	return fmt.Errorf("responses: tool_choice must be a string or an object, got %s", wire.KindName(data))
}

// Item is one input or output item: exactly one Of… member is set, or Raw
// holds an item of a type this package does not model (web_search_call,
// local_shell_call, compaction, …), kept verbatim.
type Item struct {
	OfMessage            *MessageItem            `json:"-"`
	OfFunctionCall       *FunctionCallItem       `json:"-"`
	OfFunctionCallOutput *FunctionCallOutputItem `json:"-"`
	OfReasoning          *ReasoningItem          `json:"-"`
	OfItemReference      *ItemReferenceItem      `json:"-"`
	OfCustomToolCall     *CustomToolCallItem     `json:"-"`
	OfCustomToolOutput   *CustomToolOutputItem   `json:"-"`
	Raw                  RawJSON                 `json:"-"`
}

// Type returns the item's type.
func (it *Item) Type() string {
	switch {
	case it.OfMessage != nil:
		return ItemMessage
	case it.OfFunctionCall != nil:
		return ItemFunctionCall
	case it.OfFunctionCallOutput != nil:
		return ItemFunctionCallOutput
	case it.OfReasoning != nil:
		return ItemReasoning
	case it.OfItemReference != nil:
		return ItemReference
	case it.OfCustomToolCall != nil:
		return ItemCustomToolCall
	case it.OfCustomToolOutput != nil:
		return ItemCustomToolOutput
	}
	t, _ := wire.PeekType(it.Raw)
	return t
}

// MarshalJSON writes the set variant.
func (it Item) MarshalJSON() ([]byte, error) {
	return wire.MarshalUnion("responses.Item", it.Raw, it.OfMessage, it.OfFunctionCall, it.OfFunctionCallOutput,
		it.OfReasoning, it.OfItemReference, it.OfCustomToolCall, it.OfCustomToolOutput)
}

// UnmarshalJSON decodes by "type". An object without type but with a role
// is a message (the "easy input message" form).
func (it *Item) UnmarshalJSON(data []byte) error {
	*it = Item{}
	typ, err := wire.PeekType(data)
	if err != nil {
		return err
	}
	switch typ {
	case ItemMessage:
		it.OfMessage = new(MessageItem)
		return jsonx.Decode(data, it.OfMessage)
	case "":
		it.OfMessage = new(MessageItem)
		if err := jsonx.Decode(data, it.OfMessage); err != nil {
			return err
		}
		if it.OfMessage.Role == "" {
			return fmt.Errorf("responses: input item without type")
		}
		it.OfMessage.ImplicitType = true
		return nil
	case ItemFunctionCall:
		it.OfFunctionCall = new(FunctionCallItem)
		return jsonx.Decode(data, it.OfFunctionCall)
	case ItemFunctionCallOutput:
		it.OfFunctionCallOutput = new(FunctionCallOutputItem)
		return jsonx.Decode(data, it.OfFunctionCallOutput)
	case ItemReasoning:
		it.OfReasoning = new(ReasoningItem)
		return jsonx.Decode(data, it.OfReasoning)
	case ItemReference:
		it.OfItemReference = new(ItemReferenceItem)
		return jsonx.Decode(data, it.OfItemReference)
	case ItemCustomToolCall:
		it.OfCustomToolCall = new(CustomToolCallItem)
		return jsonx.Decode(data, it.OfCustomToolCall)
	case ItemCustomToolOutput:
		it.OfCustomToolOutput = new(CustomToolOutputItem)
		return jsonx.Decode(data, it.OfCustomToolOutput)
	}
	it.Raw = append(RawJSON(nil), data...)
	return nil
}

// MessageItem is a message (input, or echoed / output assistant message).
type MessageItem struct {
	ID      string         `json:"id,omitzero"`
	Role    string         `json:"role"`
	Content MessageContent `json:"content"`
	Status  string         `json:"status,omitzero"`
	Phase   string         `json:"phase,omitzero"` // Codex: commentary | final_answer

	// ImplicitType records that the item was sent without "type" (the
	// easy-input form); it is then written back without it.
	ImplicitType bool `json:"-"`

	Extra protocols.Extra `json:"-"`
}

// MessageContent is a string or content parts.
type MessageContent = protocols.StringOrArray[ContentPart]

// ContentPart is one part of message content, output content or a reasoning
// item. Type selects the members that apply: input_text / output_text /
// summary_text / reasoning_text (Text; output_text also Annotations and
// Logprobs), refusal (Refusal), input_image (ImageURL or FileID, Detail),
// input_file (FileID, FileData, FileURL, Filename). Required members are
// written even when empty ("annotations":[] on output_text).
type ContentPart struct {
	Type        string    `json:"type"`
	Text        string    `json:"text,omitzero"`
	Annotations []RawJSON `json:"annotations,omitzero"`
	Logprobs    []RawJSON `json:"logprobs,omitzero"`
	Refusal     string    `json:"refusal,omitzero"`
	ImageURL    string    `json:"image_url,omitzero"`
	FileID      string    `json:"file_id,omitzero"`
	Detail      string    `json:"detail,omitzero"`
	FileData    string    `json:"file_data,omitzero"`
	FileURL     string    `json:"file_url,omitzero"`
	Filename    string    `json:"filename,omitzero"`

	Extra protocols.Extra `json:"-"`
}

// MarshalJSON writes the members and the required ones of the type.
func (p ContentPart) MarshalJSON() ([]byte, error) {
	type plain ContentPart
	switch p.Type {
	case PartOutputText:
		if p.Annotations == nil {
			p.Annotations = []RawJSON{}
		}
	}
	b, err := wire.Marshal("", plain(p), p.Extra)
	if err != nil {
		return nil, err
	}
	switch p.Type {
	case PartInputText, PartOutputText, PartSummaryText, PartReasoningText:
		if p.Text == "" {
			b = insertMember(b, `"text":""`)
		}
	case PartRefusal:
		if p.Refusal == "" {
			b = insertMember(b, `"refusal":""`)
		}
	}
	return b, nil
}

func insertMember(b []byte, member string) []byte {
	b = b[:len(b)-1]
	if len(b) > 1 {
		b = append(b, ',')
	}
	return append(append(b, member...), '}')
}

// FunctionCallItem is a function call by the model.
type FunctionCallItem struct {
	ID        string `json:"id,omitzero"`
	CallID    string `json:"call_id"`
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitzero"`
	Arguments string `json:"arguments"`
	Status    string `json:"status,omitzero"`

	Extra protocols.Extra `json:"-"`
}

// FunctionCallOutputItem is the client's result of a function call. Output
// is a string or content parts.
type FunctionCallOutputItem struct {
	ID     string         `json:"id,omitzero"`
	CallID string         `json:"call_id"`
	Output MessageContent `json:"output"`
	Status string         `json:"status,omitzero"`

	Extra protocols.Extra `json:"-"`
}

// ReasoningItem is reasoning: raw text in Content (reasoning_text parts),
// summaries in Summary (summary_text parts), optionally encrypted.
// Summary is always written ([] when empty).
type ReasoningItem struct {
	ID               string             `json:"id,omitzero"`
	Summary          []ContentPart      `json:"summary"`
	Content          Opt[[]ContentPart] `json:"content,omitzero"`
	EncryptedContent Opt[string]        `json:"encrypted_content,omitzero"`
	Status           string             `json:"status,omitzero"`

	Extra protocols.Extra `json:"-"`
}

// ItemReferenceItem refers to an earlier item by id.
type ItemReferenceItem struct {
	ID string `json:"id"`

	Extra protocols.Extra `json:"-"`
}

// CustomToolCallItem is a call of a custom (freeform) tool such as Codex's
// apply_patch: Input is free text.
type CustomToolCallItem struct {
	ID        string `json:"id,omitzero"`
	CallID    string `json:"call_id"`
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitzero"`
	Input     string `json:"input"`
	Status    string `json:"status,omitzero"`

	Extra protocols.Extra `json:"-"`
}

// CustomToolOutputItem is the client's result of a custom tool call.
type CustomToolOutputItem struct {
	ID     string         `json:"id,omitzero"`
	CallID string         `json:"call_id"`
	Output MessageContent `json:"output"`

	Extra protocols.Extra `json:"-"`
}

// Usage is the Responses usage object.
type Usage struct {
	InputTokens         int64               `json:"input_tokens"`
	InputTokensDetails  InputTokensDetails  `json:"input_tokens_details"`
	OutputTokens        int64               `json:"output_tokens"`
	OutputTokensDetails OutputTokensDetails `json:"output_tokens_details"`
	TotalTokens         int64               `json:"total_tokens"`
}

// InputTokensDetails is usage.input_tokens_details.
type InputTokensDetails struct {
	CachedTokens int64 `json:"cached_tokens"`
}

// OutputTokensDetails is usage.output_tokens_details.
type OutputTokensDetails struct {
	ReasoningTokens int64 `json:"reasoning_tokens"`
}

// UsageFrom converts neutral usage.
func UsageFrom(u protocols.Usage) Usage {
	return Usage{
		InputTokens:         u.PromptTokens,
		InputTokensDetails:  InputTokensDetails{CachedTokens: u.CachedTokens},
		OutputTokens:        u.CompletionTokens,
		OutputTokensDetails: OutputTokensDetails{ReasoningTokens: u.ReasoningTokens},
		TotalTokens:         u.PromptTokens + u.CompletionTokens,
	}
}

// Response is the response object (unary body, and the envelope of the
// created / in_progress / completed / incomplete / failed events). The
// spec's nullable-required members are written as null when unset.
type Response struct {
	ID                 string                 `json:"id"`
	Object             string                 `json:"object"` // "response"
	CreatedAt          int64                  `json:"created_at"`
	CompletedAt        Opt[int64]             `json:"completed_at,omitzero"`
	Status             string                 `json:"status"`
	Background         bool                   `json:"background"`
	Error              Opt[ErrorObject]       `json:"error"`
	IncompleteDetails  Opt[IncompleteDetails] `json:"incomplete_details"`
	Instructions       Opt[string]            `json:"instructions"`
	MaxOutputTokens    Opt[int]               `json:"max_output_tokens"`
	Model              string                 `json:"model"`
	Output             []Item                 `json:"output"`
	ParallelToolCalls  bool                   `json:"parallel_tool_calls"`
	PreviousResponseID Opt[string]            `json:"previous_response_id"`
	Reasoning          Opt[Reasoning]         `json:"reasoning"`
	Store              Opt[bool]              `json:"store,omitzero"`
	Temperature        Opt[float64]           `json:"temperature"`
	Text               *TextConfig            `json:"text,omitzero"`
	ToolChoice         ToolChoice             `json:"tool_choice"`
	Tools              []Tool                 `json:"tools"`
	TopP               Opt[float64]           `json:"top_p"`
	TopLogprobs        Opt[int]               `json:"top_logprobs,omitzero"`
	Truncation         string                 `json:"truncation,omitzero"`
	Usage              Opt[Usage]             `json:"usage"`
	User               Opt[string]            `json:"user,omitzero"`
	Metadata           map[string]string      `json:"metadata"`
	ServiceTier        string                 `json:"service_tier,omitzero"`
	PresencePenalty    Opt[float64]           `json:"presence_penalty,omitzero"`
	FrequencyPenalty   Opt[float64]           `json:"frequency_penalty,omitzero"`

	Extra protocols.Extra `json:"-"`
}

// IncompleteDetails says why a response is incomplete.
type IncompleteDetails struct {
	Reason string `json:"reason"` // max_output_tokens | content_filter
}

// ErrorObject is a response error, and the body of error events.
type ErrorObject struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// ErrorResponse is the HTTP error body (OpenAI shape).
type ErrorResponse struct {
	Error struct {
		Message string      `json:"message"`
		Type    string      `json:"type"`
		Param   Opt[string] `json:"param"`
		Code    Opt[string] `json:"code"`
	} `json:"error"`
}
