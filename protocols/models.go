package protocols

import (
	"net/http"
	"strings"
	"time"
)

// ModelCard describes a served model for the models endpoints
// (GET /v1/models, GET /v1/models/{id}); openai.ModelsBody and
// anthropic.ModelsBody write it in each API's shape.
type ModelCard struct {
	ID          string    // as clients name it; may contain slashes ("Qwen/Qwen3-32B")
	Created     time.Time // zero: the Unix epoch
	OwnedBy     string    // OpenAI owned_by; "" → "agentwire"
	DisplayName string    // Anthropic display_name; "" → ID
	// ContextWindow (OpenAI context_window, Anthropic max_input_tokens)
	// and MaxOutputTokens (max_output_tokens / max_tokens) are written
	// when positive.
	ContextWindow   int64
	MaxOutputTokens int64
}

// ModelsPrefix is the path of the models list; a model is ModelsPrefix +
// "/" + its id.
const ModelsPrefix = "/v1/models"

// ModelIDFromPath returns the model id of a GET /v1/models/{id} path, with
// the slashes of ids such as "Qwen/Qwen3-32B" kept (r.URL.Path is already
// unescaped, so "Qwen%2FQwen3-32B" arrives as the same id). ok is false
// for the list path and for paths outside /v1/models/.
func ModelIDFromPath(path string) (id string, ok bool) {
	rest, found := strings.CutPrefix(path, ModelsPrefix+"/")
	if !found || rest == "" {
		return "", false
	}
	return rest, true
}

// WantsAnthropicModels reports whether a models request wants the
// Anthropic shape: clients of the Anthropic API (Claude Code, the SDKs)
// send an anthropic-version header; OpenAI clients do not.
func WantsAnthropicModels(h http.Header) bool {
	return h.Get("anthropic-version") != ""
}
