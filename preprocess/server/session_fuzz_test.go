package server_test

import (
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/agentwire/agentwire/preprocess/api"
	"github.com/agentwire/agentwire/preprocess/server"
	"github.com/stretchr/testify/require"
)

// FuzzSessionID: for any session header and body, the session id (and the
// parent session id) is at most server.MaxSessionIDBytes of printable
// ASCII (a valid header value),
// the same for the same request, and the header's own value when that is
// short and printable.
func FuzzSessionID(f *testing.F) {
	f.Add("99bc91c6-7413-4039-84a7-fc0f5a6a5891", `{"model":"m","max_tokens":1,"messages":[{"role":"user","content":"hi"}]}`, uint8(0))
	f.Add("", `{"model":"m","max_tokens":1,"metadata":{"user_id":"{\"session_id\":\"s\u00e9\"}"},"messages":[{"role":"user","content":"hi"}]}`, uint8(0))
	f.Add("a\x00b", `{"model":"m","prompt_cache_key":"k k","input":"x"}`, uint8(3))
	f.Add("", `{"model":"m","messages":[{"role":"system","content":"s"},{"role":"user","content":[{"type":"text","text":"t"}]}]}`, uint8(1))
	apis := api.All()
	f.Fuzz(func(t *testing.T, header, body string, which uint8) {
		a := apis[int(which)%len(apis)]
		dec, err := a.Decode([]byte(body), api.DecodeOptions{})
		if err != nil {
			return
		}
		req := &server.Job{Header: http.Header{}, Body: dec}
		if header != "" {
			req.Header.Set("X-Session-Affinity", header)
			req.Header.Set("X-Parent-Session-Id", header)
		}
		id := server.SessionID(req)
		for _, v := range []string{id, server.ParentSessionID(req)} {
			require.LessOrEqual(t, len(v), server.MaxSessionIDBytes, "%d bytes: %q", len(v), v)
			require.True(t, printableASCII(v), "not printable: %q", v)
		}
		again := server.SessionID(req)
		require.Equal(t, id, again, "%q then %q", id, again)
		h := req.Header.Get("X-Session-Affinity")
		require.False(t, h != "" && len(h) <= server.MaxSessionIDBytes && printableASCII(h) && id != h, "header %q gave %q", h, id)
	})
}

func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// BenchmarkSessionID: the session id of the recorded 49 KB Claude Code
// turn, from its header, from metadata.user_id, and from the first-turn
// hash (metadata removed).
func BenchmarkSessionID(b *testing.B) {
	raw := harnessBodyB(b, "claude-code_B-bash_0002-POST-v1_messages.body.json")
	noMeta := regexp.MustCompile(`"metadata":\{"user_id":"(\\.|[^"\\])*"\},?`).ReplaceAll(raw, nil)
	for _, bc := range []struct {
		name   string
		body   []byte
		header http.Header
	}{
		{"header", raw, http.Header{"X-Claude-Code-Session-Id": {"99bc91c6-7413-4039-84a7-fc0f5a6a5891"}}},
		{"user_id, hashed", raw, http.Header{}},
		{"first turn", noMeta, http.Header{}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			dec, err := api.Messages.Decode(bc.body, api.DecodeOptions{})
			require.NoError(b, err)
			req := &server.Job{Header: bc.header, Body: dec}
			b.ReportAllocs()
			for b.Loop() {
				// An if, not require: every require call runs b.Helper (a
				// stack walk), which the loop would measure.
				if server.SessionID(req) == "" {
					b.Fatal("no session id")
				}
			}
		})
	}
}

func harnessBodyB(b *testing.B, name string) []byte {
	raw, err := os.ReadFile(filepath.Join("..", "testdata", "harness", name))
	require.NoError(b, err)
	return raw
}
