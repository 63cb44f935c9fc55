package openai

import (
	"fmt"
	"strings"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/internal/wire"
	"github.com/agentwire/agentwire/protocols/nvext"
)

// Opt is protocols.Opt, repeated here for brevity.
type Opt[T any] = protocols.Opt[T]

// RawJSON is a raw JSON value, for members agentwire passes through without
// interpreting (audio, prediction, guided_json, …).
type RawJSON = jsonx.RawMessage

// Typed values of fixed strings.
const (
	ObjectChatCompletion      = "chat.completion"
	ObjectChatCompletionChunk = "chat.completion.chunk"
	ObjectTextCompletion      = "text_completion"
	ObjectModel               = "model"
	ObjectList                = "list"

	RoleSystem    = "system"
	RoleDeveloper = "developer"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"

	ToolTypeFunction = "function"

	ToolChoiceNone     = "none"
	ToolChoiceAuto     = "auto"
	ToolChoiceRequired = "required"

	FinishStop          = "stop"
	FinishLength        = "length"
	FinishToolCalls     = "tool_calls"
	FinishContentFilter = "content_filter"
	FinishFunctionCall  = "function_call"
)

// ChatRequest is the body of POST /v1/chat/completions.
type ChatRequest struct {
	Messages            []Message          `json:"messages"`
	Model               string             `json:"model,omitzero"`
	Store               Opt[bool]          `json:"store,omitzero"`
	ReasoningEffort     string             `json:"reasoning_effort,omitzero"` // none|minimal|low|medium|high|xhigh|max
	Reasoning           Opt[ChatReasoning] `json:"reasoning,omitzero"`        // normalised into ReasoningEffort, see NormalizeThinking
	Metadata            map[string]string  `json:"metadata,omitzero"`
	FrequencyPenalty    Opt[float64]       `json:"frequency_penalty,omitzero"`
	LogitBias           map[string]float64 `json:"logit_bias,omitzero"` // token-id string → bias
	Logprobs            Opt[bool]          `json:"logprobs,omitzero"`
	TopLogprobs         Opt[int]           `json:"top_logprobs,omitzero"`
	MaxTokens           Opt[int]           `json:"max_tokens,omitzero"` // deprecated; fallback for MaxCompletionTokens
	MaxCompletionTokens Opt[int]           `json:"max_completion_tokens,omitzero"`
	N                   Opt[int]           `json:"n,omitzero"`
	Modalities          []string           `json:"modalities,omitzero"`
	Prediction          RawJSON            `json:"prediction,omitzero"`
	Audio               RawJSON            `json:"audio,omitzero"`
	PresencePenalty     Opt[float64]       `json:"presence_penalty,omitzero"`
	ResponseFormat      *ResponseFormat    `json:"response_format,omitzero"`
	Seed                Opt[int64]         `json:"seed,omitzero"`
	ServiceTier         string             `json:"service_tier,omitzero"`
	Stop                Opt[Stop]          `json:"stop,omitzero"`
	Stream              Opt[bool]          `json:"stream,omitzero"`
	StreamOptions       *StreamOptions     `json:"stream_options,omitzero"`
	Temperature         Opt[float64]       `json:"temperature,omitzero"`
	TopP                Opt[float64]       `json:"top_p,omitzero"`
	Tools               []Tool             `json:"tools,omitzero"`
	ToolChoice          Opt[ToolChoice]    `json:"tool_choice,omitzero"`
	ParallelToolCalls   Opt[bool]          `json:"parallel_tool_calls,omitzero"`
	User                string             `json:"user,omitzero"`
	FunctionCall        RawJSON            `json:"function_call,omitzero"` // deprecated
	Functions           RawJSON            `json:"functions,omitzero"`     // deprecated
	WebSearchOptions    RawJSON            `json:"web_search_options,omitzero"`
	// Members of the official API that agentwire accepts and does not act
	// on (prefix caching is the engine's; pi sends prompt_cache_retention
	// "24h" with PI_CACHE_RETENTION=long).
	PromptCacheRetention string `json:"prompt_cache_retention,omitzero"` // in_memory|24h
	SafetyIdentifier     string `json:"safety_identifier,omitzero"`
	Verbosity            string `json:"verbosity,omitzero"` // low|medium|high

	EngineExt // root-level engine extensions (vLLM/SGLang/Dynamo CommonExt)

	NvExt              *nvext.NvExt       `json:"nvext,omitzero"`
	ChatTemplateArgs   map[string]RawJSON `json:"chat_template_args,omitzero"`
	ChatTemplateKwargs map[string]RawJSON `json:"chat_template_kwargs,omitzero"` // alias of ChatTemplateArgs
	Thinking           Opt[Thinking]      `json:"thinking,omitzero"`             // normalised away, see NormalizeThinking
	MediaIOKwargs      RawJSON            `json:"media_io_kwargs,omitzero"`
	MMProcessorKwargs  RawJSON            `json:"mm_processor_kwargs,omitzero"`

	ReturnTokensAsTokenIDs Opt[bool] `json:"return_tokens_as_token_ids,omitzero"`

	// Pass-through allow-list (the unknown root keys Dynamo forwards).
	CacheSalt        string     `json:"cache_salt,omitzero"`
	StopTokenIDs     []uint32   `json:"stop_token_ids,omitzero"`
	Detokenize       Opt[bool]  `json:"detokenize,omitzero"`
	AllowedTokenIDs  []uint32   `json:"allowed_token_ids,omitzero"`
	BadWordsTokenIDs [][]uint32 `json:"bad_words_token_ids,omitzero"`
	LogprobTokenIDs  []uint32   `json:"logprob_token_ids,omitzero"`
	PromptCacheKey   string     `json:"prompt_cache_key,omitzero"`

	// Original is the body the request was decoded from, set by the
	// package's Decode function (not by UnmarshalJSON): for proxies that
	// forward the client's exact bytes. It aliases the caller's buffer (no
	// copy): do not modify that buffer while the request is in use.
	Original []byte `json:"-"`

	Extra protocols.Extra `json:"-"`
}

// EngineExt holds the root-level sampling and decoding extensions that
// vLLM, SGLang and Dynamo accept on chat and completion requests.
type EngineExt struct {
	IgnoreEOS               Opt[bool]    `json:"ignore_eos,omitzero"`
	MinTokens               Opt[int]     `json:"min_tokens,omitzero"`
	TopK                    Opt[int]     `json:"top_k,omitzero"` // ≥ −1
	MinP                    Opt[float64] `json:"min_p,omitzero"`
	RepetitionPenalty       Opt[float64] `json:"repetition_penalty,omitzero"` // 0 < x ≤ 2
	IncludeStopStrInOutput  Opt[bool]    `json:"include_stop_str_in_output,omitzero"`
	GuidedJSON              RawJSON      `json:"guided_json,omitzero"`
	GuidedRegex             string       `json:"guided_regex,omitzero"`
	GuidedGrammar           string       `json:"guided_grammar,omitzero"`
	GuidedChoice            []string     `json:"guided_choice,omitzero"`
	GuidedDecodingBackend   string       `json:"guided_decoding_backend,omitzero"`
	GuidedWhitespacePattern string       `json:"guided_whitespace_pattern,omitzero"`
	SkipSpecialTokens       Opt[bool]    `json:"skip_special_tokens,omitzero"`
	PromptLogprobs          Opt[int]     `json:"prompt_logprobs,omitzero"`
}

// MarshalJSON writes the modelled members and Extra.
func (r ChatRequest) MarshalJSON() ([]byte, error) {
	type plain ChatRequest
	return wire.Marshal("", plain(r), r.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (r *ChatRequest) UnmarshalJSON(data []byte) error {
	type plain ChatRequest
	return wire.Decode(data, (*plain)(r), &r.Extra)
}

// MaxTokensLimit returns max_completion_tokens, else the deprecated
// max_tokens, and whether either was set.
func (r *ChatRequest) MaxTokensLimit() (int, bool) {
	if v, ok := r.MaxCompletionTokens.Get(); ok {
		return v, true
	}
	return r.MaxTokens.Get()
}

// IncludeUsage reports whether stream_options.include_usage is true.
func (r *ChatRequest) IncludeUsage() bool {
	return r.StreamOptions != nil && r.StreamOptions.IncludeUsage.Or(false)
}

// Message is one chat message. The role decides which members apply:
// system/developer (Content, Name), user (Content, Name), assistant
// (Content, ReasoningContent, Refusal, Name, Audio, ToolCalls,
// FunctionCall) and tool (ToolCallID, Content).
type Message struct {
	Role    string       `json:"role"`
	Content Opt[Content] `json:"content,omitzero"`
	Name    string       `json:"name,omitzero"`
	// ReasoningContent is the assistant's reasoning: a string or an array of
	// segments (segments[i] preceded tool_calls[i]; the last one trails).
	ReasoningContent Opt[Reasoning] `json:"reasoning_content,omitzero"`
	// ReasoningAlias is `reasoning`, accepted on input as an alias of
	// reasoning_content (some servers and clients use that spelling). Use
	// Message.ReasoningValue to read whichever was sent.
	ReasoningAlias Opt[Reasoning] `json:"reasoning,omitzero"`
	Refusal        Opt[string]    `json:"refusal,omitzero"`
	Audio          RawJSON        `json:"audio,omitzero"`
	ToolCalls      []ToolCall     `json:"tool_calls,omitzero"`
	FunctionCall   *FunctionCall  `json:"function_call,omitzero"` // deprecated
	ToolCallID     string         `json:"tool_call_id,omitzero"`

	Extra protocols.Extra `json:"-"`
}

// MarshalJSON writes the modelled members and Extra.
func (m Message) MarshalJSON() ([]byte, error) {
	type plain Message
	return wire.Marshal("", plain(m), m.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (m *Message) UnmarshalJSON(data []byte) error {
	type plain Message
	return wire.Decode(data, (*plain)(m), &m.Extra)
}

// ReasoningValue returns reasoning_content, or its alias `reasoning` when
// only that was sent.
func (m *Message) ReasoningValue() Opt[Reasoning] {
	if !m.ReasoningContent.IsZero() {
		return m.ReasoningContent
	}
	return m.ReasoningAlias
}

// Content is message content: a string, or an array of parts.
type Content = protocols.StringOrArray[ContentPart]

// TextContent returns string content.
func TextContent(s string) Opt[Content] { return protocols.Some(protocols.Text[ContentPart](s)) }

// ContentText returns the text of c: the string, or its text parts
// concatenated with sep.
func ContentText(c Content, sep string) string {
	if !c.IsArray() {
		return c.String
	}
	var b strings.Builder
	first := true
	for _, p := range c.Array {
		if p.Type != PartText {
			continue
		}
		if !first {
			b.WriteString(sep)
		}
		first = false
		b.WriteString(p.Text)
	}
	return b.String()
}

// Reasoning is reasoning_content: a string or an array of segments.
type Reasoning = protocols.StringOrArray[string]

// FlattenReasoning joins the non-empty segments of r with "\n" (a string is
// returned as is).
func FlattenReasoning(r Reasoning) string {
	if !r.IsArray() {
		return r.String
	}
	var b strings.Builder
	for _, s := range r.Array {
		if s == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(s)
	}
	return b.String()
}

// Content part types.
const (
	PartText       = "text"
	PartImageURL   = "image_url"
	PartVideoURL   = "video_url"
	PartAudioURL   = "audio_url"
	PartInputAudio = "input_audio"
	PartRefusal    = "refusal"
	PartFile       = "file"
)

// ContentPart is one part of array content. Type selects the member that
// applies: text (Text), image_url / video_url / audio_url (the media URL),
// input_audio (InputAudio), refusal (Refusal), file (File). Text and Refusal
// are written whenever their type is selected, even when empty.
type ContentPart struct {
	Type       string    `json:"type"`
	Text       string    `json:"text,omitzero"`
	ImageURL   *MediaURL `json:"image_url,omitzero"`
	VideoURL   *MediaURL `json:"video_url,omitzero"`
	AudioURL   *MediaURL `json:"audio_url,omitzero"`
	InputAudio RawJSON   `json:"input_audio,omitzero"`
	Refusal    string    `json:"refusal,omitzero"`
	File       RawJSON   `json:"file,omitzero"`
	UUID       string    `json:"uuid,omitzero"` // vLLM processor-cache id

	Extra protocols.Extra `json:"-"`
}

// MediaURL is the object of an image_url / video_url / audio_url part.
type MediaURL struct {
	URL    string `json:"url"`
	Detail string `json:"detail,omitzero"` // images: auto|low|high

	Extra protocols.Extra `json:"-"`
}

// MarshalJSON writes the modelled members and Extra.
func (p ContentPart) MarshalJSON() ([]byte, error) {
	type plain ContentPart
	b, err := wire.Marshal("", plain(p), p.Extra)
	if err != nil {
		return nil, err
	}
	// "text" and "refusal" are required members of their part types.
	switch {
	case p.Type == PartText && p.Text == "":
		return insertMember(b, `"text":""`), nil
	case p.Type == PartRefusal && p.Refusal == "":
		return insertMember(b, `"refusal":""`), nil
	}
	return b, nil
}

// insertMember adds member (`"k":v`) at the end of the object b.
func insertMember(b []byte, member string) []byte {
	b = b[:len(b)-1]
	if len(b) > 1 {
		b = append(b, ',')
	}
	return append(append(b, member...), '}')
}

// UnmarshalJSON keeps unknown members in Extra.
func (p *ContentPart) UnmarshalJSON(data []byte) error {
	type plain ContentPart
	return wire.Decode(data, (*plain)(p), &p.Extra)
}

// MarshalJSON writes the modelled members and Extra.
func (u MediaURL) MarshalJSON() ([]byte, error) {
	type plain MediaURL
	return wire.Marshal("", plain(u), u.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (u *MediaURL) UnmarshalJSON(data []byte) error {
	type plain MediaURL
	return wire.Decode(data, (*plain)(u), &u.Extra)
}

// ToolCall is a completed tool call on an assistant message.
type ToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"` // "function"; defaults to it when omitted
	Function FunctionCall `json:"function"`

	Extra protocols.Extra `json:"-"`
}

// MarshalJSON writes the call with type "function" when Type is empty.
func (c ToolCall) MarshalJSON() ([]byte, error) {
	type plain ToolCall
	if c.Type == "" {
		c.Type = ToolTypeFunction
	}
	return wire.Marshal("", plain(c), c.Extra)
}

// UnmarshalJSON keeps unknown members in Extra; a missing type is
// "function".
func (c *ToolCall) UnmarshalJSON(data []byte) error {
	type plain ToolCall
	var v plain
	extra, err := wire.Unmarshal(data, &v, wire.FieldsOf[plain]())
	if err != nil {
		return err
	}
	if v.Type == "" {
		v.Type = ToolTypeFunction
	}
	*c = ToolCall(v)
	c.Extra = extra
	return nil
}

// FunctionCall is a call's function name and JSON arguments.
type FunctionCall struct {
	Name      string    `json:"name"`
	Arguments Arguments `json:"arguments"`

	Extra protocols.Extra `json:"-"`
}

// MarshalJSON writes the modelled members and Extra.
func (f FunctionCall) MarshalJSON() ([]byte, error) {
	type plain FunctionCall
	return wire.Marshal("", plain(f), f.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (f *FunctionCall) UnmarshalJSON(data []byte) error {
	type plain FunctionCall
	return wire.Decode(data, (*plain)(f), &f.Extra)
}

// Arguments is a tool call's arguments as JSON text. It is written as a JSON
// string; on input it may also be a JSON object, which is re-serialised to a
// compact string (some clients send objects). Any other JSON kind is an
// error.
type Arguments string

// UnmarshalJSON accepts a string or an object.
func (a *Arguments) UnmarshalJSON(data []byte) error {
	switch jsonx.Kind(data) {
	case '"':
		var s string
		if err := jsonx.Decode(data, &s); err != nil {
			return err
		}
		*a = Arguments(s)
		return nil
	case '{':
		b, err := jsonx.Compact(nil, data)
		if err != nil {
			return err
		}
		*a = Arguments(b)
		return nil
	}
	return fmt.Errorf("openai: tool call arguments must be a JSON string or object, got %s", wire.KindName(data))
}

// Tool is a function tool definition.
type Tool struct {
	Type     string      `json:"type"` // "function"
	Function FunctionDef `json:"function"`

	Extra protocols.Extra `json:"-"`
}

// MarshalJSON writes the tool with type "function" when Type is empty.
func (t Tool) MarshalJSON() ([]byte, error) {
	type plain Tool
	if t.Type == "" {
		t.Type = ToolTypeFunction
	}
	return wire.Marshal("", plain(t), t.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (t *Tool) UnmarshalJSON(data []byte) error {
	type plain Tool
	return wire.Decode(data, (*plain)(t), &t.Extra)
}

// FunctionDef describes a function tool.
type FunctionDef struct {
	Name        string    `json:"name"`
	Description string    `json:"description,omitzero"`
	Parameters  RawJSON   `json:"parameters,omitzero"` // JSON Schema
	Strict      Opt[bool] `json:"strict,omitzero"`

	Extra protocols.Extra `json:"-"`
}

// MarshalJSON writes the modelled members and Extra.
func (f FunctionDef) MarshalJSON() ([]byte, error) {
	type plain FunctionDef
	return wire.Marshal("", plain(f), f.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (f *FunctionDef) UnmarshalJSON(data []byte) error {
	type plain FunctionDef
	return wire.Decode(data, (*plain)(f), &f.Extra)
}

// ToolChoice is "none", "auto", "required" (Mode) or a named function
// (Function non-empty, written as {"type":"function","function":{"name":…}}).
type ToolChoice struct {
	Mode     string
	Function string
}

// MarshalJSON writes the mode string or the named-function object.
func (c ToolChoice) MarshalJSON() ([]byte, error) {
	if c.Function != "" {
		b := []byte(`{"type":"function","function":{"name":`)
		b = jsonx.AppendString(b, c.Function)
		return append(b, "}}"...), nil
	}
	return jsonx.AppendString(nil, c.Mode), nil
}

// UnmarshalJSON reads a mode string or {"type":"function","function":{"name"}}.
func (c *ToolChoice) UnmarshalJSON(data []byte) error {
	switch jsonx.Kind(data) {
	case '"':
		*c = ToolChoice{}
		return jsonx.Decode(data, &c.Mode)
	case '{':
		var v struct {
			Type     string `json:"type"`
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		}
		if err := jsonx.Decode(data, &v); err != nil {
			return err
		}
		if v.Function.Name == "" {
			return fmt.Errorf("openai: tool_choice object requires function.name")
		}
		*c = ToolChoice{Function: v.Function.Name}
		return nil
	}
	return fmt.Errorf("openai: tool_choice must be a string or an object, got %s", wire.KindName(data))
}

// Stop is the stop member: one string, an array of strings, or an array of
// token ids (a Dynamo extension, `"stop":[576]`). A bare integer is rejected.
type Stop struct {
	Strings  []string
	TokenIDs []uint32
	// Single records that one bare string was sent (Strings has one element).
	Single bool
}

// MarshalJSON writes the form that was decoded.
func (s Stop) MarshalJSON() ([]byte, error) {
	switch {
	case s.TokenIDs != nil:
		return jsonx.Marshal(s.TokenIDs)
	case s.Single && len(s.Strings) == 1:
		return jsonx.AppendString(nil, s.Strings[0]), nil
	case s.Strings == nil:
		return []byte("[]"), nil
	}
	return jsonx.Marshal(s.Strings)
}

// UnmarshalJSON reads a string, a string array or a token-id array.
func (s *Stop) UnmarshalJSON(data []byte) error {
	*s = Stop{}
	switch jsonx.Kind(data) {
	case '"':
		var v string
		if err := jsonx.Decode(data, &v); err != nil {
			return err
		}
		*s = Stop{Strings: []string{v}, Single: true}
		return nil
	case '[':
		var raw []RawJSON
		if err := jsonx.Decode(data, &raw); err != nil {
			return err
		}
		if len(raw) > 0 && jsonx.Kind(raw[0]) != '"' {
			ids := []uint32{}
			if err := jsonx.Decode(data, &ids); err != nil {
				return fmt.Errorf("openai: stop must be a string, an array of strings or an array of token ids")
			}
			s.TokenIDs = ids
			return nil
		}
		strs := []string{}
		if err := jsonx.Decode(data, &strs); err != nil {
			return fmt.Errorf("openai: stop must be a string, an array of strings or an array of token ids")
		}
		s.Strings = strs
		return nil
	}
	return fmt.Errorf("openai: stop must be a string, an array of strings or an array of token ids, got %s", wire.KindName(data))
}

// StreamOptions is stream_options.
type StreamOptions struct {
	IncludeUsage         Opt[bool] `json:"include_usage,omitzero"`
	ContinuousUsageStats Opt[bool] `json:"continuous_usage_stats,omitzero"` // vLLM/Dynamo: usage on every chunk

	Extra protocols.Extra `json:"-"`
}

// MarshalJSON writes the modelled members and Extra.
func (o StreamOptions) MarshalJSON() ([]byte, error) {
	type plain StreamOptions
	return wire.Marshal("", plain(o), o.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (o *StreamOptions) UnmarshalJSON(data []byte) error {
	type plain StreamOptions
	return wire.Decode(data, (*plain)(o), &o.Extra)
}

// ResponseFormat is response_format: text, json_object, or json_schema.
type ResponseFormat struct {
	Type       string      `json:"type"`
	JSONSchema *JSONSchema `json:"json_schema,omitzero"`

	Extra protocols.Extra `json:"-"`
}

// JSONSchema is response_format.json_schema.
type JSONSchema struct {
	Name        string    `json:"name"`
	Description string    `json:"description,omitzero"`
	Schema      RawJSON   `json:"schema,omitzero"`
	Strict      Opt[bool] `json:"strict,omitzero"`

	Extra protocols.Extra `json:"-"`
}

// MarshalJSON writes the modelled members and Extra.
func (f ResponseFormat) MarshalJSON() ([]byte, error) {
	type plain ResponseFormat
	return wire.Marshal("", plain(f), f.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (f *ResponseFormat) UnmarshalJSON(data []byte) error {
	type plain ResponseFormat
	return wire.Decode(data, (*plain)(f), &f.Extra)
}

// MarshalJSON writes the modelled members and Extra.
func (s JSONSchema) MarshalJSON() ([]byte, error) {
	type plain JSONSchema
	return wire.Marshal("", plain(s), s.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (s *JSONSchema) UnmarshalJSON(data []byte) error {
	type plain JSONSchema
	return wire.Decode(data, (*plain)(s), &s.Extra)
}

// ChatReasoning is the `reasoning` object some clients send on Chat
// Completions instead of reasoning_effort (OpenRouter's shape; Qwen Code
// sends {"effort": …} when its model configuration sets a reasoning
// effort): an effort, and enabled false to turn reasoning off.
// NormalizeThinking folds it into ReasoningEffort. Other members
// (max_tokens, exclude, …) are kept in Extra and not acted on.
type ChatReasoning struct {
	Effort  string    `json:"effort,omitzero"`
	Enabled Opt[bool] `json:"enabled,omitzero"`

	Extra protocols.Extra `json:"-"`
}

// MarshalJSON writes the modelled members and Extra.
func (r ChatReasoning) MarshalJSON() ([]byte, error) {
	type plain ChatReasoning
	return wire.Marshal("", plain(r), r.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (r *ChatReasoning) UnmarshalJSON(data []byte) error {
	type plain ChatReasoning
	return wire.Decode(data, (*plain)(r), &r.Extra)
}

// effort is the reasoning_effort r stands for: "none" when it turns
// reasoning off, else its effort ("" when it sets none).
func (r ChatReasoning) effort() string {
	if on, ok := r.Enabled.Get(); ok && !on {
		return "none"
	}
	return r.Effort
}

// Thinking is the chat `thinking` extension: a boolean, or an object whose
// type is enabled, disabled or adaptive (other members such as
// budget_tokens are kept in Extra).
type Thinking struct {
	Bool         Opt[bool] // set when a boolean was sent
	Type         string    // set when an object was sent
	BudgetTokens Opt[int]  // object form: budget_tokens
	Extra        protocols.Extra
}

// MessageThinkingShape is the 400 message for a malformed `thinking` member.
const MessageThinkingShape = "`thinking` must be a boolean or an object with `type` set to `enabled`, `disabled`, or `adaptive`"

// MarshalJSON writes the boolean or the object.
func (t Thinking) MarshalJSON() ([]byte, error) {
	if b, ok := t.Bool.Get(); ok {
		return jsonx.AppendBool(nil, b), nil
	}
	type plain struct {
		BudgetTokens Opt[int] `json:"budget_tokens,omitzero"`
	}
	return wire.Marshal(t.Type, plain{t.BudgetTokens}, t.Extra)
}

// UnmarshalJSON reads a boolean or an object with a valid type.
func (t *Thinking) UnmarshalJSON(data []byte) error {
	*t = Thinking{}
	switch jsonx.Kind(data) {
	case 't', 'f':
		var b bool
		if err := jsonx.Decode(data, &b); err != nil {
			return fmt.Errorf("openai: %s", MessageThinkingShape)
		}
		t.Bool = protocols.Some(b)
		return nil
	case '{':
		typ, err := wire.PeekType(data)
		if err != nil {
			return fmt.Errorf("openai: %s", MessageThinkingShape)
		}
		switch typ {
		case "enabled", "disabled", "adaptive":
		default:
			return fmt.Errorf("openai: %s", MessageThinkingShape)
		}
		type plain struct {
			BudgetTokens Opt[int] `json:"budget_tokens,omitzero"`
		}
		var p plain
		extra, err := wire.Unmarshal(data, &p, wire.FieldsOf[plain]("type"))
		if err != nil {
			return fmt.Errorf("openai: %s", MessageThinkingShape)
		}
		t.Type, t.BudgetTokens, t.Extra = typ, p.BudgetTokens, extra
		return nil
	}
	return fmt.Errorf("openai: %s", MessageThinkingShape)
}
