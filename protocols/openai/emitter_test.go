package openai_test

import (
	"testing"

	"github.com/agentwire/agentwire/protocols"
	. "github.com/agentwire/agentwire/protocols/internal/testutil"
	"github.com/agentwire/agentwire/protocols/openai"
)

func chunk(cfg openai.EmitterConfig, d openai.Delta, finish string) openai.ChatChunk {
	c := openai.ChatChunk{
		ID: cfg.ID, Object: openai.ObjectChatCompletionChunk, Created: cfg.Created, Model: cfg.Model,
		Choices: []openai.ChunkChoice{{Index: cfg.ChoiceIndex, Delta: d}},
	}
	if finish != "" {
		c.Choices[0].FinishReason = protocols.Some(finish)
	} else {
		c.Choices[0].FinishReason = protocols.Null[string]()
	}
	if cfg.IncludeUsage {
		c.Usage = protocols.Null[openai.Usage]()
	}
	return c
}

func usageChunk(cfg openai.EmitterConfig, u protocols.Usage) openai.ChatChunk {
	return openai.ChatChunk{
		ID: cfg.ID, Object: openai.ObjectChatCompletionChunk, Created: cfg.Created, Model: cfg.Model,
		Choices: []openai.ChunkChoice{}, Usage: protocols.Some(openai.UsageFrom(u)),
	}
}

func str(s string) protocols.Opt[string] { return protocols.Some(s) }

func TestEmitter(t *testing.T) {
	base := openai.EmitterConfig{ID: "chatcmpl-abc", Model: "Qwen/Qwen3-32B", Created: 1767225600}
	withUsage := base
	withUsage.IncludeUsage = true
	usage := protocols.Usage{PromptTokens: 120, CompletionTokens: 42, CachedTokens: 96, ReasoningTokens: 30}
	tricky := "<b>\"q\" & \\ \n\t\u2028 é 🚀 \x01"

	cases := []struct {
		name  string
		cfg   openai.EmitterConfig
		steps []Step
		want  []Want
	}{
		{
			name:  "reasoning then content",
			cfg:   base,
			steps: []Step{R("Let me"), R(" think."), C("Hello"), C(tricky), F(protocols.FinishStop, usage)},
			want: []Want{
				{"", chunk(base, openai.Delta{Role: "assistant", ReasoningContent: str("Let me")}, "")},
				{"", chunk(base, openai.Delta{ReasoningContent: str(" think.")}, "")},
				{"", chunk(base, openai.Delta{Content: str("Hello")}, "")},
				{"", chunk(base, openai.Delta{Content: str(tricky)}, "")},
				{"", chunk(base, openai.Delta{}, "stop")},
				{"", "[DONE]"},
			},
		},
		{
			name: "streamed tool call rewrites stop and writes usage chunk",
			cfg:  withUsage,
			steps: []Step{
				R("Need weather."), S(0, "call_1", "get_weather"), A(0, `{"location": `), A(0, `"NYC"}`), E(0),
				S(1, "call_2", "get_time"), A(1, `{}`), E(1), F(protocols.FinishStop, usage),
			},
			want: []Want{
				{"", chunk(withUsage, openai.Delta{Role: "assistant", ReasoningContent: str("Need weather.")}, "")},
				{"", chunk(withUsage, openai.Delta{ToolCalls: []openai.ToolCallDelta{{Index: 0, ID: "call_1", Type: "function", Function: &openai.FunctionDelta{Name: "get_weather", Arguments: str("")}}}}, "")},
				{"", chunk(withUsage, openai.Delta{ToolCalls: []openai.ToolCallDelta{{Index: 0, Function: &openai.FunctionDelta{Arguments: str(`{"location": `)}}}}, "")},
				{"", chunk(withUsage, openai.Delta{ToolCalls: []openai.ToolCallDelta{{Index: 0, Function: &openai.FunctionDelta{Arguments: str(`"NYC"}`)}}}}, "")},
				{"", chunk(withUsage, openai.Delta{ToolCalls: []openai.ToolCallDelta{{Index: 1, ID: "call_2", Type: "function", Function: &openai.FunctionDelta{Name: "get_time", Arguments: str("")}}}}, "")},
				{"", chunk(withUsage, openai.Delta{ToolCalls: []openai.ToolCallDelta{{Index: 1, Function: &openai.FunctionDelta{Arguments: str(`{}`)}}}}, "")},
				{"", chunk(withUsage, openai.Delta{}, "tool_calls")},
				{"", usageChunk(withUsage, usage)},
				{"", "[DONE]"},
			},
		},
		{
			name:  "length keeps length even with a completed call",
			cfg:   base,
			steps: []Step{S(0, "call_1", "f"), A(0, "{}"), E(0), S(1, "call_2", "g"), A(1, `{"a":`), X(1), F(protocols.FinishLength, usage)},
			want: []Want{
				{"", chunk(base, openai.Delta{Role: "assistant", ToolCalls: []openai.ToolCallDelta{{Index: 0, ID: "call_1", Type: "function", Function: &openai.FunctionDelta{Name: "f", Arguments: str("")}}}}, "")},
				{"", chunk(base, openai.Delta{ToolCalls: []openai.ToolCallDelta{{Index: 0, Function: &openai.FunctionDelta{Arguments: str("{}")}}}}, "")},
				{"", chunk(base, openai.Delta{ToolCalls: []openai.ToolCallDelta{{Index: 1, ID: "call_2", Type: "function", Function: &openai.FunctionDelta{Name: "g", Arguments: str("")}}}}, "")},
				{"", chunk(base, openai.Delta{ToolCalls: []openai.ToolCallDelta{{Index: 1, Function: &openai.FunctionDelta{Arguments: str(`{"a":`)}}}}, "")},
				{"", chunk(base, openai.Delta{}, "length")},
				{"", "[DONE]"},
			},
		},
		{
			name:  "abandoned only call finishes stop",
			cfg:   base,
			steps: []Step{C("x"), S(0, "call_1", "f"), A(0, `{"a`), X(0), F(protocols.FinishStop, usage)},
			want: []Want{
				{"", chunk(base, openai.Delta{Role: "assistant", Content: str("x")}, "")},
				{"", chunk(base, openai.Delta{ToolCalls: []openai.ToolCallDelta{{Index: 0, ID: "call_1", Type: "function", Function: &openai.FunctionDelta{Name: "f", Arguments: str("")}}}}, "")},
				{"", chunk(base, openai.Delta{ToolCalls: []openai.ToolCallDelta{{Index: 0, Function: &openai.FunctionDelta{Arguments: str(`{"a`)}}}}, "")},
				{"", chunk(base, openai.Delta{}, "stop")},
				{"", "[DONE]"},
			},
		},
		{
			name:  "empty output synthesises a terminal chunk with role",
			cfg:   withUsage,
			steps: []Step{C(""), F(protocols.FinishStop, protocols.Usage{PromptTokens: 5})},
			want: []Want{
				{"", chunk(withUsage, openai.Delta{Role: "assistant"}, "stop")},
				{"", usageChunk(withUsage, protocols.Usage{PromptTokens: 5})},
				{"", "[DONE]"},
			},
		},
		{
			name: "whole calls with dispatch side channels",
			cfg: func() openai.EmitterConfig {
				c := base
				c.WholeCalls, c.ToolCallDispatch, c.ReasoningDispatch = true, true, true
				return c
			}(),
			steps: []Step{R("plan "), R("A"), S(0, "call_9", "bash"), A(0, `{"cmd":`), A(0, `"ls"}`), E(0), R("then B"), C("done"), F(protocols.FinishStop, usage)},
			want: func() []Want {
				c := base
				c.WholeCalls, c.ToolCallDispatch, c.ReasoningDispatch = true, true, true
				call := openai.ToolCallDispatchCall{Index: 0, ID: "call_9", Type: "function", Function: openai.FunctionCall{Name: "bash", Arguments: `{"cmd":"ls"}`}}
				return []Want{
					{"", chunk(c, openai.Delta{Role: "assistant", ReasoningContent: str("plan ")}, "")},
					{"", chunk(c, openai.Delta{ReasoningContent: str("A")}, "")},
					{"reasoning_dispatch", openai.ReasoningDispatch{Index: 0, ReasoningContent: "plan A"}},
					{"tool_call_dispatch", openai.ToolCallDispatch{ChoiceIndex: 0, ToolCall: call}},
					{"", chunk(c, openai.Delta{ToolCalls: []openai.ToolCallDelta{{Index: 0, ID: "call_9", Type: "function", Function: &openai.FunctionDelta{Name: "bash", Arguments: str(`{"cmd":"ls"}`)}}}}, "")},
					{"", chunk(c, openai.Delta{ReasoningContent: str("then B")}, "")},
					{"reasoning_dispatch", openai.ReasoningDispatch{Index: 0, ReasoningContent: "then B"}},
					{"", chunk(c, openai.Delta{Content: str("done")}, "")},
					{"", chunk(c, openai.Delta{}, "tool_calls")},
					{"", "[DONE]"},
				}
			}(),
		},
		{
			name:  "error after start",
			cfg:   base,
			steps: []Step{C("partial"), Err("engine died"), C("ignored"), F(protocols.FinishStop, usage)},
			want: []Want{
				{"", chunk(base, openai.Delta{Role: "assistant", Content: str("partial")}, "")},
				{"error", openai.ErrorResponse{Error: openai.ErrorObject{Message: "engine died", Type: "server_error"}}},
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := openai.NewEmitter(tc.cfg)
			out := Run(e, tc.steps)
			CheckFrames(t, out, tc.want)
			// Reset and replay: same bytes.
			e.Reset(tc.cfg)
			if again := Run(e, tc.steps); string(again) != string(out) {
				t.Errorf("output after Reset differs")
			}
		})
	}
}

func TestEmitterContinuousUsage(t *testing.T) {
	cfg := openai.EmitterConfig{ID: "chatcmpl-1", Model: "m", Created: 1, ContinuousUsage: true}
	e := openai.NewEmitter(cfg)
	e.SetUsage(protocols.Usage{PromptTokens: 3, CompletionTokens: 1})
	out := e.Content(nil, []byte("a"))
	out = e.Finish(out, protocols.FinishStop, protocols.Usage{PromptTokens: 3, CompletionTokens: 2})
	c := chunk(cfg, openai.Delta{Role: "assistant", Content: str("a")}, "")
	c.Usage = protocols.Some(openai.UsageFrom(protocols.Usage{PromptTokens: 3, CompletionTokens: 1}))
	f := chunk(cfg, openai.Delta{}, "stop")
	f.Usage = protocols.Some(openai.UsageFrom(protocols.Usage{PromptTokens: 3, CompletionTokens: 2}))
	CheckFrames(t, out, []Want{{"", c}, {"", f}, {"", usageChunk(cfg, protocols.Usage{PromptTokens: 3, CompletionTokens: 2})}, {"", "[DONE]"}})
}

func TestEmitterZeroAllocs(t *testing.T) {
	cfg := openai.EmitterConfig{ID: "chatcmpl-1", Model: "m", Created: 1, IncludeUsage: true, ToolCallDispatch: true, ReasoningDispatch: true}
	e := openai.NewEmitter(cfg)
	buf := make([]byte, 0, 64<<10)
	text := []byte("some <text> \"here\"\n")
	id, name := []byte("call_0123"), []byte("get_weather")
	stream := func() {
		e.Reset(cfg)
		buf = buf[:0]
		buf = e.Reasoning(buf, text)
		buf = e.Content(buf, text)
		buf = e.ToolCallStart(buf, 0, id, name)
		buf = e.ToolCallArgs(buf, 0, []byte(`{"a":1}`))
		buf = e.ToolCallEnd(buf, 0)
		buf = e.Finish(buf, protocols.FinishStop, protocols.Usage{PromptTokens: 1, CompletionTokens: 2, CachedTokens: 1})
	}
	stream() // warm-up
	if n := testing.AllocsPerRun(50, stream); n != 0 {
		t.Errorf("a warmed-up stream allocates %v times", n)
	}
}
