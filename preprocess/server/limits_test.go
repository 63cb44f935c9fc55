package server_test

import (
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentwire/agentwire/preprocess/server"
	"github.com/agentwire/agentwire/protocols"
	"github.com/stretchr/testify/require"
)

// TestBodyLimitOwned: Config.MaxBodyBytes is the one body limit. A body
// past the decoders' default (protocols.MaxRequestBytes; white space, so
// that only the limit makes it large) but within the server's limit is
// served on every route that decodes a body with a raised limit, and with
// none; past the server's default limit it is 413. (The bodies are large:
// the routes run in parallel, and the limits other than the raised one on
// one route.)
func TestBodyLimitOwned(t *testing.T) {
	t.Parallel()
	pad := strings.Repeat(" ", protocols.MaxRequestBytes)
	bodies := map[string]string{
		"/v1/chat/completions":      `{"model":"agent",` + pad + `"messages":[{"role":"user","content":"hi"}]}`,
		"/v1/completions":           `{"model":"agent",` + pad + `"prompt":"hi"}`,
		"/v1/messages":              `{"model":"agent",` + pad + `"max_tokens":10,"messages":[{"role":"user","content":"hi"}]}`,
		"/v1/responses":             `{"model":"agent",` + pad + `"input":"hi"}`,
		"/v1/messages/count_tokens": `{"model":"agent",` + pad + `"messages":[{"role":"user","content":"hi"}]}`,
	}
	for _, tc := range []struct {
		name   string
		limit  int64
		routes []string // nil: all
		want   int
	}{
		{"raised", 64 << 20, nil, http.StatusOK},
		{"none", -1, []string{"/v1/messages"}, http.StatusOK},
		{"default", 0, []string{"/v1/responses"}, http.StatusRequestEntityTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := newServer(t, server.Config{MaxBodyBytes: tc.limit})
			for path, body := range bodies {
				if tc.routes != nil && !slices.Contains(tc.routes, path) {
					continue
				}
				t.Run(path, func(t *testing.T) {
					t.Parallel()
					req, err := http.NewRequest("POST", ts.URL+path, strings.NewReader(body))
					require.NoError(t, err)
					req.Header.Set("Authorization", "Bearer "+testKey)
					req.Header.Set("Content-Type", "application/json")
					resp, err := http.DefaultClient.Do(req)
					require.NoError(t, err)
					got, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
					resp.Body.Close()
					require.Equal(t, tc.want, resp.StatusCode, "status %d, want %d: %s", resp.StatusCode, tc.want, got)
				})
			}
		})
	}
}

// TestMaxConnections: at Config.MaxConnections open connections Serve
// accepts no more; a request on a new connection waits in the listen queue
// and is served once a held connection closes.
func TestMaxConnections(t *testing.T) {
	t.Parallel()
	l := startLive(t, server.Config{MaxConnections: 2, ReadHeaderTimeout: time.Minute})
	var held []net.Conn
	for range 2 {
		c, err := net.Dial("tcp", l.addr)
		require.NoError(t, err)
		defer c.Close()
		held = append(held, c)
	}
	// A request on a fresh connection cannot be served while both are held.
	hc := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	got := make(chan int, 1)
	go func() {
		resp, err := hc.Get(l.url + "/health")
		if err != nil {
			got <- -1
			return
		}
		resp.Body.Close()
		got <- resp.StatusCode
	}()
	select {
	case code := <-got:
		t.Fatalf("served (%d) past MaxConnections", code)
	case <-time.After(300 * time.Millisecond):
	}
	held[0].Close()
	select {
	case code := <-got:
		require.Equal(t, http.StatusOK, code, "after a held connection closed: %d, want 200", code)
	case <-time.After(30 * time.Second):
		t.Fatal("the queued connection was never served after a slot freed")
	}
}
