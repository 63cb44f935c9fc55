package server_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agentwire/agentwire/preprocess"
	"github.com/agentwire/agentwire/preprocess/api"
	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/agentwire/agentwire/preprocess/server"
	"github.com/agentwire/agentwire/preprocess/server/scripted"
	"github.com/stretchr/testify/require"
)

// pngOf is a w×h PNG.
func pngOf(t *testing.T, w, h int) []byte {
	var b bytes.Buffer
	require.NoError(t, png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))))
	return b.Bytes()
}

// visionTiny is the tiny model with Qwen3-VL's chat template and a
// config.json that declares a vision model.
func visionTiny(t *testing.T) *preprocess.Model {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"tokenizer.json", "tokenizer_config.json", "generation_config.json"} {
		abs, err := filepath.Abs(filepath.Join(tinyDir, f))
		require.NoError(t, err)
		require.NoError(t, os.Symlink(abs, filepath.Join(dir, f)))
	}
	cfg := `{"architectures":["Qwen3VLForConditionalGeneration"],"model_type":"qwen3_vl","vision_config":{},"max_position_embeddings":32768,"eos_token_id":263}`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "config.json"), []byte(cfg), 0o644))
	tmpl, err := os.ReadFile("../../testdata/chattemplate/templates/Qwen3-VL-30B-A3B-Instruct-Q8_0.jinja")
	require.NoError(t, err)
	m, err := preprocess.LoadModel(dir, preprocess.ModelOptions{ChatTemplate: string(tmpl), ToolParser: "hermes", ReasoningParser: "qwen3"})
	require.NoError(t, err)
	return m
}

// imageBodies are, per API path, a request with a user image (%[1]s, its
// base64) and, with %[2]s set, a tool result holding a second image.
var imageBodies = map[string]string{
	"/v1/chat/completions": `{"model":"m","messages":[
		{"role":"user","content":[{"type":"text","text":"hi"},{"type":"image_url","image_url":{"url":"data:image/png;base64,%[1]s"}}]}%[2]s]}`,
	"/v1/messages": `{"model":"m","max_tokens":256,"messages":[
		{"role":"user","content":[{"type":"text","text":"hi"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"%[1]s"}}]}%[2]s]}`,
	"/v1/responses": `{"model":"m","input":[
		{"role":"user","content":[{"type":"input_text","text":"hi"},{"type":"input_image","image_url":"data:image/png;base64,%[1]s"}]}%[2]s]}`,
}

// toolTurns are the second turn of each conversation: a call and its
// result with an image (%s, its base64).
var toolTurns = map[string]string{
	"/v1/chat/completions": `,{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"view","arguments":"{}"}}]},
		{"role":"tool","tool_call_id":"c1","content":[{"type":"image_url","image_url":{"url":"data:image/png;base64,%s"}}]}`,
	"/v1/messages": `,{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Read","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"%s"}}]}]}`,
	"/v1/responses": `,{"type":"function_call","call_id":"c1","name":"view_image","arguments":"{}"},
		{"type":"function_call_output","call_id":"c1","output":[{"type":"input_image","image_url":"data:image/png;base64,%s"}]}`,
}

func postImages(t *testing.T, url, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+testKey)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var v any
	require.NoError(t, json.Unmarshal(b, &v), "%s: %s", url, b)
	var texts []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			texts = append(texts, x)
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return resp.StatusCode, strings.Join(texts, "\n")
}

// TestImagesOverVLLM: on every API an image in a user turn, and then one
// inside a tool result, reach a vLLM-protocol engine (the scripted agent
// behind /inference/v1/generate), which acknowledges them with their
// sizes; trtllm-serve, which takes no images, is each API's 400.
func TestImagesOverVLLM(t *testing.T) {
	m := visionTiny(t)
	// The scripted agent behind vLLM's protocol, its token-in requests
	// recorded.
	var mu sync.Mutex
	var generated [][]byte
	v := &scripted.VLLM{Tok: m.Tokenizer, Model: "tiny"}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/inference/v1/generate" {
			b, _ := io.ReadAll(r.Body)
			mu.Lock()
			generated = append(generated, b)
			mu.Unlock()
			r.Body = io.NopCloser(bytes.NewReader(b))
		}
		v.ServeHTTP(w, r)
	}))
	t.Cleanup(up.Close)
	vision := newServer(t, server.Config{Backend: &server.ModelBackend{
		Preprocessor: preprocess.New(m, preprocess.Options{ServedModel: "tiny", ImageTokens: 64}),
		Engine:       engine.NewVLLM(engine.VLLMConfig{Config: engine.Config{BaseURL: up.URL + "/v1"}, TokenIDsOnly: true}),
		Name:         "Qwen/tiny", AcceptAnyModel: true,
	}})
	trt := newServer(t, server.Config{Backend: &server.ModelBackend{
		Preprocessor: preprocess.New(m, preprocess.Options{ServedModel: "tiny"}),
		Engine:       engine.NewTRTLLM(engine.TRTLLMConfig{Config: engine.Config{BaseURL: up.URL + "/v1"}}),
		Name:         "Qwen/tiny", AcceptAnyModel: true,
	}})
	user, tool := pngOf(t, 64, 32), pngOf(t, 20, 10)
	b64 := base64.StdEncoding.EncodeToString

	// The usage is the engine's: the prompt as its processor expanded the
	// placeholder (here 2 tokens for 64×32), not the estimate the context
	// check reserved (64 per image).
	body := fmt.Sprintf(imageBodies["/v1/chat/completions"], b64(user), "")
	req, err := api.Chat.Decode([]byte(body), api.DecodeOptions{})
	require.NoError(t, err)
	prep, err := preprocess.New(m, preprocess.Options{ImageTokens: 64}).Prepare(ctxT(t), req)
	require.NoError(t, err)
	require.Equal(t, len(prep.Engine.PromptIDs)+63, prep.Response.PromptTokens, "estimate %d for %d ids", prep.Response.PromptTokens, len(prep.Engine.PromptIDs))
	hreq, _ := http.NewRequest("POST", vision.URL+"/v1/chat/completions", strings.NewReader(body))
	hreq.Header.Set("Authorization", "Bearer "+testKey)
	resp, err := http.DefaultClient.Do(hreq)
	require.NoError(t, err)
	var usage struct {
		Usage struct {
			PromptTokens int `json:"prompt_tokens"`
		} `json:"usage"`
	}
	err = json.NewDecoder(resp.Body).Decode(&usage)
	resp.Body.Close()
	require.NoError(t, err, "usage prompt_tokens %d (%v), want the engine's %d", usage.Usage.PromptTokens, err, len(prep.Engine.PromptIDs)+1)
	require.Equal(t, len(prep.Engine.PromptIDs)+1, usage.Usage.PromptTokens, "usage prompt_tokens %d (%v), want the engine's %d", usage.Usage.PromptTokens, err, len(prep.Engine.PromptIDs)+1)
	for path, tmpl := range imageBodies {
		t.Run(path, func(t *testing.T) {
			status, text := postImages(t, vision.URL+path, fmt.Sprintf(tmpl, b64(user), ""))
			want := fmt.Sprintf("I received 1 image: PNG 64×32 (%d bytes).", len(user))
			require.Equal(t, 200, status, "user image: %d %q, want %q", status, text, want)
			require.Contains(t, text, want, "user image: %d %q, want %q", status, text, want)
			status, text = postImages(t, vision.URL+path, fmt.Sprintf(tmpl, b64(user), fmt.Sprintf(toolTurns[path], b64(tool))))
			want = fmt.Sprintf("I received 2 images: PNG 64×32 (%d bytes), PNG 20×10 (%d bytes).", len(user), len(tool))
			require.Equal(t, 200, status, "tool image: %d %q, want %q", status, text, want)
			require.Contains(t, text, want, "tool image: %d %q, want %q", status, text, want)
			// The engine request: the images in order with their bytes and
			// hashes, one placeholder each in the token ids.
			mu.Lock()
			last := generated[len(generated)-1]
			mu.Unlock()
			var body struct {
				TokenIDs     []uint32 `json:"token_ids"`
				ContentParts []struct {
					Type, URL, UUID string
				} `json:"content_parts"`
			}
			require.NoError(t, json.Unmarshal(last, &body), "engine request: %.300s", last)
			require.Len(t, body.ContentParts, 2, "engine request: %.300s", last)
			for i, img := range [][]byte{user, tool} {
				sum := sha256.Sum256(img)
				p := body.ContentParts[i]
				require.Equal(t, "image_url", p.Type, "content part %d", i)
				require.Equal(t, "data:image/png;base64,"+b64(img), p.URL, "content part %d: %.80s %s", i, p.URL, p.UUID)
				require.Equal(t, hex.EncodeToString(sum[:]), p.UUID, "content part %d: %.80s %s", i, p.URL, p.UUID)
			}
			prompt, err := m.Tokenizer.Decode(body.TokenIDs, false)
			require.NoError(t, err, "token ids: %v %q", err, prompt)
			require.Equal(t, 2, strings.Count(prompt, scripted.VisionPlaceholder), "token ids: %v %q", err, prompt)
			require.LessOrEqual(t, strings.Index(prompt, "hi"), strings.Index(prompt, scripted.VisionPlaceholder), "token ids: %v %q", err, prompt)
			status, text = postImages(t, trt.URL+path, fmt.Sprintf(tmpl, b64(user), ""))
			require.Equal(t, 400, status, "trtllm: %d %q", status, text)
			require.Contains(t, text, "this deployment does not accept images", "trtllm: %d %q", status, text)
			require.Contains(t, text, "invalid_request_error", "trtllm: %d %q", status, text)
		})
	}
}

// TestImagesEmbedded: the embedded scripted agent acknowledges images.
func TestImagesEmbedded(t *testing.T) {
	ts := newServer(t, server.Config{Backend: &scripted.Backend{}})
	img := pngOf(t, 30, 20)
	for path, tmpl := range imageBodies {
		status, text := postImages(t, ts.URL+path, fmt.Sprintf(tmpl, base64.StdEncoding.EncodeToString(img), ""))
		want := fmt.Sprintf("I received 1 image: PNG 30×20 (%d bytes).", len(img))
		require.Equal(t, 200, status, "%s: %d %q, want %q", path, status, text, want)
		require.Contains(t, text, want, "%s: %d %q, want %q", path, status, text, want)
		status, text = postImages(t, ts.URL+path, fmt.Sprintf(tmpl, "bm90IGFuIGltYWdl", ""))
		require.Equal(t, 400, status, "%s: bad image: %d %q", path, status, text)
		require.Contains(t, text, "not a PNG, JPEG, GIF or WebP image", "%s: bad image: %d %q", path, status, text)
	}
}

// TestImagesNotConfigured: vLLM without its token-in endpoint answers 404
// there; on every API the client reads a 400 saying the deployment is not
// configured for images, without the engine's address, and the server's
// log has what to enable.
func TestImagesNotConfigured(t *testing.T) {
	m := visionTiny(t)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"detail":"Not Found"}`, http.StatusNotFound)
	}))
	t.Cleanup(up.Close)
	var logs bytes.Buffer
	var mu sync.Mutex
	s, err := server.New(server.Config{APIKey: testKey, Backend: &server.ModelBackend{
		Preprocessor: preprocess.New(m, preprocess.Options{ServedModel: "tiny", ImageTokens: 64}),
		Engine:       engine.NewVLLM(engine.VLLMConfig{Config: engine.Config{BaseURL: up.URL + "/v1"}, TokenIDsOnly: true}),
		Name:         "Qwen/tiny", AcceptAnyModel: true,
	}, Logger: slog.New(slog.NewTextHandler(lockedWriter{&mu, &logs}, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	host := strings.TrimPrefix(up.URL, "http://")
	for path, tmpl := range imageBodies {
		status, text := postImages(t, ts.URL+path, fmt.Sprintf(tmpl, base64.StdEncoding.EncodeToString(pngOf(t, 8, 8)), ""))
		if status != http.StatusBadRequest || !strings.Contains(text, "this deployment is not configured for images") || strings.Contains(text, host) {
			t.Errorf("%s: %d %q", path, status, text)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if l := logs.String(); strings.Count(l, "--enable-scale-out") != len(imageBodies) || strings.Contains(l, host) {
		t.Errorf("log:\n%s", l)
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
