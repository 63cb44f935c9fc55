package pipeline

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentwire/agentwire/preprocess/api"
	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/agentwire/agentwire/protocols"
	"github.com/stretchr/testify/require"
)

// usageStreams are the engine streams with prefix-cache hits of the
// engine package's tests (see the README there).
const usageStreams = "../engine/testdata/usage"

// apiUsage is where an answer reports usage: the envelope's usage when the
// stream starts (Anthropic message_start; nil elsewhere) and the final
// usage (chat and completions usage chunk, Anthropic message_delta,
// Responses response.completed; the unary body's usage), flattened to
// "a.b" keys.
type apiUsage struct {
	Start map[string]float64
	Final map[string]float64
}

func flatten(prefix string, v any, out map[string]float64) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			flatten(prefix+k+".", x, out)
		}
	case float64:
		out[prefix[:len(prefix)-1]] = v
	}
}

func flat(v any) map[string]float64 {
	if v == nil {
		return nil
	}
	out := map[string]float64{}
	flatten("", v, out)
	return out
}

// usageOf reads the usage of an answer on api.
func usageOf(t *testing.T, a api.API, stream bool, body []byte) apiUsage {
	t.Helper()
	var u apiUsage
	if !stream {
		var m map[string]any
		require.NoError(t, json.Unmarshal(body, &m), "%s", body)
		u.Final = flat(m["usage"])
		return u
	}
	evs, err := splitSSE(body)
	require.NoError(t, err)
	for _, ev := range evs {
		if ev.Data == "[DONE]" {
			continue
		}
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(ev.Data), &m), "%s", ev.Data)
		switch {
		case a == api.Messages && ev.Event == "message_start":
			u.Start = flat(path(m, "message", "usage"))
		case a == api.Messages && ev.Event == "message_delta":
			u.Final = flat(m["usage"])
		case a == api.Responses && ev.Event == "response.completed":
			u.Final = flat(path(m, "response", "usage"))
		case (a == api.Chat || a == api.Completions) && m["usage"] != nil:
			u.Final = flat(m["usage"])
		}
	}
	return u
}

// wantUsage is what each API reports for a prompt of prompt tokens of
// which cached were cache hits and completion generated tokens, with
// start the prompt counts the stream starts with (Anthropic
// message_start).
func wantUsage(a api.API, stream bool, prompt, cached, completion, startPrompt, startCached float64) apiUsage {
	var u apiUsage
	switch a {
	case api.Chat, api.Completions:
		u.Final = map[string]float64{"prompt_tokens": prompt, "completion_tokens": completion,
			"total_tokens": prompt + completion, "prompt_tokens_details.cached_tokens": cached}
	case api.Messages:
		// Anthropic counts the cache reads apart: input_tokens is the rest.
		u.Final = map[string]float64{"input_tokens": prompt - cached, "cache_read_input_tokens": cached,
			"cache_creation_input_tokens": 0, "output_tokens": completion}
		if stream {
			u.Start = map[string]float64{"input_tokens": startPrompt - startCached, "cache_read_input_tokens": startCached,
				"cache_creation_input_tokens": 0, "output_tokens": 0}
		}
	case api.Responses:
		u.Final = map[string]float64{"input_tokens": prompt, "input_tokens_details.cached_tokens": cached,
			"output_tokens": completion, "total_tokens": prompt + completion}
	}
	return u
}

// ignoreDetails leaves out the usage members this test does not decide
// (reasoning tokens are the pipeline's estimate).
var ignoreDetails = cmp.FilterPath(func(p cmp.Path) bool {
	if mi, ok := p.Last().(cmp.MapIndex); ok {
		k := mi.Key().String()
		return k == "completion_tokens_details.reasoning_tokens" || k == "output_tokens_details.reasoning_tokens"
	}
	return false
}, cmp.Ignore())

// TestCachedTokensUsage serves the engines' streams with prefix-cache
// hits through their adapters on every API, streamed and unary, and
// checks each API's usage: chat and completions
// prompt_tokens_details.cached_tokens, Anthropic cache_read_input_tokens
// with input_tokens the uncached rest (in message_start when the engine
// reports the prompt with its first event, in message_delta always),
// Responses input_tokens_details.cached_tokens.
func TestCachedTokensUsage(t *testing.T) {
	cases := []struct {
		file                       string
		engine                     func(url string) engine.Engine
		prompt, cached, completion float64
		startPrompt, startCached   float64 // Anthropic message_start
	}{
		{file: "vllm-completions-turn2.sse", engine: func(u string) engine.Engine {
			return engine.NewVLLM(engine.VLLMConfig{Config: engine.Config{BaseURL: u}})
		}, prompt: 202, cached: 144, completion: 43, startPrompt: 12},
		{file: "sglang-generate-turn2.sse", engine: func(u string) engine.Engine {
			return engine.NewSGLang(engine.SGLangConfig{Config: engine.Config{BaseURL: u}})
		}, prompt: 202, cached: 153, completion: 43, startPrompt: 202, startCached: 153},
		{file: "sglang-completions-turn2.sse", engine: func(u string) engine.Engine {
			return engine.NewSGLangCompletions(engine.Config{BaseURL: u})
		}, prompt: 202, cached: 153, completion: 43, startPrompt: 12},
		{file: "trtllm-completions-turn2.sse", engine: func(u string) engine.Engine {
			return engine.NewTRTLLM(engine.TRTLLMConfig{Config: engine.Config{BaseURL: u}})
		}, prompt: 202, cached: 128, completion: 43, startPrompt: 12},
		{file: "vllm-chat-turn2.sse", engine: func(u string) engine.Engine {
			return engine.NewChat(engine.ChatConfig{Config: engine.Config{BaseURL: u}})
		}, prompt: 202, cached: 144, completion: 43, startPrompt: 12},
	}
	for _, tc := range cases {
		body, err := os.ReadFile(filepath.Join(usageStreams, tc.file))
		require.NoError(t, err)
		srv := httptest.NewServer(sseBody(body))
		t.Cleanup(srv.Close)
		eng := tc.engine(srv.URL + "/v1")
		for _, a := range allAPIs {
			for _, stream := range []bool{true, false} {
				prep := prepFor(a, stream, "hermes", "qwen3")
				prep.Engine.Chat = json.RawMessage(`{"messages":[{"role":"user","content":"say hello with the shell"}]}`)
				w := serve(t, eng, prep)
				require.Equal(t, 200, w.Code, "%s %s stream=%v: status %d: %s", tc.file, a, stream, w.Code, w.Body)
				got := usageOf(t, a, stream, w.Body.Bytes())
				want := wantUsage(a, stream, tc.prompt, tc.cached, tc.completion, tc.startPrompt, tc.startCached)
				if d := cmp.Diff(want, got, ignoreDetails); d != "" {
					t.Errorf("%s %s stream=%v (-want +got):\n%s", tc.file, a, stream, d)
				}
			}
		}
	}
}

// TestCachedTokensReplay: the replay engine with a prefix cache reports
// the second turn's cache hits on every API, in Anthropic's message_start
// as well as its message_delta.
func TestCachedTokensReplay(t *testing.T) {
	cache := engine.NewPrefixCache(engine.PrefixCacheConfig{})
	rec := engine.RecordText("agent", []string{"Hello", " world"}, engine.FinishEOS)
	eng := &engine.Replay{PrefixCache: cache, Select: func(*engine.Request) (engine.Source, error) { return rec, nil }}
	turn1 := make([]uint32, 300)
	for i := range turn1 {
		turn1[i] = uint32(i)
	}
	prep := prepFor(api.Chat, true, "hermes", "qwen3")
	prep.Engine.PromptIDs = turn1
	serve(t, eng, prep)
	k := uint32(0)
	for _, a := range allAPIs {
		for _, stream := range []bool{true, false} {
			// each a second turn of its own after turn 1
			k++
			prep := prepFor(a, stream, "hermes", "qwen3")
			prep.Engine.PromptIDs = append(append([]uint32{}, turn1...), 1000*k, 7, 8, 9, 10)
			w := serve(t, eng, prep)
			got := usageOf(t, a, stream, w.Body.Bytes())
			// 300 tokens = 18 whole 16-token blocks (288) in the cache
			want := wantUsage(a, stream, 305, 288, 2, 305, 288)
			if d := cmp.Diff(want, got, ignoreDetails); d != "" {
				t.Errorf("%s stream=%v (-want +got):\n%s", a, stream, d)
			}
		}
	}
}

// TestUsageAfterFinish: Serve reads the usage an engine sends after it
// finished every choice, waits for it at most Options.UsageWait (an
// engine that goes silent after its finish still gets a whole answer,
// with the pipeline's counts), and with a negative UsageWait does not read
// past the finish.
func TestUsageAfterFinish(t *testing.T) {
	outs := txtOuts(engine.FinishEOS, "Hello", " world")
	withUsage := append(outs[:len(outs):len(outs)], engine.Output{Usage: &engine.Usage{PromptTokens: 30, CompletionTokens: 2, CachedTokens: 16}})
	cases := []struct {
		name  string
		outs  []engine.Output
		block bool // the engine goes silent after outs
		wait  time.Duration
		usage string
	}{
		{name: "usage chunk", outs: withUsage, usage: `"usage":{"prompt_tokens":30,"completion_tokens":2,"total_tokens":32,"prompt_tokens_details":{"cached_tokens":16}}`},
		{name: "silent after the finish", outs: outs, block: true, wait: 50 * time.Millisecond,
			usage: `"usage":{"prompt_tokens":12,"completion_tokens":2,"total_tokens":14}`},
		{name: "not read past the finish", outs: withUsage, block: true, wait: -1,
			usage: `"usage":{"prompt_tokens":12,"completion_tokens":2,"total_tokens":14}`},
	}
	for _, tc := range cases {
		for _, stream := range []bool{true, false} {
			eng := newFake(tc.outs)
			eng.block = tc.block
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			w := httptest.NewRecorder()
			began := time.Now()
			err := ServeWith(ctx, w, eng, prepFor(api.Chat, stream, "", ""), Options{Now: fixedNow, UsageWait: tc.wait})
			took := time.Since(began)
			cancel()
			body := w.Body.String()
			require.False(t, err != nil, "%s stream=%v: %v %d:\n%s", tc.name, stream, err, w.Code, body)
			require.Equal(t, 200, w.Code, "%s stream=%v: %v %d:\n%s", tc.name, stream, err, w.Code, body)
			require.Contains(t, body, tc.usage, "%s stream=%v: %v %d:\n%s", tc.name, stream, err, w.Code, body)
			require.Contains(t, body, " world", "%s stream=%v: %v %d:\n%s", tc.name, stream, err, w.Code, body)
			require.LessOrEqual(t, took, 2*time.Second, "%s stream=%v: took %v", tc.name, stream, took)
			require.Equal(t, 1, eng.closed, "%s stream=%v: engine stream closed %d times", tc.name, stream, eng.closed)
		}
	}
}

// TestTrace: Options.Trace sees every engine output Serve reads and, once,
// the usage the answer reports (streamed and unary, on every API); a
// request refused before the engine is asked reports none.
func TestTrace(t *testing.T) {
	outs := []engine.Output{
		{Reasoning: []byte("Let me think.")},
		{Text: []byte("Hello"), HasText: true},
		{Text: []byte(" there"), HasText: true, Finish: engine.FinishStop},
		{Usage: &engine.Usage{PromptTokens: 12, CompletionTokens: 5, CachedTokens: 4}},
	}
	for _, a := range allAPIs {
		for _, stream := range []bool{false, true} {
			var got []protocols.Usage
			outputs := 0
			trace := &Trace{Output: func(*engine.Output) { outputs++ }, Usage: func(u protocols.Usage) { got = append(got, u) }}
			prep := prepFor(a, stream, "", "")
			prep.Stream = stream
			w := httptest.NewRecorder()
			require.NoError(t, ServeWith(context.Background(), w, newFake(outs), prep, Options{Now: fixedNow, Seed: 7, Trace: trace}))
			want := protocols.Usage{PromptTokens: 12, CompletionTokens: 5, CachedTokens: 4}
			if len(got) == 1 {
				want.ReasoningTokens = got[0].ReasoningTokens // the pipeline's estimate
			}
			if outputs != len(outs) || !cmp.Equal(got, []protocols.Usage{want}) {
				t.Errorf("%s stream=%v: %d outputs, usage %+v; want %d, %+v", a, stream, outputs, got, len(outs), want)
			}
			if d := cmp.Diff(wantUsage(a, stream, 12, 4, 5, 0, 0).Final, usageOf(t, a, stream, w.Body.Bytes()).Final, ignoreDetails); d != "" {
				t.Errorf("%s stream=%v: the answer's usage (-want +got):\n%s", a, stream, d)
			}
		}
	}
	var calls int
	prep := prepFor(api.Chat, false, "", "")
	prep.Engine.N = engine.MaxChoices + 1
	_ = ServeWith(context.Background(), httptest.NewRecorder(), newFake(outs), prep, Options{Trace: &Trace{Usage: func(protocols.Usage) { calls++ }}})
	require.Equal(t, 0, calls, "usage reported %d times for a refused request", calls)
}
