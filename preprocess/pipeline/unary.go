package pipeline

// Unary returns the unary answer of a request that did not ask for a
// stream, built from the same events a stream would carry (call after
// Finish): the API writer's answer (*openai.ChatResponse,
// *openai.CompletionResponse, *anthropic.Response or *responses.Response;
// api.Writer.Unary). It returns the error given to Fail, if any.
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
	return p.w.Unary(p.Usage()), nil
}

// UnaryJSON is Unary encoded as the response body.
func (p *Pipeline) UnaryJSON() ([]byte, error) {
	v, err := p.Unary()
	if err != nil {
		return nil, err
	}
	return MarshalJSON(v)
}
