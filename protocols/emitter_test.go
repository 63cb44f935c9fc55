package protocols_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/agentwire/agentwire/protocols/openai"
	"github.com/agentwire/agentwire/protocols/responses"
)

// emitters returns one fresh emitter of every implementation.
func emitters() map[string]protocols.Emitter {
	ids := protocols.NewSeededIDSource(1)
	return map[string]protocols.Emitter{
		"chat":        openai.NewEmitter(openai.EmitterConfig{ID: "chatcmpl-1", Model: "m", IncludeUsage: true}),
		"completions": openai.NewCompletionEmitter(openai.CompletionEmitterConfig{ID: "cmpl-1", Model: "m", IncludeUsage: true}),
		"aggregator":  openai.NewAggregator(openai.AggregatorConfig{ID: "chatcmpl-1", Model: "m"}),
		"messages":    anthropic.NewEmitter(anthropic.EmitterConfig{Model: "m", IDs: ids}),
		"responses":   responses.NewEmitter(responses.EmitterConfig{IDs: ids, Now: func() time.Time { return time.Unix(1700000000, 0) }}),
	}
}

// TestEmitterEnd: Finish is FinishChoice followed by Done, and every
// method called after the end, or after a failure, appends nothing.
func TestEmitterEnd(t *testing.T) {
	u := protocols.Usage{PromptTokens: 4, CompletionTokens: 2}
	after := func(e protocols.Emitter, dst []byte) []byte {
		e.SetUsage(u)
		e.SetLogprobs([]protocols.Logprob{{Token: []byte("x")}})
		dst = e.Start(dst)
		dst = e.Content(dst, []byte("late"))
		dst = e.Reasoning(dst, []byte("late"))
		dst = e.ToolCallStart(dst, 5, []byte("call_9"), []byte("f"))
		dst = e.ToolCallArgs(dst, 5, []byte("{}"))
		dst = e.ToolCallEnd(dst, 5)
		dst = e.FlushLogprobs(dst)
		dst = e.FinishChoice(dst, protocols.FinishStop, nil, u)
		dst = e.Fail(dst, "late")
		return e.FailError(dst, &protocols.Error{Kind: protocols.ErrorUpstream})
	}
	for name, e := range emitters() {
		one := e.Finish(e.Content(nil, []byte("hi")), protocols.FinishStop, u)
		if got := after(e, nil); len(got) != 0 {
			t.Errorf("%s: after Finish: %q", name, got)
		}
		e2 := emitters()[name]
		two := e2.FinishChoice(e2.Content(nil, []byte("hi")), protocols.FinishStop, nil, u)
		two = e2.Done(two, u)
		if !bytes.Equal(one, two) {
			t.Errorf("%s: Finish wrote\n%s\nFinishChoice + Done wrote\n%s", name, one, two)
		}
		e3 := emitters()[name]
		e3.FailError(e3.Content(nil, []byte("hi")), &protocols.Error{Kind: protocols.ErrorOverloaded})
		if got := after(e3, nil); len(got) != 0 {
			t.Errorf("%s: after FailError: %q", name, got)
		}
	}
}

// TestEmitterStopSequence: FinishChoice hands the matched stop sequence to
// the APIs that report it (Anthropic stop_sequence); the others ignore it.
func TestEmitterStopSequence(t *testing.T) {
	for name, e := range emitters() {
		out := string(e.FinishChoice(e.Content(nil, []byte("hi")), protocols.FinishStopSequence, []byte("END"), protocols.Usage{}))
		reported := bytes.Contains([]byte(out), []byte(`"stop_sequence":"END"`))
		if reported != (name == "messages") {
			t.Errorf("%s: stop sequence reported %v:\n%s", name, reported, out)
		}
	}
}

// TestEmitterStartUsage: SetUsage before Start gives Anthropic's
// message_start the prompt counts known when generation starts.
func TestEmitterStartUsage(t *testing.T) {
	e := emitters()["messages"]
	e.SetUsage(protocols.Usage{PromptTokens: 30, CachedTokens: 16})
	out := e.Start(nil)
	if !bytes.Contains(out, []byte(`"input_tokens":14,"output_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":16`)) {
		t.Errorf("message_start:\n%s", out)
	}
	if again := e.Start(nil); len(again) != 0 {
		t.Errorf("second Start: %q", again)
	}
}
