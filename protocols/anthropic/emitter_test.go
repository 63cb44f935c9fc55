package anthropic_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/anthropic"
	. "github.com/agentwire/agentwire/protocols/internal/testutil"
)

var toolIDRe = regexp.MustCompile(`"id":"(toolu_[0-9a-f]{32})"`)

func start(cfg anthropic.EmitterConfig) anthropic.MessageStartEvent {
	return anthropic.MessageStartEvent{Message: anthropic.Response{
		ID: cfg.MessageID, Role: "assistant", Model: cfg.Model, Content: []anthropic.ContentBlock{},
		StopReason: protocols.Null[string](), StopSequence: protocols.Null[string](),
		Usage: anthropic.UsageFrom(protocols.Usage{PromptTokens: cfg.InputTokens, CachedTokens: cfg.CachedTokens}),
	}}
}

func blockStart(i int, b anthropic.ContentBlock) anthropic.ContentBlockStartEvent {
	return anthropic.ContentBlockStartEvent{Index: i, ContentBlock: b}
}

func delta(i int, d anthropic.Delta) anthropic.ContentBlockDeltaEvent {
	return anthropic.ContentBlockDeltaEvent{Index: i, Delta: d}
}

func stop(i int) anthropic.ContentBlockStopEvent { return anthropic.ContentBlockStopEvent{Index: i} }

func msgDelta(reason, seq string, u protocols.Usage) anthropic.MessageDeltaEvent {
	ev := anthropic.MessageDeltaEvent{Delta: anthropic.MessageDelta{StopReason: protocols.Some(reason), StopSequence: protocols.Null[string]()}, Usage: anthropic.UsageFrom(u)}
	if seq != "" {
		ev.Delta.StopSequence = protocols.Some(seq)
	}
	return ev
}

var (
	thinkingStart = anthropic.ContentBlock{OfThinking: &anthropic.ThinkingBlock{}}
	textStart     = anthropic.ContentBlock{OfText: &anthropic.TextBlock{}}
	signature     = anthropic.Delta{Type: anthropic.DeltaSignature, Signature: "erased"}
)

func toolStart(id, name string) anthropic.ContentBlock {
	return anthropic.ContentBlock{OfToolUse: &anthropic.ToolUseBlock{ID: id, Name: name, Input: anthropic.RawJSON("{}")}}
}

func thinking(s string) anthropic.Delta {
	return anthropic.Delta{Type: anthropic.DeltaThinking, Thinking: s}
}
func text(s string) anthropic.Delta { return anthropic.Delta{Type: anthropic.DeltaText, Text: s} }
func input(s string) anthropic.Delta {
	return anthropic.Delta{Type: anthropic.DeltaInputJSON, PartialJSON: s}
}

func TestEmitter(t *testing.T) {
	cfg := anthropic.EmitterConfig{MessageID: "msg_4b7c", Model: "Qwen/Qwen3-32B", InputTokens: 120, CachedTokens: 96}
	usage := protocols.Usage{PromptTokens: 120, CompletionTokens: 42, CachedTokens: 96}
	tricky := "<b>\"q\" & \\ \n\t\u2028 é 🚀 \x01"
	cases := []struct {
		name  string
		cfg   anthropic.EmitterConfig
		steps []Step
		want  func(ids []string) []Want
	}{
		{
			name: "thinking, text, two tool calls",
			cfg:  cfg,
			steps: []Step{R("The user"), R(" wants weather."), C("Let me check."), C(tricky),
				S(0, "call_a", "get_weather"), A(0, `{"location": "NY`), A(0, `C"}`), E(0),
				S(1, "call_b", "get_time"), A(1, `{}`), E(1), F(protocols.FinishStop, usage)},
			want: func(ids []string) []Want {
				return []Want{
					{"message_start", start(cfg)},
					{"content_block_start", blockStart(0, thinkingStart)},
					{"content_block_delta", delta(0, thinking("The user"))},
					{"content_block_delta", delta(0, thinking(" wants weather."))},
					{"content_block_delta", delta(0, signature)},
					{"content_block_stop", stop(0)},
					{"content_block_start", blockStart(1, textStart)},
					{"content_block_delta", delta(1, text("Let me check."))},
					{"content_block_delta", delta(1, text(tricky))},
					{"content_block_stop", stop(1)},
					{"content_block_start", blockStart(2, toolStart(ids[0], "get_weather"))},
					{"content_block_delta", delta(2, input(`{"location": "NY`))},
					{"content_block_delta", delta(2, input(`C"}`))},
					{"content_block_stop", stop(2)},
					{"content_block_start", blockStart(3, toolStart(ids[1], "get_time"))},
					{"content_block_delta", delta(3, input(`{}`))},
					{"content_block_stop", stop(3)},
					{"message_delta", msgDelta("tool_use", "", usage)},
					{"message_stop", anthropic.MessageStopEvent{}},
				}
			},
		},
		{
			name:  "interleaved thinking opens a new block; text after a call opens a new text block",
			cfg:   cfg,
			steps: []Step{R("plan A"), S(0, "x", "a"), A(0, "{}"), E(0), R("plan B"), C("done"), F(protocols.FinishStop, usage)},
			want: func(ids []string) []Want {
				return []Want{
					{"message_start", start(cfg)},
					{"content_block_start", blockStart(0, thinkingStart)},
					{"content_block_delta", delta(0, thinking("plan A"))},
					{"content_block_delta", delta(0, signature)},
					{"content_block_stop", stop(0)},
					{"content_block_start", blockStart(1, toolStart(ids[0], "a"))},
					{"content_block_delta", delta(1, input("{}"))},
					{"content_block_stop", stop(1)},
					{"content_block_start", blockStart(2, thinkingStart)},
					{"content_block_delta", delta(2, thinking("plan B"))},
					{"content_block_delta", delta(2, signature)},
					{"content_block_stop", stop(2)},
					{"content_block_start", blockStart(3, textStart)},
					{"content_block_delta", delta(3, text("done"))},
					{"content_block_stop", stop(3)},
					{"message_delta", msgDelta("tool_use", "", usage)},
					{"message_stop", anthropic.MessageStopEvent{}},
				}
			},
		},
		{
			name:  "abandoned call ends max_tokens",
			cfg:   cfg,
			steps: []Step{S(0, "x", "write"), A(0, `{"path":`), X(0), F(protocols.FinishStop, usage)},
			want: func(ids []string) []Want {
				return []Want{
					{"message_start", start(cfg)},
					{"content_block_start", blockStart(0, toolStart(ids[0], "write"))},
					{"content_block_delta", delta(0, input(`{"path":`))},
					{"content_block_stop", stop(0)},
					{"message_delta", msgDelta("max_tokens", "", usage)},
					{"message_stop", anthropic.MessageStopEvent{}},
				}
			},
		},
		{
			name:  "empty output writes one empty text block; content_filter is refusal",
			cfg:   cfg,
			steps: []Step{F(protocols.FinishContentFilter, usage)},
			want: func(ids []string) []Want {
				return []Want{
					{"message_start", start(cfg)},
					{"content_block_start", blockStart(0, textStart)},
					{"content_block_stop", stop(0)},
					{"message_delta", msgDelta("refusal", "", usage)},
					{"message_stop", anthropic.MessageStopEvent{}},
				}
			},
		},
		{
			name: "disable_parallel_tool_use shows only the first call",
			cfg: func() anthropic.EmitterConfig {
				c := cfg
				c.DisableParallelToolUse, c.Ping = true, true
				return c
			}(),
			steps: []Step{S(0, "x", "a"), A(0, "{}"), E(0), S(1, "y", "b"), A(1, "{}"), E(1), F(protocols.FinishLength, usage)},
			want: func(ids []string) []Want {
				return []Want{
					{"message_start", start(cfg)},
					{"ping", anthropic.PingEvent{}},
					{"content_block_start", blockStart(0, toolStart(ids[0], "a"))},
					{"content_block_delta", delta(0, input("{}"))},
					{"content_block_stop", stop(0)},
					{"message_delta", msgDelta("max_tokens", "", usage)},
					{"message_stop", anthropic.MessageStopEvent{}},
				}
			},
		},
		{
			name:  "backend error",
			cfg:   cfg,
			steps: []Step{C("partial"), Err(anthropic.MessageInternalError), F(protocols.FinishStop, usage)},
			want: func(ids []string) []Want {
				return []Want{
					{"message_start", start(cfg)},
					{"content_block_start", blockStart(0, textStart)},
					{"content_block_delta", delta(0, text("partial"))},
					{"error", anthropic.ErrorEvent{Error: anthropic.ErrorObject{Type: "api_error", Message: anthropic.MessageInternalError}}},
				}
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := anthropic.NewEmitter(tc.cfg)
			out := Run(e, tc.steps)
			var ids []string
			for _, m := range toolIDRe.FindAllSubmatch(out, -1) {
				ids = append(ids, string(m[1]))
			}
			if len(ids) == 2 && ids[0] == ids[1] {
				t.Errorf("tool ids not unique: %v", ids)
			}
			CheckFrames(t, out, tc.want(append(ids, "", "")))
		})
	}
}

func TestEmitterStopSequence(t *testing.T) {
	cfg := anthropic.EmitterConfig{MessageID: "msg_1", Model: "m", InputTokens: 10}
	e := anthropic.NewEmitter(cfg)
	out := e.Content(nil, []byte("line one\n"))
	e.SetStopSequence([]byte("###END"))
	out = e.Finish(out, protocols.FinishStop, protocols.Usage{CompletionTokens: 3})
	CheckFrames(t, out, []Want{
		{"message_start", start(cfg)},
		{"content_block_start", blockStart(0, textStart)},
		{"content_block_delta", delta(0, text("line one\n"))},
		{"content_block_stop", stop(0)},
		{"message_delta", msgDelta("stop_sequence", "###END", protocols.Usage{PromptTokens: 10, CompletionTokens: 3})},
		{"message_stop", anthropic.MessageStopEvent{}},
	})
}

// TestEmitterSetInputUsage: the prompt counts set before message_start
// are the ones it reports (input_tokens the uncached rest); set after it,
// they only fill a final usage without prompt tokens.
func TestEmitterSetInputUsage(t *testing.T) {
	cfg := anthropic.EmitterConfig{MessageID: "msg_1", Model: "m", InputTokens: 12}
	e := anthropic.NewEmitter(cfg)
	e.SetInputUsage(202, 153)
	out := e.Content(nil, []byte("a"))
	e.SetInputUsage(300, 200)
	out = e.Finish(out, protocols.FinishStop, protocols.Usage{CompletionTokens: 3})
	started := cfg
	started.InputTokens, started.CachedTokens = 202, 153
	CheckFrames(t, out, []Want{
		{"message_start", start(started)},
		{"content_block_start", blockStart(0, textStart)},
		{"content_block_delta", delta(0, text("a"))},
		{"content_block_stop", stop(0)},
		{"message_delta", msgDelta("end_turn", "", protocols.Usage{PromptTokens: 300, CachedTokens: 200, CompletionTokens: 3})},
		{"message_stop", anthropic.MessageStopEvent{}},
	})
	if u := start(started).Message.Usage; u.InputTokens != 49 || u.CacheReadInputTokens != 153 {
		t.Errorf("message_start usage %+v, want input 49 + cache read 153", u)
	}
}

func TestEmitterDeltaUsage(t *testing.T) {
	cfg := anthropic.EmitterConfig{MessageID: "msg_1", Model: "m", InputTokens: 10, CachedTokens: 4, DeltaUsage: true}
	e := anthropic.NewEmitter(cfg)
	out := e.Content(nil, []byte("a"))
	out = e.Content(out, []byte("b"))
	d := func(n int64, s string) anthropic.ContentBlockDeltaEvent {
		ev := delta(0, text(s))
		ev.Usage = &anthropic.DeltaUsage{InputTokens: 6, CacheReadInputTokens: 4, OutputTokens: n, TotalTokens: 10 + n}
		return ev
	}
	CheckFrames(t, out, []Want{
		{"message_start", start(cfg)},
		{"content_block_start", blockStart(0, textStart)},
		{"content_block_delta", d(1, "a")},
		{"content_block_delta", d(2, "b")},
	})
}

func TestEmitterZeroAllocs(t *testing.T) {
	cfg := anthropic.EmitterConfig{MessageID: "msg_1", Model: "m", InputTokens: 10}
	e := anthropic.NewEmitter(cfg)
	buf := make([]byte, 0, 64<<10)
	text := []byte("some <text> \"here\"\n")
	stream := func() {
		e.Reset(cfg)
		buf = buf[:0]
		buf = e.Reasoning(buf, text)
		buf = e.Content(buf, text)
		buf = e.ToolCallStart(buf, 0, []byte("call_1"), []byte("get_weather"))
		buf = e.ToolCallArgs(buf, 0, []byte(`{"a":1}`))
		buf = e.ToolCallEnd(buf, 0)
		buf = e.Finish(buf, protocols.FinishStop, protocols.Usage{PromptTokens: 1, CompletionTokens: 2})
	}
	stream()
	if n := testing.AllocsPerRun(50, stream); n != 0 {
		t.Errorf("a warmed-up stream allocates %v times", n)
	}
	cfg.MessageID = ""
	stream()
	if n := testing.AllocsPerRun(50, stream); n != 0 {
		t.Errorf("a warmed-up stream with a minted message id allocates %v times", n)
	}
}

// TestEmitterToolUseID: ToolUseID is the id the tool_use block was opened
// with, and nil for a call the emitter did not show.
func TestEmitterToolUseID(t *testing.T) {
	e := anthropic.NewEmitter(anthropic.EmitterConfig{MessageID: "msg_1", Model: "m", DisableParallelToolUse: true})
	buf := e.ToolCallStart(nil, 0, []byte("call_1"), []byte("get_weather"))
	id := string(e.ToolUseID())
	if !strings.HasPrefix(id, "toolu_") || !strings.Contains(string(buf), `"id":"`+id+`"`) {
		t.Fatalf("ToolUseID %q, stream %s", id, buf)
	}
	buf = e.ToolCallEnd(buf, 0)
	_ = e.ToolCallStart(buf, 1, []byte("call_2"), []byte("get_weather"))
	if got := e.ToolUseID(); len(got) != 0 {
		t.Errorf("a suppressed parallel call has id %q", got)
	}
}
