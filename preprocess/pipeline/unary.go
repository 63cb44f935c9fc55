package pipeline

import (
	"github.com/agentwire/agentwire/preprocess"
	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/convert"
	"github.com/agentwire/agentwire/protocols/openai"
)

// Unary returns the unary answer of a request that did not ask for a
// stream, built from the same events a stream would carry (call after
// Finish): *openai.ChatResponse (chat), *openai.CompletionResponse
// (completions), *anthropic.Response (Messages) or *responses.Response
// (Responses). It returns the error given to Fail, if any.
func (p *Pipeline) Unary() (any, error) {
	if p.err != nil {
		return nil, p.err
	}
	if p.prep.Stream {
		return nil, errStreaming
	}
	if !p.finished {
		p.Finish(nil)
	}
	u := p.Usage()
	if p.prep.API == preprocess.APICompletions {
		r := &openai.CompletionResponse{ID: p.id, Object: openai.ObjectTextCompletion, Created: p.created,
			Model: p.model, Usage: protocols.Some(openai.UsageFrom(u))}
		for _, e := range p.comp[:len(p.choices)] {
			r.Choices = append(r.Choices, e.Choice())
		}
		return r, nil
	}
	chat := p.agg[0].Response()
	for i := 1; i < len(p.choices); i++ {
		ch := p.agg[i].Response().Choices[0]
		ch.Index = i
		chat.Choices = append(chat.Choices, ch)
	}
	usage := openai.UsageFrom(u)
	chat.Usage = &usage
	plan := &p.prep.Response
	if p.choices[0].abandoned > 0 && chat.Choices[0].FinishReason.Value() == openai.FinishStop {
		// The stream ended inside a call: the Messages and Responses
		// emitters report that as max_tokens / incomplete; so does the
		// unary answer (chat keeps stop, as its stream does).
		if p.prep.API == preprocess.APIMessages || p.prep.API == preprocess.APIResponses {
			chat.Choices[0].FinishReason = protocols.Some(openai.FinishLength)
		}
	}
	switch p.prep.API {
	case preprocess.APIMessages:
		msg := convert.ChatToAnthropic(chat, plan.Anthropic, convert.BackOptions{
			MatchedStop: string(p.choices[0].stopStr), IDs: p.ids})
		if plan.ToolArgs != nil {
			for _, b := range msg.Content {
				if u := b.OfToolUse; u != nil {
					plan.ToolArgs.Put(u.ID, u.Input)
				}
			}
		}
		return msg, nil
	case preprocess.APIResponses:
		r := convert.ChatToResponses(chat, plan.Responses, convert.BackOptions{IDs: p.ids, Reasoning: p.opts.Reasoning})
		if r.Model == "" {
			r.Model = p.model
		}
		return r, nil
	}
	return chat, nil
}

// UnaryJSON is Unary encoded as the response body.
func (p *Pipeline) UnaryJSON() ([]byte, error) {
	v, err := p.Unary()
	if err != nil {
		return nil, err
	}
	return MarshalJSON(v)
}
