package engine

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/require"
)

// chatWire renders a capture file as the SSE stream of the
// chat.completion.chunk objects it holds, byte for byte.
func chatWire(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var chunks [][]byte
	trimmed := bytes.TrimSpace(data)
	switch {
	case trimmed[0] == '{' && isSingleJSON(trimmed):
		var doc struct {
			InputStream []struct{ Data json.RawMessage } `json:"input_stream"`
			Data        []struct{ Data json.RawMessage } `json:"data"`
		}
		require.NoError(t, json.Unmarshal(trimmed, &doc))
		for _, it := range append(doc.InputStream, doc.Data...) {
			var c bytes.Buffer
			json.Compact(&c, it.Data)
			chunks = append(chunks, c.Bytes())
		}
	default:
		for _, l := range bytes.Split(data, []byte("\n")) {
			l = bytes.TrimSpace(l)
			l = bytes.TrimSpace(bytes.TrimPrefix(l, []byte("data:")))
			if len(l) == 0 || bytes.HasPrefix(l, []byte("//")) || string(l) == "[DONE]" {
				continue
			}
			chunks = append(chunks, l)
		}
	}
	var b bytes.Buffer
	for _, c := range chunks {
		b.WriteString("data: ")
		b.Write(c)
		b.WriteString("\n\n")
	}
	b.WriteString("data: [DONE]\n\n")
	return b.Bytes()
}

// TestChatCaptures serves every chat.completion.chunk capture through an
// OpenAI chat endpoint: content, reasoning and tool calls come out as the
// recording loader read them (two independent decoders agree).
func TestChatCaptures(t *testing.T) {
	recs := recordings(t)
	for _, name := range Names(recs) {
		if strings.HasPrefix(name, "replays/tool-calling") {
			continue // a raw text stream, not chat chunks
		}
		rec := recs[name]
		t.Run(name, func(t *testing.T) {
			u := newUpstream(t, sseHandler(chatWire(t, filepath.Join(streamsDir, name))))
			e := NewChat(ChatConfig{Config: Config{BaseURL: u.URL}})
			st, err := e.Generate(ctxTimeout(t, 10*time.Second), textReq())
			require.NoError(t, err)
			defer st.Close()
			got, err := drain(st)
			require.NoError(t, err)
			var reasoning strings.Builder
			var calls []ToolCallDelta
			for _, s := range rec.Steps {
				reasoning.Write(s.Reasoning)
				calls = append(calls, s.ToolCalls...)
			}
			if got.text[0] != rec.Text() {
				t.Errorf("content differs:\n%s", cmp.Diff(rec.Text(), got.text[0]))
			}
			if got.reasoning[0] != reasoning.String() {
				t.Errorf("reasoning differs:\n%s", cmp.Diff(reasoning.String(), got.reasoning[0]))
			}
			if d := cmp.Diff(calls, got.calls[0], cmpopts.EquateEmpty()); d != "" {
				t.Errorf("tool calls: %s", d)
			}
			want := rec.Steps[len(rec.Steps)-1].Finish
			require.False(t, got.finish[0] != want && !(want == FinishEOS && got.finish[0] == FinishNone), "finish %v, want %v", got.finish[0], want)
			require.Equal(t, "/v1/chat/completions", u.paths[0], "path %q", u.paths[0])
		})
	}
}

func TestChatRequestMapping(t *testing.T) {
	req := Request{Model: "served", MaxTokens: 64, MinTokens: 2, N: 2, SkipSpecialTokens: false, IgnoreEOS: false,
		Chat:     json.RawMessage(`{"model":"client-name","messages":[{"role":"user","content":"hi"}],"tools":[],"max_tokens":5}`),
		Sampling: Sampling{Temperature: ptr(0.2), TopK: ptr(40)},
		Stop:     Stop{Strings: []string{"END"}, HiddenIDs: []uint32{7}},
		Logprobs: true, TopLogprobs: 2, CacheSalt: "t1"}
	body, err := appendChatRequest(nil, &req, false)
	require.NoError(t, err)
	// Later duplicate members win in the engines' JSON decoders, as in
	// encoding/json.
	checkJSON(t, `{"model":"served","messages":[{"role":"user","content":"hi"}],"tools":[],"max_tokens":64,"n":2,"temperature":0.2,"top_k":40,
		"stop":["END"],"logprobs":true,"top_logprobs":2,"min_tokens":2,"stop_token_ids":[7],"skip_special_tokens":false,
		"cache_salt":"t1","stream":true,"stream_options":{"include_usage":true}}`, body)
	body, err = appendChatRequest(nil, &req, true)
	require.NoError(t, err)
	checkJSON(t, `{"model":"served","messages":[{"role":"user","content":"hi"}],"tools":[],"max_tokens":64,"n":2,"temperature":0.2,
		"stop":["END"],"logprobs":true,"top_logprobs":2,"stream":true,"stream_options":{"include_usage":true}}`, body)
	if _, err := appendChatRequest(nil, &Request{MaxTokens: 1}, false); errKind(err) != int(ErrorBadRequest) {
		t.Errorf("no Chat: %v", err)
	}
}

// TestChatLogprobs decodes chat logprobs and a vLLM stop_reason.
func TestChatLogprobs(t *testing.T) {
	wire := `data: {"choices":[{"index":0,"delta":{"content":"Hi"},"logprobs":{"content":[{"token":"Hi","logprob":-0.1,"bytes":[72,105],"top_logprobs":[{"token":"Hi","logprob":-0.1},{"token":"Yo","logprob":-2.5}]}]},"finish_reason":null}]}

data: {"choices":[{"index":0,"delta":{"content":"!"},"finish_reason":"stop","stop_reason":"END"}],"usage":{"prompt_tokens":4,"completion_tokens":2,"prompt_tokens_details":{"cached_tokens":3}}}

data: [DONE]

`
	u := newUpstream(t, sseHandler([]byte(wire)))
	st, err := NewChat(ChatConfig{Config: Config{BaseURL: u.URL + "/v1"}}).Generate(ctxTimeout(t, 5*time.Second), textReq())
	require.NoError(t, err)
	defer st.Close()
	out, err := st.Next()
	require.NoError(t, err)
	want := []Logprob{{Token: []byte("Hi"), Logprob: -0.1, Top: []TopLogprob{{Token: []byte("Hi"), Logprob: -0.1}, {Token: []byte("Yo"), Logprob: -2.5}}}}
	if d := cmp.Diff(want, out.Logprobs); d != "" {
		t.Errorf("logprobs: %s", d)
	}
	out, err = st.Next()
	require.NoError(t, err)
	require.Equal(t, FinishStop, out.Finish, "last %+v usage %+v", out, out.Usage)
	require.Equal(t, "END", string(out.StopReason), "last %+v usage %+v", out, out.Usage)
	require.NotNil(t, out.Usage, "last %+v usage %+v", out, out.Usage)
	require.False(t, *out.Usage != (Usage{4, 2, 3}), "last %+v usage %+v", out, out.Usage)
}
