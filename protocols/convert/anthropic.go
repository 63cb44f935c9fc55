package convert

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/openai"
)

// CacheControlMode selects how Anthropic cache_control is handled.
type CacheControlMode uint8

const (
	// CacheControlRecord (default) accepts cache_control everywhere and
	// records the breakpoints and the top-level TTL in the context; nothing
	// is forwarded to the engine.
	CacheControlRecord CacheControlMode = iota
	// CacheControlIgnore accepts and drops cache_control.
	CacheControlIgnore
	// CacheControlRejectBlockLevel rejects block-level cache_control (system,
	// tools, content blocks) with 400, as one Dynamo version does;
	// top-level cache_control is accepted.
	CacheControlRejectBlockLevel
)

// AnthropicOptions configure AnthropicToChat.
type AnthropicOptions struct {
	// StripBillingHeader removes Claude Code's
	// `x-anthropic-billing-header: …` first line from the system prompt
	// (it changes between runs and defeats prefix caching).
	StripBillingHeader bool
	// CacheControl selects the cache_control policy.
	CacheControl CacheControlMode
	// ReasoningParser says the deployment runs a reasoning parser: when
	// thinking is shown (anthropic.ThinkingDisplayFor: enabled or adaptive,
	// or absent with ShowThinkingByDefault),
	// chat_template_args.enable_thinking is true and
	// truncate_history_thinking false. A request whose thinking is hidden
	// (disabled, or absent by default) gets enable_thinking false whether
	// or not a parser runs: the template is told thinking is off. Either
	// way the request's reasoning_effort is AnthropicEffort's.
	ReasoningParser bool
	// ShowThinkingByDefault shows thinking to requests without a thinking
	// member (the server's default; off: such requests get no thinking
	// blocks, as from the real API).
	ShowThinkingByDefault bool
	// ContinuousUsage also sets stream_options.continuous_usage_stats, so
	// the engine reports prompt counts early (for message_start).
	ContinuousUsage bool
}

// CacheBreakpoint is one block-level cache_control. MessageIndex 0 is the
// system prompt; messages are offset by one.
type CacheBreakpoint struct {
	MessageIndex int
	BlockIndex   int
	CacheControl anthropic.CacheControl
}

// AnthropicContext is what the response path needs to answer an Anthropic
// request faithfully.
type AnthropicContext struct {
	Model                  string   // the model the client asked for
	Stream                 bool     // the client asked for SSE
	StopSequences          []string // to report stop_sequence
	DisableParallelToolUse bool     // send only the first tool call
	ThinkingType           string   // enabled | disabled | adaptive | ""
	ThinkingBudget         int      // budget_tokens, 0 if unset
	// Thinking is how reasoning is shown (anthropic.ThinkingDisplayFor
	// with AnthropicOptions.ShowThinkingByDefault): pass it as
	// anthropic.EmitterConfig.Thinking (EmitterConfig does);
	// ChatToAnthropic applies it.
	Thinking         anthropic.ThinkingDisplay
	CacheBreakpoints []CacheBreakpoint
	CacheTTL         int                        // top-level cache_control TTL in seconds, 0 if none
	OutputConfig     anthropic.RawJSON          // opaque output_config (Claude Code: effort)
	NvExt            anthropic.RawJSON          // raw nvext, for the deployment's gate
	Warnings         []string                   // tolerated oddities (tool_choice tool without name, dropped blocks)
	Request          *anthropic.MessagesRequest // the original request
}

// EmitterConfig returns the configuration of an anthropic.Emitter that
// answers the request: model, thinking display, parallel tool use, and
// the prompt size for message_start. Set IDs, Ping, … on the result.
func (c *AnthropicContext) EmitterConfig(inputTokens, cachedTokens int64) anthropic.EmitterConfig {
	return anthropic.EmitterConfig{Model: c.Model, InputTokens: inputTokens, CachedTokens: cachedTokens,
		DisableParallelToolUse: c.DisableParallelToolUse, Thinking: c.Thinking}
}

// billingPrefix starts Claude Code's per-run system line.
const billingPrefix = "x-anthropic-billing-header:"

// StripBillingHeader removes Claude Code's billing-header line: after a
// left trim, if the text starts with `x-anthropic-billing-header:` and
// contains a newline, everything up to and including the first newline is
// removed (the trimmed leading whitespace is gone too). Otherwise s is
// returned unchanged. It reports whether it stripped.
func StripBillingHeader(s string) (string, bool) {
	t := strings.TrimLeft(s, " \t\r\n")
	if !strings.HasPrefix(t, billingPrefix) {
		return s, false
	}
	i := strings.IndexByte(t, '\n')
	if i < 0 {
		return s, false
	}
	return t[i+1:], true
}

func badRequest(format string, args ...any) *anthropic.APIError {
	return anthropic.NewAPIError(http.StatusBadRequest, fmt.Sprintf(format, args...))
}

const blockCacheControlMsg = "Block-level `cache_control` is not supported; use the top-level automatic `cache_control` field."

// AnthropicToChat translates a Messages request into a chat completion
// request (always streaming, with usage) and the context for the response.
// Errors are *anthropic.APIError values (400 for invalid input, 501 for
// server tools).
func AnthropicToChat(req *anthropic.MessagesRequest, opts AnthropicOptions) (*openai.ChatRequest, *AnthropicContext, error) {
	ctx := &AnthropicContext{
		Model:         req.Model,
		Stream:        req.Stream.Or(false),
		StopSequences: req.StopSequences,
		OutputConfig:  req.OutputConfig,
		NvExt:         req.NvExt,
		Request:       req,
	}
	out := &openai.ChatRequest{
		Model:         req.Model,
		Stream:        protocols.Some(true),
		StreamOptions: &openai.StreamOptions{IncludeUsage: protocols.Some(true)},
		Temperature:   req.Temperature,
		TopP:          req.TopP,
	}
	if opts.ContinuousUsage {
		out.StreamOptions.ContinuousUsageStats = protocols.Some(true)
	}
	if n, ok := req.MaxTokens.Get(); ok {
		out.MaxCompletionTokens = protocols.Some(n)
	}
	if k, ok := req.TopK.Get(); ok {
		out.TopK = protocols.Some(k)
	}
	if len(req.StopSequences) > 0 {
		out.Stop = protocols.Some(openai.Stop{Strings: append([]string(nil), req.StopSequences...)})
	}

	// cache_control
	record := func(msg, block int, cc *anthropic.CacheControl) error {
		if cc == nil {
			return nil
		}
		switch opts.CacheControl {
		case CacheControlRejectBlockLevel:
			return badRequest(blockCacheControlMsg)
		case CacheControlRecord:
			ctx.CacheBreakpoints = append(ctx.CacheBreakpoints, CacheBreakpoint{MessageIndex: msg, BlockIndex: block, CacheControl: *cc})
		}
		return nil
	}
	if req.CacheControl != nil && opts.CacheControl != CacheControlIgnore {
		ctx.CacheTTL = req.CacheControl.TTLSeconds()
	}

	// system
	var system []string
	if sys, ok := req.System.Get(); ok {
		if sys.IsArray() {
			for i := range sys.Array {
				if err := record(0, i, sys.Array[i].CacheControl); err != nil {
					return nil, nil, err
				}
			}
		}
		if text := anthropic.SystemText(sys); text != "" {
			system = append(system, text)
		}
	}
	// Claude Code also sends role "system" inside messages; chat templates
	// accept one leading system message, so its text joins the system
	// prompt (separated by a blank line).
	var msgs []openai.Message
	for mi := range req.Messages {
		m := &req.Messages[mi]
		switch m.Role {
		case "system":
			if err := recordBlocks(m, mi+1, record); err != nil {
				return nil, nil, err
			}
			if text := contentText(m.Content); text != "" {
				system = append(system, text)
			}
		case anthropic.RoleUser:
			converted, err := userMessages(m, mi+1, record, ctx)
			if err != nil {
				return nil, nil, err
			}
			msgs = append(msgs, converted...)
		case anthropic.RoleAssistant:
			converted, err := assistantMessage(m, mi+1, record, ctx)
			if err != nil {
				return nil, nil, err
			}
			msgs = append(msgs, converted)
		default:
			return nil, nil, badRequest("messages.%d.role: Input should be 'user' or 'assistant'", mi)
		}
	}
	if len(system) > 0 {
		text := strings.Join(system, "\n\n")
		if opts.StripBillingHeader {
			text, _ = StripBillingHeader(text)
		}
		msgs = append([]openai.Message{{Role: openai.RoleSystem, Content: openai.TextContent(text)}}, msgs...)
	}
	orderToolResults(msgs)
	out.Messages = msgs

	// tools
	for i := range req.Tools {
		t := &req.Tools[i]
		if !t.IsCustom() {
			return nil, nil, anthropic.NewAPIError(http.StatusNotImplemented, fmt.Sprintf("tools.%d: server tool type %q is not supported", i, t.Type))
		}
		if len(t.InputSchema) == 0 {
			return nil, nil, badRequest("tools.%d.input_schema: Field required", i)
		}
		if t.CacheControl != nil && opts.CacheControl == CacheControlRejectBlockLevel {
			return nil, nil, badRequest(blockCacheControlMsg)
		}
		out.Tools = append(out.Tools, openai.Tool{Type: openai.ToolTypeFunction, Function: openai.FunctionDef{
			Name: t.Name, Description: t.Description, Parameters: t.InputSchema,
		}})
	}
	if tc := req.ToolChoice; tc != nil {
		ctx.DisableParallelToolUse = tc.DisableParallelToolUse.Or(false)
		switch tc.Type {
		case "auto":
			out.ToolChoice = protocols.Some(openai.ToolChoice{Mode: openai.ToolChoiceAuto})
		case "any":
			out.ToolChoice = protocols.Some(openai.ToolChoice{Mode: openai.ToolChoiceRequired})
		case "none":
			out.ToolChoice = protocols.Some(openai.ToolChoice{Mode: openai.ToolChoiceNone})
		case "tool":
			if tc.Name == "" {
				ctx.Warnings = append(ctx.Warnings, "tool_choice type tool without name: treated as any")
				out.ToolChoice = protocols.Some(openai.ToolChoice{Mode: openai.ToolChoiceRequired})
			} else {
				out.ToolChoice = protocols.Some(openai.ToolChoice{Function: tc.Name})
			}
		default:
			return nil, nil, badRequest("tool_choice.type: Input should be 'auto', 'any', 'tool' or 'none'")
		}
	}

	// thinking
	if th := req.Thinking; th != nil {
		ctx.ThinkingType = th.Type
		ctx.ThinkingBudget = th.BudgetTokens.Or(0)
		switch th.Type {
		case "enabled", "disabled", "adaptive":
			out.Thinking = protocols.Some(openai.Thinking{Type: th.Type})
		default:
			return nil, nil, badRequest("thinking.type: Input should be 'enabled', 'disabled' or 'adaptive'")
		}
	}
	ctx.Thinking = anthropic.ThinkingDisplayFor(req, opts.ShowThinkingByDefault)
	switch {
	case ctx.Thinking == anthropic.ThinkingHidden:
		out.ChatTemplateArgs = map[string]openai.RawJSON{"enable_thinking": openai.RawJSON("false")}
	case opts.ReasoningParser:
		out.ChatTemplateArgs = map[string]openai.RawJSON{
			"enable_thinking":           openai.RawJSON("true"),
			"truncate_history_thinking": openai.RawJSON("false"),
		}
	}
	out.ReasoningEffort = AnthropicEffort(req, ctx.Thinking)
	if err := out.NormalizeThinking(); err != nil {
		return nil, nil, badRequest("%s", openai.MessageThinkingShape)
	}
	return out, ctx, nil
}

// ThinkingBudgetEfforts maps Anthropic's thinking.budget_tokens to a
// reasoning effort: the first row whose Below exceeds the budget (the
// last row, Below 0, takes every larger budget). Claude Code's "think"
// (4,000 tokens) is medium, "think hard" (10,000) high, "ultrathink"
// (31,999) xhigh.
var ThinkingBudgetEfforts = []struct {
	Below  int
	Effort string
}{
	{2048, "low"},
	{8192, "medium"},
	{16384, "high"},
	{32768, "xhigh"},
	{0, "max"},
}

// anthropicEfforts are the values of Anthropic's output_config.effort.
var anthropicEfforts = []string{"low", "medium", "high", "xhigh", "max"}

// AnthropicEffort returns the reasoning effort an Anthropic request's
// thinking settings stand for, on the chat request's reasoning_effort
// ladder (AnthropicToChat sets it, so the chat template and the reasoning
// gate see Anthropic's controls as they see Chat's and Responses'):
//
//   - thinking hidden (type disabled, or absent when the server does not
//     show thinking by default; see anthropic.ThinkingDisplayFor): "none";
//   - else output_config.effort when it is one of Anthropic's values (low,
//     medium, high, xhigh, max);
//   - else thinking enabled with budget_tokens: ThinkingBudgetEfforts;
//   - else (adaptive, enabled without a budget, absent but shown by
//     default): "high", Anthropic's default effort.
func AnthropicEffort(req *anthropic.MessagesRequest, display anthropic.ThinkingDisplay) string {
	if display == anthropic.ThinkingHidden {
		return "none"
	}
	if len(req.OutputConfig) > 0 {
		var oc struct {
			Effort string `json:"effort"`
		}
		if jsonx.Unmarshal(req.OutputConfig, &oc) == nil && slices.Contains(anthropicEfforts, oc.Effort) {
			return oc.Effort
		}
	}
	if th := req.Thinking; th != nil && th.Type == "enabled" {
		if b, ok := th.BudgetTokens.Get(); ok && b > 0 {
			for _, r := range ThinkingBudgetEfforts {
				if r.Below == 0 || b < r.Below {
					return r.Effort
				}
			}
		}
	}
	return "high"
}

type recorder func(msg, block int, cc *anthropic.CacheControl) error

func recordBlocks(m *anthropic.Message, mi int, record recorder) error {
	for bi := range m.Content.Array {
		if err := record(mi, bi, blockCacheControl(&m.Content.Array[bi])); err != nil {
			return err
		}
	}
	return nil
}

func blockCacheControl(b *anthropic.ContentBlock) *anthropic.CacheControl {
	switch {
	case b.OfText != nil:
		return b.OfText.CacheControl
	case b.OfImage != nil:
		return b.OfImage.CacheControl
	case b.OfToolUse != nil:
		return b.OfToolUse.CacheControl
	case b.OfToolResult != nil:
		return b.OfToolResult.CacheControl
	}
	return nil
}

// contentText concatenates the text blocks of c (or returns the string).
func contentText(c anthropic.Content) string {
	if !c.IsArray() {
		return c.String
	}
	var b strings.Builder
	for i := range c.Array {
		if t := c.Array[i].OfText; t != nil {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

func unsupportedBlock(b *anthropic.ContentBlock) error {
	return badRequest("content block type %q is not supported", b.Type())
}

// userMessages converts a user turn: consecutive text (and image) blocks
// form one user message, concatenated without separator; each tool_result
// flushes them and becomes a tool message.
func userMessages(m *anthropic.Message, mi int, record recorder, ctx *AnthropicContext) ([]openai.Message, error) {
	if !m.Content.IsArray() {
		return []openai.Message{{Role: openai.RoleUser, Content: openai.TextContent(m.Content.String)}}, nil
	}
	if len(m.Content.Array) == 0 {
		return nil, badRequest("messages.%d.content: List should have at least 1 item", mi-1)
	}
	var out []openai.Message
	var text strings.Builder
	var parts []openai.ContentPart
	pending := false
	flush := func() {
		if !pending {
			return
		}
		if parts == nil {
			out = append(out, openai.Message{Role: openai.RoleUser, Content: openai.TextContent(text.String())})
		} else {
			if text.Len() > 0 {
				parts = append(parts, openai.ContentPart{Type: openai.PartText, Text: text.String()})
			}
			out = append(out, openai.Message{Role: openai.RoleUser, Content: protocols.Some(protocols.Array(parts...))})
		}
		text.Reset()
		parts, pending = nil, false
	}
	for bi := range m.Content.Array {
		b := &m.Content.Array[bi]
		if err := record(mi, bi, blockCacheControl(b)); err != nil {
			return nil, err
		}
		switch {
		case b.OfText != nil:
			text.WriteString(b.OfText.Text)
			pending = true
		case b.OfImage != nil:
			url, err := imageURL(b.OfImage)
			if err != nil {
				return nil, err
			}
			if text.Len() > 0 {
				parts = append(parts, openai.ContentPart{Type: openai.PartText, Text: text.String()})
				text.Reset()
			}
			parts = append(parts, openai.ContentPart{Type: openai.PartImageURL, ImageURL: &openai.MediaURL{URL: url}})
			pending = true
		case b.OfToolResult != nil:
			flush()
			r := b.OfToolResult
			content, err := toolResultContent(r, mi, bi, ctx)
			if err != nil {
				return nil, err
			}
			out = append(out, openai.Message{Role: openai.RoleTool, ToolCallID: r.ToolUseID, Content: content})
		case b.OfToolUse != nil, b.OfThinking != nil, b.OfRedactedThinking != nil, b.OfServerToolUse != nil, b.OfWebSearchToolResult != nil:
			// assistant-side blocks in a user turn are ignored
		default:
			return nil, unsupportedBlock(b)
		}
	}
	flush()
	return out, nil
}

// toolResultContent converts a tool_result's content: its text blocks
// concatenated without separator (a string content stays as it is); when
// it holds image blocks (Claude Code's Read tool on an image file), the
// content is parts in their order: the text between images as text parts,
// each image an image_url part (a data: URL for a base64 source). Other
// blocks are dropped with a warning.
func toolResultContent(r *anthropic.ToolResultBlock, mi, bi int, ctx *AnthropicContext) (protocols.Opt[openai.Content], error) {
	c, ok := r.Content.Get()
	if !ok {
		return openai.TextContent(""), nil
	}
	if !c.IsArray() {
		return openai.TextContent(c.String), nil
	}
	var text strings.Builder
	var parts []openai.ContentPart
	for i := range c.Array {
		switch blk := &c.Array[i]; {
		case blk.OfText != nil:
			text.WriteString(blk.OfText.Text)
		case blk.OfImage != nil:
			url, err := imageURL(blk.OfImage)
			if err != nil {
				return protocols.Opt[openai.Content]{}, err
			}
			if text.Len() > 0 {
				parts = append(parts, openai.ContentPart{Type: openai.PartText, Text: text.String()})
				text.Reset()
			}
			parts = append(parts, openai.ContentPart{Type: openai.PartImageURL, ImageURL: &openai.MediaURL{URL: url}})
		default:
			ctx.Warnings = append(ctx.Warnings, fmt.Sprintf("messages.%d.content.%d: %s block in tool_result dropped", mi-1, bi, blk.Type()))
		}
	}
	if parts == nil {
		return openai.TextContent(text.String()), nil
	}
	if text.Len() > 0 {
		parts = append(parts, openai.ContentPart{Type: openai.PartText, Text: text.String()})
	}
	return protocols.Some(protocols.Array(parts...)), nil
}

func imageURL(img *anthropic.ImageBlock) (string, error) {
	switch img.Source.Type {
	case "base64":
		if img.Source.MediaType == "" || img.Source.Data == "" {
			return "", badRequest("image source requires media_type and data")
		}
		return "data:" + img.Source.MediaType + ";base64," + img.Source.Data, nil
	case "url":
		if img.Source.URL == "" {
			return "", badRequest("image source requires url")
		}
		return img.Source.URL, nil
	}
	return "", badRequest("image source type %q is not supported", img.Source.Type)
}

// assistantMessage converts an assistant turn: text concatenated into
// content (null if none); thinking (ThinkingBlock.Reasoning: the text, or
// the text an omitted block's signature carries) accumulates into the
// pending segment (joined "\n"); each tool_use closes the segment and
// appends a call.
func assistantMessage(m *anthropic.Message, mi int, record recorder, ctx *AnthropicContext) (openai.Message, error) {
	out := openai.Message{Role: openai.RoleAssistant}
	if !m.Content.IsArray() {
		out.Content = openai.TextContent(m.Content.String)
		return out, nil
	}
	var text strings.Builder
	hasText := false
	var segs []string
	var seg []string
	for bi := range m.Content.Array {
		b := &m.Content.Array[bi]
		if err := record(mi, bi, blockCacheControl(b)); err != nil {
			return out, err
		}
		switch {
		case b.OfText != nil:
			text.WriteString(b.OfText.Text)
			hasText = true
		case b.OfThinking != nil:
			// An omitted block sent back carries its reasoning in its
			// signature (anthropic.ThinkingSignaturePrefix); a foreign
			// signature on an empty block adds an empty piece.
			seg = append(seg, b.OfThinking.Reasoning())
		case b.OfRedactedThinking != nil:
			// Anthropic's encrypted reasoning cannot be replayed to
			// another model; this library never writes such blocks.
		case b.OfToolUse != nil, b.OfServerToolUse != nil:
			id, name, input := toolUse(b)
			args, err := compactArgs(input)
			if err != nil {
				return out, badRequest("messages.%d.content.%d.input: %v", mi-1, bi, err)
			}
			segs = append(segs, strings.Join(seg, "\n"))
			seg = seg[:0]
			out.ToolCalls = append(out.ToolCalls, openai.ToolCall{ID: id, Type: openai.ToolTypeFunction,
				Function: openai.FunctionCall{Name: name, Arguments: openai.Arguments(args)}})
		case b.OfToolResult != nil, b.OfImage != nil, b.OfWebSearchToolResult != nil:
			ctx.Warnings = append(ctx.Warnings, fmt.Sprintf("messages.%d.content.%d: %s block in an assistant turn dropped", mi-1, bi, b.Type()))
		default:
			return out, unsupportedBlock(b)
		}
	}
	segs = append(segs, strings.Join(seg, "\n"))
	if hasText {
		out.Content = openai.TextContent(text.String())
	} else {
		out.Content = protocols.Null[openai.Content]()
	}
	out.ReasoningContent = reasoningFromSegments(segs, len(out.ToolCalls))
	return out, nil
}

func toolUse(b *anthropic.ContentBlock) (id, name string, input anthropic.RawJSON) {
	if t := b.OfToolUse; t != nil {
		return t.ID, t.Name, t.Input
	}
	t := b.OfServerToolUse
	return t.ID, t.Name, t.Input
}

// compactArgs re-serialises a tool input object as compact JSON ("{}" when
// absent).
func compactArgs(input []byte) (string, error) {
	if len(input) == 0 || jsonx.IsNull(input) {
		return "{}", nil
	}
	if jsonx.Kind(input) != '{' {
		return "", fmt.Errorf("tool input must be an object")
	}
	b, err := jsonx.Compact(nil, input)
	return string(b), err
}

// reasoningFromSegments applies the segment rule: segments (len = calls+1)
// when there are tool calls and any segment is non-empty; else a flat string
// of the non-empty segments joined with "\n"; else absent.
func reasoningFromSegments(segs []string, calls int) protocols.Opt[openai.Reasoning] {
	nonEmpty := false
	for _, s := range segs {
		if s != "" {
			nonEmpty = true
			break
		}
	}
	if !nonEmpty {
		return protocols.Opt[openai.Reasoning]{}
	}
	if calls > 0 {
		return protocols.Some(protocols.Array(segs...))
	}
	return protocols.Some(protocols.Text[string](openai.FlattenReasoning(protocols.Array(segs...))))
}
