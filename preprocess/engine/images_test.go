package engine

import (
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentwire/agentwire/protocols"
	"github.com/stretchr/testify/require"
)

// imageRequest is a request with two images (a data URL and a remote
// one) and one placeholder in its ids, as package preprocess builds it.
func imageRequest() *Request {
	return &Request{
		Model:     "Qwen/Qwen3-VL-30B-A3B-Instruct",
		PromptIDs: []uint32{151644, 872, 198, 151652, 151655, 151653, 151645},
		MaxTokens: 100, MinTokens: 2,
		Sampling:  Sampling{Temperature: ptr(0.7)},
		Stop:      Stop{HiddenIDs: []uint32{151645, 151643}},
		Guided:    &Guided{JSONSchema: json.RawMessage(`{"type":"object"}`)},
		ExtraArgs: json.RawMessage(`{"reasoning_parser_kwargs":{"chat_template_kwargs":{"enable_thinking":false}}}`),
		RequestID: "req-1",
		CacheSalt: "tenant-a",
		Header:    http.Header{"X-Session-Id": {"s1"}},
		Images: []Image{
			{URL: "data:image/png;base64,iVBORw0KGgo=", MediaType: "image/png", Hash: "4f1c", Bytes: 8},
			{URL: "https://example.com/b.png", Hash: "9a2e"},
		},
	}
}

func sameJSON(t *testing.T, wantFile string, got []byte) {
	t.Helper()
	wb, err := os.ReadFile(wantFile)
	require.NoError(t, err)
	var want, have any
	require.NoError(t, json.Unmarshal(wb, &want))
	require.NoError(t, json.Unmarshal(got, &have), "body is not JSON\n%s", got)
	if d := cmp.Diff(want, have); d != "" {
		t.Errorf("body (-%s +got):\n%s", wantFile, d)
	}
}

// TestVLLMImages: a request with images goes to vLLM's token-in endpoint
// with its ids, the images as content parts (hash as uuid) and the
// sampling parameters; the token stream is read as ids with the engine's
// usage (the expanded prompt's count).
func TestVLLMImages(t *testing.T) {
	for _, sse := range []string{"vllm-generate.sse", "vllm-generate-omitnull.sse"} {
		t.Run(sse, func(t *testing.T) { testVLLMImages(t, "testdata/images/"+sse) })
	}
}

func testVLLMImages(t *testing.T, sse string) {
	wire, err := os.ReadFile(sse)
	require.NoError(t, err)
	u := newUpstream(t, sseHandler(wire))
	for _, base := range []string{u.URL + "/v1", u.URL} {
		e := NewVLLM(VLLMConfig{Config: Config{BaseURL: base}})
		st, err := e.Generate(ctxTimeout(t, 10*time.Second), imageRequest())
		require.NoError(t, err)
		got, err := drain(st)
		st.Close()
		require.NoError(t, err)
		p := u.paths[len(u.paths)-1]
		require.Equal(t, "/inference/v1/generate", p, "path %q", p)
		h := u.header[len(u.header)-1].Get("X-Session-Id")
		require.Equal(t, "s1", h, "session header %q", h)
		sameJSON(t, "testdata/images/vllm-generate.request.json", u.lastBody())
		if d := cmp.Diff([]uint32{785, 2168, 374, 151645}, got.ids[0]); d != "" {
			t.Errorf("ids (-want +got):\n%s", d)
		}
		require.Equal(t, "", got.text[0], "text %q finish %v", got.text[0], got.finish[0])
		require.Equal(t, FinishEOS, got.finish[0], "text %q finish %v", got.text[0], got.finish[0])
		want := (Usage{PromptTokens: 1290, CompletionTokens: 4, CachedTokens: 1024})
		require.NotNil(t, got.usage, "usage %+v, want %+v", got.usage, want)
		require.False(t, *got.usage != want, "usage %+v, want %+v", got.usage, want)
	}

	// Without images the completions endpoint is used as before.
	req := imageRequest()
	req.Images = nil
	e := NewVLLM(VLLMConfig{Config: Config{BaseURL: u.URL + "/v1"}})
	if st, err := e.Generate(ctxTimeout(t, 10*time.Second), req); err == nil {
		_, _ = drain(st)
		st.Close()
	}
	p := u.paths[len(u.paths)-1]
	require.Equal(t, "/v1/completions", p, "text-only path %q", p)
}

// TestVLLMImagesNotEnabled: vLLM without --enable-scale-out answers 404
// on the token-in endpoint; the error says what to enable.
func TestVLLMImagesNotEnabled(t *testing.T) {
	u := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"detail":"Not Found"}`, http.StatusNotFound)
	})
	e := NewVLLM(VLLMConfig{Config: Config{BaseURL: u.URL + "/v1"}})
	_, err := e.Generate(ctxTimeout(t, 10*time.Second), imageRequest())
	var ee *Error
	require.True(t, errors.As(err, &ee), "err = %#v", err)
	require.Equal(t, 404, ee.Status, "err = %#v", err)
	require.Equal(t, ErrorUpstream, ee.Kind, "err = %#v", err)
	require.ErrorContains(t, err, "--enable-scale-out", "err = %#v", err)
	require.ErrorContains(t, err, "VLLM_ENABLE_SCALE_OUT_ENDPOINTS=1", "err = %#v", err)
	require.ErrorIs(t, err, ErrImagesNotConfigured, "err = %#v", err)
	// The client reads a 400 that says so, without the engine's address.
	ce := protocols.ErrorOf(err)
	require.Equal(t, protocols.ErrorBadRequest, ce.Kind, "client error %+v", ce)
	require.Equal(t, "this deployment is not configured for images", ce.Message, "client error %+v", ce)
	host := strings.TrimPrefix(u.URL, "http://")
	require.NotContains(t, err.Error(), host, "the engine's address leaks: %q / %q", err.Error(), ce.Message)
	require.NotContains(t, ce.Message, host, "the engine's address leaks: %q / %q", err.Error(), ce.Message)
	req := imageRequest()
	req.Logprobs = true
	if _, err := e.Generate(ctxTimeout(t, 10*time.Second), req); errKind(err) != int(ErrorBadRequest) {
		t.Errorf("logprobs with images: %v", err)
	}
}

// TestSGLangImages: SGLang's /generate takes the ids and image_data.
func TestSGLangImages(t *testing.T) {
	u := newUpstream(t, sseHandler([]byte("data: {\"text\":\"\",\"output_ids\":[1],\"meta_info\":{\"id\":\"x\",\"finish_reason\":{\"type\":\"stop\"},\"prompt_tokens\":1290,\"completion_tokens\":1,\"cached_tokens\":0}}\n\ndata: [DONE]\n\n")))
	e := NewSGLang(SGLangConfig{Config: Config{BaseURL: u.URL}, TokenIDsOnly: true})
	st, err := e.Generate(ctxTimeout(t, 10*time.Second), imageRequest())
	require.NoError(t, err)
	_, err = drain(st)
	st.Close()
	require.NoError(t, err)
	sameJSON(t, "testdata/images/sglang-generate.request.json", u.lastBody())

	// n > 1: SGLang turns the request into a batch of n, whose image_data
	// must hold one list per request (a flat list of two images would be
	// read as one image for each of two requests).
	req := imageRequest()
	req.N = 2
	body, err := appendSGLangRequest(nil, req)
	require.NoError(t, err)
	var got struct {
		ImageData [][]string `json:"image_data"`
		MMHashes  any        `json:"mm_hashes"`
	}
	require.NoError(t, json.Unmarshal(body, &got), "%s", body)
	if d := cmp.Diff([][]string{{"data:image/png;base64,iVBORw0KGgo=", "https://example.com/b.png"}}, got.ImageData); d != "" || got.MMHashes != nil {
		t.Errorf("n=2 image_data (-want +got):\n%s mm_hashes %v", d, got.MMHashes)
	}
}

// TestNoImageAdapters: completions APIs that take no images refuse a
// request with images with a 400 and send nothing.
func TestNoImageAdapters(t *testing.T) {
	u := newUpstream(t, func(w http.ResponseWriter, r *http.Request) { t.Errorf("request sent to %s", r.URL.Path) })
	for name, e := range map[string]Engine{
		"trtllm":        NewTRTLLM(TRTLLMConfig{Config: Config{BaseURL: u.URL + "/v1"}}),
		"sglang-openai": NewSGLangCompletions(Config{BaseURL: u.URL + "/v1"}),
	} {
		_, err := e.Generate(ctxTimeout(t, 10*time.Second), imageRequest())
		var ee *Error
		if !errors.Is(err, ErrNoImages) || !errors.As(err, &ee) || ee.Kind != ErrorBadRequest || ee.Status != 400 {
			t.Errorf("%s: err = %v", name, err)
			continue
		}
		c := ee.ClientError()
		require.Equal(t, ee.Message, c.Message, "%s: client reads %+v", name, c)
		require.Contains(t, c.Message, "this deployment does not accept images", "%s: client reads %+v", name, c)
	}
}

// TestImageRouter: requests with images and a chat request go to the chat
// adapter, the rest to the token adapter.
func TestImageRouter(t *testing.T) {
	chatUp := newUpstream(t, sseHandler([]byte("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"seen\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")))
	tokUp := newUpstream(t, func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no", http.StatusServiceUnavailable) })
	r := ImageRouter{Engine: NewTRTLLM(TRTLLMConfig{Config: Config{BaseURL: tokUp.URL}}), Chat: NewChat(ChatConfig{Config: Config{BaseURL: chatUp.URL}})}
	req := imageRequest()
	req.Guided = nil
	req.Chat = json.RawMessage(`{"messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"https://example.com/b.png"},"uuid":"9a2e"}]}]}`)
	st, err := r.Generate(ctxTimeout(t, 10*time.Second), req)
	require.NoError(t, err)
	got, err := drain(st)
	st.Close()
	require.NoError(t, err, "chat: %v %q", err, got.text[0])
	require.Equal(t, "seen", got.text[0], "chat: %v %q", err, got.text[0])
	p := chatUp.paths[0]
	require.Equal(t, "/v1/chat/completions", p, "chat request %s: %s", p, chatUp.lastBody())
	require.Contains(t, string(chatUp.lastBody()), `"uuid":"9a2e"`, "chat request %s: %s", p, chatUp.lastBody())
	// Without a chat request the token adapter answers (here: refuses).
	req.Chat = nil
	if _, err := r.Generate(ctxTimeout(t, 10*time.Second), req); !errors.Is(err, ErrNoImages) {
		t.Errorf("no chat request: %v", err)
	}
	req.Images = nil
	if _, err := r.Generate(ctxTimeout(t, 10*time.Second), req); errKind(err) != int(ErrorOverloaded) {
		t.Errorf("text request: %v", err)
	}
}
