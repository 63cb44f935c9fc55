package preprocess

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/agentwire/agentwire/parsers"
	"github.com/agentwire/agentwire/preprocess/api"
	"github.com/agentwire/agentwire/preprocess/chattemplate"
	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/agentwire/agentwire/protocols/convert"
	"github.com/agentwire/agentwire/protocols/openai"
	"github.com/agentwire/agentwire/protocols/responses"
)

// Options configure a Preprocessor. The zero value serves a model with its
// family's parsers and the library's defaults.
type Options struct {
	// ServedModel is the name the engine serves the model under
	// (engine.Request.Model); the model directory's name when empty.
	ServedModel string

	// LenientSkipSpecial: PRE.1 overrides an explicit
	// skip_special_tokens=true to false (with a warning) instead of
	// rejecting the request.
	LenientSkipSpecial bool

	// ExcludeToolsWhenNone leaves the tools out of the rendered prompt
	// when tool_choice is "none".
	ExcludeToolsWhenNone bool

	// ReasoningAwareGuided says the engine delays guided decoding until
	// reasoning has ended (PRE.4's capability flag); shape detection is
	// then not needed.
	ReasoningAwareGuided bool

	// DefaultMaxTokens is the output limit when the request sets none and
	// the context length is unknown (0 means 4096). With a known context
	// length the default is context − prompt.
	DefaultMaxTokens int

	// ThinkingDefaults are deployment-level template arguments applied
	// before the request's own (the request wins), e.g.
	// {"enable_thinking": false}.
	ThinkingDefaults map[string]json.RawMessage

	// Anthropic and Responses configure the translation of those APIs to
	// the chat request (ReasoningParser is set from the model).
	Anthropic convert.AnthropicOptions
	Responses convert.ResponsesOptions

	// PrefixCacheEntries is the number of rendered prompts whose token ids
	// are kept to encode the next turn of the same conversation
	// incrementally (0 means 64, negative disables the cache), and
	// PrefixCacheBytes bounds the memory they hold (0 means
	// DefaultPrefixCacheBytes); the oldest entries are evicted first, and
	// a prompt larger than the bound is not kept. Each entry holds the
	// prompt text and its ids (about 2 bytes per prompt byte: a 50 KB
	// Claude Code prompt costs about 100 KB). Only prompts of accepted
	// requests are kept: a prompt answered with an error (too long for the
	// context, say) or only counted (CountTokens, CountChatTokens) is not.
	// Tokenizers whose encoding depends on the start of the text
	// (Metaspace, Prepend, add_prefix_space) and tiktoken files are never
	// cached.
	PrefixCacheEntries int
	PrefixCacheBytes   int64

	// ToolArgsEntries is the number of Anthropic tool_use ids whose exact
	// argument text is kept for the next turn (ToolArgs; 0 means 1024,
	// negative disables it).
	ToolArgsEntries int

	// MaxImageBytes bounds each image's decoded size (0 means
	// DefaultMaxImageBytes) and MaxImages the images of one request (0
	// means DefaultMaxImages); a request past them is the client's error.
	MaxImageBytes int
	MaxImages     int

	// ImageTokens is the token budget reserved for each image in the
	// context check and the default max_tokens (0 means the family's:
	// PARSER_CASES.md, "Images"): the prompt holds one placeholder per
	// image, which the engine expands.
	ImageTokens int

	// ImagesViaChat sends requests with images to the engine's own chat
	// endpoint: such a request carries the chat request
	// (engine.Request.Chat: the messages with their image parts, each
	// with its hash as uuid, the tools, tool_choice and the template
	// arguments) and no parsers, for an engine.ImageRouter to pass to an
	// OpenAI-compatible chat adapter (engine.NewChat) whose engine renders,
	// processes and parses it itself. For engines whose token endpoint
	// takes no images (trtllm-serve, SGLang's OpenAI API). The prompt is
	// still rendered and tokenized for the context check.
	ImagesViaChat bool

	// Warn receives warnings (PRE.1 lenient overrides, tool_choice auto
	// without a tool parser, content parts left out of the prompt). nil
	// drops them. It is called from the goroutines that prepare requests.
	Warn func(msg string)
}

// DefaultPrefixCacheBytes is the prefix cache's memory bound when
// Options.PrefixCacheBytes is 0: 128 MiB, 64 entries of a long agent
// session's 1 MB prompt with room to spare.
const DefaultPrefixCacheBytes = 128 << 20

// Preprocessor turns API requests into engine requests for one model. It
// is safe for concurrent use.
type Preprocessor struct {
	model    *Model
	opts     Options
	cache    *prefixCache
	toolArgs *ToolArgs
}

// New returns a Preprocessor for m.
func New(m *Model, opts Options) *Preprocessor {
	if opts.ServedModel == "" {
		opts.ServedModel = m.Name
	}
	if opts.DefaultMaxTokens <= 0 {
		opts.DefaultMaxTokens = 4096
	}
	p := &Preprocessor{model: m, opts: opts}
	n := opts.PrefixCacheEntries
	if n == 0 {
		n = 64
	}
	maxBytes := opts.PrefixCacheBytes
	if maxBytes <= 0 {
		maxBytes = DefaultPrefixCacheBytes
	}
	if n > 0 && m.prefix.ok {
		p.cache = newPrefixCache(n, maxBytes)
	}
	switch k := opts.ToolArgsEntries; {
	case k == 0:
		p.toolArgs = NewToolArgs(1024)
	case k > 0:
		p.toolArgs = NewToolArgs(k)
	}
	return p
}

// ToolArgs returns the cache of emitted tool_use arguments (nil when
// disabled); Messages hands it to the response pipeline in
// ResponsePlan.ToolArgs.
func (p *Preprocessor) ToolArgs() *ToolArgs { return p.toolArgs }

// Model returns the model served.
func (p *Preprocessor) Model() *Model { return p.model }

// ContextLengthError returns the error for a prompt that does not fit:
// an *engine.Error of kind ErrorContextLength carrying both numbers, which
// the server answers in each API's shape (Anthropic: "prompt is too long:
// N tokens > M maximum"; OpenAI: context_length_exceeded).
func ContextLengthError(promptTokens, maxContext int) error {
	return &engine.Error{
		Kind:         engine.ErrorContextLength,
		Status:       400,
		Message:      fmt.Sprintf("prompt is too long: %d tokens > %d maximum", promptTokens, maxContext),
		PromptTokens: promptTokens,
		MaxContext:   maxContext,
	}
}

// BadRequestError is a request the preprocessor cannot serve as sent (a
// template's raise_exception, PRE.1, an unknown tool_choice name). It
// unwraps to its cause and to the 400 error in the shape of the API the
// request arrived on (API.APIError: *openai.APIError, *anthropic.APIError
// or *responses.APIError), so a server that answers protocols API errors
// answers it without knowing this type.
type BadRequestError struct {
	Err error
	API api.API
}

func (e *BadRequestError) Error() string { return e.Err.Error() }

// ClientError returns the 400 a client reads: the request's fault, in the
// preprocessor's words (protocols.ClientError).
func (e *BadRequestError) ClientError() *protocols.Error {
	return &protocols.Error{Kind: protocols.ErrorBadRequest, Message: e.Err.Error()}
}

// Unwrap returns the cause and the API error.
func (e *BadRequestError) Unwrap() []error {
	if e.API == nil {
		return []error{e.Err}
	}
	return []error{e.Err, e.API.APIError(e.ClientError())}
}

// Prepare prepares a request of any API (package api): it translates it
// (api.Request.Translate) and prepares the chat request every chat-shaped
// API narrows to (template, PRE.1–PRE.6, tokens, stops) or the completions
// prompt, and carries the API and what its answer needs to the response
// half. A chat request has its thinking normalized
// (openai.ChatRequest.NormalizeThinking modifies its template arguments).
// Errors are the API's own or answer in its shape (BadRequestError, the
// context-length error).
func (p *Preprocessor) Prepare(ctx context.Context, req api.Request) (*Prepared, error) {
	t, err := req.Translate(p.translateOptions())
	if err != nil {
		return nil, err
	}
	if t.Completion != nil {
		return p.completion(ctx, req.API(), t.Completion)
	}
	prep, err := p.chat(ctx, t, req.API(), false)
	if err != nil {
		return nil, err
	}
	if t.Model != "" {
		prep.Response.Model = t.Model
	}
	prep.Response.Anthropic, prep.Response.Responses = t.Anthropic, t.Responses
	prep.Response.HideReasoning = t.HideReasoning
	if t.ReplayToolArgs {
		prep.Response.ToolArgs = p.toolArgs
	}
	return prep, nil
}

// translateOptions are the translation options of the Anthropic and
// Responses APIs (the reasoning parser's presence from the model).
func (p *Preprocessor) translateOptions() api.TranslateOptions {
	o := api.TranslateOptions{Anthropic: p.opts.Anthropic, Responses: p.opts.Responses}
	o.Anthropic.ReasoningParser = p.model.ReasoningParser != ""
	return o
}

// Chat prepares a chat completion request (Prepare).
func (p *Preprocessor) Chat(ctx context.Context, req *openai.ChatRequest) (*Prepared, error) {
	return p.Prepare(ctx, api.FromChat(req))
}

// Messages prepares an Anthropic Messages request (Prepare, through the
// chat request convert.AnthropicToChat builds).
func (p *Preprocessor) Messages(ctx context.Context, req *anthropic.MessagesRequest) (*Prepared, error) {
	return p.Prepare(ctx, api.FromMessages(req))
}

// Responses prepares an OpenAI Responses request (Prepare, through the
// chat request convert.ResponsesToChat builds).
func (p *Preprocessor) Responses(ctx context.Context, req *responses.Request) (*Prepared, error) {
	return p.Prepare(ctx, api.FromResponses(req))
}

// Completion prepares a completions request (Prepare).
func (p *Preprocessor) Completion(ctx context.Context, req *openai.CompletionRequest) (*Prepared, error) {
	return p.Prepare(ctx, api.FromCompletion(req))
}

// CountTokens returns the prompt length of an Anthropic count_tokens
// request: the request rendered through the chat template and tokenized,
// exactly as Messages would send it, plus the per-image budget of its
// images (Options.ImageTokens).
func (p *Preprocessor) CountTokens(ctx context.Context, req *anthropic.CountTokensRequest) (int64, error) {
	mr := &anthropic.MessagesRequest{
		Model: req.Model, Messages: req.Messages, System: req.System, Tools: req.Tools,
		ToolChoice: req.ToolChoice, Thinking: req.Thinking, MaxTokens: protocols.Some(1),
	}
	t, err := api.FromMessages(mr).Translate(p.translateOptions())
	if err != nil {
		return 0, err
	}
	prep, err := p.chat(ctx, t, api.Messages, true)
	if err != nil {
		return 0, err
	}
	return int64(prep.Response.PromptTokens), nil
}

// CountChatTokens returns the prompt length of a chat request (vLLM's
// /tokenize with messages).
func (p *Preprocessor) CountChatTokens(ctx context.Context, req *openai.ChatRequest) (*Prepared, error) {
	return p.chat(ctx, &api.Translation{Chat: req}, api.Chat, true)
}

// completion prepares a completions request: the prompt is used as sent
// (text, or token ids passed through), with the same stops, limits and
// PRE.1/PRE.5 decisions as chat. Reasoning and tool parsing are off.
func (p *Preprocessor) completion(ctx context.Context, a api.API, req *openai.CompletionRequest) (*Prepared, error) {
	prep := &Prepared{API: a, Stream: req.Stream.Or(false)}
	prep.Response.Model = req.Model
	prep.Response.Tokenizer = p.model.Tokenizer
	prep.Response.IncludeUsage = req.StreamOptions != nil && req.StreamOptions.IncludeUsage.Or(false)
	switch pr := req.Prompt; {
	case pr.Tokens != nil:
		prep.Engine.PromptIDs = slices.Clone(pr.Tokens)
		text, _ := p.model.Tokenizer.Decode(pr.Tokens, false)
		prep.Engine.Prompt = text
	case len(pr.TokenArrays) == 1:
		prep.Engine.PromptIDs = slices.Clone(pr.TokenArrays[0])
		text, _ := p.model.Tokenizer.Decode(pr.TokenArrays[0], false)
		prep.Engine.Prompt = text
	case len(pr.Texts) == 1:
		prep.Engine.Prompt = pr.Texts[0]
	case pr.Texts != nil || pr.TokenArrays != nil:
		return nil, &BadRequestError{errors.New("only one prompt per request is supported"), a}
	default:
		prep.Engine.Prompt = pr.Text.Value()
	}
	var entry *prefixEntry
	if prep.Engine.PromptIDs == nil {
		prep.Engine.PromptIDs, entry = p.encode(strings.ReplaceAll(prep.Engine.Prompt, "\x00", ""))
	}
	skip, set := req.SkipSpecialTokens.Get()
	var err error
	var warn string
	prep.Engine.SkipSpecialTokens, warn, err = decideSkipSpecial("", "", skip, set, p.opts.LenientSkipSpecial)
	if err != nil {
		return nil, &BadRequestError{err, a}
	}
	p.warn(warn)
	if n, ok := req.N.Get(); ok {
		prep.Engine.N = n
	}
	if lp, ok := req.Logprobs.Get(); ok && lp > 0 {
		prep.Engine.Logprobs, prep.Engine.TopLogprobs = true, lp
	}
	prep.Engine.Sampling = samplingOf(req.Temperature, req.TopP, req.PresencePenalty, req.FrequencyPenalty, req.Seed, &req.EngineExt)
	stop, _ := req.Stop.Get()
	if err := p.finish(prep, &req.EngineExt, stop, nil, req.MaxTokens, nil); err != nil {
		return nil, err
	}
	p.remember(entry)
	return prep, nil
}

func (p *Preprocessor) warn(msg string) {
	if msg != "" && p.opts.Warn != nil {
		p.opts.Warn(msg)
	}
}

// chat is the common path of the chat-shaped APIs: t.Chat is prepared for
// API a. countOnly stops after tokenizing.
func (p *Preprocessor) chat(ctx context.Context, t *api.Translation, a api.API, countOnly bool) (*Prepared, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	req := t.Chat
	m := p.model
	if err := req.NormalizeThinking(); err != nil {
		return nil, err
	}
	args := templateArgs{}
	for k, v := range p.opts.ThinkingDefaults {
		args[k] = v
	}
	for k, v := range req.ChatTemplateArgs {
		args[k] = json.RawMessage(v)
	}

	tc, _ := req.ToolChoice.Get()
	choice := tc.Mode
	if tc.Function != "" {
		choice = "function"
		if !slices.ContainsFunc(req.Tools, func(t openai.Tool) bool { return t.Function.Name == tc.Function }) {
			return nil, &BadRequestError{fmt.Errorf("tool_choice names the function %q, which is not among the tools", tc.Function), a}
		}
	}
	if choice == "required" && len(req.Tools) == 0 {
		return nil, &BadRequestError{errors.New("tool_choice is required but no tools were given"), a}
	}

	tools := req.Tools
	if choice == "none" && p.opts.ExcludeToolsWhenNone {
		tools = nil
	}
	tmpl := m.Template(len(tools) > 0)
	if tmpl == nil {
		return nil, &BadRequestError{fmt.Errorf("the model %s has no chat template", m.Name), a}
	}
	clampEffort(tmpl, args)
	clampThinkingMode(tmpl, args)
	msgs := req.Messages
	if !tmpl.ToolImages && hasImages(msgs) {
		msgs = liftToolImages(msgs)
	}
	images, err := p.images(msgs)
	if err != nil {
		return nil, &BadRequestError{err, a}
	}
	if len(images) > 0 && !m.Vision {
		return nil, &BadRequestError{fmt.Errorf("%w: the model %s is text-only", errNoImages, m.Name), a}
	}
	viaChat := len(images) > 0 && p.opts.ImagesViaChat
	if len(images) > 0 && tmpl.ImagePlaceholder == "" && !viaChat {
		return nil, &BadRequestError{fmt.Errorf("%w: the chat template of %s writes no image placeholder", errNoImages, m.Name), a}
	}
	prompt, err := p.render(tmpl, msgs, tools, args, a, t.ReplayToolArgs)
	var te *chattemplate.TemplateError
	if err != nil && len(msgs) != len(req.Messages) && errors.As(err, &te) && !viaChat {
		// The template rejects the user message the tool results' images
		// moved to (Ministral 3: roles must alternate).
		return nil, &BadRequestError{fmt.Errorf("%w in tool results: the chat template of %s renders none there (%v)", errNoImages, m.Name, err), a}
	}
	if err != nil {
		return nil, err
	}
	if len(images) > 0 && !viaChat {
		if n := strings.Count(prompt, tmpl.ImagePlaceholder); n != len(images) {
			// Never a silently lost image: the engine would pair images
			// and placeholders wrongly.
			return nil, &BadRequestError{fmt.Errorf("the chat template of %s wrote %d image placeholders for %d images", m.Name, n, len(images)), a}
		}
	}

	prep := &Prepared{API: a, Stream: t.Stream}
	prep.Engine.Prompt = prompt
	prep.Engine.Images = images
	var entry *prefixEntry
	prep.Engine.PromptIDs, entry = p.encode(strings.ReplaceAll(prompt, "\x00", ""))
	prep.Response.PromptTokens = len(prep.Engine.PromptIDs) + p.imageReserve(len(images))
	if countOnly {
		return prep, nil // counted, not accepted: the cache does not keep it
	}

	skip, set := req.SkipSpecialTokens.Get()
	d, err := decide(situation{
		ToolParser: m.ToolParser, ReasoningParser: m.ReasoningParser,
		SkipSpecial: skip, SkipSpecialSet: set, Lenient: p.opts.LenientSkipSpecial,
		Args: args, Prompt: prompt,
		LastIsTool: len(req.Messages) > 0 && req.Messages[len(req.Messages)-1].Role == openai.RoleTool,
		HasTools:   len(req.Tools) > 0, ToolChoice: choice, ToolChoiceName: tc.Function,
		ReasoningAwareGuided: p.opts.ReasoningAwareGuided,
	})
	if err != nil {
		return nil, &BadRequestError{err, a}
	}
	p.warn(d.Warning)

	prep.Engine.SkipSpecialTokens = d.SkipSpecialTokens
	prep.Parsers = parsers.Config{ToolParser: d.ToolParser, ReasoningParser: d.ReasoningParser, InReasoning: d.InReasoning, Unforced: d.Unforced}
	if d.ToolParser != "" || d.ImmediateTool {
		for _, t := range req.Tools {
			prep.Parsers.Tools = append(prep.Parsers.Tools, parsers.Tool{Name: t.Function.Name, Parameters: json.RawMessage(t.Function.Parameters)})
		}
	}
	prep.Response.Model = req.Model
	prep.Response.Tokenizer = m.Tokenizer
	prep.Response.ShapeDetect, prep.Response.StripThinkFirst = d.ShapeDetect, d.StripThinkFirst
	prep.Response.StripLeadingThink = d.StripLeadingThink
	prep.Response.ImmediateTool, prep.Response.ImmediateToolName = d.ImmediateTool, d.ImmediateToolName
	prep.Response.IncludeUsage = req.IncludeUsage()
	prep.Response.Logprobs = req.Logprobs.Or(false)

	if n, ok := req.N.Get(); ok {
		prep.Engine.N = n
	}
	prep.Engine.Logprobs = req.Logprobs.Or(false)
	prep.Engine.TopLogprobs = req.TopLogprobs.Or(0)
	prep.Engine.Sampling = samplingOf(req.Temperature, req.TopP, req.PresencePenalty, req.FrequencyPenalty, req.Seed, &req.EngineExt)
	prep.Engine.Guided = guidedOf(req, choice, tc.Function)

	// Tool end tokens stay visible (see PARSER_CASES.md, request decisions) when the tool parser runs.
	var toolEnds []string
	if d.ToolParser != "" {
		if info, ok := parsers.ToolParser(d.ToolParser); ok {
			toolEnds = info.Closers
		}
	}
	stop, _ := req.Stop.Get()
	limit, _ := req.MaxTokensLimit()
	var maxTokens protocols.Opt[int]
	if limit > 0 {
		maxTokens = protocols.Some(limit)
	}
	if err := p.finish(prep, &req.EngineExt, stop, req.StopTokenIDs, maxTokens, toolEnds); err != nil {
		return nil, err
	}
	if len(args) > 0 && d.ReasoningParser != "" {
		// vLLM builds per-request reasoners from these (Dynamo's
		// extra_args.reasoning_parser_kwargs).
		kw, _ := json.Marshal(map[string]any{"reasoning_parser_kwargs": map[string]any{"chat_template_kwargs": args}})
		prep.Engine.ExtraArgs = kw
	}
	if viaChat {
		if prep.Engine.Chat, err = chatRequest(req, msgs, images, args); err != nil {
			return nil, err
		}
		// The engine parses its own output.
		prep.Parsers = parsers.Config{}
		prep.Engine.Guided = nil
		prep.Response.ShapeDetect, prep.Response.StripThinkFirst, prep.Response.StripLeadingThink = false, false, false
		prep.Response.ImmediateTool, prep.Response.ImmediateToolName = false, ""
	}
	p.remember(entry)
	return prep, nil
}

// chatRequest is the chat request an engine's own chat endpoint gets for
// a request with images (Options.ImagesViaChat): the messages as rendered
// here (tool results' images lifted where the template drops them), each
// image part with its hash as uuid (vLLM's multimodal cache key), the
// tools, tool_choice and the template arguments.
func chatRequest(req *openai.ChatRequest, msgs []openai.Message, images []engine.Image, args templateArgs) (json.RawMessage, error) {
	hashes := make(map[string]string, len(images))
	for _, img := range images {
		hashes[img.URL] = img.Hash
	}
	msgs = slices.Clone(msgs)
	for i := range msgs {
		c, ok := msgs[i].Content.Get()
		if !ok || !c.IsArray() {
			continue
		}
		parts := slices.Clone(c.Array)
		for j := range parts {
			if parts[j].Type == openai.PartImageURL && parts[j].ImageURL != nil && parts[j].UUID == "" {
				parts[j].UUID = hashes[parts[j].ImageURL.URL]
			}
		}
		msgs[i].Content = protocols.Some(protocols.Array(parts...))
	}
	body := struct {
		Messages           []openai.Message                 `json:"messages"`
		Tools              []openai.Tool                    `json:"tools,omitempty"`
		ToolChoice         protocols.Opt[openai.ToolChoice] `json:"tool_choice,omitzero"`
		ChatTemplateKwargs templateArgs                     `json:"chat_template_kwargs,omitempty"`
	}{msgs, req.Tools, req.ToolChoice, args}
	return json.Marshal(body)
}

// finish assembles stops (PRE.5, visible tool end tokens, hidden and visible stops), checks the context length
// and settles max_tokens.
func (p *Preprocessor) finish(prep *Prepared, ext *openai.EngineExt, stop openai.Stop, stopIDs []uint32, maxTokens protocols.Opt[int], toolEnds []string) error {
	m := p.model
	e := &prep.Engine
	e.Model = p.opts.ServedModel
	prompt := len(e.PromptIDs) + p.imageReserve(len(e.Images))
	prep.Response.PromptTokens = prompt
	e.MinTokens = ext.MinTokens.Or(0)
	e.IgnoreEOS = ext.IgnoreEOS.Or(false)
	if !e.IgnoreEOS {
		e.Stop.Strings = slices.Clone(stop.Strings)
		e.Stop.IncludeStrings = ext.IncludeStopStrInOutput.Or(false)
		e.Stop.HiddenIDs = slices.Clone(m.EOSIDs)
		for _, id := range slices.Concat(stop.TokenIDs, stopIDs) {
			if !slices.Contains(e.Stop.HiddenIDs, id) {
				e.Stop.HiddenIDs = append(e.Stop.HiddenIDs, id)
			}
		}
		for _, s := range toolEnds {
			ids := m.Tokenizer.AppendEncode(nil, s, false)
			if len(ids) != 1 {
				continue
			}
			if i := slices.Index(e.Stop.HiddenIDs, ids[0]); i >= 0 && !slices.Contains(stop.TokenIDs, ids[0]) && !slices.Contains(stopIDs, ids[0]) {
				e.Stop.HiddenIDs = slices.Delete(e.Stop.HiddenIDs, i, i+1)
				e.Stop.VisibleIDs = append(e.Stop.VisibleIDs, ids[0])
			}
		}
	}

	// Without a limit in the request the output gets what the context
	// leaves; DefaultMaxTokens only when the context length is unknown.
	def := 0
	if m.ContextLength <= 0 {
		def = p.opts.DefaultMaxTokens
	}
	var err error
	e.MaxTokens, err = OutputLimit(prompt, m.ContextLength, maxTokens.Or(0), def)
	return err
}

// imageReserve is the number of tokens n images add to the prompt beyond
// their placeholders: the per-image budget (Options.ImageTokens, else the
// family's) less the placeholder token counted already.
func (p *Preprocessor) imageReserve(n int) int {
	if n == 0 {
		return 0
	}
	per := p.opts.ImageTokens
	if per <= 0 {
		per = imageTokens(p.model)
	}
	return n * max(per-1, 0)
}

// OutputLimit decides a request's max_tokens, for the Preprocessor and the
// embedded engines alike: a prompt of contextLength tokens or more is the
// ContextLengthError; the limit is the request's (requested > 0), else
// defaultMax (> 0), and never more than what the context leaves
// (contextLength − promptTokens, when contextLength > 0); with neither a
// limit nor a context length it is 0 (none).
func OutputLimit(promptTokens, contextLength, requested, defaultMax int) (int, error) {
	if contextLength > 0 && promptTokens >= contextLength {
		return 0, ContextLengthError(promptTokens, contextLength)
	}
	limit := requested
	if limit <= 0 {
		limit = max(defaultMax, 0)
	}
	if left := contextLength - promptTokens; contextLength > 0 && (limit == 0 || limit > left) {
		limit = left
	}
	return limit, nil
}

func samplingOf(temp, topP, presence, frequency protocols.Opt[float64], seed protocols.Opt[int64], ext *openai.EngineExt) engine.Sampling {
	ptr := func(o protocols.Opt[float64]) *float64 {
		if v, ok := o.Get(); ok {
			return &v
		}
		return nil
	}
	var s engine.Sampling
	s.Temperature, s.TopP = ptr(temp), ptr(topP)
	s.PresencePenalty, s.FrequencyPenalty = ptr(presence), ptr(frequency)
	s.MinP, s.RepetitionPenalty = ptr(ext.MinP), ptr(ext.RepetitionPenalty)
	if v, ok := ext.TopK.Get(); ok {
		s.TopK = &v
	}
	if v, ok := seed.Get(); ok {
		s.Seed = &v
	}
	return s
}

// guidedOf returns the guided-decoding constraint: tool_choice
// required (an array of {"name","parameters"} of the declared tools, at
// least one) or named (the tool's parameters schema), else the request's
// response_format or guided_* fields.
func guidedOf(req *openai.ChatRequest, choice, name string) *engine.Guided {
	switch choice {
	case "function":
		for _, t := range req.Tools {
			if t.Function.Name == name {
				return &engine.Guided{JSONSchema: schemaOr(t.Function.Parameters)}
			}
		}
	case "required":
		anyOf := make([]json.RawMessage, 0, len(req.Tools))
		for _, t := range req.Tools {
			nameJSON, _ := json.Marshal(t.Function.Name)
			anyOf = append(anyOf, json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","enum":[`+string(nameJSON)+`]},"parameters":`+string(schemaOr(t.Function.Parameters))+`},"required":["name","parameters"]}`))
		}
		items, _ := json.Marshal(anyOf)
		return &engine.Guided{JSONSchema: json.RawMessage(`{"type":"array","minItems":1,"items":{"anyOf":` + string(items) + `}}`)}
	}
	if rf := req.ResponseFormat; rf != nil {
		switch rf.Type {
		case "json_schema":
			if rf.JSONSchema != nil && len(rf.JSONSchema.Schema) > 0 {
				return &engine.Guided{JSONSchema: json.RawMessage(rf.JSONSchema.Schema)}
			}
		case "json_object":
			return &engine.Guided{JSONSchema: json.RawMessage(`{"type":"object"}`)}
		}
	}
	switch x := &req.EngineExt; {
	case len(x.GuidedJSON) > 0:
		return &engine.Guided{JSONSchema: json.RawMessage(x.GuidedJSON)}
	case x.GuidedRegex != "":
		return &engine.Guided{Regex: x.GuidedRegex}
	case len(x.GuidedChoice) > 0:
		return &engine.Guided{Choice: slices.Clone(x.GuidedChoice)}
	case x.GuidedGrammar != "":
		return &engine.Guided{Grammar: x.GuidedGrammar}
	}
	return nil
}

func schemaOr(s openai.RawJSON) json.RawMessage {
	if len(s) == 0 {
		return json.RawMessage(`{"type":"object"}`)
	}
	return json.RawMessage(s)
}

// ErrRenderLimit is wrapped by the *BadRequestError of a request whose
// render exceeds the chat template's bounds (chattemplate.ErrLimit: a
// prompt past 64 MiB, more than a million steps, nesting past 64). The
// request is what grows the render (a template is fixed server
// configuration that renders real conversations far below the bounds), so
// it is the client's error: the API's 400, whose message names the bound
// but nothing of the template.
var ErrRenderLimit = errors.New("the request renders to a prompt beyond the chat template's limits (64 MiB of text, a million template steps); shorten the conversation or its tools")

// render builds the template input and renders it. A template's
// raise_exception is a *BadRequestError wrapping the
// *chattemplate.TemplateError, a render past the template's bounds one
// wrapping ErrRenderLimit; other failures of the template are the
// server's (not the client's) errors.
func (p *Preprocessor) render(t *Template, msgs []openai.Message, tools []openai.Tool, args templateArgs, a api.API, replay bool) (string, error) {
	in, err := p.templateInput(t, msgs, tools, args, replay)
	if err != nil {
		return "", err
	}
	out, err := t.Render(in)
	if err != nil {
		var te *chattemplate.TemplateError
		switch {
		case errors.As(err, &te):
			return "", &BadRequestError{err, a}
		case errors.Is(err, chattemplate.ErrLimit):
			return "", &BadRequestError{renderLimitError{err}, a}
		}
		return "", fmt.Errorf("preprocess: rendering the chat template: %w", err)
	}
	return out, nil
}

// renderLimitError is a render stopped by a bound: its text is
// ErrRenderLimit's, and it unwraps to both ErrRenderLimit and the
// template's own error (for logs).
type renderLimitError struct{ err error }

func (e renderLimitError) Error() string   { return ErrRenderLimit.Error() }
func (e renderLimitError) Unwrap() []error { return []error{ErrRenderLimit, e.err} }
