package server_test

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/agentwire/agentwire/preprocess/server"
	"github.com/agentwire/agentwire/protocols"
)

// TestBodyLimitOwned: Config.MaxBodyBytes is the one body limit. A body
// past the decoders' default (protocols.MaxRequestBytes) but within the
// server's limit reaches the backend on every route that decodes a body
// (the scripted agent answers it with the context-length error, not
// 413), with a raised limit and with none; past the server's limit it is
// 413.
func TestBodyLimitOwned(t *testing.T) {
	text := strings.Repeat("x", protocols.MaxRequestBytes+1024)
	bodies := map[string]string{
		"/v1/chat/completions":      `{"model":"agent","messages":[{"role":"user","content":"` + text + `"}]}`,
		"/v1/completions":           `{"model":"agent","prompt":"` + text + `"}`,
		"/v1/messages":              `{"model":"agent","max_tokens":10,"messages":[{"role":"user","content":"` + text + `"}]}`,
		"/v1/responses":             `{"model":"agent","input":"` + text + `"}`,
		"/v1/messages/count_tokens": `{"model":"agent","messages":[{"role":"user","content":"` + text + `"}]}`,
	}
	for _, tc := range []struct {
		name  string
		limit int64
		want  int
	}{
		{"raised", 64 << 20, 0},
		{"none", -1, 0},
		{"default", 0, http.StatusRequestEntityTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := newServer(t, server.Config{MaxBodyBytes: tc.limit})
			for path, body := range bodies {
				req, err := http.NewRequest("POST", ts.URL+path, strings.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				req.Header.Set("Authorization", "Bearer "+testKey)
				req.Header.Set("Content-Type", "application/json")
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				got, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
				resp.Body.Close()
				switch {
				case tc.want != 0 && resp.StatusCode != tc.want:
					t.Errorf("%s: status %d, want %d: %s", path, resp.StatusCode, tc.want, got)
				case tc.want == 0 && resp.StatusCode == http.StatusRequestEntityTooLarge:
					t.Errorf("%s: 413 within the server's limit: %s", path, got)
				case tc.want == 0 && path == "/v1/messages/count_tokens" && resp.StatusCode != http.StatusOK:
					t.Errorf("%s: status %d: %s", path, resp.StatusCode, got)
				case tc.want == 0 && path != "/v1/messages/count_tokens" && !bytes.Contains(bytes.ToLower(got), []byte("too long")) &&
					!bytes.Contains(got, []byte("context_length_exceeded")) && !bytes.Contains(got, []byte("maximum context length")):
					t.Errorf("%s: status %d, want the context-length error: %s", path, resp.StatusCode, got)
				}
			}
		})
	}
}
