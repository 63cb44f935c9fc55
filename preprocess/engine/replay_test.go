package engine

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

func replayOf(rec *Recording) *Replay {
	return &Replay{Select: func(*Request) (Source, error) { return rec, nil }}
}

// TestReplayCaptures replays every capture and checks the content,
// reasoning and tool calls come out as recorded.
func TestReplayCaptures(t *testing.T) {
	recs := recordings(t)
	require.GreaterOrEqual(t, len(recs), 40, "only %d captures loaded", len(recs))
	for _, name := range Names(recs) {
		rec := recs[name]
		t.Run(name, func(t *testing.T) {
			st, err := replayOf(rec).Generate(context.Background(), &Request{Model: "m", MaxTokens: 1 << 20})
			require.NoError(t, err)
			defer st.Close()
			got, err := drain(st)
			require.NoError(t, err)
			var wantReasoning strings.Builder
			var wantCalls []ToolCallDelta
			for _, s := range rec.Steps {
				wantReasoning.Write(s.Reasoning)
				wantCalls = append(wantCalls, s.ToolCalls...)
			}
			require.Equal(t, rec.Text(), got.text[0], "text %q reasoning %q", got.text[0], got.reasoning[0])
			require.Equal(t, wantReasoning.String(), got.reasoning[0], "text %q reasoning %q", got.text[0], got.reasoning[0])
			if d := cmp.Diff(wantCalls, got.calls[0]); d != "" {
				t.Errorf("tool calls: %s", d)
			}
			require.NotEqual(t, FinishNone, got.finish[0], "finish %v usage %v", got.finish[0], got.usage)
			require.NotNil(t, got.usage, "finish %v usage %v", got.finish[0], got.usage)
		})
	}
}

// TestRecordingFormats checks what the loaders read from each format.
func TestRecordingFormats(t *testing.T) {
	recs := recordings(t)
	cases := []struct {
		name      string
		text      string
		reasoning string
		calls     int
		finish    Finish
		usage     *Usage
	}{
		{name: "replays/agent-harness/text.sse", text: "Pong.", finish: FinishEOS, usage: &Usage{PromptTokens: 5, CompletionTokens: 2}},
		{name: "replays/agent-harness/thinking-tool.sse", text: "I will list it.", reasoning: "I should inspect the directory.", calls: 1, finish: FinishStop},
		{name: "replays/harness/claude_code__tool_use.chunks.jsonl", text: "Looking up the weather.", calls: 3, finish: FinishStop},
		{name: "replays/harness/claude_code__multiturn.chunks.jsonl", text: "Paris is 14°C and clear.", finish: FinishEOS},
		{name: "replays/tool-calling-cpu-e2e/nemotron-nano-required-guided.json", finish: FinishEOS},
		{name: "vllm/qwen3-0.6B/chat_completion_stream_finish_length.json", text: "<think>\nOkay, the user is asking for the weather in", finish: FinishLength},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := recs[tc.name]
			require.NotNil(t, rec, "not loaded")
			var reasoning strings.Builder
			calls := 0
			var usage *Usage
			for _, s := range rec.Steps {
				reasoning.Write(s.Reasoning)
				calls += len(s.ToolCalls)
				if s.Usage != nil {
					usage = s.Usage
				}
			}
			require.False(t, tc.text != "" && rec.Text() != tc.text, "text %q reasoning %q calls %d", rec.Text(), reasoning.String(), calls)
			require.Equal(t, tc.reasoning, reasoning.String(), "text %q reasoning %q calls %d", rec.Text(), reasoning.String(), calls)
			require.Equal(t, tc.calls, calls, "text %q reasoning %q calls %d", rec.Text(), reasoning.String(), calls)
			f := rec.Steps[len(rec.Steps)-1].Finish
			require.Equal(t, tc.finish, f, "finish %v, want %v", f, tc.finish)
			require.False(t, tc.usage != nil && (usage == nil || usage.PromptTokens != tc.usage.PromptTokens || usage.CompletionTokens != tc.usage.CompletionTokens), "usage %+v", usage)
		})
	}
	for _, in := range []string{`["a","b"]`, `[1,2,3]`} {
		r, err := ParseRecording("x", []byte(in))
		require.NoError(t, err, "%s: %v %+v", in, err, r)
		require.NotEmpty(t, r.Steps, "%s: %v %+v", in, err, r)
		require.Equal(t, FinishEOS, r.Steps[len(r.Steps)-1].Finish, "%s: %v %+v", in, err, r)
	}
	for _, in := range []string{``, `{}`, `[{"x":1}]`, "data: [DONE]\n", `not json`} {
		_, err := ParseRecording("x", []byte(in))
		require.Error(t, err, "%q: no error", in)
	}
}

// TestReplayLimits covers the engine behaviour the replay imitates:
// stop strings (split across steps, hidden and visible, min_tokens),
// max_tokens, stop token ids, n > 1 and counted usage.
func TestReplayLimits(t *testing.T) {
	text := RecordText("t", []string{"line one", "\n##", "#END", " tail"}, FinishEOS)
	ids := RecordTokens("ids", []uint32{5, 6, 7, 2, 9}, FinishEOS)
	cases := []struct {
		name   string
		rec    *Recording
		req    Request
		text   map[int]string
		ids    []uint32
		finish Finish
		stop   string
		usage  Usage
	}{
		{name: "no limits", rec: text, req: Request{MaxTokens: 100, PromptIDs: []uint32{1, 2}},
			text: map[int]string{0: "line one\n###END tail"}, finish: FinishEOS, usage: Usage{PromptTokens: 2, CompletionTokens: 4}},
		{name: "hidden stop split", rec: text, req: Request{MaxTokens: 100, Stop: Stop{Strings: []string{"###END"}}},
			text: map[int]string{0: "line one\n"}, finish: FinishStop, stop: "###END", usage: Usage{CompletionTokens: 3}},
		{name: "visible stop", rec: text, req: Request{MaxTokens: 100, Stop: Stop{Strings: []string{"#E", "###END"}, IncludeStrings: true}},
			text: map[int]string{0: "line one\n###END"}, finish: FinishStop, stop: "###END", usage: Usage{CompletionTokens: 3}},
		{name: "held prefix flushed", rec: text, req: Request{MaxTokens: 100, Stop: Stop{Strings: []string{" tails"}}},
			text: map[int]string{0: "line one\n###END tail"}, finish: FinishEOS, usage: Usage{CompletionTokens: 4}},
		{name: "min tokens", rec: text, req: Request{MaxTokens: 100, MinTokens: 3, Stop: Stop{Strings: []string{"one", "tail"}}},
			text: map[int]string{0: "line one\n###END "}, finish: FinishStop, stop: "tail", usage: Usage{CompletionTokens: 4}},
		{name: "max tokens", rec: text, req: Request{MaxTokens: 2},
			text: map[int]string{0: "line one\n##"}, finish: FinishLength, usage: Usage{CompletionTokens: 2}},
		{name: "n=2", rec: text, req: Request{MaxTokens: 100, N: 2},
			text: map[int]string{0: "line one\n###END tail", 1: "line one\n###END tail"}, finish: FinishEOS, usage: Usage{CompletionTokens: 8}},
		{name: "stop id", rec: ids, req: Request{MaxTokens: 100, Stop: Stop{HiddenIDs: []uint32{2}}},
			ids: []uint32{5, 6, 7, 2}, finish: FinishStop, usage: Usage{CompletionTokens: 4}},
		{name: "ids max tokens", rec: ids, req: Request{MaxTokens: 3, Stop: Stop{HiddenIDs: []uint32{2}}},
			ids: []uint32{5, 6, 7}, finish: FinishLength, usage: Usage{CompletionTokens: 3}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st, err := replayOf(tc.rec).Generate(context.Background(), &tc.req)
			require.NoError(t, err)
			got, err := drain(st)
			st.Close()
			require.NoError(t, err)
			if tc.text != nil {
				if d := cmp.Diff(tc.text, got.text); d != "" {
					t.Errorf("text: %s", d)
				}
			}
			if tc.ids != nil {
				if d := cmp.Diff(tc.ids, got.ids[0]); d != "" {
					t.Errorf("ids: %s", d)
				}
			}
			for i, f := range got.finish {
				require.Equal(t, tc.finish, f, "choice %d finish %v, want %v", i, f, tc.finish)
			}
			require.Equal(t, tc.stop, got.stop[0], "stop %q, want %q", got.stop[0], tc.stop)
			require.NotNil(t, got.usage, "usage %+v, want %+v", got.usage, tc.usage)
			require.False(t, *got.usage != tc.usage, "usage %+v, want %+v", got.usage, tc.usage)
		})
	}
}

// TestReplayPacingCancel checks pacing and that canceling the context
// stops a paced replay at once with ErrorCanceled.
func TestReplayPacingCancel(t *testing.T) {
	defer checkGoroutines(t)()
	rec := RecordText("slow", strings.Split(strings.Repeat("x", 50), ""), FinishEOS)
	e := &Replay{Select: func(*Request) (Source, error) { return rec, nil }, PerToken: 20 * time.Millisecond}
	ctx, cancel := context.WithCancel(context.Background())
	st, err := e.Generate(ctx, &Request{MaxTokens: 100})
	require.NoError(t, err)
	start := time.Now()
	for i := 0; i < 3; i++ {
		if _, err := st.Next(); err != nil {
			t.Fatal(err)
		}
	}
	el := time.Since(start)
	require.GreaterOrEqual(t, el, 40*time.Millisecond, "3 paced steps took %v", el)
	go func() { time.Sleep(5 * time.Millisecond); cancel() }()
	_, err = st.Next()
	require.Equal(t, int(ErrorCanceled), errKind(err), "after cancel: %v", err)
	require.ErrorIs(t, err, context.Canceled, "after cancel: %v", err)
	st.Close()
	st.Close()
}

// TestReplaySelect checks selection errors.
func TestReplaySelect(t *testing.T) {
	e := &Replay{Select: func(r *Request) (Source, error) {
		switch r.Model {
		case "scripted":
			return SourceFunc(func(r *Request) (*Recording, error) {
				return RecordText("s", []string{"echo: ", r.Prompt}, FinishEOS), nil
			}), nil
		case "full":
			return nil, &Error{Kind: ErrorOverloaded, Message: "busy"}
		}
		return nil, errors.New("unknown model " + r.Model)
	}}
	st, err := e.Generate(context.Background(), &Request{Model: "scripted", Prompt: "hi", MaxTokens: 10})
	require.NoError(t, err)
	got, _ := drain(st)
	st.Close()
	require.Equal(t, "echo: hi", got.text[0], "scripted: %q", got.text[0])
	if _, err := e.Generate(context.Background(), &Request{Model: "full"}); errKind(err) != int(ErrorOverloaded) {
		t.Errorf("full: %v", err)
	}
	if _, err := e.Generate(context.Background(), &Request{Model: "x"}); errKind(err) != int(ErrorBadRequest) {
		t.Errorf("unknown: %v", err)
	}
	if _, err := e.Generate(context.Background(), &Request{Model: "scripted", N: MaxChoices + 1}); errKind(err) != int(ErrorBadRequest) {
		t.Errorf("n too large: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Generate(ctx, &Request{Model: "scripted"}); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: %v", err)
	}
}
