package openai_test

import (
	"testing"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	. "github.com/agentwire/agentwire/protocols/internal/testutil"
	"github.com/agentwire/agentwire/protocols/openai"
)

func TestAggregator(t *testing.T) {
	cfg := openai.AggregatorConfig{ID: "chatcmpl-1", Model: "m", Created: 5}
	usage := protocols.Usage{PromptTokens: 10, CompletionTokens: 4}
	cases := []struct {
		name  string
		cfg   openai.AggregatorConfig
		steps []Step
		want  string
	}{
		{"interleaved reasoning becomes aligned segments", cfg,
			[]Step{R("plan "), R("A"), C("Checking."), S(0, "call_a", "a"), A(0, `{"x":`), A(0, `1}`), E(0), R("plan B"), S(1, "call_b", "b"), A(1, "{}"), E(1), R("after"), F(protocols.FinishStop, usage)},
			`{"id":"chatcmpl-1","object":"chat.completion","created":5,"model":"m","system_fingerprint":null,"service_tier":null,"choices":[{"index":0,"message":{"role":"assistant","content":"Checking.","reasoning_content":["plan A","plan B","after"],"tool_calls":[{"id":"call_a","type":"function","function":{"name":"a","arguments":"{\"x\":1}"}},{"id":"call_b","type":"function","function":{"name":"b","arguments":"{}"}}]},"finish_reason":"tool_calls","logprobs":null}],"usage":{"prompt_tokens":10,"completion_tokens":4,"total_tokens":14}}`},
		{"plain answer: flat reasoning, null-free content", cfg,
			[]Step{R("think"), C("Hi"), F(protocols.FinishStop, usage)},
			`{"id":"chatcmpl-1","object":"chat.completion","created":5,"model":"m","system_fingerprint":null,"service_tier":null,"choices":[{"index":0,"message":{"role":"assistant","content":"Hi","reasoning_content":"think"},"finish_reason":"stop","logprobs":null}],"usage":{"prompt_tokens":10,"completion_tokens":4,"total_tokens":14}}`},
		{"abandoned call dropped, its reasoning kept; nothing else is null", cfg,
			[]Step{R("r1"), S(0, "c", "f"), A(0, `{"a`), X(0), R("r2"), F(protocols.FinishLength, usage)},
			`{"id":"chatcmpl-1","object":"chat.completion","created":5,"model":"m","system_fingerprint":null,"service_tier":null,"choices":[{"index":0,"message":{"role":"assistant","content":null,"reasoning_content":"r1r2"},"finish_reason":"length","logprobs":null}],"usage":{"prompt_tokens":10,"completion_tokens":4,"total_tokens":14}}`},
		{"force non-empty content", openai.AggregatorConfig{ID: "chatcmpl-1", Model: "m", Created: 5, ForceNonemptyContent: true},
			[]Step{R("only thoughts"), F(protocols.FinishStop, usage)},
			`{"id":"chatcmpl-1","object":"chat.completion","created":5,"model":"m","system_fingerprint":null,"service_tier":null,"choices":[{"index":0,"message":{"role":"assistant","content":"only thoughts","reasoning_content":null},"finish_reason":"stop","logprobs":null}],"usage":{"prompt_tokens":10,"completion_tokens":4,"total_tokens":14}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := openai.NewAggregator(tc.cfg)
			Run(a, tc.steps)
			got, err := jsonx.Marshal(a.Response())
			if err != nil {
				t.Fatal(err)
			}
			if d := JSONDiff(t, []byte(tc.want), got); d != "" {
				t.Errorf("(-want +got):\n%s\n%s", d, got)
			}
		})
	}
}
