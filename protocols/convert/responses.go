package convert

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/openai"
	"github.com/agentwire/agentwire/protocols/responses"
)

// ResponsesOptions configure ResponsesToChat.
type ResponsesOptions struct {
	// RejectUnsupportedTools answers tools (and tool_choice) of types other
	// than function and namespace with Dynamo's 400 "Unsupported Responses
	// tools type 'X'". By default they are skipped and listed in
	// ResponsesContext.DroppedTools: Codex always sends custom
	// (apply_patch), tool_search and web_search tools, and rejecting them
	// would make Codex unusable.
	RejectUnsupportedTools bool
}

// ResponsesContext is what the response path needs to answer a Responses
// request faithfully.
type ResponsesContext struct {
	Request    *responses.Request // the original request (envelope echo, include, store, …)
	Namespaces map[string]string  // function name → its namespace, when unique
	// Tools maps the chat function names back to the Responses tools they
	// stand for (namespace, custom): pass it as
	// responses.EmitterConfig.Tools (EmitterConfig does), ChatToResponses
	// uses it. Top-level functions are not listed.
	Tools responses.ToolRoutes
	// DroppedTools lists the tools the model is not shown, as "type" or
	// "type:name" (for example "web_search", "tool_search",
	// "image_generation:gen"): hosted tools a self-hosted engine cannot run.
	// Log it; RejectUnsupportedTools answers 400 instead.
	DroppedTools []string
	Warnings     []string // skipped items and other tolerated oddities
}

// EmitterConfig returns the configuration of a responses.Emitter that
// answers c.Request: the envelope (ResponseFrom), the tool routes
// (namespaces, custom tools), reasoning summaries and reasoning passback per
// policy (ReasoningPolicy.Summary, ReasoningPolicy.Passback). Set IDs and
// Now on the result if needed.
func (c *ResponsesContext) EmitterConfig(policy responses.ReasoningPolicy) responses.EmitterConfig {
	req := c.Request
	if req == nil {
		req = &responses.Request{}
	}
	return responses.EmitterConfig{
		Response:          responses.ResponseFrom(req),
		Summary:           policy.Summary(req),
		ReasoningPassback: policy.Passback(req),
		Tools:             c.Tools,
	}
}

func responsesError(status int, format string, args ...any) *responses.APIError {
	return responses.NewAPIError(status, fmt.Sprintf(format, args...))
}

// ResponsesToChat translates a Responses request into a chat completion
// request (always streaming, with usage) and the context for the response.
// Errors are *responses.APIError values.
func ResponsesToChat(req *responses.Request, opts ResponsesOptions) (*openai.ChatRequest, *ResponsesContext, error) {
	ctx := &ResponsesContext{Request: req, Namespaces: map[string]string{}, Tools: responses.ToolRoutes{}}
	out := &openai.ChatRequest{
		Model:              req.Model,
		Stream:             protocols.Some(true),
		StreamOptions:      &openai.StreamOptions{IncludeUsage: protocols.Some(true)},
		Store:              req.Store,
		ParallelToolCalls:  req.ParallelToolCalls,
		Metadata:           req.Metadata,
		Temperature:        req.Temperature,
		TopP:               req.TopP,
		ServiceTier:        req.ServiceTier,
		NvExt:              req.NvExt,
		ChatTemplateArgs:   req.ChatTemplateArgs,
		ChatTemplateKwargs: req.ChatTemplateKwargs,
		PromptCacheKey:     req.PromptCacheKey,
		User:               req.User,
	}
	if n, ok := req.TopLogprobs.Get(); ok {
		out.TopLogprobs = protocols.Some(n)
		if n > 0 {
			out.Logprobs = protocols.Some(true)
		}
	}
	if n, ok := req.MaxOutputTokens.Get(); ok {
		out.MaxCompletionTokens = protocols.Some(n)
	}
	if r, ok := req.Reasoning.Get(); ok && r.Effort != "" {
		out.ReasoningEffort = r.Effort
	}
	if t := req.Text; t != nil && t.Format != nil {
		rf, err := responseFormat(t.Format)
		if err != nil {
			return nil, nil, err
		}
		out.ResponseFormat = rf
	}

	if err := convertTools(req, out, ctx, opts); err != nil {
		return nil, nil, err
	}

	var b msgBuilder
	if ins, ok := req.Instructions.Get(); ok && ins != "" {
		b.system(ins)
	}
	if in, ok := req.Input.Get(); ok {
		if !in.IsArray() {
			b.add(openai.Message{Role: openai.RoleUser, Content: openai.TextContent(in.String)})
		}
		for i := range in.Array {
			if err := b.item(&in.Array[i], i, ctx); err != nil {
				return nil, nil, err
			}
		}
	}
	b.flush()
	b.start() // a request with only system text still gets its system message
	orderToolResults(b.msgs)
	out.Messages = b.msgs
	if err := out.NormalizeThinking(); err != nil {
		return nil, nil, responsesError(http.StatusBadRequest, "%s", openai.MessageThinkingShape)
	}
	return out, ctx, nil
}

func responseFormat(f *responses.TextFormat) (*openai.ResponseFormat, error) {
	switch f.Type {
	case "text", "json_object":
		return &openai.ResponseFormat{Type: f.Type}, nil
	case "json_schema":
		if f.Name == "" {
			return nil, responsesError(http.StatusBadRequest, "text.format.name must not be empty")
		}
		return &openai.ResponseFormat{Type: "json_schema", JSONSchema: &openai.JSONSchema{
			Name: f.Name, Description: f.Description, Schema: f.Schema, Strict: f.Strict}}, nil
	}
	return nil, responsesError(http.StatusBadRequest, "Unsupported text.format type '%s'", f.Type)
}

// Custom (freeform) tools, such as Codex's apply_patch, take free text
// instead of JSON arguments. A chat model only calls functions, so each is
// declared as a function of the same name with one required string
// parameter "input" (CustomInputSchema); the tool's description is kept and
// its format is appended to it (a grammar as "Input grammar (lark):" and
// its definition). The model's call {"input": "…"} is turned back into a
// custom_tool_call whose input is that string (responses.Emitter with
// EmitterConfig.Tools, ChatToResponses), and custom_tool_call /
// custom_tool_call_output items in the input become that function call and
// its tool message.

// CustomInputSchema is the parameters schema of the function a custom tool
// is declared as.
const CustomInputSchema = `{"type":"object","properties":{"input":{"type":"string","description":"The tool's input: free text, written as the tool's description says (not JSON)."}},"required":["input"],"additionalProperties":false}`

// customDescription is the description of the function a custom tool is
// declared as: its own, then its input format.
func customDescription(t *responses.Tool) string {
	desc := t.Description
	if len(t.Format) == 0 || jsonx.IsNull(t.Format) {
		return desc
	}
	var f struct {
		Type       string `json:"type"`
		Syntax     string `json:"syntax"`
		Definition string `json:"definition"`
	}
	if jsonx.Unmarshal(t.Format, &f) != nil || f.Type != "grammar" || f.Definition == "" {
		return desc
	}
	syntax := f.Syntax
	if syntax == "" {
		syntax = "grammar"
	}
	if desc != "" {
		desc += "\n\n"
	}
	return desc + "Input grammar (" + syntax + "):\n" + f.Definition
}

func convertTools(req *responses.Request, out *openai.ChatRequest, ctx *ResponsesContext, opts ResponsesOptions) error {
	nsOf := map[string]string{} // function name → its namespace
	top := map[string]bool{}    // names of top-level functions
	addFn := func(t *responses.Tool, ns string) error {
		if ns == "" {
			top[t.Name] = true
		} else if prev, ok := nsOf[t.Name]; ok && prev != ns {
			return responsesError(http.StatusBadRequest, "Responses function tool names are ambiguous after namespace flattening")
		} else {
			nsOf[t.Name] = ns
		}
		fn := openai.FunctionDef{Name: t.Name, Description: t.Description, Parameters: t.Parameters, Strict: t.Strict}
		if t.Type == responses.ToolCustom {
			fn = openai.FunctionDef{Name: t.Name, Description: customDescription(t), Parameters: openai.RawJSON(CustomInputSchema)}
			ctx.Tools[t.Name] = responses.ToolRoute{Namespace: ns, Custom: true}
		}
		out.Tools = append(out.Tools, openai.Tool{Type: openai.ToolTypeFunction, Function: fn})
		return nil
	}
	unsupported := func(kind, typ, name string) error {
		if opts.RejectUnsupportedTools {
			return responsesError(http.StatusBadRequest, "Unsupported Responses %s type '%s'", kind, typ)
		}
		label := typ
		if name != "" {
			label += ":" + name
		}
		ctx.DroppedTools = append(ctx.DroppedTools, label)
		return nil
	}
	for i := range req.Tools {
		t := &req.Tools[i]
		switch t.Type {
		case responses.ToolFunction, responses.ToolCustom:
			if err := addFn(t, ""); err != nil {
				return err
			}
		case responses.ToolNamespace:
			for j := range t.Tools {
				inner := &t.Tools[j]
				if inner.Type != responses.ToolFunction && inner.Type != responses.ToolCustom {
					if err := unsupported("tools", inner.Type, inner.Name); err != nil {
						return err
					}
					continue
				}
				if err := addFn(inner, t.Name); err != nil {
					return err
				}
			}
		default:
			if err := unsupported("tools", t.Type, t.Name); err != nil {
				return err
			}
		}
	}
	for name, ns := range nsOf {
		if !top[name] {
			ctx.Namespaces[name] = ns
			r := ctx.Tools[name]
			r.Namespace = ns
			ctx.Tools[name] = r
		} else if r, ok := ctx.Tools[name]; ok {
			r.Namespace = "" // a top-level tool of the same name wins
			ctx.Tools[name] = r
		}
	}
	if tc, ok := req.ToolChoice.Get(); ok {
		switch {
		case tc.Mode != "":
			out.ToolChoice = protocols.Some(openai.ToolChoice{Mode: tc.Mode})
		case (tc.Type == responses.ToolFunction || tc.Type == responses.ToolCustom) && tc.Name != "":
			out.ToolChoice = protocols.Some(openai.ToolChoice{Function: tc.Name})
		default:
			if opts.RejectUnsupportedTools {
				return responsesError(http.StatusBadRequest, "Unsupported Responses tool_choice type '%s'", tc.Type)
			}
			ctx.Warnings = append(ctx.Warnings, fmt.Sprintf("tool_choice of type %q ignored", tc.Type))
		}
	}
	return nil
}

// msgBuilder accumulates chat messages, coalescing adjacent assistant-side
// items (text, function calls, reasoning) into one assistant message.
type msgBuilder struct {
	msgs    []openai.Message
	leading []string // leading system/developer texts, merged with "\n\n"
	started bool     // a non-system message was added
	pending bool
	text    []string
	hasText bool
	calls   []openai.ToolCall
	segs    []string // closed reasoning segments, one per call so far
	seg     []string // reasoning items of the open segment
}

func (b *msgBuilder) system(text string) {
	if !b.started {
		b.leading = append(b.leading, text)
		return
	}
	b.flush()
	b.msgs = append(b.msgs, openai.Message{Role: openai.RoleSystem, Content: openai.TextContent(text)})
}

func (b *msgBuilder) add(m openai.Message) {
	b.flush()
	b.start()
	b.msgs = append(b.msgs, m)
}

// start emits the merged leading system message before the first other
// message.
func (b *msgBuilder) start() {
	if b.started {
		return
	}
	b.started = true
	if len(b.leading) > 0 {
		b.msgs = append(b.msgs, openai.Message{Role: openai.RoleSystem, Content: openai.TextContent(strings.Join(b.leading, "\n\n"))})
	}
}

func (b *msgBuilder) assistantSide() {
	b.start()
	b.pending = true
}

// flush emits the pending assistant message.
func (b *msgBuilder) flush() {
	if !b.pending {
		return
	}
	m := openai.Message{Role: openai.RoleAssistant, ToolCalls: b.calls}
	b.segs = append(b.segs, strings.Join(b.seg, "\n"))
	switch {
	case b.hasText:
		m.Content = openai.TextContent(strings.Join(b.text, ""))
	case len(b.calls) > 0:
		m.Content = protocols.Null[openai.Content]()
	default:
		m.Content = openai.TextContent("") // keep the turn boundary
	}
	m.ReasoningContent = reasoningFromSegments(b.segs, len(b.calls))
	b.msgs = append(b.msgs, m)
	b.pending, b.hasText = false, false
	b.text, b.calls, b.segs, b.seg = nil, nil, nil, nil
}

// call adds a tool call to the pending assistant message.
func (b *msgBuilder) call(id, name, args string) {
	b.assistantSide()
	b.segs = append(b.segs, strings.Join(b.seg, "\n"))
	b.seg = nil
	b.calls = append(b.calls, openai.ToolCall{ID: id, Type: openai.ToolTypeFunction,
		Function: openai.FunctionCall{Name: name, Arguments: openai.Arguments(args)}})
}

func (b *msgBuilder) item(it *responses.Item, i int, ctx *ResponsesContext) error {
	switch {
	case it.OfMessage != nil:
		return b.message(it.OfMessage, i)
	case it.OfFunctionCall != nil:
		fc := it.OfFunctionCall
		args := fc.Arguments
		if args == "" {
			args = "{}"
		}
		b.call(fc.CallID, fc.Name, args)
	case it.OfCustomToolCall != nil:
		c := it.OfCustomToolCall
		args := jsonx.AppendString([]byte(`{"input":`), c.Input)
		b.call(c.CallID, c.Name, string(append(args, '}')))
	case it.OfCustomToolOutput != nil:
		o := it.OfCustomToolOutput
		b.flush()
		b.start()
		b.msgs = append(b.msgs, openai.Message{Role: openai.RoleTool, ToolCallID: o.CallID, Content: openai.TextContent(partsText(o.Output, "\n"))})
	case it.OfReasoning != nil:
		r := it.OfReasoning
		b.assistantSide()
		var texts []string
		if parts, ok := r.Content.Get(); ok {
			for _, p := range parts {
				texts = append(texts, p.Text)
			}
		}
		if joinNonEmpty(texts, "") == "" {
			texts = texts[:0]
			if text, ok := responses.DecodeReasoning(r.EncryptedContent.Value()); ok {
				// our own ReasoningPassback: the exact reasoning text
				texts = append(texts, text)
			} else {
				for _, p := range r.Summary {
					texts = append(texts, p.Text)
				}
			}
		}
		if t := strings.Join(texts, ""); t != "" {
			b.seg = append(b.seg, t)
		}
	case it.OfFunctionCallOutput != nil:
		o := it.OfFunctionCallOutput
		b.flush()
		b.start()
		content, err := toolOutputContent(o.Output, i)
		if err != nil {
			return err
		}
		b.msgs = append(b.msgs, openai.Message{Role: openai.RoleTool, ToolCallID: o.CallID, Content: content})
	default:
		b.flush()
		if t := it.Type(); t != responses.ItemReference {
			ctx.Warnings = append(ctx.Warnings, fmt.Sprintf("input.%d: %s item skipped", i, t))
		}
	}
	return nil
}

// toolOutputContent converts a function_call_output's output: its text
// (parts joined with "\n"), or, when it holds input_image parts (Codex's
// view_image), parts in their order: text parts and image_url parts,
// checked as a user message's images are.
func toolOutputContent(c responses.MessageContent, i int) (protocols.Opt[openai.Content], error) {
	if !c.IsArray() || !slices.ContainsFunc(c.Array, func(p responses.ContentPart) bool { return p.Type == responses.PartInputImage }) {
		return openai.TextContent(partsText(c, "\n")), nil
	}
	parts := make([]openai.ContentPart, 0, len(c.Array))
	for j := range c.Array {
		p := &c.Array[j]
		switch p.Type {
		case responses.PartInputText, responses.PartOutputText:
			parts = append(parts, openai.ContentPart{Type: openai.PartText, Text: p.Text})
		case responses.PartInputImage:
			part, err := imagePart(p, i, j)
			if err != nil {
				return protocols.Opt[openai.Content]{}, err
			}
			parts = append(parts, part)
		}
	}
	return protocols.Some(protocols.Array(parts...)), nil
}

// imagePart converts input_image part j of input item i: an http(s) or
// data: URL and a detail of auto, low or high; file ids are refused.
func imagePart(p *responses.ContentPart, i, j int) (openai.ContentPart, error) {
	switch {
	case p.ImageURL != "":
		if u, err := url.Parse(p.ImageURL); err != nil || (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "data") {
			return openai.ContentPart{}, responsesError(http.StatusBadRequest, "Invalid image URL in input.%d.content.%d", i, j)
		}
		detail := p.Detail
		switch detail {
		case "", "auto", "low", "high":
		default:
			return openai.ContentPart{}, responsesError(http.StatusBadRequest, "Invalid image detail '%s' in input.%d.content.%d", detail, i, j)
		}
		return openai.ContentPart{Type: openai.PartImageURL, ImageURL: &openai.MediaURL{URL: p.ImageURL, Detail: detail}}, nil
	case p.FileID != "":
		return openai.ContentPart{}, responsesError(http.StatusBadRequest, "Image input by file_id is not yet supported")
	}
	return openai.ContentPart{}, responsesError(http.StatusBadRequest, "input_image requires file_id or image_url")
}

// partsText returns the string, or the text of the parts joined with sep.
func partsText(c responses.MessageContent, sep string) string {
	if !c.IsArray() {
		return c.String
	}
	var texts []string
	for _, p := range c.Array {
		switch p.Type {
		case responses.PartInputText, responses.PartOutputText:
			texts = append(texts, p.Text)
		case responses.PartRefusal:
			texts = append(texts, p.Refusal)
		}
	}
	return strings.Join(texts, sep)
}

func (b *msgBuilder) message(m *responses.MessageItem, i int) error {
	switch m.Role {
	case "system", "developer":
		b.system(partsText(m.Content, "\n"))
	case "assistant":
		b.assistantSide()
		if t := partsText(m.Content, ""); t != "" || m.Content.IsArray() && len(m.Content.Array) > 0 {
			b.text = append(b.text, t)
			b.hasText = true
		}
	case "user":
		msg, err := userMessage(m, i)
		if err != nil {
			return err
		}
		b.add(msg)
	default:
		return responsesError(http.StatusBadRequest, "input.%d.role: unsupported role '%s'", i, m.Role)
	}
	return nil
}

// userMessage converts a user message: a single input_text → string
// content; otherwise parts (text, images).
func userMessage(m *responses.MessageItem, i int) (openai.Message, error) {
	out := openai.Message{Role: openai.RoleUser}
	if !m.Content.IsArray() {
		out.Content = openai.TextContent(m.Content.String)
		return out, nil
	}
	if len(m.Content.Array) == 1 && m.Content.Array[0].Type == responses.PartInputText {
		out.Content = openai.TextContent(m.Content.Array[0].Text)
		return out, nil
	}
	parts := []openai.ContentPart{}
	for j := range m.Content.Array {
		p := &m.Content.Array[j]
		switch p.Type {
		case responses.PartInputText, responses.PartOutputText:
			parts = append(parts, openai.ContentPart{Type: openai.PartText, Text: p.Text})
		case responses.PartInputImage:
			part, err := imagePart(p, i, j)
			if err != nil {
				return out, err
			}
			parts = append(parts, part)
		case responses.PartInputFile:
			if p.FileID == "" && p.FileData == "" && p.FileURL == "" {
				return out, responsesError(http.StatusBadRequest, "input_file requires file_id, file_data or file_url")
			}
			return out, responsesError(http.StatusBadRequest, "File input content is not yet supported")
		default:
			return out, responsesError(http.StatusBadRequest, "Unsupported content part type '%s' in input.%d.content.%d", p.Type, i, j)
		}
	}
	out.Content = protocols.Some(protocols.Array(parts...))
	return out, nil
}
