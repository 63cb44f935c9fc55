package api_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentwire/agentwire/preprocess/api"
	"github.com/stretchr/testify/require"
)

// harnessBody reads a recorded harness request body (preprocess/testdata/harness).
func harnessBody(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "harness", name))
	require.NoError(t, err)
	return b
}

func decode(t *testing.T, a api.API, body []byte) api.Request {
	t.Helper()
	r, err := a.Decode(body, api.DecodeOptions{})
	require.NoError(t, err)
	return r
}

var firstTurn = regexp.MustCompile(`^` + api.FirstTurnPrefix + `[0-9a-f]{32}$`)

// TestSessionKeyHarness: the recorded two-turn sessions of Claude Code and
// Codex carry one key on both turns (Claude Code's session_id inside
// metadata.user_id, Codex's prompt_cache_key); without those fields the
// first-turn hash is the same on both turns and differs between sessions.
func TestSessionKeyHarness(t *testing.T) {
	const (
		cc1 = "claude-code_B-bash_0001-POST-v1_messages.body.json"
		cc2 = "claude-code_B-bash_0002-POST-v1_messages.body.json"
		ccA = "claude-code_A-text_0001-POST-v1_messages.body.json"
		cx1 = "codex_B-gpt-5.5_0004-POST-v1_responses.body.json"
		cx2 = "codex_B-gpt-5.5_0005-POST-v1_responses.body.json"
		cxA = "codex_A-gpt-5.5_0003-POST-v1_responses.body.json"
	)
	cases := []struct {
		name          string
		a             api.API
		t1, t2, other string
		strip         *regexp.Regexp // removes the identity member
		want          string         // the key of both turns with the member
	}{
		{"claude code", api.Messages, cc1, cc2, ccA, regexp.MustCompile(`"metadata":\{"user_id":"(\\.|[^"\\])*"\},?`), "99bc91c6-7413-4039-84a7-fc0f5a6a5891"},
		{"codex", api.Responses, cx1, cx2, cxA, regexp.MustCompile(`"prompt_cache_key":"[^"]*",?`), "01a2027a-3ec1-7bc2-8bf2-3b85ebd63cc7"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b1, b2, bo := harnessBody(t, tc.t1), harnessBody(t, tc.t2), harnessBody(t, tc.other)
			require.Equal(t, tc.want, decode(t, tc.a, b1).SessionKey(), "first turn's key")
			require.Equal(t, tc.want, decode(t, tc.a, b2).SessionKey(), "second turn's key")
			strip := func(b []byte) []byte {
				out := tc.strip.ReplaceAll(b, nil)
				require.NotEqual(t, len(b), len(out), "identity member not found")
				return out
			}
			k1, k2 := decode(t, tc.a, strip(b1)).SessionKey(), decode(t, tc.a, strip(b2)).SessionKey()
			ko := decode(t, tc.a, strip(bo)).SessionKey()
			require.True(t, firstTurn.MatchString(k1), "first-turn keys %q, %q: want one hash on both turns", k1, k2)
			require.Equal(t, k2, k1, "first-turn keys %q, %q: want one hash on both turns", k1, k2)
			require.NotEqual(t, k1, ko, "another session has the same first-turn key %q", ko)
		})
	}
}

// TestSessionKey covers each API's fields and fallbacks.
func TestSessionKey(t *testing.T) {
	cases := []struct {
		name string
		a    api.API
		body string
		want string // "turn" : a first-turn hash
	}{
		{"messages user_id string", api.Messages, `{"model":"m","max_tokens":1,"metadata":{"user_id":"u-1"},"messages":[{"role":"user","content":"hi"}]}`, "u-1"},
		{"messages user_id JSON without session", api.Messages, `{"model":"m","max_tokens":1,"metadata":{"user_id":"{\"device_id\":\"d\"}"},"messages":[{"role":"user","content":"hi"}]}`, `{"device_id":"d"}`},
		{"messages first turn", api.Messages, `{"model":"m","max_tokens":1,"messages":[{"role":"user","content":"hi"}]}`, "turn"},
		{"chat prompt_cache_key", api.Chat, `{"model":"m","prompt_cache_key":"k","messages":[{"role":"user","content":"hi"}]}`, "k"},
		{"chat first turn", api.Chat, `{"model":"m","messages":[{"role":"system","content":"s"},{"role":"user","content":"hi"}]}`, "turn"},
		{"responses string input", api.Responses, `{"model":"m","input":"hi"}`, "turn"},
		{"responses prompt_cache_key", api.Responses, `{"model":"m","prompt_cache_key":"c","input":"hi"}`, "c"},
		{"completions", api.Completions, `{"model":"m","prompt":"hi"}`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := decode(t, tc.a, []byte(tc.body)).SessionKey()
			if tc.want == "turn" {
				require.True(t, firstTurn.MatchString(got), "got %q, want a first-turn hash", got)
				return
			}
			require.Equal(t, tc.want, got, "got %q, want %q", got, tc.want)
		})
	}
	// The first turn is the prefix up to the first user message: later
	// turns do not change it, another first message does.
	base := decode(t, api.Chat, []byte(`{"model":"m","messages":[{"role":"system","content":"s"},{"role":"user","content":"hi"}]}`)).SessionKey()
	later := decode(t, api.Chat, []byte(`{"model":"m","messages":[{"role":"system","content":"s"},{"role":"user","content":"hi"},{"role":"assistant","content":"yo"},{"role":"user","content":"more"}]}`)).SessionKey()
	other := decode(t, api.Chat, []byte(`{"model":"m","messages":[{"role":"system","content":"s"},{"role":"user","content":"ho"}]}`)).SessionKey()
	require.Equal(t, later, base, "first turn %q, later turn %q, other session %q", base, later, other)
	require.NotEqual(t, other, base, "first turn %q, later turn %q, other session %q", base, later, other)
	require.NotEqual(t, "", strings.TrimSpace(base), "first turn %q, later turn %q, other session %q", base, later, other)
}

// TestSessionKeyLongTurn: a first turn of megabytes is hashed from a
// bounded part of each string (its length, head and tail), allocating
// nothing in proportion to it.
func TestSessionKeyLongTurn(t *testing.T) {
	long := strings.Repeat("a", 4<<20)
	body := func(text string) api.Request {
		return decode(t, api.Chat, []byte(`{"model":"m","messages":[{"role":"user","content":"`+text+`"}]}`))
	}
	base := body(long)
	middle := body(long[:2<<20] + "b" + long[2<<20+1:])
	tail := body(long[:len(long)-1] + "b")
	shorter := body(long[1:])
	k := base.SessionKey()
	require.Equal(t, k, middle.SessionKey(), "a change in the middle of a long string changed the key (it is not hashed)")
	require.NotEqual(t, k, tail.SessionKey(), "a change of the tail or the length did not change the key")
	require.NotEqual(t, k, shorter.SessionKey(), "a change of the tail or the length did not change the key")
	allocs := testing.AllocsPerRun(10, func() { base.SessionKey() })
	require.LessOrEqual(t, allocs, float64(8), "%v allocations per SessionKey of a 4 MiB turn", allocs)
}
