package engine

import (
	"bytes"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

// TestVLLMCaptures replays every raw capture through an httptest upstream
// that speaks vLLM's streamed /v1/completions, with and without token ids,
// and checks that the adapter yields the captured text byte for byte, the
// ids, the finish and the usage.
func TestVLLMCaptures(t *testing.T) {
	recs := recordings(t)
	for _, name := range rawCaptures(t) {
		rec := recs[name]
		for _, ids := range []bool{true, false} {
			t.Run(name+map[bool]string{true: "/ids", false: "/text"}[ids], func(t *testing.T) {
				u := newUpstream(t, sseHandler(vllmWire(rec, "stop_reason", ids)))
				e := NewVLLM(VLLMConfig{Config: Config{BaseURL: u.URL + "/v1"}})
				st, err := e.Generate(ctxTimeout(t, 10*time.Second), &Request{Model: "m", Prompt: "hi", MaxTokens: 100})
				require.NoError(t, err)
				defer st.Close()
				got, err := drain(st)
				require.NoError(t, err)
				if got.text[0] != rec.Text() {
					t.Errorf("text differs:\n%s", cmp.Diff(rec.Text(), got.text[0]))
				}
				want := rec.Steps[len(rec.Steps)-1].Finish
				if want == FinishStop {
					want = FinishEOS // "stop" without a stop_reason is EOS
				}
				require.Equal(t, want, got.finish[0], "finish %v, want %v", got.finish[0], want)
				if u := usageOf(rec); got.usage == nil || *got.usage != u {
					t.Errorf("usage %+v, want %+v", got.usage, u)
				}
				if ids {
					n := int(usageOf(rec).CompletionTokens)
					require.Len(t, got.ids[0], n, "got %d ids, want %d", len(got.ids[0]), n)
					require.False(t, n > 0 && got.ids[0][n-1] != fakeID(n-1), "got %d ids, want %d", len(got.ids[0]), n)
				} else if len(got.ids[0]) != 0 {
					t.Errorf("ids without token_ids: %v", got.ids[0])
				}
			})
		}
	}
}

// TestVLLMChunkFields decodes vLLM's per-choice fields: n > 1 choices
// interleaved, stop_reason as a string and as a token id, abort, an
// in-stream error, completions logprobs with top alternatives.
func TestVLLMChunkFields(t *testing.T) {
	wire := `data: {"id":"c","object":"text_completion","choices":[{"index":0,"text":"Hel","token_ids":[1,2],"finish_reason":null,"stop_reason":null,"prompt_token_ids":[7,8]}],"usage":null}

data: {"id":"c","object":"text_completion","choices":[{"index":1,"text":"Bon","token_ids":[5],"logprobs":{"text_offset":[0],"tokens":["Bon"],"token_logprobs":[-0.25],"top_logprobs":[{"Bon":-0.25,"Hi":-1.5}]},"finish_reason":null,"stop_reason":null}],"usage":null}

data: {"id":"c","object":"text_completion","choices":[{"index":0,"text":"lo","token_ids":[3],"finish_reason":"stop","stop_reason":"###"}],"usage":null}

data: {"id":"c","object":"text_completion","choices":[{"index":1,"text":"jour","token_ids":[6,151645],"finish_reason":"stop","stop_reason":151645}],"usage":null}

data: {"id":"c","object":"text_completion","choices":[],"usage":{"prompt_tokens":9,"total_tokens":15,"completion_tokens":6,"prompt_tokens_details":{"cached_tokens":8}}}

data: [DONE]

`
	u := newUpstream(t, sseHandler([]byte(wire)))
	e := NewVLLM(VLLMConfig{Config: Config{BaseURL: u.URL}}) // /v1 is added
	st, err := e.Generate(ctxTimeout(t, 5*time.Second), &Request{Model: "m", PromptIDs: []uint32{7, 8}, MaxTokens: 10, N: 2, Logprobs: true, TopLogprobs: 2})
	require.NoError(t, err)
	defer st.Close()
	var lps []Logprob
	var stopIDs []uint32
	for {
		out, err := st.Next()
		if err != nil {
			break
		}
		for _, l := range out.Logprobs {
			c := Logprob{TokenID: l.TokenID, Token: append([]byte(nil), l.Token...), Logprob: l.Logprob}
			for _, tp := range l.Top {
				c.Top = append(c.Top, TopLogprob{Token: append([]byte(nil), tp.Token...), Logprob: tp.Logprob})
			}
			lps = append(lps, c)
		}
		if out.HasStopTokenID {
			stopIDs = append(stopIDs, out.StopTokenID)
		}
	}
	wantLP := []Logprob{{TokenID: 5, Token: []byte("Bon"), Logprob: -0.25, Top: []TopLogprob{{Token: []byte("Bon"), Logprob: -0.25}, {Token: []byte("Hi"), Logprob: -1.5}}}}
	if d := cmp.Diff(wantLP, lps); d != "" {
		t.Errorf("logprobs (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]uint32{151645}, stopIDs); d != "" {
		t.Errorf("stop ids: %s", d)
	}
	require.Equal(t, "/v1/completions", u.paths[0], "path %q", u.paths[0])

	st, err = e.Generate(ctxTimeout(t, 5*time.Second), &Request{Model: "m", Prompt: "x", MaxTokens: 10, N: 2})
	require.NoError(t, err)
	got, err := drain(st)
	st.Close()
	require.NoError(t, err)
	want := map[int]string{0: "Hello", 1: "Bonjour"}
	if d := cmp.Diff(want, got.text); d != "" {
		t.Errorf("text: %s", d)
	}
	if d := cmp.Diff(map[int]Finish{0: FinishStop, 1: FinishStop}, got.finish); d != "" {
		t.Errorf("finish: %s", d)
	}
	if d := cmp.Diff(map[int]string{0: "###"}, got.stop); d != "" {
		t.Errorf("stop: %s", d)
	}
	if d := cmp.Diff(&Usage{PromptTokens: 9, CompletionTokens: 6, CachedTokens: 8}, got.usage); d != "" {
		t.Errorf("usage: %s", d)
	}
}

// TestVLLMRequestMapping checks the body sent for each request field.
func TestVLLMRequestMapping(t *testing.T) {
	cases := []struct {
		name string
		cfg  VLLMConfig
		req  Request
		want string
	}{{
		name: "ids",
		req: Request{Model: "qwen", PromptIDs: []uint32{1, 2, 3}, Prompt: "ignored", MaxTokens: 64, MinTokens: 2, N: 2,
			SkipSpecialTokens: false, RequestID: "req-1",
			Stop: Stop{Strings: []string{"</s>", "\nObs"}, HiddenIDs: []uint32{151645}, VisibleIDs: []uint32{200012}}},
		want: `{"model":"qwen","prompt":[1,2,3],"max_tokens":64,"min_tokens":2,"n":2,"stop":["</s>","\nObs"],
			"stop_token_ids":[151645,200012],"skip_special_tokens":false,"spaces_between_special_tokens":false,
			"stream":true,"stream_options":{"include_usage":true},"return_token_ids":true,"request_id":"req-1"}`,
	}, {
		name: "text, sampling, visible ids, logprobs, extra",
		req: Request{Model: "m", Prompt: "Hello \"x\"\n", MaxTokens: 8, SkipSpecialTokens: true,
			Sampling: Sampling{Temperature: ptr(0.5), TopP: ptr(0.9), TopK: ptr(-1), MinP: ptr(0.05), PresencePenalty: ptr(0.1),
				FrequencyPenalty: ptr(0.2), RepetitionPenalty: ptr(1.1), Seed: ptr(int64(7))},
			Stop:     Stop{VisibleIDs: []uint32{200012}},
			Logprobs: true, TopLogprobs: 3,
			ExtraArgs: json.RawMessage(` {"priority": 5, "return_token_ids": false} `)},
		want: `{"model":"m","prompt":"Hello \"x\"\n","max_tokens":8,"temperature":0.5,"top_p":0.9,"top_k":-1,"min_p":0.05,
			"presence_penalty":0.1,"frequency_penalty":0.2,"repetition_penalty":1.1,"seed":7,"stop_token_ids":[200012],
			"include_stop_str_in_output":true,"skip_special_tokens":true,"logprobs":3,"stream":true,
			"stream_options":{"include_usage":true},"priority":5,"return_token_ids":false}`,
	}, {
		name: "ignore_eos, include stop strings, structured outputs",
		cfg:  VLLMConfig{NoTokenIDs: true},
		req: Request{Model: "m", Prompt: "p", MaxTokens: 8, IgnoreEOS: true, SkipSpecialTokens: true,
			Stop:   Stop{Strings: []string{"END"}, IncludeStrings: true, HiddenIDs: []uint32{2}},
			Guided: &Guided{JSONSchema: json.RawMessage(`{"type":"object"}`)}},
		want: `{"model":"m","prompt":"p","max_tokens":8,"stop":["END"],"include_stop_str_in_output":true,"ignore_eos":true,
			"skip_special_tokens":true,"structured_outputs":{"json":{"type":"object"}},"stream":true,"stream_options":{"include_usage":true}}`,
	}, {
		name: "cache salt",
		cfg:  VLLMConfig{NoTokenIDs: true},
		req:  Request{Model: "m", Prompt: "p", MaxTokens: 8, SkipSpecialTokens: true, CacheSalt: "tenant-7", SessionID: "s1"},
		want: `{"model":"m","prompt":"p","max_tokens":8,"skip_special_tokens":true,"stream":true,"stream_options":{"include_usage":true},"cache_salt":"tenant-7"}`,
	}, {
		name: "legacy guided choice",
		cfg:  VLLMConfig{LegacyGuidedDecoding: true, NoTokenIDs: true},
		req:  Request{Model: "m", Prompt: "p", MaxTokens: 8, SkipSpecialTokens: true, Guided: &Guided{Choice: []string{"yes", "no"}}},
		want: `{"model":"m","prompt":"p","max_tokens":8,"skip_special_tokens":true,"guided_choice":["yes","no"],"stream":true,"stream_options":{"include_usage":true}}`,
	}, {
		name: "structural tag",
		cfg:  VLLMConfig{NoTokenIDs: true},
		req:  Request{Model: "m", Prompt: "p", MaxTokens: 8, SkipSpecialTokens: true, Guided: &Guided{StructuralTag: json.RawMessage(`{"type":"structural_tag"}`)}},
		want: `{"model":"m","prompt":"p","max_tokens":8,"skip_special_tokens":true,"structured_outputs":{"structural_tag":"{\"type\":\"structural_tag\"}"},"stream":true,"stream_options":{"include_usage":true}}`,
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body, err := appendCompletionsRequest(nil, &tc.req, completionsOptions{flavor: flavorVLLM, noTokenIDs: tc.cfg.NoTokenIDs, legacyGuided: tc.cfg.LegacyGuidedDecoding})
			require.NoError(t, err)
			checkJSON(t, tc.want, body)
		})
	}
	_, err := appendCompletionsRequest(nil, &Request{Model: "m"}, completionsOptions{})
	require.Equal(t, int(ErrorBadRequest), errKind(err), "MaxTokens 0: %v", err)
	if _, err := appendCompletionsRequest(nil, &Request{Model: "m", MaxTokens: 1, ExtraArgs: json.RawMessage(`[1]`)}, completionsOptions{}); errKind(err) != int(ErrorBadRequest) {
		t.Errorf("ExtraArgs array: %v", err)
	}
}

// checkJSON compares a body with the expected JSON, member order aside,
// and checks that keys are not duplicated except by ExtraArgs.
func checkJSON(t *testing.T, want string, got []byte) {
	t.Helper()
	var w, g any
	require.NoError(t, json.Unmarshal([]byte(want), &w), "want")
	require.NoError(t, json.Unmarshal(got, &g), "body %s", got)
	if d := cmp.Diff(w, g); d != "" {
		t.Errorf("body %s\n(-want +got):\n%s", got, d)
	}
}

// TestVLLMHeaders checks the API key, extra headers, the request's own
// headers (which replace the configured ones of the same name) and the
// request id.
func TestVLLMHeaders(t *testing.T) {
	u := newUpstream(t, sseHandler([]byte(`data: {"choices":[{"index":0,"text":"","finish_reason":"length"}]}`+"\n\ndata: [DONE]\n\n")))
	e := NewVLLM(VLLMConfig{Config: Config{BaseURL: u.URL + "/v1/", APIKey: "sk-1", Header: http.Header{"X-Route": {"a"}, "X-Session-Id": {"config"}}}})
	st, err := e.Generate(ctxTimeout(t, 5*time.Second), &Request{Model: "m", Prompt: "p", MaxTokens: 1, RequestID: "r9",
		Header: http.Header{"x-session-id": {"s-1"}, "X-Dynamo-Session-Id": {"s-1"}}})
	require.NoError(t, err)
	if _, err := drain(st); err != nil {
		t.Fatal(err)
	}
	st.Close()
	h := u.header[0]
	require.Equal(t, "Bearer sk-1", h.Get("Authorization"), "headers %v", h)
	require.Equal(t, "a", h.Get("X-Route"), "headers %v", h)
	require.Equal(t, "r9", h.Get("X-Request-Id"), "headers %v", h)
	require.Equal(t, "text/event-stream", h.Get("Accept"), "headers %v", h)
	require.Len(t, h.Values("X-Session-Id"), 1, "headers %v", h)
	require.Equal(t, "s-1", h.Get("X-Session-Id"), "headers %v", h)
	require.Equal(t, "s-1", h.Get("X-Dynamo-Session-Id"), "headers %v", h)
	require.Equal(t, "/v1/completions", u.paths[0], "path %q", u.paths[0])
}

// TestKeepAlive checks that a finished stream returns its connection to
// the pool: sequential requests share one connection.
func TestKeepAlive(t *testing.T) {
	p := httpProtos()[0]
	var conns atomic.Int32
	u := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sseHandler([]byte(p.chunk("a")+p.end))(w, r)
		time.Sleep(20 * time.Millisecond) // the end of the body arrives after [DONE]
	}))
	u.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	u.Start()
	defer u.Close()
	eng, hc := p.engine(u.URL, Config{})
	defer checkGoroutines(t, hc)()
	for i := 0; i < 5; i++ {
		st, err := eng.Generate(ctxTimeout(t, 5*time.Second), textReq())
		require.NoError(t, err)
		if _, err := drain(st); err != nil {
			t.Fatal(err)
		}
		st.Close()
	}
	n := conns.Load()
	require.Equal(t, int32(1), n, "%d connections for 5 sequential streams, want 1", n)
}

// TestTokenIDsOnly: with TokenIDsOnly the outputs carry the ids and no
// text, for the pipeline to detokenize (vLLM and SGLang native).
func TestTokenIDsOnly(t *testing.T) {
	rec := recordings(t)["vllm/qwen3-0.6B/chat_completion_stream_8f33c28b-tool.json"]
	n := int(usageOf(rec).CompletionTokens)
	for _, tc := range []struct {
		name string
		wire []byte
		eng  func(url string) Engine
	}{
		{"vllm", vllmWire(rec, "stop_reason", true), func(url string) Engine {
			return NewVLLM(VLLMConfig{Config: Config{BaseURL: url}, TokenIDsOnly: true, NoTokenIDs: true})
		}},
		{"sglang", sglangWire(rec, true, true), func(url string) Engine {
			return NewSGLang(SGLangConfig{Config: Config{BaseURL: url}, TokenIDsOnly: true})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := newUpstream(t, sseHandler(tc.wire))
			st, err := tc.eng(u.URL).Generate(ctxTimeout(t, 5*time.Second), textReq())
			require.NoError(t, err)
			defer st.Close()
			var ids []uint32
			var finish Finish
			for {
				out, err := st.Next()
				if err != nil {
					break
				}
				require.False(t, out.HasText, "text %q in ids-only mode", out.Text)
				require.LessOrEqual(t, len(out.Text), 0, "text %q in ids-only mode", out.Text)
				ids = append(ids, out.TokenIDs...)
				if out.Finish != FinishNone {
					finish = out.Finish
				}
			}
			require.Len(t, ids, n, "%d ids, want %d; finish %v", len(ids), n, finish)
			require.Equal(t, fakeID(n-1), ids[n-1], "%d ids, want %d; finish %v", len(ids), n, finish)
			require.Equal(t, FinishEOS, finish, "%d ids, want %d; finish %v", len(ids), n, finish)
			require.False(t, tc.name == "vllm" && !bytes.Contains(u.lastBody(), []byte(`"return_token_ids":true`)), "TokenIDsOnly must ask for token ids: %s", u.lastBody())
		})
	}
}
