package server_test

import (
	"encoding/json"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/agentwire/agentwire/preprocess/server"
	"github.com/agentwire/agentwire/preprocess/server/scripted"
	"github.com/stretchr/testify/require"
)

// TestRequestMemory measures what one request allocates in all (an upper
// bound of the memory it holds at any time) per byte of its body, on each
// API, for the scripted backend and for a model directory (chat template,
// tokenizer, prefix cache): the constants examples/server/README.md
// states. A regression past them fails.
func TestRequestMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates a few hundred MB")
	}
	const size = 4 << 20
	text := strings.Repeat("The quick brown fox jumps over the lazy dog. ", size/45)
	msg, _ := json.Marshal(text)
	bodies := map[string]string{
		"/v1/chat/completions": `{"model":"x","stream":true,"messages":[{"role":"user","content":` + string(msg) + `}]}`,
		"/v1/messages":         `{"model":"x","max_tokens":64,"stream":true,"messages":[{"role":"user","content":` + string(msg) + `}]}`,
		"/v1/responses":        `{"model":"x","stream":true,"input":` + string(msg) + `}`,
	}
	for _, tc := range []struct {
		name    string
		backend server.Backend
		limit   float64 // bytes allocated per body byte
	}{
		{"scripted", &scripted.Backend{ContextWindow: 1 << 30}, 12},
		{"model directory", tinyBackend(t, 0), 40},
	} {
		s, err := server.New(server.Config{Backend: tc.backend, Logger: discardLogger()})
		require.NoError(t, err)
		for path, body := range bodies {
			req, _ := http.NewRequest("POST", path, strings.NewReader(body))
			var m0, m1 runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&m0)
			rec := newRecorder()
			s.ServeHTTP(rec, req)
			runtime.ReadMemStats(&m1)
			perByte := float64(m1.TotalAlloc-m0.TotalAlloc) / float64(len(body))
			t.Logf("%s %s: %d-byte body, status %d, %.1f bytes allocated per body byte", tc.name, path, len(body), rec.code, perByte)
			require.LessOrEqual(t, perByte, tc.limit, "%s %s: %.1f bytes allocated per body byte, over %v", tc.name, path, perByte, tc.limit)
		}
	}
}
