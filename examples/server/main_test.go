package main

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentwire/agentwire/preprocess"
	"github.com/agentwire/agentwire/preprocess/server"
	"github.com/agentwire/agentwire/preprocess/server/scripted"
	"github.com/stretchr/testify/require"
)

// TestRun starts the command on the embedded engine with an API key and
// replays from the repository's captures, answers a request, and shuts
// down when its context ends.
func TestRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-addr", "127.0.0.1:0", "-api-key", "k", "-token-delay", "0",
			"-captures", "../../testdata/engine-streams"}, io.Discard, ready)
	}()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatal(err)
	case <-time.After(10 * time.Second):
		t.Fatal("not listening")
	}
	post := func(key, model string) (int, string) {
		req, _ := http.NewRequest("POST", "http://"+addr+"/v1/chat/completions", strings.NewReader(
			`{"model":"`+model+`","messages":[{"role":"user","content":"hi"}]}`))
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	code, body := post("k", "agent")
	require.Equal(t, 200, code, "%d %s", code, body)
	require.Contains(t, body, "scripted agent", "%d %s", code, body)
	code, body = post("k", "replay/vllm/qwen3-0.6B/chat_completion_stream_5627a4c6-no-tool.json")
	require.Equal(t, 200, code, "replay: %s", body)
	require.Contains(t, body, `"reasoning_content"`, "replay")
	code, _ = post("wrong", "agent")
	require.Equal(t, 401, code, "wrong key")
	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("did not shut down")
	}
}

// TestRunUpstream runs the real-engine path: the tiny Qwen3 model
// directory (chat template, tokenizer) and an upstream that speaks vLLM's
// protocol (the scripted agent as its model), found by -engine auto.
func TestRunUpstream(t *testing.T) {
	m, err := preprocess.LoadModel("../../testdata/models/tiny", preprocess.ModelOptions{})
	require.NoError(t, err)
	up := httptest.NewServer(&scripted.VLLM{Tok: m.Tokenizer, Model: "Qwen/tiny"})
	defer up.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-addr", "127.0.0.1:0", "-upstream", up.URL + "/v1", "-model-dir", "../../testdata/models/tiny"}, io.Discard, ready)
	}()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatal(err)
	}
	resp, err := http.Post("http://"+addr+"/v1/messages", "application/json", strings.NewReader(
		`{"model":"claude-sonnet-4-5","max_tokens":300,"messages":[{"role":"user","content":"go"}],`+
			`"tools":[{"name":"Bash","input_schema":{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}}]}`))
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode, "%d %s", resp.StatusCode, body)
	require.Contains(t, string(body), `"input":{"command":"echo hello"}`, "%d %s", resp.StatusCode, body)
	require.Contains(t, string(body), `"stop_reason":"tool_use"`, "%d %s", resp.StatusCode, body)
	mresp, err := http.Get("http://" + addr + "/v1/models")
	require.NoError(t, err)
	list, _ := io.ReadAll(mresp.Body)
	mresp.Body.Close()
	require.Contains(t, string(list), `"id":"Qwen/tiny"`, "served name not probed: %s", list)
	cancel()
	require.NoError(t, <-done)
}

func TestFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-upstream", "http://127.0.0.1:1/v1"},
		{"-model-dir", "x"},
		{"extra"},
		{"-upstream", "http://127.0.0.1:1/v1", "-model-dir", "../../testdata/models/tiny", "-engine", "nope"},
		{"-upstream", "http://127.0.0.1:1/v1", "-upstream", "http://127.0.0.1:2/v1", "-model-dir", "../../testdata/models/tiny", "-balance", "random"},
		{"-session-header", "X-Session Id"},
		{"-forward-header-prefix", "X-Dynamo-,x:y"},
	} {
		require.Error(t, run(context.Background(), args, io.Discard, nil), "%q: no error", args)
	}
}

// TestRunImagesViaChat: on trtllm-serve (whose completions API takes no
// images) a request with an image is the API's 400, and with
// -images-via-chat it goes to the engine's own chat endpoint, the image
// part with its hash as uuid.
func TestRunImagesViaChat(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"tokenizer.json", "tokenizer_config.json", "generation_config.json"} {
		abs, err := filepath.Abs(filepath.Join("../../testdata/models/tiny", f))
		require.NoError(t, err)
		require.NoError(t, os.Symlink(abs, filepath.Join(dir, f)))
	}
	tmpl, err := os.ReadFile("../../testdata/chattemplate/templates/Qwen3-VL-30B-A3B-Instruct-Q8_0.jinja")
	require.NoError(t, err)
	for name, body := range map[string]string{
		"config.json":         `{"model_type":"qwen3_vl","vision_config":{},"max_position_embeddings":32768,"eos_token_id":263}`,
		"chat_template.jinja": string(tmpl),
	} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
	}
	var mu sync.Mutex
	var chats []string
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/models":
			fmt.Fprint(w, `{"object":"list","data":[{"id":"Qwen/vl","object":"model","owned_by":"tensorrt_llm"}]}`)
		case "/v1/chat/completions":
			b, _ := io.ReadAll(r.Body)
			mu.Lock()
			chats = append(chats, string(b))
			mu.Unlock()
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"I see it.\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
		default:
			http.Error(w, "not here", http.StatusTeapot)
		}
	}))
	defer up.Close()
	const png = "iVBORw0KGgoAAAANSUhEUgAAABgAAAAQCAAAAAApT+BJAAAAJ0lEQVR4nGNg4BKR0zCycQuISsmraOqZtmDVln0nLt15xjAqMRASAP59rIFLevlGAAAAAElFTkSuQmCC"
	req := `{"model":"m","max_tokens":50,"messages":[{"role":"user","content":[{"type":"text","text":"what is this?"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"` + png + `"}}]}]}`
	for _, viaChat := range []bool{false, true} {
		args := []string{"-addr", "127.0.0.1:0", "-upstream", up.URL + "/v1", "-model-dir", dir}
		if viaChat {
			args = append(args, "-images-via-chat")
		}
		ctx, cancel := context.WithCancel(context.Background())
		ready, done := make(chan string, 1), make(chan error, 1)
		go func() { done <- run(ctx, args, io.Discard, ready) }()
		var addr string
		select {
		case addr = <-ready:
		case err := <-done:
			t.Fatal(err)
		}
		resp, err := http.Post("http://"+addr+"/v1/messages", "application/json", strings.NewReader(req))
		require.NoError(t, err)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		switch {
		case !viaChat && (resp.StatusCode != 400 || !strings.Contains(string(body), "this deployment does not accept images")):
			t.Errorf("trtllm: %d %s", resp.StatusCode, body)
		case viaChat && (resp.StatusCode != 200 || !strings.Contains(string(body), "I see it.")):
			t.Errorf("via chat: %d %s", resp.StatusCode, body)
		}
		cancel()
		require.NoError(t, <-done)
	}
	mu.Lock()
	defer mu.Unlock()
	sum := sha256.Sum256(mustBase64(t, png))
	require.Len(t, chats, 1, "chat requests: %q", chats)
	require.Contains(t, chats[0], `"uuid":"`+hex.EncodeToString(sum[:])+`"`, "chat requests: %q", chats)
	require.Contains(t, chats[0], "data:image/png;base64,"+png, "chat requests: %q", chats)
}

func mustBase64(t *testing.T, s string) []byte {
	b, err := base64.StdEncoding.DecodeString(s)
	require.NoError(t, err)
	return b
}

// TestSessionConfig: the session flags become the server's configuration;
// the cache salt is a hash of the tenant header, none without it.
func TestSessionConfig(t *testing.T) {
	o, err := parseFlags([]string{"-session-header", "X-A, x-b", "-forward-header-prefix", "none", "-cache-salt-header", "X-Tenant"}, io.Discard)
	require.NoError(t, err)
	c := sessionConfig(o)
	if d := cmp.Diff([]string{"X-A", "x-b"}, c.Headers); d != "" || c.ForwardPrefixes != nil {
		t.Errorf("headers (-want +got):\n%s; prefixes %q", d, c.ForwardPrefixes)
	}
	salt := func(tenant string) string {
		h := http.Header{}
		if tenant != "" {
			h.Set("X-Tenant", tenant)
		}
		return c.CacheSalt(&server.Job{Header: h})
	}
	a, b := salt("acme"), salt("other")
	require.Len(t, a, 32, "salts %q, %q", a, b)
	require.NotEqual(t, b, a, "salts %q, %q", a, b)
	require.NotEqual(t, "acme", a, "salts %q, %q", a, b)
	require.Equal(t, a, salt("acme"), "salts %q, %q", a, b)
	s := salt("")
	require.Equal(t, "", s, "no tenant: salt %q", s)
	o, _ = parseFlags(nil, io.Discard)
	c = sessionConfig(o)
	require.Nil(t, c.CacheSalt, "defaults: %+v", c)
	require.Len(t, c.Headers, 3, "defaults: %+v", c)
	require.Len(t, c.ForwardPrefixes, 2, "defaults: %+v", c)
}
