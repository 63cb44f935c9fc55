package openai

import (
	"fmt"
	"unicode/utf8"
)

// Limits enforced by Validate (Dynamo's values).
const (
	MaxStopSequences   = 32
	MaxTopLogprobs     = 20
	MaxTools           = 1536
	MaxFunctionNameLen = 128
)

// Validate applies the request checks whose messages clients see, in the
// order Dynamo applies them; the first failure is returned as a 400
// *APIError. It does not check what depends on the model (context length,
// tool-argument schemas) or on the HTTP layer (stream_options without
// stream).
func (r *ChatRequest) Validate() error {
	if len(r.Messages) == 0 {
		return BadRequest("Messages array cannot be empty")
	}
	if r.Model == "" {
		return BadRequest("Model cannot be empty")
	}
	if n, ok := r.MaxTokens.Get(); ok && n <= 0 {
		return BadRequest(fmt.Sprintf("Max tokens must be greater than 0, got %d", n))
	}
	if n, ok := r.MaxCompletionTokens.Get(); ok && n <= 0 {
		return BadRequest(fmt.Sprintf("Max completion tokens must be greater than 0, got %d", n))
	}
	if n, ok := r.TopLogprobs.Get(); ok && (n < 0 || n > MaxTopLogprobs) {
		return BadRequest(fmt.Sprintf("top_logprobs must be between 0 and %d, got %d", MaxTopLogprobs, n))
	}
	if n, ok := r.TopK.Get(); ok && n < -1 {
		return BadRequest(fmt.Sprintf("top_k must be -1 or a positive integer, got %d", n))
	}
	if p, ok := r.RepetitionPenalty.Get(); ok && (p <= 0 || p > 2) {
		return BadRequest(fmt.Sprintf("repetition_penalty must be in (0, 2], got %v", p))
	}
	if n, ok := r.N.Get(); ok && n > 1 && r.Temperature.Valid() && r.Temperature.Value() == 0 {
		return BadRequest("n > 1 requires a non-zero temperature (greedy sampling gives identical choices)")
	}
	if s, ok := r.Stop.Get(); ok {
		if len(s.Strings) > MaxStopSequences || len(s.TokenIDs) > MaxStopSequences {
			return BadRequest(fmt.Sprintf("At most %d stop sequences are allowed", MaxStopSequences))
		}
		for _, x := range s.Strings {
			if x == "" {
				return BadRequest("Stop sequences must not be empty")
			}
		}
	}
	if f := r.ResponseFormat; f != nil && f.Type == "json_schema" {
		if f.JSONSchema == nil || f.JSONSchema.Name == "" {
			return BadRequest("response_format.json_schema.name must not be empty")
		}
		if s := f.JSONSchema.Schema; len(s) > 0 && s[0] != '{' {
			return BadRequest("response_format.json_schema.schema must be an object")
		}
	}
	if len(r.Tools) > MaxTools {
		return BadRequest(fmt.Sprintf("At most %d tools are allowed, got %d", MaxTools, len(r.Tools)))
	}
	names := make(map[string]bool, len(r.Tools))
	for i := range r.Tools {
		name := r.Tools[i].Function.Name
		if name == "" {
			return BadRequest(fmt.Sprintf("tools[%d].function.name must not be empty", i))
		}
		if utf8.RuneCountInString(name) > MaxFunctionNameLen {
			return BadRequest(fmt.Sprintf("tools[%d].function.name is longer than %d characters", i, MaxFunctionNameLen))
		}
		names[name] = true
	}
	if tc, ok := r.ToolChoice.Get(); ok {
		switch {
		case tc.Mode == ToolChoiceRequired && len(r.Tools) == 0:
			return BadRequest(`tool_choice is "required" but tools is empty`)
		case tc.Function != "" && !names[tc.Function]:
			return BadRequest(fmt.Sprintf("tool named %q in tool_choice is not present in tools", tc.Function))
		case tc.Function == "" && tc.Mode != ToolChoiceNone && tc.Mode != ToolChoiceAuto && tc.Mode != ToolChoiceRequired:
			return BadRequest(fmt.Sprintf("tool_choice must be \"none\", \"auto\", \"required\" or a named function, got %q", tc.Mode))
		}
	}
	for _, e := range [...]struct{ member, value string }{
		{"reasoning_effort", r.ReasoningEffort},
		{"reasoning.effort", r.Reasoning.Value().Effort},
	} {
		switch e.value {
		case "", "none", "minimal", "low", "medium", "high", "xhigh", "max":
		default:
			return BadRequest(fmt.Sprintf("%s must be one of none, minimal, low, medium, high, xhigh, max; got %q", e.member, e.value))
		}
	}
	return nil
}
