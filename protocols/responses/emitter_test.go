package responses_test

import (
	"regexp"
	"testing"
	"time"

	"github.com/agentwire/agentwire/protocols"
	. "github.com/agentwire/agentwire/protocols/internal/testutil"
	"github.com/agentwire/agentwire/protocols/responses"
)

var itemIDRe = regexp.MustCompile(`output_item\.added","sequence_number":\d+,"output_index":\d+,"item":\{"type":"[a-z_]+","id":"((?:rs|msg|fc)_[0-9a-f]{32})"`)

type seqCounter struct{ n int64 }

func (s *seqCounter) next() int64 { s.n++; return s.n - 1 }

func TestEmitter(t *testing.T) {
	clock := func() time.Time { return time.Unix(1767225603, 0) }
	req := &responses.Request{Model: "openai/gpt-oss-120b", Reasoning: protocols.Some(responses.Reasoning{Effort: "medium", Summary: "auto"})}
	env := responses.ResponseFrom(req)
	env.ID = "resp_6f0e"
	env.CreatedAt = 1767225600
	usage := protocols.Usage{PromptTokens: 120, CompletionTokens: 42, CachedTokens: 96, ReasoningTokens: 30}
	tricky := "<b>\"q\" & \\ \n\t\u2028 é 🚀 \x01"

	for _, summary := range []bool{false, true} {
		name := "raw reasoning"
		if summary {
			name = "with summary"
		}
		t.Run(name, func(t *testing.T) {
			e := responses.NewEmitter(responses.EmitterConfig{Response: env, Summary: summary, Now: clock})
			out := Run(e, []Step{R("Need "), R("weather."), C("Let me check."), C(tricky),
				S(0, "call_9b2e", "get_weather"), A(0, `{"location":`), A(0, `"NYC"}`), E(0),
				F(protocols.FinishStop, usage)})
			var ids []string
			for _, m := range itemIDRe.FindAllSubmatch(out, -1) {
				ids = append(ids, string(m[1]))
			}
			if len(ids) != 3 {
				t.Fatalf("item ids %v in\n%s", ids, out)
			}
			rs, msg, fc := ids[0], ids[1], ids[2]
			var s seqCounter
			inProgress := env
			inProgress.Status, inProgress.Output = "in_progress", []responses.Item{}
			reasoning := "Need weather."
			text := "Let me check." + tricky
			rsDone := &responses.ReasoningItem{ID: rs, Summary: []responses.ContentPart{}, Content: protocols.Some([]responses.ContentPart{{Type: "reasoning_text", Text: reasoning}})}
			if summary {
				rsDone = &responses.ReasoningItem{ID: rs, Summary: []responses.ContentPart{{Type: "summary_text", Text: reasoning}}}
			}
			msgDone := &responses.MessageItem{ID: msg, Role: "assistant", Status: "completed", Content: protocols.Array(responses.ContentPart{Type: "output_text", Text: text})}
			fcDone := &responses.FunctionCallItem{ID: fc, CallID: "call_9b2e", Name: "get_weather", Arguments: `{"location":"NYC"}`, Status: "completed"}
			completed := env
			completed.Status = "completed"
			completed.CompletedAt = protocols.Some(int64(1767225603))
			completed.Output = []responses.Item{{OfReasoning: rsDone}, {OfMessage: msgDone}, {OfFunctionCall: fcDone}}
			completed.Usage = protocols.Some(responses.UsageFrom(usage))

			want := []Want{
				{"response.created", responses.ResponseEvent{Type: "response.created", SequenceNumber: s.next(), Response: inProgress}},
				{"response.in_progress", responses.ResponseEvent{Type: "response.in_progress", SequenceNumber: s.next(), Response: inProgress}},
			}
			// Reasoning on exactly one channel: summary events with a
			// summary, else reasoning_text events (never both).
			if summary {
				want = append(want,
					Want{"response.output_item.added", responses.OutputItemEvent{Type: "response.output_item.added", SequenceNumber: s.next(), OutputIndex: 0,
						Item: responses.Item{OfReasoning: &responses.ReasoningItem{ID: rs, Summary: []responses.ContentPart{}}}}},
					Want{"response.reasoning_summary_part.added", responses.SummaryPartEvent{Type: "response.reasoning_summary_part.added", SequenceNumber: s.next(), ItemID: rs, Part: responses.ContentPart{Type: "summary_text"}}})
				for _, d := range []string{"Need ", "weather."} {
					want = append(want, Want{"response.reasoning_summary_text.delta", responses.SummaryTextEvent{Type: "response.reasoning_summary_text.delta", SequenceNumber: s.next(), ItemID: rs, Delta: d}})
				}
				want = append(want,
					Want{"response.reasoning_summary_text.done", responses.SummaryTextEvent{Type: "response.reasoning_summary_text.done", SequenceNumber: s.next(), ItemID: rs, Text: reasoning}},
					Want{"response.reasoning_summary_part.done", responses.SummaryPartEvent{Type: "response.reasoning_summary_part.done", SequenceNumber: s.next(), ItemID: rs, Part: responses.ContentPart{Type: "summary_text", Text: reasoning}}})
			} else {
				want = append(want,
					Want{"response.output_item.added", responses.OutputItemEvent{Type: "response.output_item.added", SequenceNumber: s.next(), OutputIndex: 0,
						Item: responses.Item{OfReasoning: &responses.ReasoningItem{ID: rs, Summary: []responses.ContentPart{}, Content: protocols.Some([]responses.ContentPart{})}}}},
					Want{"response.content_part.added", responses.ContentPartEvent{Type: "response.content_part.added", SequenceNumber: s.next(), ItemID: rs, Part: responses.ContentPart{Type: "reasoning_text"}}})
				for _, d := range []string{"Need ", "weather."} {
					want = append(want, Want{"response.reasoning_text.delta", responses.TextDeltaEvent{Type: "response.reasoning_text.delta", SequenceNumber: s.next(), ItemID: rs, Delta: d}})
				}
				want = append(want,
					Want{"response.reasoning_text.done", responses.TextDoneEvent{Type: "response.reasoning_text.done", SequenceNumber: s.next(), ItemID: rs, Text: reasoning}},
					Want{"response.content_part.done", responses.ContentPartEvent{Type: "response.content_part.done", SequenceNumber: s.next(), ItemID: rs, Part: responses.ContentPart{Type: "reasoning_text", Text: reasoning}}})
			}
			want = append(want,
				Want{"response.output_item.done", responses.OutputItemEvent{Type: "response.output_item.done", SequenceNumber: s.next(), OutputIndex: 0, Item: responses.Item{OfReasoning: rsDone}}},
				Want{"response.output_item.added", responses.OutputItemEvent{Type: "response.output_item.added", SequenceNumber: s.next(), OutputIndex: 1,
					Item: responses.Item{OfMessage: &responses.MessageItem{ID: msg, Role: "assistant", Status: "in_progress", Content: protocols.Array[responses.ContentPart]()}}}},
				Want{"response.content_part.added", responses.ContentPartEvent{Type: "response.content_part.added", SequenceNumber: s.next(), ItemID: msg, OutputIndex: 1,
					Part: responses.ContentPart{Type: "output_text", Logprobs: []responses.RawJSON{}}}},
				Want{"response.output_text.delta", responses.TextDeltaEvent{Type: "response.output_text.delta", SequenceNumber: s.next(), ItemID: msg, OutputIndex: 1, Delta: "Let me check."}},
				Want{"response.output_text.delta", responses.TextDeltaEvent{Type: "response.output_text.delta", SequenceNumber: s.next(), ItemID: msg, OutputIndex: 1, Delta: tricky}},
				Want{"response.output_text.done", responses.TextDoneEvent{Type: "response.output_text.done", SequenceNumber: s.next(), ItemID: msg, OutputIndex: 1, Text: text}},
				Want{"response.content_part.done", responses.ContentPartEvent{Type: "response.content_part.done", SequenceNumber: s.next(), ItemID: msg, OutputIndex: 1,
					Part: responses.ContentPart{Type: "output_text", Text: text, Logprobs: []responses.RawJSON{}}}},
				Want{"response.output_item.done", responses.OutputItemEvent{Type: "response.output_item.done", SequenceNumber: s.next(), OutputIndex: 1, Item: responses.Item{OfMessage: msgDone}}},
				Want{"response.output_item.added", responses.OutputItemEvent{Type: "response.output_item.added", SequenceNumber: s.next(), OutputIndex: 2,
					Item: responses.Item{OfFunctionCall: &responses.FunctionCallItem{ID: fc, CallID: "call_9b2e", Name: "get_weather", Status: "in_progress"}}}},
				Want{"response.function_call_arguments.delta", responses.ArgumentsDeltaEvent{Type: "response.function_call_arguments.delta", SequenceNumber: s.next(), ItemID: fc, OutputIndex: 2, Delta: `{"location":`}},
				Want{"response.function_call_arguments.delta", responses.ArgumentsDeltaEvent{Type: "response.function_call_arguments.delta", SequenceNumber: s.next(), ItemID: fc, OutputIndex: 2, Delta: `"NYC"}`}},
				Want{"response.function_call_arguments.done", responses.ArgumentsDoneEvent{Type: "response.function_call_arguments.done", SequenceNumber: s.next(), ItemID: fc, OutputIndex: 2, Name: "get_weather", Arguments: `{"location":"NYC"}`}},
				Want{"response.output_item.done", responses.OutputItemEvent{Type: "response.output_item.done", SequenceNumber: s.next(), OutputIndex: 2, Item: responses.Item{OfFunctionCall: fcDone}}},
				Want{"response.completed", responses.ResponseEvent{Type: "response.completed", SequenceNumber: s.next(), Response: completed}},
			)
			CheckFrames(t, out, want)
		})
	}
}

func TestEmitterIncompleteAndFailed(t *testing.T) {
	clock := func() time.Time { return time.Unix(10, 0) }
	env := responses.ResponseFrom(&responses.Request{Model: "m"})
	env.ID, env.CreatedAt = "resp_1", 5

	e := responses.NewEmitter(responses.EmitterConfig{Response: env, Now: clock, Done: true})
	out := Run(e, []Step{S(0, "call_1", "write"), A(0, `{"path":`), X(0), F(protocols.FinishStop, protocols.Usage{})})
	frames := Frames(t, out)
	last := frames[len(frames)-2]
	if last.Event != "response.incomplete" || frames[len(frames)-1].Data != "[DONE]" {
		t.Fatalf("last frames %+v", frames[len(frames)-2:])
	}
	ev, err := responses.DecodeStreamEvent([]byte(last.Data))
	if err != nil {
		t.Fatal(err)
	}
	r := ev.(*responses.ResponseEvent).Response
	if r.Status != "incomplete" || r.IncompleteDetails.Value().Reason != "max_output_tokens" || r.Output[0].OfFunctionCall.Status != "incomplete" {
		t.Errorf("incomplete response %+v", r)
	}
	for i, f := range frames[:len(frames)-1] {
		ev, err := responses.DecodeStreamEvent([]byte(f.Data))
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if ev.Sequence() != int64(i) || ev.EventType() != f.Event {
			t.Errorf("frame %d: sequence %d type %s (event %s)", i, ev.Sequence(), ev.EventType(), f.Event)
		}
	}

	e.Reset(responses.EmitterConfig{Response: env, Now: clock})
	out = Run(e, []Step{C("par"), Err("boom")})
	frames = Frames(t, out)
	ev, err = responses.DecodeStreamEvent([]byte(frames[len(frames)-1].Data))
	if err != nil {
		t.Fatal(err)
	}
	r = ev.(*responses.ResponseEvent).Response
	if ev.EventType() != "response.failed" || r.Status != "failed" || r.Error.Value().Message != "boom" {
		t.Errorf("failed response %+v", r)
	}
}

func TestEmitterZeroAllocsPerToken(t *testing.T) {
	env := responses.ResponseFrom(&responses.Request{Model: "m"})
	e := responses.NewEmitter(responses.EmitterConfig{Response: env, Summary: true})
	buf := make([]byte, 0, 64<<10)
	text := []byte("some <text> \"here\"\n")
	buf = e.Start(buf)
	buf = e.Reasoning(buf, text)
	buf = e.Content(buf, text)
	buf = e.ToolCallStart(buf, 0, []byte("call_1"), []byte("f"))
	buf = e.ToolCallArgs(buf, 0, text)
	for name, f := range map[string]func(){
		"args": func() { buf = e.ToolCallArgs(buf[:0], 0, text) },
	} {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: %v allocs per event", name, n)
		}
	}
	e.Reset(responses.EmitterConfig{Response: env})
	buf = e.Start(buf[:0])
	buf = e.Content(buf, text)
	if n := testing.AllocsPerRun(100, func() { buf = e.Content(buf[:0], text) }); n != 0 {
		t.Errorf("content: %v allocs per event", n)
	}
	for _, summary := range []bool{false, true} { // either reasoning channel
		e.Reset(responses.EmitterConfig{Response: env, Summary: summary})
		buf = e.Start(buf[:0])
		buf = e.Reasoning(buf, text)
		if n := testing.AllocsPerRun(100, func() { buf = e.Reasoning(buf[:0], text) }); n != 0 {
			t.Errorf("reasoning (summary %v): %v allocs per event", summary, n)
		}
	}
	// a custom tool's input, decoded from its arguments as they stream
	e.Reset(responses.EmitterConfig{Response: env, Tools: responses.ToolRoutes{"apply_patch": {Namespace: "ns", Custom: true}}})
	buf = e.Start(buf[:0])
	buf = e.ToolCallStart(buf, 0, []byte("call_1"), []byte("apply_patch"))
	buf = e.ToolCallArgs(buf, 0, []byte(`{"input":"`))
	escaped := []byte(`some \"quoted\" <text> \u00e9\n`)
	buf = e.ToolCallArgs(buf, 0, escaped)
	if n := testing.AllocsPerRun(100, func() { buf = e.ToolCallArgs(buf[:0], 0, escaped) }); n != 0 {
		t.Errorf("custom input: %v allocs per event", n)
	}
}

func TestEmitterReasoningPassback(t *testing.T) {
	env := responses.ResponseFrom(&responses.Request{Model: "m"})
	e := responses.NewEmitter(responses.EmitterConfig{Response: env, ReasoningPassback: true})
	out := Run(e, []Step{R("a \"quoted\"\nthought"), C("hi"), F(protocols.FinishStop, protocols.Usage{})})
	found := 0
	for _, f := range Frames(t, out) {
		if f.Event != "response.output_item.done" && f.Event != "response.completed" {
			continue
		}
		ev, err := responses.DecodeStreamEvent([]byte(f.Data))
		if err != nil {
			t.Fatal(err)
		}
		var items []responses.Item
		switch v := ev.(type) {
		case *responses.OutputItemEvent:
			items = []responses.Item{v.Item}
			// the hand-written item equals the typed one
			if d := JSONDiff(t, []byte(f.Data), StdMarshal(t, v)); d != "" {
				t.Errorf("item event differs from its typed encoding:\n%s", d)
			}
		case *responses.ResponseEvent:
			items = v.Response.Output
		}
		for _, it := range items {
			if r := it.OfReasoning; r != nil {
				text, ok := responses.DecodeReasoning(r.EncryptedContent.Value())
				if !ok || text != "a \"quoted\"\nthought" {
					t.Errorf("encrypted_content %q → %q %v", r.EncryptedContent.Value(), text, ok)
				}
				found++
			}
		}
	}
	if found != 2 {
		t.Errorf("reasoning items with encrypted_content: %d, want 2 (item done, completed)", found)
	}
}
