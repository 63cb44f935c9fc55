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
// OpenAI-compatible /v1/completions. trtllm-serve rejects unknown request
// members, so only its own parameters are sent: no return_token_ids (the
// stream carries text), no request_id (X-Request-Id is still sent),
// guided decoding as response_format ({type: json, schema}, regex, ebnf,
// structural_tag; a choice becomes a regex), top_k only when > 0 (its
// "all tokens" is 0, vLLM's -1), logprobs at least 1 when asked for.
func NewTRTLLM(cfg TRTLLMConfig) *Completions {
	return newCompletions(cfg.Config, completionsOptions{flavor: flavorTRT, maxTopLogprobs: cfg.MaxTopLogprobs})
}
