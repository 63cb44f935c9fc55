package engine

// TRTLLMConfig configures the trtllm-serve adapter.
type TRTLLMConfig struct {
	Config

	// MaxTopLogprobs clamps the number of logprob alternatives asked for
	// (0: no clamp). trtllm-serve's TensorRT backend answers 400 for
	// logprobs > 1 unless the engine gathers generation logits; set 1
	// there. Its PyTorch backend takes more.
	MaxTopLogprobs int
}

// NewTRTLLM returns the adapter for TensorRT-LLM's trtllm-serve
// OpenAI-compatible /v1/completions: vLLM's mapping (see NewVLLM), except
// that trtllm-serve rejects unknown request members, so only its own
// parameters are sent: no return_token_ids (the stream carries text), no
// request_id (X-Request-Id is still sent), no cache_salt; guided decoding
// as response_format ({type: json, schema}, {type: regex, regex} — a
// choice as a regex —, {type: ebnf, ebnf}, or the structural tag as it
// is); top_k only when > 0 (its "all tokens" is 0, vLLM's -1); logprobs at
// least 1 when asked for, clamped to TRTLLMConfig.MaxTopLogprobs; images
// are refused (ErrNoImages).
func NewTRTLLM(cfg TRTLLMConfig) *Completions {
	return newCompletions(cfg.Config, completionsOptions{flavor: flavorTRT, maxTopLogprobs: cfg.MaxTopLogprobs})
}
