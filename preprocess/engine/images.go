package engine

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/agentwire/agentwire/protocols"
)

// This file holds how requests with images (Request.Images) reach the
// engines. The images travel beside the prompt, which holds one
// placeholder per image (the chat template's own); the engine's
// multimodal processor expands them:
//
//	vLLM          POST /inference/v1/generate (the token-in endpoint; vLLM
//	              0.30 registers it with vllm serve --enable-scale-out, the
//	              releases before with VLLM_ENABLE_SCALE_OUT_ENDPOINTS=1,
//	              older ones always): token_ids with one placeholder per
//	              image, content_parts with the images
//	              ({"type":"image_url","url","uuid": Hash}: vLLM's
//	              serving_tokens reads the part's top-level url and uuid,
//	              and the uuid is the image's multimodal cache key), the
//	              sampling members of NewVLLM under sampling_params, stream,
//	              stream_options, request_id, cache_salt, ExtraArgs; Header
//	              as on every request. The engine's processor expands the
//	              placeholders. The stream is data: {"choices":[{"index",
//	              "token_ids","finish_reason","stop_reason"}],"usage"}
//	              events, token ids only (read as TokenIDsOnly), then
//	              [DONE]. A 404 there says the endpoint is not enabled: the
//	              client reads a 400 "this deployment is not configured for
//	              images" (ErrImagesNotConfigured), the log what to enable;
//	              logprobs are refused.
//	SGLang        /generate with input_ids and image_data (the URLs, in
//	              order; nested in a one-request batch, [[…]], when n > 1,
//	              as SGLang turns an n > 1 request into a batch). No cache
//	              key is sent: SGLang's mm_hashes replaces its own
//	              feature hash and some of its processors (Kimi) refuse it;
//	              SGLang hashes the processed image itself, so a resent
//	              screenshot still hits its cache.
//	SGLang OpenAI, trtllm-serve   their /v1/completions take no images: a
//	              request with images is refused (ErrNoImages, a 400).
//	chat          the images stay in the messages (Request.Chat); an
//	              ImageRouter sends requests with images there, the rest
//	              to another adapter (preprocess.Options.ImagesViaChat).

// ErrNoImages is the refusal of a request with images by an adapter whose
// endpoint takes none; the client reads it as a 400.
var ErrNoImages = errors.New("this deployment does not accept images")

// noImages is the refusal of req's images by the named endpoint.
func noImages(endpoint string) error {
	return &Error{Kind: ErrorBadRequest, Status: http.StatusBadRequest,
		Message: ErrNoImages.Error() + " (" + endpoint + " takes text only)", Err: ErrNoImages}
}

// vllmGeneratePath is vLLM's token-in endpoint, at the server root.
const vllmGeneratePath = "/inference/v1/generate"

// generateImages starts a request with images on vLLM's token-in endpoint.
func (e *Completions) generateImages(ctx context.Context, req *Request) (Stream, error) {
	switch e.opts.flavor {
	case flavorSGLang:
		return nil, noImages("SGLang's /v1/completions")
	case flavorTRT:
		return nil, noImages("trtllm-serve's /v1/completions")
	}
	if req.Logprobs {
		return nil, newError(ErrorBadRequest, http.StatusBadRequest, "logprobs are not available with images on vLLM's token-in endpoint")
	}
	body, err := appendVLLMGenerateRequest(make([]byte, 0, 1024+8*len(req.PromptIDs)+imagesLen(req.Images)), req, e.opts)
	if err != nil {
		return nil, err
	}
	s, err := generate(ctx, &e.gen, &e.genPool, req, body)
	var ee *Error
	if errors.As(err, &ee) && ee.Status == http.StatusNotFound {
		ee.Message = "vLLM answered 404 on " + vllmGeneratePath + ": requests with images need vLLM's token-in endpoint; run vllm serve with --enable-scale-out (vLLM 0.30 and later; VLLM_ENABLE_SCALE_OUT_ENDPOINTS=1 on the releases before)"
		return nil, &imagesNotConfigured{ee}
	}
	return s, err
}

// ErrImagesNotConfigured is what a client reads when the engine would take
// images but is not set up for them (vLLM without its token-in endpoint):
// a 400 in the API's shape, like ErrNoImages, so that a harness does not
// retry; the server's log has the engine's answer and what to enable.
var ErrImagesNotConfigured = errors.New("this deployment is not configured for images")

// imagesNotConfigured is vLLM's 404 on its token-in endpoint. Its Error()
// is the operator's text (the path and the flag to enable, no address);
// the client reads ErrImagesNotConfigured. It unwraps to the engine's
// *Error (ErrorUpstream, status 404) and to ErrImagesNotConfigured.
type imagesNotConfigured struct{ e *Error }

func (n *imagesNotConfigured) Error() string   { return n.e.Message }
func (n *imagesNotConfigured) Unwrap() []error { return []error{n.e, ErrImagesNotConfigured} }

// ClientError implements protocols.ClientError.
func (n *imagesNotConfigured) ClientError() *protocols.Error {
	return &protocols.Error{Kind: protocols.ErrorBadRequest, Message: ErrImagesNotConfigured.Error()}
}

func imagesLen(imgs []Image) int {
	n := 0
	for i := range imgs {
		n += len(imgs[i].URL) + len(imgs[i].Hash) + 48
	}
	return n
}

// vllmGenerateURL is the token-in endpoint of the vLLM server at base
// (the API root, with or without /v1).
func vllmGenerateURL(base string) string {
	return strings.TrimSuffix(openAIBase(base), "/v1") + vllmGeneratePath
}

// appendVLLMGenerateRequest appends the /inference/v1/generate body of
// req: the completions request's members, with the sampling members under
// sampling_params.
func appendVLLMGenerateRequest(b []byte, req *Request, o completionsOptions) ([]byte, error) {
	if req.MaxTokens <= 0 {
		return b, newError(ErrorBadRequest, 0, "engine request: MaxTokens must be set (> 0)")
	}
	if len(req.PromptIDs) == 0 {
		return b, newError(ErrorBadRequest, 0, "engine request: images need the prompt's token ids")
	}
	j := newObj(b)
	j.str("model", req.Model)
	j.ids("token_ids", req.PromptIDs)
	j.key("content_parts")
	j.b = appendContentParts(j.b, req.Images)
	sp := newObj(nil)
	sp.int("max_tokens", int64(req.MaxTokens))
	if req.MinTokens > 0 {
		sp.int("min_tokens", int64(req.MinTokens))
	}
	if req.N > 1 {
		sp.int("n", int64(req.N))
	}
	appendSampling(&sp, &req.Sampling, false)
	appendStops(&sp, req, "include_stop_str_in_output")
	if g := req.Guided; g != nil {
		o.legacyGuided = false // sampling_params take structured_outputs
		if err := appendGuided(&sp, g, o); err != nil {
			return j.b, err
		}
	}
	j.raw("sampling_params", sp.close())
	j.bool("stream", true)
	j.raw("stream_options", []byte(`{"include_usage":true}`))
	if req.RequestID != "" {
		j.str("request_id", req.RequestID)
	}
	if req.CacheSalt != "" {
		j.str("cache_salt", req.CacheSalt)
	}
	if err := j.extra(req.ExtraArgs); err != nil {
		return j.b, err
	}
	return j.close(), nil
}

// appendContentParts appends the images as vLLM's token-in content parts:
// [{"type":"image_url","url","uuid"}], the uuid being the image's hash
// (vLLM's multimodal cache key) when it has one. vLLM reads the URL at the
// top of the part, not under image_url as a chat part carries it
// (testdata/images/README.md names the source).
func appendContentParts(b []byte, imgs []Image) []byte {
	b = append(b, '[')
	for i := range imgs {
		if i > 0 {
			b = append(b, ',')
		}
		p := newObj(b)
		p.str("type", "image_url")
		p.str("url", imgs[i].URL)
		if imgs[i].Hash != "" {
			p.str("uuid", imgs[i].Hash)
		}
		b = p.close()
	}
	return append(b, ']')
}

// appendImageData appends SGLang's image_data: the images' URLs in order,
// as one request's list of a batch when batch is set (a request with
// n > 1, which SGLang expands into a batch whose image_data must have one
// entry per request).
func appendImageData(j *jsonObj, imgs []Image, batch bool) {
	j.key("image_data")
	if batch {
		j.b = append(j.b, '[')
	}
	j.b = append(j.b, '[')
	for i := range imgs {
		if i > 0 {
			j.b = append(j.b, ',')
		}
		j.b = protocols.AppendJSONString(j.b, imgs[i].URL)
	}
	j.b = append(j.b, ']')
	if batch {
		j.b = append(j.b, ']')
	}
}

// ImageRouter sends the requests with images that carry a chat request
// (Request.Images and Request.Chat: preprocess.Options.ImagesViaChat) to
// Chat, an OpenAI-compatible chat adapter whose engine renders, processes
// and parses them itself, and every other request to Engine. It lets an
// operator serve images from an engine whose token endpoint takes none
// (trtllm-serve, SGLang's OpenAI API). It is safe for concurrent use when
// both engines are.
type ImageRouter struct {
	Engine Engine
	Chat   Engine
}

// Generate implements Engine.
func (r ImageRouter) Generate(ctx context.Context, req *Request) (Stream, error) {
	if len(req.Images) > 0 && len(req.Chat) > 0 {
		return r.Chat.Generate(ctx, req)
	}
	return r.Engine.Generate(ctx, req)
}
