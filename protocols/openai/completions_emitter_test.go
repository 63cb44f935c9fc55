package openai_test

import (
	"math"
	"testing"

	"github.com/agentwire/agentwire/protocols"
	. "github.com/agentwire/agentwire/protocols/internal/testutil"
	"github.com/agentwire/agentwire/protocols/openai"
)

var stepLogprobs = [][]protocols.Logprob{
	{{TokenID: 7, Token: []byte("Hi"), Logprob: -0.5, Top: []protocols.TopLogprob{{Token: []byte("Hi"), Logprob: -0.5}, {Token: []byte(`"<`), Logprob: -2}}}},
	{{Token: []byte("\xc3"), Logprob: math.Inf(-1)}},
}

// completionSteps drives a completions choice: logprobs carried by the
// step's text, logprobs of a step without text, text without logprobs, a
// length finish.
func completionSteps(e *openai.CompletionEmitter, dst []byte, u protocols.Usage) []byte {
	e.SetLogprobs(stepLogprobs[0])
	dst = e.Content(dst, []byte("Hi"))
	dst = e.FlushLogprobs(dst)
	e.SetLogprobs(stepLogprobs[1])
	dst = e.FlushLogprobs(dst)
	dst = e.Content(dst, []byte(" there"))
	dst = e.Reasoning(dst, []byte("ignored"))
	dst = e.FinishChoice(dst, protocols.FinishLength, []byte("ignored"), u)
	return e.Done(dst, u)
}

func TestCompletionEmitter(t *testing.T) {
	u := protocols.Usage{PromptTokens: 3, CompletionTokens: 2, CachedTokens: 1}
	cfg := openai.CompletionEmitterConfig{ID: "cmpl-1", Model: "m", Created: 5, ChoiceIndex: 1, IncludeUsage: true, Logprobs: true}
	const head = `{"id":"cmpl-1","object":"text_completion","created":5,"model":"m","choices":[{"index":1,`
	out := completionSteps(openai.NewCompletionEmitter(cfg), nil, u)
	CheckFrames(t, out, []Want{
		{"", head + `"text":"Hi","logprobs":{"tokens":["Hi"],"token_logprobs":[-0.5],"top_logprobs":[{"Hi":-0.5,"\"<":-2}],"text_offset":[0]},"finish_reason":null}],"usage":null}`},
		{"", head + `"text":"","logprobs":{"tokens":["\ufffd"],"token_logprobs":[-9999.0],"top_logprobs":[{}],"text_offset":[2]},"finish_reason":null}],"usage":null}`},
		{"", head + `"text":" there","logprobs":null,"finish_reason":null}],"usage":null}`},
		{"", head + `"text":"","logprobs":null,"finish_reason":"length"}],"usage":null}`},
		{"", `{"id":"cmpl-1","object":"text_completion","created":5,"model":"m","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5,"prompt_tokens_details":{"cached_tokens":1}}}`},
		{"", "[DONE]"},
	})

	// Aggregate mode writes nothing and collects the same choice.
	cfg.Aggregate = true
	e := openai.NewCompletionEmitter(cfg)
	if out := completionSteps(e, nil, u); len(out) != 0 {
		t.Errorf("aggregate mode wrote %q", out)
	}
	want := openai.CompletionChoice{Index: 1, Text: "Hi there", FinishReason: protocols.Some("length"),
		Logprobs: openai.RawJSON(`{"tokens":["Hi","\ufffd"],"token_logprobs":[-0.5,-9999.0],"top_logprobs":[{"Hi":-0.5,"\"<":-2},{}],"text_offset":[0,2]}`)}
	if d := JSONDiff(t, StdMarshal(t, want), StdMarshal(t, e.Choice())); d != "" {
		t.Errorf("Choice (-want +got):\n%s", d)
	}
	cfg.Logprobs = false
	e.Reset(cfg)
	if got := string(e.Choice().Logprobs); got != "null" {
		t.Errorf("logprobs without Logprobs: %s", got)
	}
}

func TestCompletionEmitterFail(t *testing.T) {
	e := openai.NewCompletionEmitter(openai.CompletionEmitterConfig{ID: "cmpl-1", Model: "m"})
	out := e.Content(nil, []byte("a"))
	out = e.FailError(out, &protocols.Error{Kind: protocols.ErrorOverloaded})
	out = e.Content(out, []byte("b"))
	out = e.FinishChoice(out, protocols.FinishStop, nil, protocols.Usage{})
	CheckFrames(t, out, []Want{
		{"", `{"id":"cmpl-1","object":"text_completion","created":0,"model":"m","choices":[{"index":0,"text":"a","logprobs":null,"finish_reason":null}]}`},
		{"error", `{"error":{"message":"The server is overloaded. Please retry later.","type":"server_error","param":null,"code":"server_is_overloaded"}}`},
	})
}

// TestChatLogprobs: the chat emitter writes a step's logprobs in a chunk of
// their own after the step's events; the aggregator collects them for the
// unary choice.
func TestChatLogprobs(t *testing.T) {
	cfg := openai.EmitterConfig{ID: "chatcmpl-1", Model: "m", Created: 5, IncludeUsage: true}
	e := openai.NewEmitter(cfg)
	e.SetLogprobs(stepLogprobs[0])
	out := e.Content(nil, []byte("Hi"))
	out = e.FlushLogprobs(out)
	out = e.FlushLogprobs(out) // nothing pending
	const head = `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":5,"model":"m","choices":[{"index":0,"delta":`
	CheckFrames(t, out, []Want{
		{"", head + `{"role":"assistant","content":"Hi"},"logprobs":null,"finish_reason":null}],"usage":null}`},
		{"", head + `{},"logprobs":{"content":[{"token":"Hi","logprob":-0.5,"bytes":[72,105],"top_logprobs":[{"token":"Hi","logprob":-0.5,"bytes":[72,105]},{"token":"\"<","logprob":-2,"bytes":[34,60]}]}]},"finish_reason":null}],"usage":null}`},
	})

	a := openai.NewAggregator(openai.AggregatorConfig{Logprobs: true})
	a.SetLogprobs(stepLogprobs[0])
	a.Content(nil, []byte("Hi"))
	a.ToolCallStart(nil, 0, []byte("call_1"), []byte("f"))
	a.ToolCallAbandoned(nil, 0)
	a.FinishChoice(nil, protocols.FinishStop, []byte("STOP"), protocols.Usage{})
	want := &openai.Logprobs{Content: []openai.TokenLogprob{{Token: "Hi", Logprob: -0.5, Bytes: []int{72, 105},
		TopLogprobs: []openai.TopLogprob{{Token: "Hi", Logprob: -0.5, Bytes: []int{72, 105}}, {Token: `"<`, Logprob: -2, Bytes: []int{34, 60}}}}}}
	if d := JSONDiff(t, StdMarshal(t, want), StdMarshal(t, a.Response().Choices[0].Logprobs)); d != "" {
		t.Errorf("unary logprobs (-want +got):\n%s", d)
	}
	if string(a.StopSequence()) != "STOP" || a.Abandoned() != 1 {
		t.Errorf("StopSequence %q, Abandoned %d", a.StopSequence(), a.Abandoned())
	}
	// Requested but none came: an empty list, not null.
	a = openai.NewAggregator(openai.AggregatorConfig{Logprobs: true})
	a.Finish(nil, protocols.FinishStop, protocols.Usage{})
	if lp := a.Response().Choices[0].Logprobs; lp == nil || lp.Content == nil || len(lp.Content) != 0 {
		t.Errorf("logprobs without any: %+v", lp)
	}
}

func TestCompletionEmitterAllocs(t *testing.T) {
	cfg := openai.CompletionEmitterConfig{ID: "cmpl-1", Model: "m", IncludeUsage: true, Logprobs: true}
	e := openai.NewCompletionEmitter(cfg)
	c := openai.NewEmitter(openai.EmitterConfig{ID: "chatcmpl-1", Model: "m", IncludeUsage: true})
	buf := make([]byte, 0, 16<<10)
	u := protocols.Usage{PromptTokens: 3, CompletionTokens: 2}
	stream := func() {
		e.Reset(cfg)
		buf = completionSteps(e, buf[:0], u)
		c.SetLogprobs(stepLogprobs[0])
		buf = c.Content(buf, []byte("Hi"))
		buf = c.FlushLogprobs(buf)
	}
	stream()
	if n := testing.AllocsPerRun(50, stream); n != 0 {
		t.Errorf("a warmed-up stream allocates %v times", n)
	}
}
