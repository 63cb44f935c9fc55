package responses

import "github.com/agentwire/agentwire/protocols"

// ResponseFrom returns the response envelope for req with the echoed
// settings and Dynamo's defaults: background false, metadata {}, model,
// instructions, max_output_tokens, previous_response_id and reasoning
// echoed (null when unset), parallel_tool_calls (default true),
// temperature and top_p (default 1.0), text (default {format:{type:text}}),
// tool_choice (default auto), tools (function strict defaulted to true),
// truncation (default disabled), service_tier (default auto), top_logprobs
// (default 0), presence/frequency penalty 0, and store. id, created_at,
// status, output and usage are left for the emitter.
func ResponseFrom(req *Request) Response {
	r := Response{
		Object:             ObjectResponse,
		Model:              req.Model,
		Instructions:       nullIfAbsent(req.Instructions),
		MaxOutputTokens:    nullIfAbsent(req.MaxOutputTokens),
		PreviousResponseID: nullIfAbsent(req.PreviousResponseID),
		Reasoning:          nullIfAbsent(req.Reasoning),
		Error:              protocols.Null[ErrorObject](),
		IncompleteDetails:  protocols.Null[IncompleteDetails](),
		ParallelToolCalls:  req.ParallelToolCalls.Or(true),
		Temperature:        protocols.Some(req.Temperature.Or(1.0)),
		TopP:               protocols.Some(req.TopP.Or(1.0)),
		TopLogprobs:        protocols.Some(req.TopLogprobs.Or(0)),
		Truncation:         req.Truncation,
		ServiceTier:        req.ServiceTier,
		Metadata:           req.Metadata,
		Store:              req.Store,
		PresencePenalty:    protocols.Some(0.0),
		FrequencyPenalty:   protocols.Some(0.0),
		Usage:              protocols.Null[Usage](),
		Text:               req.Text,
	}
	if r.Truncation == "" {
		r.Truncation = "disabled"
	}
	if r.ServiceTier == "" {
		r.ServiceTier = "auto"
	}
	if r.Text == nil {
		r.Text = &TextConfig{Format: &TextFormat{Type: "text"}}
	}
	if tc, ok := req.ToolChoice.Get(); ok {
		r.ToolChoice = tc
	} else {
		r.ToolChoice = ToolChoice{Mode: "auto"}
	}
	r.Tools = make([]Tool, len(req.Tools))
	for i, t := range req.Tools {
		if t.Type == ToolFunction && t.Strict.IsZero() {
			t.Strict = protocols.Some(true)
		}
		r.Tools[i] = t
	}
	return r
}

func nullIfAbsent[T any](o protocols.Opt[T]) protocols.Opt[T] {
	if o.IsZero() {
		return protocols.Null[T]()
	}
	return o
}
