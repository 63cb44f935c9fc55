package convert

import (
	"strings"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/openai"
	"github.com/agentwire/agentwire/protocols/responses"
)

// step is one element of an assistant turn in generation order.
type step struct {
	kind      stepKind
	text      string
	call      *openai.ToolCall
	lastBlock bool
}

type stepKind uint8

const (
	stepReasoning stepKind = iota
	stepText
	stepCall
)

// generationOrder lays out a chat response message in the order the model
// produced it: with reasoning segments, seg[0] → text → call[0] → seg[1] →
// call[1] … → seg[n] (trailing); with flat reasoning, reasoning → text →
// calls. Empty pieces are skipped.
func generationOrder(m *openai.ResponseMessage) []step {
	var steps []step
	text := ""
	if c, ok := m.Content.Get(); ok {
		if c.IsArray() {
			text = openai.ContentText(c, "")
			if text == "" && len(c.Array) > 0 {
				text = "[multimodal content]"
			}
		} else {
			text = c.String
		}
	}
	r, hasReasoning := m.ReasoningContent.Get()
	if hasReasoning && r.IsArray() && len(m.ToolCalls) > 0 {
		segs := r.Array
		seg := func(i int) {
			if i < len(segs) && segs[i] != "" {
				steps = append(steps, step{kind: stepReasoning, text: segs[i]})
			}
		}
		seg(0)
		if text != "" {
			steps = append(steps, step{kind: stepText, text: text})
		}
		for i := range m.ToolCalls {
			if i > 0 {
				seg(i)
			}
			steps = append(steps, step{kind: stepCall, call: &m.ToolCalls[i]})
		}
		for i := len(m.ToolCalls); i < len(segs); i++ {
			seg(i)
		}
		return steps
	}
	if hasReasoning {
		if flat := openai.FlattenReasoning(r); flat != "" {
			steps = append(steps, step{kind: stepReasoning, text: flat})
		}
	}
	if text != "" {
		steps = append(steps, step{kind: stepText, text: text})
	}
	for i := range m.ToolCalls {
		steps = append(steps, step{kind: stepCall, call: &m.ToolCalls[i]})
	}
	return steps
}

// BackOptions carry per-response facts for the unary translations.
type BackOptions struct {
	// MatchedStop is the stop string that ended generation, when the engine
	// reports it (nvext matched_stop); Anthropic then says stop_sequence if
	// it is one of the request's stop_sequences.
	MatchedStop string
	// IDs mints message and tool ids; the zero value uses a fresh source.
	IDs protocols.IDSource
	// Reasoning is the server's reasoning-summary policy for
	// ChatToResponses (responses.ReasoningPolicy).
	Reasoning responses.ReasoningPolicy
}

func (o *BackOptions) ids() protocols.IDSource {
	if o.IDs.IsZero() {
		o.IDs = protocols.NewIDSource()
	}
	return o.IDs
}

// ChatToAnthropic turns a unary chat response (first choice) into an
// Anthropic message: blocks in generation order (thinking → text → tool_use
// for an ordinary turn, interleaved thinking as further blocks), tool_use
// ids freshly minted, input the parsed arguments ({} if invalid), one empty
// text block for empty output, stop_reason mapped. A shown thinking block's
// signature is "erased"; an omitted one (ctx.Thinking ThinkingOmitted) has
// empty text and a signature that carries it
// (anthropic.ThinkingSignature), as the streamed answer does.
func ChatToAnthropic(resp *openai.ChatResponse, ctx *AnthropicContext, opts BackOptions) *anthropic.Response {
	ids := opts.ids()
	out := &anthropic.Response{
		ID:           ids.New("msg_"),
		Role:         anthropic.RoleAssistant,
		Model:        resp.Model,
		StopSequence: protocols.Null[string](),
		Usage:        anthropic.UsageFrom(resp.Usage.Neutral()),
	}
	if ctx != nil && ctx.Model != "" {
		out.Model = ctx.Model
	}
	var finish string
	completed := 0
	if len(resp.Choices) > 0 {
		ch := &resp.Choices[0]
		finish = ch.FinishReason.Value()
		for _, s := range generationOrder(&ch.Message) {
			switch s.kind {
			case stepReasoning:
				block := &anthropic.ThinkingBlock{Thinking: s.text, Signature: anthropic.SignatureErased}
				if ctx != nil {
					switch ctx.Thinking {
					case anthropic.ThinkingHidden:
						continue
					case anthropic.ThinkingOmitted:
						block.Thinking, block.Signature = "", anthropic.ThinkingSignature(s.text)
					}
				}
				out.Content = append(out.Content, anthropic.ContentBlock{OfThinking: block})
			case stepText:
				out.Content = append(out.Content, anthropic.TextBlockOf(s.text))
			case stepCall:
				if ctx != nil && ctx.DisableParallelToolUse && completed > 0 {
					continue
				}
				input := anthropic.RawJSON(s.call.Function.Arguments)
				if jsonx.Kind(input) != '{' || !jsonx.Valid(input) {
					input = anthropic.RawJSON("{}")
				}
				out.Content = append(out.Content, anthropic.ContentBlock{OfToolUse: &anthropic.ToolUseBlock{
					ID: ids.New("toolu_"), Name: s.call.Function.Name, Input: input}})
				completed++
			}
		}
	}
	if len(out.Content) == 0 {
		out.Content = []anthropic.ContentBlock{anthropic.TextBlockOf("")}
	}
	reason, _ := protocols.ParseFinishReason(finish)
	hasStop := false
	if opts.MatchedStop != "" && ctx != nil {
		for _, s := range ctx.StopSequences {
			if s == opts.MatchedStop {
				hasStop = true
			}
		}
	}
	stop := anthropic.StopReasonFor(reason, completed, false, hasStop)
	out.StopReason = protocols.Some(stop)
	if stop == anthropic.StopStopSequence {
		out.StopSequence = protocols.Some(opts.MatchedStop)
	}
	return out
}

// ChatToResponses turns a unary chat response (first choice) into a
// Responses response: the envelope of ResponseFrom(ctx.Request), output
// items in generation order (reasoning as reasoning_text content, also as
// summary_text when the request set reasoning.summary; the message; one
// function_call per call with call_id = the chat call id and its namespace
// restored), status completed or incomplete (length → max_output_tokens,
// content_filter), usage.
func ChatToResponses(resp *openai.ChatResponse, ctx *ResponsesContext, opts BackOptions) *responses.Response {
	ids := opts.ids()
	var out responses.Response
	if ctx != nil && ctx.Request != nil {
		out = responses.ResponseFrom(ctx.Request)
	} else {
		out = responses.ResponseFrom(&responses.Request{Model: resp.Model})
	}
	if out.Model == "" {
		out.Model = resp.Model
	}
	out.ID = ids.New("resp_")
	out.CreatedAt = resp.Created
	out.CompletedAt = protocols.Some(resp.Created)
	out.Status = responses.StatusCompleted
	out.Usage = protocols.Some(responses.UsageFrom(resp.Usage.Neutral()))
	summary, passback := false, false
	if ctx != nil && ctx.Request != nil {
		summary = opts.Reasoning.Summary(ctx.Request)
		passback = opts.Reasoning.Passback(ctx.Request)
	}
	out.Output = []responses.Item{}
	var finish string
	if len(resp.Choices) > 0 {
		ch := &resp.Choices[0]
		finish = ch.FinishReason.Value()
		for _, s := range generationOrder(&ch.Message) {
			switch s.kind {
			case stepReasoning:
				r := responses.NewReasoningItem(ids.New("rs_"), s.text, summary)
				if passback {
					r.EncryptedContent = protocols.Some(responses.EncodeReasoning(s.text))
				}
				out.Output = append(out.Output, responses.Item{OfReasoning: r})
			case stepText:
				out.Output = append(out.Output, responses.Item{OfMessage: &responses.MessageItem{
					ID: ids.New("msg_"), Role: "assistant", Status: responses.StatusCompleted,
					Content: protocols.Array(responses.ContentPart{Type: responses.PartOutputText, Text: s.text})}})
			case stepCall:
				var route responses.ToolRoute
				if ctx != nil {
					route = ctx.Tools[s.call.Function.Name]
					if ns := ctx.Namespaces[s.call.Function.Name]; ns != "" && route.Namespace == "" {
						route.Namespace = ns
					}
				}
				if route.Custom {
					input := responses.CustomToolInput(nil, []byte(s.call.Function.Arguments))
					out.Output = append(out.Output, responses.Item{OfCustomToolCall: &responses.CustomToolCallItem{
						ID: ids.New("ctc_"), CallID: s.call.ID, Name: s.call.Function.Name, Namespace: route.Namespace,
						Input: string(input), Status: responses.StatusCompleted}})
					continue
				}
				out.Output = append(out.Output, responses.Item{OfFunctionCall: &responses.FunctionCallItem{
					ID: ids.New("fc_"), CallID: s.call.ID, Name: s.call.Function.Name, Namespace: route.Namespace,
					Arguments: string(s.call.Function.Arguments), Status: responses.StatusCompleted}})
			}
		}
	}
	switch finish {
	case openai.FinishLength, openai.FinishContentFilter:
		out.Status = responses.StatusIncomplete
		reason := "max_output_tokens"
		if finish == openai.FinishContentFilter {
			reason = "content_filter"
		}
		out.IncompleteDetails = protocols.Some(responses.IncompleteDetails{Reason: reason})
		if n := len(out.Output); n > 0 {
			switch it := &out.Output[n-1]; {
			case it.OfMessage != nil:
				it.OfMessage.Status = responses.StatusIncomplete
			case it.OfFunctionCall != nil:
				it.OfFunctionCall.Status = responses.StatusIncomplete
			case it.OfCustomToolCall != nil:
				it.OfCustomToolCall.Status = responses.StatusIncomplete
			case it.OfReasoning != nil:
				it.OfReasoning.Status = responses.StatusIncomplete
			}
		}
	}
	return &out
}

// joinNonEmpty joins the non-empty strings with sep.
func joinNonEmpty(parts []string, sep string) string {
	var kept []string
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, sep)
}
