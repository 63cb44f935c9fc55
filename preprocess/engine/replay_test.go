package engine

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func replayOf(rec *Recording) *Replay {
	return &Replay{Select: func(*Request) (Source, error) { return rec, nil }}
}

// TestReplayCaptures replays every capture and checks the content,
// reasoning and tool calls come out as recorded.
func TestReplayCaptures(t *testing.T) {
	recs := recordings(t)
	if len(recs) < 40 {
		t.Fatalf("only %d captures loaded", len(recs))
	}
	for _, name := range Names(recs) {
		rec := recs[name]
		t.Run(name, func(t *testing.T) {
			st, err := replayOf(rec).Generate(context.Background(), &Request{Model: "m", MaxTokens: 1 << 20})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			got, err := drain(st)
			if err != nil {
				t.Fatal(err)
			}
			var wantReasoning strings.Builder
			var wantCalls []ToolCallDelta
			for _, s := range rec.Steps {
				wantReasoning.Write(s.Reasoning)
				wantCalls = append(wantCalls, s.ToolCalls...)
			}
			if got.text[0] != rec.Text() || got.reasoning[0] != wantReasoning.String() {
				t.Errorf("text %q reasoning %q", got.text[0], got.reasoning[0])
			}
			if d := cmp.Diff(wantCalls, got.calls[0]); d != "" {
				t.Errorf("tool calls: %s", d)
			}
			if got.finish[0] == FinishNone || got.usage == nil {
				t.Errorf("finish %v usage %v", got.finish[0], got.usage)
			}
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
			if rec == nil {
				t.Fatal("not loaded")
			}
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
			if tc.text != "" && rec.Text() != tc.text || reasoning.String() != tc.reasoning || calls != tc.calls {
				t.Errorf("text %q reasoning %q calls %d", rec.Text(), reasoning.String(), calls)
			}
			if f := rec.Steps[len(rec.Steps)-1].Finish; f != tc.finish {
				t.Errorf("finish %v, want %v", f, tc.finish)
			}
			if tc.usage != nil && (usage == nil || usage.PromptTokens != tc.usage.PromptTokens || usage.CompletionTokens != tc.usage.CompletionTokens) {
				t.Errorf("usage %+v", usage)
			}
		})
	}
	for _, in := range []string{`["a","b"]`, `[1,2,3]`} {
		r, err := ParseRecording("x", []byte(in))
		if err != nil || len(r.Steps) == 0 || r.Steps[len(r.Steps)-1].Finish != FinishEOS {
			t.Errorf("%s: %v %+v", in, err, r)
		}
	}
	for _, in := range []string{``, `{}`, `[{"x":1}]`, "data: [DONE]\n", `not json`} {
		if _, err := ParseRecording("x", []byte(in)); err == nil {
			t.Errorf("%q: no error", in)
		}
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
			if err != nil {
				t.Fatal(err)
			}
			got, err := drain(st)
			st.Close()
			if err != nil {
				t.Fatal(err)
			}
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
				if f != tc.finish {
					t.Errorf("choice %d finish %v, want %v", i, f, tc.finish)
				}
			}
			if got.stop[0] != tc.stop {
				t.Errorf("stop %q, want %q", got.stop[0], tc.stop)
			}
			if got.usage == nil || *got.usage != tc.usage {
				t.Errorf("usage %+v, want %+v", got.usage, tc.usage)
			}
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
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for i := 0; i < 3; i++ {
		if _, err := st.Next(); err != nil {
			t.Fatal(err)
		}
	}
	if el := time.Since(start); el < 40*time.Millisecond {
		t.Errorf("3 paced steps took %v", el)
	}
	go func() { time.Sleep(5 * time.Millisecond); cancel() }()
	_, err = st.Next()
	if errKind(err) != int(ErrorCanceled) || !errors.Is(err, context.Canceled) {
		t.Errorf("after cancel: %v", err)
	}
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
	if err != nil {
		t.Fatal(err)
	}
	got, _ := drain(st)
	st.Close()
	if got.text[0] != "echo: hi" {
		t.Errorf("scripted: %q", got.text[0])
	}
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
