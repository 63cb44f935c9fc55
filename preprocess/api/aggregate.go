package api

import (
	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/openai"
)

// aggregate is the unary side of the chat-shaped APIs: one
// openai.Aggregator per choice, whose chat.completion the Anthropic and
// Responses writers translate back (convert.ChatToAnthropic,
// ChatToResponses).
type aggregate struct {
	aggs []*openai.Aggregator
}

// emitter returns a fresh aggregator for choice i.
func (a *aggregate) emitter(i int, cfg openai.AggregatorConfig) *openai.Aggregator {
	for len(a.aggs) <= i {
		a.aggs = append(a.aggs, nil)
	}
	a.aggs[i] = openai.NewAggregator(cfg)
	return a.aggs[i]
}

// response returns the chat.completion of n choices with usage.
func (a *aggregate) response(n int, usage protocols.Usage) *openai.ChatResponse {
	chat := a.aggs[0].Response()
	for i := 1; i < n; i++ {
		ch := a.aggs[i].Response().Choices[0]
		ch.Index = i
		chat.Choices = append(chat.Choices, ch)
	}
	u := openai.UsageFrom(usage)
	chat.Usage = &u
	return chat
}

// cutShort applies the rule of the APIs whose stream reports a turn with
// an abandoned tool call as cut short (Anthropic max_tokens, Responses
// incomplete), whatever else the turn holds — also when another call
// completed: the unary answer says length too (chat keeps its finish, as
// its stream does).
func (a *aggregate) cutShort(chat *openai.ChatResponse) {
	if f := chat.Choices[0].FinishReason.Value(); a.aggs[0].Abandoned() > 0 && (f == openai.FinishStop || f == openai.FinishToolCalls) {
		chat.Choices[0].FinishReason = protocols.Some(openai.FinishLength)
	}
}

// discard is the emitter of the choices an API cannot carry (n > 1 on
// Anthropic Messages and Responses, which have one output per response).
type discard struct{}

func (discard) SetUsage(protocols.Usage)                                              {}
func (discard) Start(dst []byte) []byte                                               { return dst }
func (discard) Content(dst, _ []byte) []byte                                          { return dst }
func (discard) Reasoning(dst, _ []byte) []byte                                        { return dst }
func (discard) ToolCallStart(dst []byte, _ int, _, _ []byte) []byte                   { return dst }
func (discard) ToolCallArgs(dst []byte, _ int, _ []byte) []byte                       { return dst }
func (discard) ToolCallEnd(dst []byte, _ int) []byte                                  { return dst }
func (discard) ToolCallAbandoned(dst []byte, _ int) []byte                            { return dst }
func (discard) SetLogprobs([]protocols.Logprob)                                       {}
func (discard) FlushLogprobs(dst []byte) []byte                                       { return dst }
func (discard) Finish(dst []byte, _ protocols.FinishReason, _ protocols.Usage) []byte { return dst }
func (discard) FinishChoice(dst []byte, _ protocols.FinishReason, _ []byte, _ protocols.Usage) []byte {
	return dst
}
func (discard) Done(dst []byte, _ protocols.Usage) []byte       { return dst }
func (discard) Fail(dst []byte, _ string) []byte                { return dst }
func (discard) FailError(dst []byte, _ *protocols.Error) []byte { return dst }
