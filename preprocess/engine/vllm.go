package engine

import "context"

// VLLMConfig configures the vLLM adapter.
type VLLMConfig struct {
	Config

	// NoTokenIDs leaves out return_token_ids (vLLM releases before it
	// existed ignore it anyway; set it to save the bytes).
	NoTokenIDs bool

	// LegacyGuidedDecoding sends guided_json / guided_regex /
	// guided_choice / guided_grammar instead of structured_outputs (vLLM
	// releases before structured_outputs).
	LegacyGuidedDecoding bool

	// TokenIDsOnly passes on only the token ids of chunks that carry them
	// (Text nil, HasText false), so that the response pipeline detokenizes
	// them itself: exact stop-string handling and visible stop ids (whose
	// text vLLM drops unless include_stop_str_in_output is set, which
	// would also keep the hidden ones). Use it when the pipeline has the
	// model's tokenizer. Chunks without token_ids keep their text.
	TokenIDsOnly bool
}

// Completions is an adapter for an OpenAI-compatible /v1/completions
// endpoint, streamed: vLLM (NewVLLM), SGLang's OpenAI API
// (NewSGLangCompletions) and trtllm-serve (NewTRTLLM) differ only in
// parameter names and limits. It is safe for concurrent use.
//
// Read per chunk: choices[].index, text, token_ids, logprobs (tokens,
// token_logprobs, top_logprobs), finish_reason and stop_reason (SGLang:
// matched_stop; a string: the stop string, FinishStop; a number: the stop
// token id, FinishStop with HasStopTokenID; null with "stop": FinishEOS),
// and usage (prompt_tokens, completion_tokens,
// prompt_tokens_details.cached_tokens) on the usage-only chunk, which
// becomes an Output with only Usage set (Index 0). finish_reason: length →
// FinishLength, abort → FinishCancelled, content_filter →
// FinishContentFilter, error → FinishError.
type Completions struct {
	c    client
	opts completionsOptions
	pool streamPool

	// gen and genPool serve requests with images on vLLM's token-in
	// endpoint (see generateImages).
	gen     client
	genPool streamPool
}

// NewVLLM returns the vLLM adapter. cfg.BaseURL is the API root
// ("http://127.0.0.1:8000/v1"). It maps a Request to /v1/completions
// members so:
//
//	Model                 model
//	PromptIDs | Prompt    prompt (ids when present, else text)
//	MaxTokens, MinTokens  max_tokens, min_tokens (when > 0)
//	N                     n (when > 1)
//	Sampling              temperature, top_p, top_k, min_p, presence_penalty,
//	                      frequency_penalty, repetition_penalty, seed (when set)
//	Stop.Strings          stop
//	Stop.HiddenIDs+VisibleIDs  stop_token_ids (not with IgnoreEOS)
//	Stop.IncludeStrings   include_stop_str_in_output; also set for visible
//	                      stop ids when there is no hidden stop string (vLLM
//	                      only keeps a stop token's text with it)
//	IgnoreEOS             ignore_eos
//	SkipSpecialTokens     skip_special_tokens (always sent);
//	                      spaces_between_special_tokens false when not skipping
//	Logprobs, TopLogprobs logprobs = TopLogprobs
//	Guided                structured_outputs {json | regex | choice | grammar |
//	                      structural_tag (JSON text)}; guided_json, guided_regex,
//	                      guided_choice, guided_grammar (a structural tag as
//	                      response_format) with LegacyGuidedDecoding
//	RequestID             request_id
//	CacheSalt             cache_salt (when set)
//	Images                the token-in endpoint instead (see images.go)
//	(always)              stream true, stream_options.include_usage true,
//	                      return_token_ids true (unless NoTokenIDs)
//	ExtraArgs             merged last: its members override the above
//
// With VLLMConfig.TokenIDsOnly (and SGLangConfig.TokenIDsOnly) the outputs
// carry only the token ids of chunks that have them, so the response
// pipeline detokenizes and applies the stops itself — the preferred mode
// when the pipeline has the tokenizer: exact stop strings, and visible
// stop ids keep their text (a text engine drops a stop token's text
// unless include_stop_str_in_output is set, which would keep the hidden
// ones' too). The stream is read as Completions says.
func NewVLLM(cfg VLLMConfig) *Completions {
	return newCompletions(cfg.Config, completionsOptions{
		flavor: flavorVLLM, noTokenIDs: cfg.NoTokenIDs && !cfg.TokenIDsOnly, legacyGuided: cfg.LegacyGuidedDecoding,
		idsOnly: cfg.TokenIDsOnly,
	})
}

// newCompletions builds an OpenAI completions adapter of one flavor.
func newCompletions(cfg Config, o completionsOptions) *Completions {
	stopField := "stop_reason"
	if o.flavor == flavorSGLang {
		stopField = "matched_stop"
	}
	e := &Completions{c: newClient(cfg, ""), opts: o}
	e.c.url = openAIBase(cfg.BaseURL) + "/completions"
	idsOnly := o.idsOnly
	e.pool.newDecoder = func() decoder { return &completionsDecoder{stopField: stopField, idsOnly: idsOnly} }
	if o.flavor == flavorVLLM {
		e.gen = e.c
		e.gen.url = vllmGenerateURL(cfg.BaseURL)
		e.genPool.newDecoder = func() decoder { return &completionsDecoder{stopField: "stop_reason", idsOnly: true} }
	}
	return e
}

// Generate implements Engine: it posts req to /v1/completions and returns
// the stream once the engine answered. A request with images goes to
// vLLM's token-in endpoint instead; the other flavors refuse it (see
// ErrNoImages).
func (e *Completions) Generate(ctx context.Context, req *Request) (Stream, error) {
	if len(req.Images) > 0 {
		return e.generateImages(ctx, req)
	}
	body, err := appendCompletionsRequest(make([]byte, 0, 512+8*len(req.PromptIDs)+len(req.Prompt)), req, e.opts)
	if err != nil {
		return nil, err
	}
	return generate(ctx, &e.c, &e.pool, req, body)
}
