package server_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentwire/agentwire/preprocess"
	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/agentwire/agentwire/preprocess/server"
	"github.com/agentwire/agentwire/preprocess/server/scripted"
	"github.com/stretchr/testify/require"
)

// upstreamCall is what an upstream received: headers and the body's
// cache_salt.
type upstreamCall struct {
	header    http.Header
	cacheSalt string
}

// recordingVLLM is a scripted vLLM upstream that records every request.
type recordingVLLM struct {
	mu    sync.Mutex
	calls []upstreamCall
	v     *scripted.VLLM
}

func (u *recordingVLLM) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var b struct {
		CacheSalt string `json:"cache_salt"`
	}
	_ = json.Unmarshal(body, &b)
	u.mu.Lock()
	u.calls = append(u.calls, upstreamCall{header: r.Header.Clone(), cacheSalt: b.CacheSalt})
	u.mu.Unlock()
	r.Body = io.NopCloser(strings.NewReader(string(body)))
	u.v.ServeHTTP(w, r)
}

func (u *recordingVLLM) last(t *testing.T) upstreamCall {
	u.mu.Lock()
	defer u.mu.Unlock()
	require.NotEmpty(t, u.calls, "the upstream got no request")
	return u.calls[len(u.calls)-1]
}

func harnessBody(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "harness", name))
	require.NoError(t, err)
	return string(b)
}

// TestSessionHeaders: the session id of each harness (its header, else
// the body's identity, else the first turn's hash) reaches the engine
// under every configured name; x-dynamo-* and x-llm-d-* headers pass
// through, credentials never; the cache salt is the Config's.
func TestSessionHeaders(t *testing.T) {
	// The recorded harness prompts are long (35–47k tokens).
	m, err := preprocess.LoadModel(tinyDir, preprocess.ModelOptions{ToolParser: "hermes", ReasoningParser: "qwen3", ContextLength: 1 << 17})
	require.NoError(t, err)
	up := &recordingVLLM{v: &scripted.VLLM{Tok: m.Tokenizer, Model: "tiny"}}
	ts := httptest.NewServer(up)
	defer ts.Close()
	backend := &server.ModelBackend{
		Preprocessor:   preprocess.New(m, preprocess.Options{ServedModel: "tiny"}),
		Engine:         engine.NewVLLM(engine.VLLMConfig{Config: engine.Config{BaseURL: ts.URL + "/v1"}, TokenIDsOnly: true}),
		AcceptAnyModel: true,
	}
	srv := newServer(t, server.Config{Backend: backend, Session: server.SessionConfig{
		Headers:         server.DefaultSessionHeaders,
		ParentHeaders:   server.DefaultParentHeaders,
		ForwardPrefixes: server.DefaultForwardPrefixes,
		CacheSalt:       func(r *server.Job) string { return r.Header.Get("X-Tenant") },
	}})
	const ccSession = "99bc91c6-7413-4039-84a7-fc0f5a6a5891"    // the recorded x-claude-code-session-id
	const codexSession = "01a2027a-3ec1-7bc2-8bf2-3b85ebd63cc7" // the recorded session-id and prompt_cache_key
	hashed := regexp.MustCompile(`^h-[0-9a-f]{32}$`)
	firstTurn := regexp.MustCompile(`^turn-[0-9a-f]{32}$`)
	cases := []struct {
		name    string
		path    string
		body    string
		header  map[string]string
		want    string            // the session id, when exact
		wantRe  *regexp.Regexp    // else its form
		forward map[string]string // x-dynamo-* and x-llm-d-* upstream, the session id aside
		salt    string
	}{{
		name: "claude code header", path: "/v1/messages", body: harnessBody(t, "claude-code_B-bash_0002-POST-v1_messages.body.json"),
		header:  map[string]string{"X-Claude-Code-Session-Id": ccSession, "X-Dynamo-Priority": "3", "x-llm-d-inference-fairness-id": "team-a", "X-Tenant": "acme"},
		want:    ccSession,
		forward: map[string]string{"X-Dynamo-Priority": "3", "X-Llm-D-Inference-Fairness-Id": "team-a"},
		salt:    "acme",
	}, {
		name: "claude code subagent", path: "/v1/messages", body: harnessBody(t, "claude-code_B-bash_0001-POST-v1_messages.body.json"),
		header:  map[string]string{"X-Claude-Code-Session-Id": ccSession, "X-Claude-Code-Agent-Id": "agent-7"},
		want:    "agent-7",
		forward: map[string]string{"X-Dynamo-Parent-Session-Id": ccSession},
	}, {
		name: "claude code nested subagent", path: "/v1/messages", body: harnessBody(t, "claude-code_B-bash_0001-POST-v1_messages.body.json"),
		header:  map[string]string{"X-Claude-Code-Session-Id": ccSession, "X-Claude-Code-Agent-Id": "agent-8", "X-Claude-Code-Parent-Agent-Id": "agent-7"},
		want:    "agent-8",
		forward: map[string]string{"X-Dynamo-Parent-Session-Id": "agent-7"},
	}, {
		name: "opencode subtask", path: "/v1/chat/completions", body: `{"model":"m","messages":[{"role":"user","content":"hi"}]}`,
		header:  map[string]string{"X-Session-Id": "ses_2", "X-Parent-Session-Id": "ses_1"},
		want:    "ses_2",
		forward: map[string]string{"X-Dynamo-Parent-Session-Id": "ses_1"},
	}, {
		name: "claude code body only: the session_id of metadata.user_id, hashed", path: "/v1/messages", body: harnessBody(t, "claude-code_B-bash_0001-POST-v1_messages.body.json"),
		want: hashOf(ccSession),
	}, {
		name: "prompt_cache_key, hashed", path: "/v1/chat/completions", body: `{"model":"m","prompt_cache_key":"user@example.com","messages":[{"role":"user","content":"hi"}]}`,
		want: hashOf("user@example.com"),
	}, {
		name: "codex header", path: "/v1/responses", body: harnessBody(t, "codex_B-gpt-5.5_0005-POST-v1_responses.body.json"),
		header: map[string]string{"Session-Id": codexSession},
		want:   codexSession,
	}, {
		name: "codex legacy header wins over the body", path: "/v1/responses", body: harnessBody(t, "codex_B-gpt-5.5_0004-POST-v1_responses.body.json"),
		header: map[string]string{"session_id": "legacy-1"},
		want:   "legacy-1",
	}, {
		name: "opencode", path: "/v1/chat/completions", body: `{"model":"m","messages":[{"role":"user","content":"hi"}]}`,
		header: map[string]string{"X-Session-Affinity": "ses_1"},
		want:   "ses_1",
	}, {
		name: "an explicit dynamo session first", path: "/v1/chat/completions", body: `{"model":"m","messages":[{"role":"user","content":"hi"}]}`,
		header:  map[string]string{"X-Session-Affinity": "ses_1", "X-Dynamo-Session-Id": "dyn-1"},
		want:    "dyn-1",
		forward: map[string]string{"X-Dynamo-Session-Id": "dyn-1"},
	}, {
		name: "first turn", path: "/v1/chat/completions", body: `{"model":"m","messages":[{"role":"user","content":"hi"}]}`,
		wantRe: firstTurn,
	}, {
		name: "too long", path: "/v1/chat/completions", body: `{"model":"m","messages":[{"role":"user","content":"hi"}]}`,
		header: map[string]string{"X-Session-Id": strings.Repeat("x", 200)},
		wantRe: hashed,
	}, {
		name: "not printable", path: "/v1/chat/completions", body: `{"model":"m","messages":[{"role":"user","content":"hi"}]}`,
		header: map[string]string{"X-Session-Id": "a b"},
		wantRe: hashed,
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", srv.URL+tc.path, strings.NewReader(tc.body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+testKey)
			req.Header.Set("X-Api-Key", testKey)
			req.Header.Set("anthropic-version", "2023-06-01")
			for k, v := range tc.header {
				req.Header[k] = []string{v}
			}
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			require.Equal(t, 200, resp.StatusCode, "status %d: %s", resp.StatusCode, b)
			call := up.last(t)
			id := call.header.Get("X-Dynamo-Session-Id")
			switch {
			case tc.wantRe != nil && !tc.wantRe.MatchString(id):
				t.Errorf("session id %q, want the form %v", id, tc.wantRe)
			case tc.wantRe == nil && id != tc.want:
				t.Errorf("session id %q, want %q", id, tc.want)
			}
			for _, name := range server.DefaultSessionHeaders {
				got := call.header.Values(name)
				require.Len(t, got, 1, "%s: %q, want [%q]", name, got, id)
				require.Equal(t, id, got[0], "%s: %q, want [%q]", name, got, id)
			}
			got := map[string]string{}
			for k, v := range call.header {
				if strings.HasPrefix(k, "X-Dynamo-") && k != "X-Dynamo-Session-Id" || strings.HasPrefix(k, "X-Llm-D-") {
					got[k] = v[0]
				}
			}
			want := map[string]string{}
			for k, v := range tc.forward {
				if k != "X-Dynamo-Session-Id" {
					want[k] = v
				}
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("forwarded headers (-want +got):\n%s", d)
			}
			require.Equal(t, "", call.header.Get("Authorization"), "credentials forwarded: %v", call.header)
			require.Equal(t, "", call.header.Get("X-Api-Key"), "credentials forwarded: %v", call.header)
			require.Equal(t, tc.salt, call.cacheSalt, "cache_salt %q, want %q", call.cacheSalt, tc.salt)
		})
	}
}

// hashOf is the session id of an identity the body carries.
func hashOf(id string) string {
	sum := sha256.Sum256([]byte(id))
	return "h-" + hex.EncodeToString(sum[:16])
}
