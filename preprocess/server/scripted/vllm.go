package scripted

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"

	"github.com/agentwire/agentwire/preprocess"
	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/openai"
	"github.com/agentwire/agentwire/tokenizers"
)

// VLLM is an http.Handler that speaks vLLM's OpenAI-compatible API with
// the scripted agent as its model: GET /v1/models (owned_by "vllm") and
// streamed POST /v1/completions with a text or token-id prompt, each
// delta a text_completion chunk carrying its text and, with
// return_token_ids, its token ids, then a usage chunk and [DONE]. It lets
// tests and demos run the real-engine path (chat template, tokenizer,
// engine adapter, parsers) without an engine. Tok encodes the pieces and
// decodes token-id prompts (the model directory's tokenizer). The usage
// chunk reports prefix-cache hits as vLLM does with
// --enable-prompt-tokens-details (prompt_tokens_details.cached_tokens,
// only when there are any), from an engine.PrefixCache over the prompt's
// token ids (Cache; nil: one with the defaults, made on first use).
//
// POST /inference/v1/generate is vLLM's token-in endpoint (vllm serve
// --enable-scale-out), which serves requests with images: token_ids with
// one placeholder per image, content_parts with the images
// ({"type":"image_url","url","uuid"}, read as vLLM reads them). The agent
// acknowledges the images (their count, type, dimensions and size); the
// stream carries token ids only, and the usage counts each image as a
// Qwen-VL processor would size it (one token per 32×32 pixels, at least
// one) in place of its placeholder.
type VLLM struct {
	Tok   tokenizers.Tokenizer
	Model string // the served model name
	Cache *engine.PrefixCache

	once sync.Once
}

func (v *VLLM) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == "GET" && r.URL.Path == "/v1/models":
		w.Header().Set("Content-Type", "application/json")
		name, _ := json.Marshal(v.Model)
		fmt.Fprintf(w, `{"object":"list","data":[{"id":%s,"object":"model","created":0,"owned_by":"vllm"}]}`, name)
	case r.Method == "POST" && r.URL.Path == "/v1/completions":
		v.complete(w, r)
	case r.Method == "POST" && r.URL.Path == "/inference/v1/generate":
		v.generate(w, r)
	default:
		http.NotFound(w, r)
	}
}

func (v *VLLM) complete(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Prompt         json.RawMessage `json:"prompt"`
		MaxTokens      int             `json:"max_tokens"`
		Stream         bool            `json:"stream"`
		ReturnTokenIDs bool            `json:"return_token_ids"`
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 32<<20))
	if err != nil || json.Unmarshal(body, &req) != nil || !req.Stream || req.MaxTokens <= 0 {
		http.Error(w, `{"object":"error","message":"want a streamed request with max_tokens","type":"BadRequestError","code":400}`, http.StatusBadRequest)
		return
	}
	var prompt string
	var ids []uint32
	if json.Unmarshal(req.Prompt, &ids) == nil {
		if prompt, err = v.Tok.Decode(ids, false); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
	} else if json.Unmarshal(req.Prompt, &prompt) != nil {
		http.Error(w, `{"object":"error","message":"prompt must be a string or token ids","type":"BadRequestError","code":400}`, http.StatusBadRequest)
		return
	} else if ids, err = v.Tok.Encode(prompt, false); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	out, err := Answer(prompt)
	if err != nil {
		msg, _ := json.Marshal(err.Error())
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `{"object":"error","message":%s,"type":"BadRequestError","code":400}`, msg)
		return
	}
	_, cached := v.cache().Use(&engine.Request{PromptIDs: ids})
	pieces := Pieces(out)
	finish := `"stop"`
	if len(pieces) > req.MaxTokens {
		pieces, finish = pieces[:req.MaxTokens], `"length"`
	}
	w.Header().Set("Content-Type", "text/event-stream")
	flusher, _ := w.(http.Flusher)
	generated := 0
	for i, p := range pieces {
		text, _ := json.Marshal(p)
		f := "null"
		if i == len(pieces)-1 {
			f = finish
		}
		tokens := ""
		if req.ReturnTokenIDs {
			pids, _ := v.Tok.Encode(p, false)
			generated += len(pids)
			b, _ := json.Marshal(pids)
			tokens = `,"token_ids":` + string(b)
		} else {
			generated++
		}
		fmt.Fprintf(w, "data: {\"id\":\"cmpl-scripted\",\"object\":\"text_completion\",\"created\":0,\"model\":%q,\"choices\":[{\"index\":0,\"text\":%s,\"logprobs\":null,\"finish_reason\":%s,\"stop_reason\":null%s}],\"usage\":null}\n\n",
			v.Model, text, f, tokens)
		if flusher != nil {
			flusher.Flush()
		}
	}
	details := ""
	if cached > 0 {
		details = `,"prompt_tokens_details":{"cached_tokens":` + strconv.FormatInt(cached, 10) + `}`
	}
	fmt.Fprintf(w, "data: {\"id\":\"cmpl-scripted\",\"object\":\"text_completion\",\"created\":0,\"model\":%q,\"choices\":[],\"usage\":{\"prompt_tokens\":%d,\"total_tokens\":%s,\"completion_tokens\":%d%s}}\n\ndata: [DONE]\n\n",
		v.Model, len(ids), strconv.Itoa(len(ids)+generated), generated, details)
}

// cache returns v.Cache, made on first use when nil: the defaults, with
// the tokenizer's <|image_pad|> as the image token (vLLM's block hashes
// include the images' hashes).
func (v *VLLM) cache() *engine.PrefixCache {
	v.once.Do(func() {
		if v.Cache == nil {
			id, _ := v.Tok.TokenToID(imagePad)
			v.Cache = engine.NewPrefixCache(engine.PrefixCacheConfig{ImageTokenID: id})
		}
	})
	return v.Cache
}

// imagePad is the token of VisionPlaceholder that the engine expands.
const imagePad = "<|image_pad|>"

func badGenerate(w http.ResponseWriter, msg string) {
	m, _ := json.Marshal(msg)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	fmt.Fprintf(w, `{"object":"error","message":%s,"type":"BadRequestError","code":400}`, m)
}

// generate serves /inference/v1/generate (see VLLM).
func (v *VLLM) generate(w http.ResponseWriter, r *http.Request) {
	var req struct {
		TokenIDs     []uint32 `json:"token_ids"`
		ContentParts []struct {
			Type string `json:"type"`
			URL  string `json:"url"`
			UUID string `json:"uuid"`
		} `json:"content_parts"`
		SamplingParams struct {
			MaxTokens int `json:"max_tokens"`
		} `json:"sampling_params"`
		Stream bool `json:"stream"`
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	if err != nil || json.Unmarshal(body, &req) != nil || !req.Stream || req.SamplingParams.MaxTokens <= 0 || len(req.TokenIDs) == 0 {
		badGenerate(w, "want a streamed request with token_ids and sampling_params.max_tokens")
		return
	}
	prompt, err := v.Tok.Decode(req.TokenIDs, false)
	if err != nil {
		badGenerate(w, err.Error())
		return
	}
	// vLLM reads a part's type, its top-level url and uuid.
	parts := make([]openai.ContentPart, 0, len(req.ContentParts))
	for _, p := range req.ContentParts {
		if p.Type != openai.PartImageURL {
			badGenerate(w, "content part type "+strconv.Quote(p.Type)+": want image_url")
			return
		}
		parts = append(parts, openai.ContentPart{Type: openai.PartImageURL, ImageURL: &openai.MediaURL{URL: p.URL}})
	}
	images, err := preprocess.Images([]openai.Message{{Role: openai.RoleUser, Content: protocols.Some(protocols.Array(parts...))}}, len(parts)+1, 0)
	if err != nil {
		badGenerate(w, err.Error())
		return
	}
	out, err := respond(prompt, images)
	if err != nil {
		badGenerate(w, err.Error())
		return
	}
	// The uuid, when sent, is the image's cache key, as in vLLM.
	for i, p := range req.ContentParts {
		if p.UUID != "" && i < len(images) {
			images[i].Hash = p.UUID
		}
	}
	_, cached := v.cache().Use(&engine.Request{PromptIDs: req.TokenIDs, Images: images})
	// Counted as the engine counts them: each placeholder sized as the
	// processor sizes its image, in the prompt and in the cached prefix.
	promptTokens, cachedTokens := len(req.TokenIDs), int(cached)
	pad, hasPad := v.Tok.TokenToID(imagePad)
	k := 0
	for pos, id := range req.TokenIDs {
		if !hasPad || id != pad || k == len(images) {
			continue
		}
		extra := max((images[k].Width+31)/32*((images[k].Height+31)/32), 1) - 1
		promptTokens += extra
		if pos < int(cached) {
			cachedTokens += extra
		}
		k++
	}
	if k < len(images) { // placeholders the tokenizer does not mark
		for _, img := range images[k:] {
			promptTokens += max((img.Width+31)/32*((img.Height+31)/32), 1) - 1
		}
	}
	pieces := Pieces(out)
	finish := `"stop"`
	if len(pieces) > req.SamplingParams.MaxTokens {
		pieces, finish = pieces[:req.SamplingParams.MaxTokens], `"length"`
	}
	w.Header().Set("Content-Type", "text/event-stream")
	flusher, _ := w.(http.Flusher)
	generated := 0
	for i, p := range pieces {
		f := "null"
		if i == len(pieces)-1 {
			f = finish
		}
		pids, _ := v.Tok.Encode(p, false)
		generated += len(pids)
		ids, _ := json.Marshal(pids)
		fmt.Fprintf(w, "data: {\"request_id\":\"generate-tokens-scripted\",\"choices\":[{\"index\":0,\"finish_reason\":%s,\"stop_reason\":null,\"token_ids\":%s}],\"output_mode\":\"tokens\"}\n\n", f, ids)
		if flusher != nil {
			flusher.Flush()
		}
	}
	details := ""
	if cachedTokens > 0 {
		details = `,"prompt_tokens_details":{"cached_tokens":` + strconv.Itoa(cachedTokens) + `}`
	}
	fmt.Fprintf(w, "data: {\"request_id\":\"generate-tokens-scripted\",\"choices\":[],\"usage\":{\"prompt_tokens\":%d,\"total_tokens\":%d,\"completion_tokens\":%d%s},\"output_mode\":\"tokens\"}\n\ndata: [DONE]\n\n",
		promptTokens, promptTokens+generated, generated, details)
}
