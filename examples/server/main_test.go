package main

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
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
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := post("k", "agent"); code != 200 || !strings.Contains(body, "scripted agent") {
		t.Fatalf("%d %s", code, body)
	}
	if code, body := post("k", "replay/vllm/qwen3-0.6B/chat_completion_stream_5627a4c6-no-tool.json"); code != 200 || !strings.Contains(body, `"reasoning_content"`) {
		t.Fatalf("replay: %d %s", code, body)
	}
	if code, _ := post("wrong", "agent"); code != 401 {
		t.Fatalf("wrong key: %d", code)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("did not shut down")
	}
}

func TestFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-upstream", "http://127.0.0.1:1/v1"},
		{"-model-dir", "x"},
		{"extra"},
		{"-upstream", "http://127.0.0.1:1/v1", "-model-dir", "../../testdata/models/tiny", "-engine", "nope"},
	} {
		if err := run(context.Background(), args, io.Discard, nil); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}
