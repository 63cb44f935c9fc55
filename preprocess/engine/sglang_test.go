package engine

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

// sglangWire renders rec as SGLang's /generate streams it: text (and
// output_ids, and the logprob lists) cumulative or incremental, meta_info
// with the running completion_tokens and the finish on the last chunk.
func sglangWire(rec *Recording, cumText, cumIDs bool) []byte {
	var b bytes.Buffer
	var all strings.Builder
	n := 0
	for k, s := range rec.Steps {
		last := k == len(rec.Steps)-1
		if !last && !(s.HasText && len(s.Text) > 0) {
			continue
		}
		first := n
		if len(s.Text) > 0 {
			n++
		}
		all.Write(s.Text)
		text := string(s.Text)
		if cumText {
			text = all.String()
		}
		if cumIDs {
			first = 0
		}
		var ids, lps []string
		for i := first; i < n; i++ {
			ids = append(ids, strconv.Itoa(int(fakeID(i))))
			lps = append(lps, "[-0.5,"+strconv.Itoa(int(fakeID(i)))+",null]")
		}
		fr := "null"
		if last {
			switch s.Finish {
			case FinishLength:
				fr = `{"type":"length","length":` + strconv.Itoa(n) + `}`
			default:
				fr = `{"type":"stop","matched":null}`
			}
		}
		b.WriteString(`data: {"text":` + jsonStr([]byte(text)) + `,"output_ids":[` + strings.Join(ids, ",") + `],"meta_info":{"id":"abc","finish_reason":` + fr +
			`,"prompt_tokens":12,"completion_tokens":` + strconv.Itoa(n) + `,"cached_tokens":4,"output_token_logprobs":[` + strings.Join(lps, ",") + `]}}` + "\n\n")
	}
	b.WriteString("data: [DONE]\n\n")
	return b.Bytes()
}

// TestSGLangCaptures replays every raw capture through SGLang's /generate
// protocol in each streaming mode.
func TestSGLangCaptures(t *testing.T) {
	recs := recordings(t)
	modes := []struct {
		name           string
		cumText, cumID bool
	}{{"cumulative", true, true}, {"incremental", false, false}, {"text cumulative, ids incremental", true, false}}
	for _, name := range rawCaptures(t) {
		rec := recs[name]
		for _, m := range modes {
			t.Run(name+"/"+m.name, func(t *testing.T) {
				u := newUpstream(t, sseHandler(sglangWire(rec, m.cumText, m.cumID)))
				e := NewSGLang(SGLangConfig{Config: Config{BaseURL: u.URL + "/v1"}, IncrementalText: !m.cumText})
				st, err := e.Generate(ctxTimeout(t, 10*time.Second), &Request{Model: "m", PromptIDs: []uint32{1, 2}, MaxTokens: 100, Logprobs: true})
				require.NoError(t, err)
				defer st.Close()
				var lpIDs []uint32
				var got collected
				got.text = map[int]string{}
				for {
					out, err := st.Next()
					if err != nil {
						require.Less(t, errKind(err), 0, err)
						break
					}
					got.text[0] += string(out.Text)
					got.ids = map[int][]uint32{0: append(got.ids[0], out.TokenIDs...)}
					for _, l := range out.Logprobs {
						lpIDs = append(lpIDs, l.TokenID)
					}
					if out.Finish != FinishNone {
						got.finish = map[int]Finish{0: out.Finish}
						u := *out.Usage
						got.usage = &u
					}
				}
				if got.text[0] != rec.Text() {
					t.Errorf("text differs:\n%s", cmp.Diff(rec.Text(), got.text[0]))
				}
				n := int(usageOf(rec).CompletionTokens)
				var want []uint32
				for i := 0; i < n; i++ {
					want = append(want, fakeID(i))
				}
				if d := cmp.Diff(want, got.ids[0]); d != "" {
					t.Errorf("ids: %s", d)
				}
				if d := cmp.Diff(want, lpIDs); d != "" {
					t.Errorf("logprob ids: %s", d)
				}
				wantF := FinishEOS
				if rec.Steps[len(rec.Steps)-1].Finish == FinishLength {
					wantF = FinishLength
				}
				require.Equal(t, wantF, got.finish[0], "finish %v, want %v", got.finish[0], wantF)
				require.NotNil(t, got.usage, "usage %+v, want %+v", got.usage, usageOf(rec))
				require.False(t, *got.usage != usageOf(rec), "usage %+v, want %+v", got.usage, usageOf(rec))
				require.Equal(t, "/generate", u.paths[0], "path %q", u.paths[0])
			})
		}
	}
}

// TestSGLangFinish covers meta_info.finish_reason, n > 1 and a text mode
// mismatch (never silently losing bytes).
func TestSGLangFinish(t *testing.T) {
	cases := []struct {
		name   string
		wire   string
		cfg    SGLangConfig
		n      int
		text   map[int]string
		finish map[int]Finish
		stop   map[int]string
		kind   int // the error kind, -1 for none
		usage  *Usage
		ids    []uint32
	}{
		{name: "matched string", kind: -1,
			wire: `{"text":"Hi ###","output_ids":[1,2],"meta_info":{"finish_reason":{"type":"stop","matched":"###"},"prompt_tokens":3,"completion_tokens":2,"cached_tokens":2}}`,
			text: map[int]string{0: "Hi ###"}, finish: map[int]Finish{0: FinishStop}, stop: map[int]string{0: "###"},
			usage: &Usage{PromptTokens: 3, CompletionTokens: 2, CachedTokens: 2}},
		{name: "abort", kind: -1,
			wire: `{"text":"Hi","output_ids":[1],"meta_info":{"finish_reason":{"type":"abort","message":"aborted by the server"},"prompt_tokens":3,"completion_tokens":1}}`,
			text: map[int]string{0: "Hi"}, finish: map[int]Finish{0: FinishCancelled},
			usage: &Usage{PromptTokens: 3, CompletionTokens: 1}},
		{name: "abort context overflow", kind: -1,
			wire:   `{"text":"","output_ids":[],"meta_info":{"finish_reason":{"type":"abort","message":"The input (5000 tokens) is longer than the model's context length (4096 tokens)."},"prompt_tokens":5000,"completion_tokens":0}}`,
			finish: map[int]Finish{0: FinishError}, text: map[int]string{0: ""}},
		{name: "n=2", n: 2, kind: -1,
			wire: `{"index":0,"text":"A","output_ids":[1],"meta_info":{"finish_reason":null,"completion_tokens":1}}

data: {"index":1,"text":"B","output_ids":[5],"meta_info":{"finish_reason":null,"completion_tokens":1}}

data: {"index":1,"text":"Bb","output_ids":[5,6],"meta_info":{"finish_reason":{"type":"length","length":2},"prompt_tokens":3,"completion_tokens":2}}

data: {"index":0,"text":"Aa","output_ids":[1,2],"meta_info":{"finish_reason":{"type":"stop","matched":7},"prompt_tokens":3,"completion_tokens":2}}`,
			text: map[int]string{0: "Aa", 1: "Bb"}, finish: map[int]Finish{0: FinishStop, 1: FinishLength},
			usage: &Usage{PromptTokens: 3, CompletionTokens: 4}},
		{name: "cumulative ids without completion_tokens", kind: -1,
			wire: `{"output_ids":[1],"meta_info":{}}

data: {"output_ids":[1,2,3],"meta_info":{}}

data: {"output_ids":[1,2,3,4],"meta_info":{"finish_reason":{"type":"length"}}}`,
			text: map[int]string{0: ""}, finish: map[int]Finish{0: FinishLength}, ids: []uint32{1, 2, 3, 4}},
		{name: "incremental server, cumulative config", kind: int(ErrorMalformed),
			wire: `{"text":"Hello","output_ids":[1],"meta_info":{"completion_tokens":1}}

data: {"text":" wo","output_ids":[2],"meta_info":{"completion_tokens":2}}`},
		{name: "choice out of range", kind: int(ErrorMalformed),
			wire: `{"index":3,"text":"x","meta_info":{}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			u := newUpstream(t, sseHandler([]byte("data: "+tc.wire+"\n\ndata: [DONE]\n\n")))
			tc.cfg.BaseURL = u.URL
			st, err := NewSGLang(tc.cfg).Generate(ctxTimeout(t, 5*time.Second), &Request{Model: "m", Prompt: "p", MaxTokens: 9, N: tc.n})
			require.NoError(t, err)
			defer st.Close()
			got, err := drain(st)
			require.Equal(t, tc.kind, errKind(err), "error %v, want kind %d", err, tc.kind)
			if tc.kind >= 0 {
				return
			}
			if d := cmp.Diff(tc.text, got.text); d != "" {
				t.Errorf("text: %s", d)
			}
			if d := cmp.Diff(tc.finish, got.finish); d != "" {
				t.Errorf("finish: %s", d)
			}
			if d := cmp.Diff(tc.stop, got.stop, cmpEmptyMap); d != "" {
				t.Errorf("stop: %s", d)
			}
			if tc.ids != nil {
				if d := cmp.Diff(tc.ids, got.ids[0]); d != "" {
					t.Errorf("ids: %s", d)
				}
			}
			if tc.usage != nil {
				if d := cmp.Diff(tc.usage, got.usage); d != "" {
					t.Errorf("usage: %s", d)
				}
			}
		})
	}
}

var cmpEmptyMap = cmp.FilterValues(func(a, b map[int]string) bool { return len(a) == 0 && len(b) == 0 }, cmp.Ignore())

func TestSGLangRequestMapping(t *testing.T) {
	req := Request{Model: "m", PromptIDs: []uint32{1, 2}, MaxTokens: 64, MinTokens: 1, N: 2,
		Sampling: Sampling{Temperature: ptr(0.7), TopK: ptr(20), Seed: ptr(int64(3))},
		Stop:     Stop{Strings: []string{"</s>"}, IncludeStrings: true, HiddenIDs: []uint32{9}},
		Logprobs: true, TopLogprobs: 2, RequestID: "r1",
		Guided:    &Guided{Choice: []string{"a.b", "c"}},
		ExtraArgs: json.RawMessage(`{"return_hidden_states":false}`)}
	body, err := appendSGLangRequest(nil, &req)
	require.NoError(t, err)
	checkJSON(t, `{"input_ids":[1,2],"sampling_params":{"max_new_tokens":64,"min_new_tokens":1,"n":2,"temperature":0.7,"top_k":20,
		"sampling_seed":3,"stop":["</s>"],"stop_token_ids":[9],"no_stop_trim":true,"skip_special_tokens":false,
		"spaces_between_special_tokens":false,"regex":"(a\\.b|c)"},"stream":true,"return_logprob":true,"top_logprobs_num":2,
		"logprob_start_len":-1,"rid":"r1","return_hidden_states":false}`, body)

	body, err = appendSGLangRequest(nil, &Request{Prompt: "hi", MaxTokens: 5, SkipSpecialTokens: true, IgnoreEOS: true,
		Guided: &Guided{JSONSchema: json.RawMessage(`{"type":"object"}`)}})
	require.NoError(t, err)
	checkJSON(t, `{"text":"hi","sampling_params":{"max_new_tokens":5,"ignore_eos":true,"skip_special_tokens":true,
		"json_schema":"{\"type\":\"object\"}"},"stream":true}`, body)
}

func TestOpenAIFlavorMappings(t *testing.T) {
	req := Request{Model: "m", PromptIDs: []uint32{1, 2}, MaxTokens: 64, MinTokens: 1, RequestID: "r1", SkipSpecialTokens: true,
		Sampling: Sampling{TopK: ptr(-1), Temperature: ptr(0.0)},
		Stop:     Stop{Strings: []string{"x"}, IncludeStrings: true},
		Logprobs: true, TopLogprobs: 5, Guided: &Guided{Grammar: "root ::= \"a\""}}
	body, err := appendCompletionsRequest(nil, &req, completionsOptions{flavor: flavorSGLang})
	require.NoError(t, err)
	checkJSON(t, `{"model":"m","prompt":[1,2],"max_tokens":64,"min_tokens":1,"temperature":0,"top_k":-1,"stop":["x"],"no_stop_trim":true,
		"skip_special_tokens":true,"logprobs":5,"ebnf":"root ::= \"a\"","stream":true,"stream_options":{"include_usage":true},"rid":"r1"}`, body)

	body, err = appendCompletionsRequest(nil, &req, completionsOptions{flavor: flavorTRT, maxTopLogprobs: 1})
	require.NoError(t, err)
	checkJSON(t, `{"model":"m","prompt":[1,2],"max_tokens":64,"min_tokens":1,"temperature":0,"stop":["x"],"include_stop_str_in_output":true,
		"skip_special_tokens":true,"logprobs":1,"response_format":{"type":"ebnf","ebnf":"root ::= \"a\""},"stream":true,
		"stream_options":{"include_usage":true}}`, body)

	req.Guided = &Guided{JSONSchema: json.RawMessage(`{"type":"object"}`)}
	req.Logprobs = false
	body, _ = appendCompletionsRequest(nil, &req, completionsOptions{flavor: flavorTRT})
	require.True(t, bytes.Contains(body, []byte(`"response_format":{"type":"json","schema":{"type":"object"}}`)), "trtllm json schema: %s", body)
}

// TestOpenAIFlavorCaptures replays the raw captures through SGLang's
// OpenAI completions (matched_stop) and trtllm-serve.
func TestOpenAIFlavorCaptures(t *testing.T) {
	recs := recordings(t)
	for _, flavor := range []string{"sglang-openai", "trtllm"} {
		for _, name := range rawCaptures(t) {
			rec := recs[name]
			t.Run(flavor+"/"+name, func(t *testing.T) {
				stopField := "stop_reason"
				if flavor == "sglang-openai" {
					stopField = "matched_stop"
				}
				u := newUpstream(t, sseHandler(vllmWire(rec, stopField, false)))
				var e Engine
				if flavor == "trtllm" {
					e = NewTRTLLM(TRTLLMConfig{Config: Config{BaseURL: u.URL}})
				} else {
					e = NewSGLangCompletions(Config{BaseURL: u.URL})
				}
				st, err := e.Generate(ctxTimeout(t, 10*time.Second), textReq())
				require.NoError(t, err)
				defer st.Close()
				got, err := drain(st)
				require.NoError(t, err)
				if got.text[0] != rec.Text() {
					t.Errorf("text differs:\n%s", cmp.Diff(rec.Text(), got.text[0]))
				}
				require.Equal(t, "/v1/completions", u.paths[0], "path %q", u.paths[0])
				var body map[string]any
				json.Unmarshal(u.lastBody(), &body)
				_, ok := body["return_token_ids"]
				require.False(t, ok, "%s got return_token_ids", flavor)
			})
		}
	}
}

// TestStreamReuse alternates requests of different shapes on one adapter
// of each kind: a recycled stream starts from a clean state.
func TestStreamReuse(t *testing.T) {
	one := `{"text":"A","output_ids":[1],"meta_info":{"finish_reason":{"type":"stop","matched":null},"completion_tokens":1}}`
	two := `{"index":1,"text":"B","output_ids":[2],"meta_info":{"finish_reason":{"type":"length"},"completion_tokens":1}}

data: {"index":0,"text":"C","output_ids":[3],"meta_info":{"finish_reason":{"type":"length"},"completion_tokens":1}}`
	var u *upstream
	u = newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		body := one
		if bytes.Contains(u.lastBody(), []byte(`"n":2`)) {
			body = two
		}
		sseHandler([]byte("data: "+body+"\n\ndata: [DONE]\n\n"))(w, r)
	})
	e := NewSGLang(SGLangConfig{Config: Config{BaseURL: u.URL}})
	for i := 0; i < 6; i++ {
		n := 1 + i%2
		st, err := e.Generate(ctxTimeout(t, 5*time.Second), &Request{Prompt: "p", MaxTokens: 5, N: n})
		require.NoError(t, err)
		got, err := drain(st)
		st.Close()
		require.NoError(t, err, "request %d", i)
		want := map[int]string{0: "A"}
		if n == 2 {
			want = map[int]string{0: "C", 1: "B"}
		}
		if d := cmp.Diff(want, got.text); d != "" {
			t.Errorf("request %d: %s", i, d)
		}
	}
}
