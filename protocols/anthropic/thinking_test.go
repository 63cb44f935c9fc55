package anthropic_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/anthropic"
	. "github.com/agentwire/agentwire/protocols/internal/testutil"
)

func TestThinkingDisplayFor(t *testing.T) {
	for _, tc := range []struct {
		thinking string
		def      bool
		want     anthropic.ThinkingDisplay
	}{
		{``, false, anthropic.ThinkingHidden},
		{``, true, anthropic.ThinkingShown},
		{`,"thinking":{"type":"disabled"}`, true, anthropic.ThinkingHidden},
		{`,"thinking":{"type":"enabled","budget_tokens":1024}`, false, anthropic.ThinkingShown},
		{`,"thinking":{"type":"adaptive"}`, false, anthropic.ThinkingShown},
		{`,"thinking":{"type":"adaptive","display":"omitted"}`, false, anthropic.ThinkingOmitted},
	} {
		req, err := anthropic.DecodeMessagesRequest([]byte(`{"model":"m","max_tokens":1,"messages":[]`+tc.thinking+`}`), anthropic.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got := anthropic.ThinkingDisplayFor(req, tc.def); got != tc.want {
			t.Errorf("%s (default %v): %v, want %v", tc.thinking, tc.def, got, tc.want)
		}
		if anthropic.WantsThinking(req, tc.def) != (tc.want != anthropic.ThinkingHidden) {
			t.Errorf("%s: WantsThinking disagrees", tc.thinking)
		}
	}
}

func TestEmitterThinkingDisplay(t *testing.T) {
	script := []Step{R("plan "), R("A"), C("Hi."), S(0, "c", "f"), A(0, `{}`), E(0), F(protocols.FinishToolCalls, protocols.Usage{CompletionTokens: 9})}
	blocks := func(out []byte) []string {
		var got []string
		for _, f := range Frames(t, out) {
			switch f.Event {
			case "content_block_start", "content_block_delta":
				got = append(got, f.Data[strings.Index(f.Data, `"index"`):])
			}
		}
		return got
	}
	for name, tc := range map[string]struct {
		display anthropic.ThinkingDisplay
		want    []string
	}{
		"shown": {anthropic.ThinkingShown, []string{
			`"index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}`,
			`"index":0,"delta":{"type":"thinking_delta","thinking":"plan "}}`,
			`"index":0,"delta":{"type":"thinking_delta","thinking":"A"}}`,
			`"index":0,"delta":{"type":"signature_delta","signature":"erased"}}`,
			`"index":1,"content_block":{"type":"text","text":""}}`,
			`"index":1,"delta":{"type":"text_delta","text":"Hi."}}`,
		}},
		"omitted": {anthropic.ThinkingOmitted, []string{
			`"index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}`,
			`"index":0,"delta":{"type":"signature_delta","signature":"agentwire.thinking.v1:cGxhbiBB"}}`,
			`"index":1,"content_block":{"type":"text","text":""}}`,
			`"index":1,"delta":{"type":"text_delta","text":"Hi."}}`,
		}},
		"hidden": {anthropic.ThinkingHidden, []string{
			`"index":0,"content_block":{"type":"text","text":""}}`,
			`"index":0,"delta":{"type":"text_delta","text":"Hi."}}`,
		}},
	} {
		e := anthropic.NewEmitter(anthropic.EmitterConfig{Model: "m", Thinking: tc.display})
		out := Run(e, script)
		got := blocks(out)
		got = got[:len(tc.want)] // the tool_use block follows
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", name, d)
		}
		if !strings.Contains(string(out), `"output_tokens":9`) {
			t.Errorf("%s: usage lost:\n%s", name, out)
		}
	}
}
