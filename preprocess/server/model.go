package server

import (
	"context"
	"time"

	"github.com/agentwire/agentwire/preprocess"
	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/agentwire/agentwire/protocols/openai"
)

// ModelBackend is the Backend of one Hugging Face model directory on one
// engine: its Preprocessor renders the chat template, tokenizes and
// decides every request (PRE.1–PRE.6, parsers, reasoning visibility), the
// Engine generates. It counts tokens (count_tokens) and serves /tokenize
// and /detokenize with the model's tokenizer.
type ModelBackend struct {
	Preprocessor *preprocess.Preprocessor
	Engine       engine.Engine

	// Name is the listed model id ("" : the model directory's name); use
	// the engine's served name (Qwen/Qwen3-32B) so that clients can ask
	// for it.
	Name string

	// AcceptAnyModel serves requests for any model name with this model
	// (harnesses that send their own model names: claude-sonnet-…,
	// gpt-5.5). Otherwise a request for another name is answered 404, as
	// vLLM does.
	AcceptAnyModel bool
}

func (b *ModelBackend) name() string {
	if b.Name != "" {
		return b.Name
	}
	return b.Preprocessor.Model().Name
}

// Models lists the one model, with its context length.
func (b *ModelBackend) Models() []ModelCard {
	m := b.Preprocessor.Model()
	return []ModelCard{{ID: b.name(), OwnedBy: "agentwire", Created: time.Unix(0, 0), ContextWindow: m.ContextLength}}
}

// Prepare hands the request to the Preprocessor.
func (b *ModelBackend) Prepare(ctx context.Context, req *Job) (*preprocess.Prepared, engine.Engine, error) {
	if req.Model != "" && req.Model != b.name() && !b.AcceptAnyModel {
		return nil, nil, ModelNotFound(req.Model)
	}
	prep, err := b.Preprocessor.Prepare(ctx, req.Body)
	if err != nil {
		return nil, nil, err
	}
	return prep, b.Engine, nil
}

// CountTokens counts with the chat template and tokenizer.
func (b *ModelBackend) CountTokens(ctx context.Context, req *anthropic.CountTokensRequest) (int64, error) {
	return b.Preprocessor.CountTokens(ctx, req)
}

// Tokenize answers vLLM's /tokenize: the chat form renders the template
// first (as a chat request would be prepared), the completion form
// encodes the prompt (special tokens added unless add_special_tokens is
// false).
func (b *ModelBackend) Tokenize(ctx context.Context, req *openai.TokenizeRequest) (*openai.TokenizeResponse, error) {
	m := b.Preprocessor.Model()
	var ids []uint32
	if req.IsChat() {
		prep, err := b.Preprocessor.CountChatTokens(ctx, &openai.ChatRequest{
			Model: req.Model, Messages: req.Messages, Tools: req.Tools, ChatTemplateKwargs: req.ChatTemplateKwargs,
		})
		if err != nil {
			return nil, err
		}
		ids = prep.Engine.PromptIDs
	} else {
		var err error
		ids, err = m.Tokenizer.Encode(req.Prompt.Value(), req.AddSpecialTokens.Or(true))
		if err != nil {
			return nil, BadRequest(err.Error())
		}
	}
	resp := &openai.TokenizeResponse{Count: len(ids), MaxModelLen: m.ContextLength, Tokens: ids}
	if req.ReturnTokenStrs.Or(false) {
		resp.TokenStrs = make([]string, len(ids))
		for i, id := range ids {
			resp.TokenStrs[i], _ = m.Tokenizer.IDToToken(id)
		}
	}
	return resp, nil
}

// Detokenize answers vLLM's /detokenize.
func (b *ModelBackend) Detokenize(_ context.Context, req *openai.DetokenizeRequest) (*openai.DetokenizeResponse, error) {
	text, err := b.Preprocessor.Model().Tokenizer.Decode(req.Tokens, false)
	if err != nil {
		return nil, BadRequest(err.Error())
	}
	return &openai.DetokenizeResponse{Prompt: text}, nil
}
