package sdktest

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	aoption "github.com/anthropics/anthropic-sdk-go/option"
	"github.com/google/go-cmp/cmp"
	openaisdk "github.com/openai/openai-go/v3"
	ooption "github.com/openai/openai-go/v3/option"
	oresponses "github.com/openai/openai-go/v3/responses"

	"github.com/agentwire/agentwire/protocols"
	awanthropic "github.com/agentwire/agentwire/protocols/anthropic"
	awopenai "github.com/agentwire/agentwire/protocols/openai"
	awresponses "github.com/agentwire/agentwire/protocols/responses"
)

// event is one neutral emitter input.
type event func(e protocols.Emitter, dst []byte) []byte

func reasoning(s string) event {
	return func(e protocols.Emitter, dst []byte) []byte { return e.Reasoning(dst, []byte(s)) }
}
func content(s string) event {
	return func(e protocols.Emitter, dst []byte) []byte { return e.Content(dst, []byte(s)) }
}
func start(i int, id, name string) event {
	return func(e protocols.Emitter, dst []byte) []byte { return e.ToolCallStart(dst, i, []byte(id), []byte(name)) }
}
func args(i int, frag string) event {
	return func(e protocols.Emitter, dst []byte) []byte { return e.ToolCallArgs(dst, i, []byte(frag)) }
}
func end(i int) event {
	return func(e protocols.Emitter, dst []byte) []byte { return e.ToolCallEnd(dst, i) }
}
func finish(r protocols.FinishReason, u protocols.Usage) event {
	return func(e protocols.Emitter, dst []byte) []byte { return e.Finish(dst, r, u) }
}

// serve answers every request with the emitter's output for script,
// flushing after each event as a real server would. It records the request
// body.
func serve(t *testing.T, newEmitter func() protocols.Emitter, script []event, body *[]byte) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if body != nil {
			b := make([]byte, r.ContentLength)
			_, _ = r.Body.Read(b)
			*body = b
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		e := newEmitter()
		buf := make([]byte, 0, 4096)
		for _, ev := range script {
			buf = ev(e, buf[:0])
			_, _ = w.Write(buf)
			w.(http.Flusher).Flush()
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

var usage = protocols.Usage{PromptTokens: 120, CompletionTokens: 42, CachedTokens: 96, ReasoningTokens: 12}

// A turn with reasoning, text, and two tool calls whose arguments arrive in
// awkward fragments (split inside strings, escapes and multi-byte runes).
var toolTurn = []event{
	reasoning("The user wants "), reasoning("the weather in NYC."),
	content("Let me check "), content("<that> & \"more\" é🚀"),
	start(0, "call_a1", "get_weather"), args(0, `{"location": "N`), args(0, `YC", "unit": "c\u00`), args(0, `b0", "days": [1, 2]}`), end(0),
	start(1, "call_b2", "get_time"), args(1, `{}`), end(1),
	finish(protocols.FinishStop, usage),
}

func TestAnthropicSDKAccumulatesEmitterStream(t *testing.T) {
	srv := serve(t, func() protocols.Emitter {
		return awanthropic.NewEmitter(awanthropic.EmitterConfig{Model: "Qwen/Qwen3-32B", InputTokens: 120, CachedTokens: 96, Ping: true})
	}, toolTurn, nil)
	client := anthropic.NewClient(aoption.WithBaseURL(srv.URL), aoption.WithAPIKey("test"), aoption.WithMaxRetries(0))
	stream := client.Messages.NewStreaming(context.Background(), anthropic.MessageNewParams{
		Model: "claude-x", MaxTokens: 1024,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("weather?"))},
	})
	var msg anthropic.Message
	for stream.Next() {
		if err := msg.Accumulate(stream.Current()); err != nil {
			t.Fatalf("Accumulate: %v", err)
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatalf("stream: %v", err)
	}
	if len(msg.Content) != 4 {
		t.Fatalf("got %d blocks: %s", len(msg.Content), msg.RawJSON())
	}
	th := msg.Content[0].AsThinking()
	if th.Thinking != "The user wants the weather in NYC." || th.Signature != "erased" {
		t.Errorf("thinking block %+v", th)
	}
	if tx := msg.Content[1].AsText(); tx.Text != "Let me check <that> & \"more\" é🚀" {
		t.Errorf("text block %q", tx.Text)
	}
	type call struct {
		Name  string
		Input map[string]any
	}
	var calls []call
	for _, b := range msg.Content[2:] {
		tu := b.AsToolUse()
		if !strings.HasPrefix(tu.ID, "toolu_") || len(tu.ID) != 38 {
			t.Errorf("tool_use id %q", tu.ID)
		}
		var input map[string]any
		if err := json.Unmarshal(tu.Input, &input); err != nil {
			t.Fatalf("tool_use input %s: %v", tu.Input, err)
		}
		calls = append(calls, call{tu.Name, input})
	}
	want := []call{
		{"get_weather", map[string]any{"location": "NYC", "unit": "c°", "days": []any{1.0, 2.0}}},
		{"get_time", map[string]any{}},
	}
	if d := cmp.Diff(want, calls); d != "" {
		t.Errorf("tool calls (-want +got):\n%s", d)
	}
	if msg.StopReason != anthropic.StopReasonToolUse || msg.Usage.InputTokens != 24 || msg.Usage.CacheReadInputTokens != 96 || msg.Usage.OutputTokens != 42 {
		t.Errorf("stop %q usage %+v", msg.StopReason, msg.Usage)
	}
	if !strings.HasPrefix(msg.ID, "msg_") || msg.Model != "Qwen/Qwen3-32B" {
		t.Errorf("id %q model %q", msg.ID, msg.Model)
	}
}

func TestAnthropicSDKInterleavedAndStopSequence(t *testing.T) {
	script := []event{reasoning("plan A"), start(0, "x", "a"), args(0, `{"n":1}`), end(0), reasoning("plan B"), content("done"), finish(protocols.FinishStop, usage)}
	srv := serve(t, func() protocols.Emitter { return awanthropic.NewEmitter(awanthropic.EmitterConfig{Model: "m"}) }, script, nil)
	client := anthropic.NewClient(aoption.WithBaseURL(srv.URL), aoption.WithAPIKey("test"), aoption.WithMaxRetries(0))
	stream := client.Messages.NewStreaming(context.Background(), anthropic.MessageNewParams{Model: "m", MaxTokens: 10,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("go"))}})
	var msg anthropic.Message
	for stream.Next() {
		if err := msg.Accumulate(stream.Current()); err != nil {
			t.Fatal(err)
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, b := range msg.Content {
		types = append(types, b.Type)
	}
	if d := cmp.Diff([]string{"thinking", "tool_use", "thinking", "text"}, types); d != "" {
		t.Errorf("block order (-want +got):\n%s", d)
	}
	if msg.Content[2].AsThinking().Thinking != "plan B" || msg.Content[3].AsText().Text != "done" {
		t.Errorf("blocks %s", msg.RawJSON())
	}
}

func TestOpenAIChatSDKAccumulatesEmitterStream(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  awopenai.EmitterConfig
	}{
		{"streamed arguments", awopenai.EmitterConfig{IncludeUsage: true}},
		{"whole calls", awopenai.EmitterConfig{IncludeUsage: true, WholeCalls: true}},
		{"dispatch side channels", awopenai.EmitterConfig{IncludeUsage: true, ToolCallDispatch: true, ReasoningDispatch: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg
			cfg.ID, cfg.Model, cfg.Created = "chatcmpl-abc", "Qwen/Qwen3-32B", 1767225600
			srv := serve(t, func() protocols.Emitter { return awopenai.NewEmitter(cfg) }, toolTurn, nil)
			client := openaisdk.NewClient(ooption.WithBaseURL(srv.URL), ooption.WithAPIKey("test"), ooption.WithMaxRetries(0))
			stream := client.Chat.Completions.NewStreaming(context.Background(), openaisdk.ChatCompletionNewParams{
				Model:    "m",
				Messages: []openaisdk.ChatCompletionMessageParamUnion{openaisdk.UserMessage("weather?")},
			})
			var acc openaisdk.ChatCompletionAccumulator
			var reasoningText strings.Builder
			var dispatched []string
			for stream.Next() {
				chunk := stream.Current()
				if chunk.Object != "chat.completion.chunk" {
					// A side-channel event. The SDK's decoder ignores the SSE
					// event name and hands it over as a chunk (its accumulator
					// would reject it), so a harness that enables dispatch must
					// filter; this one does it by shape.
					var call awopenai.ToolCallDispatch
					var rd awopenai.ReasoningDispatch
					switch {
					case json.Unmarshal([]byte(chunk.RawJSON()), &call) == nil && call.ToolCall.ID != "":
						dispatched = append(dispatched, "call "+call.ToolCall.Function.Name+" "+string(call.ToolCall.Function.Arguments))
					case json.Unmarshal([]byte(chunk.RawJSON()), &rd) == nil && rd.ReasoningContent != "":
						dispatched = append(dispatched, "reasoning "+rd.ReasoningContent)
					default:
						t.Fatalf("unexpected frame %s", chunk.RawJSON())
					}
					continue
				}
				if !acc.AddChunk(chunk) {
					t.Fatalf("accumulator rejected chunk %s", chunk.RawJSON())
				}
				for _, ch := range chunk.Choices {
					if f, ok := ch.Delta.JSON.ExtraFields["reasoning_content"]; ok {
						var s string
						if err := json.Unmarshal([]byte(f.Raw()), &s); err != nil {
							t.Fatal(err)
						}
						reasoningText.WriteString(s)
					}
				}
			}
			if err := stream.Err(); err != nil {
				t.Fatalf("stream: %v", err)
			}
			if len(acc.Choices) != 1 {
				t.Fatalf("choices: %s", acc.RawJSON())
			}
			m := acc.Choices[0].Message
			if m.Content != "Let me check <that> & \"more\" é🚀" || reasoningText.String() != "The user wants the weather in NYC." {
				t.Errorf("content %q reasoning %q", m.Content, reasoningText.String())
			}
			type call struct {
				ID, Name string
				Args     map[string]any
			}
			var calls []call
			for _, tcall := range m.ToolCalls {
				var a map[string]any
				if err := json.Unmarshal([]byte(tcall.Function.Arguments), &a); err != nil {
					t.Fatalf("arguments %q: %v", tcall.Function.Arguments, err)
				}
				calls = append(calls, call{tcall.ID, tcall.Function.Name, a})
			}
			want := []call{
				{"call_a1", "get_weather", map[string]any{"location": "NYC", "unit": "c°", "days": []any{1.0, 2.0}}},
				{"call_b2", "get_time", map[string]any{}},
			}
			if d := cmp.Diff(want, calls); d != "" {
				t.Errorf("tool calls (-want +got):\n%s", d)
			}
			if cfg.ToolCallDispatch {
				want := []string{"reasoning The user wants the weather in NYC.", `call get_weather {"location": "NYC", "unit": "c\u00b0", "days": [1, 2]}`, "call get_time {}"}
				if d := cmp.Diff(want, dispatched); d != "" {
					t.Errorf("side-channel events (-want +got):\n%s", d)
				}
			} else if dispatched != nil {
				t.Errorf("unexpected side-channel events %v", dispatched)
			}
			if acc.Choices[0].FinishReason != "tool_calls" || acc.Usage.PromptTokens != 120 || acc.Usage.CompletionTokens != 42 ||
				acc.Usage.PromptTokensDetails.CachedTokens != 96 || acc.ID != "chatcmpl-abc" {
				t.Errorf("finish %q usage %+v id %q", acc.Choices[0].FinishReason, acc.Usage, acc.ID)
			}
		})
	}
}

func TestOpenAIResponsesSDKStream(t *testing.T) {
	for _, summary := range []bool{false, true} {
		t.Run(map[bool]string{false: "raw reasoning", true: "with summary"}[summary], func(t *testing.T) {
			env := awresponses.ResponseFrom(&awresponses.Request{Model: "gpt-oss-120b"})
			srv := serve(t, func() protocols.Emitter {
				return awresponses.NewEmitter(awresponses.EmitterConfig{Response: env, Summary: summary})
			}, toolTurn, nil)
			client := openaisdk.NewClient(ooption.WithBaseURL(srv.URL), ooption.WithAPIKey("test"), ooption.WithMaxRetries(0))
			stream := client.Responses.NewStreaming(context.Background(), oresponses.ResponseNewParams{
				Model: "gpt-oss-120b",
				Input: oresponses.ResponseNewParamsInputUnion{OfString: openaisdk.String("weather?")},
			})
			var (
				seq                      int64
				text, reasoning, sumText strings.Builder
				argDeltas                = map[string]*strings.Builder{}
				final                    oresponses.Response
				completed                bool
			)
			for stream.Next() {
				ev := stream.Current()
				if ev.SequenceNumber != seq {
					t.Errorf("sequence %d, want %d (%s)", ev.SequenceNumber, seq, ev.Type)
				}
				seq++
				switch e := ev.AsAny().(type) {
				case oresponses.ResponseTextDeltaEvent:
					text.WriteString(e.Delta)
				case oresponses.ResponseReasoningTextDeltaEvent:
					reasoning.WriteString(e.Delta)
				case oresponses.ResponseReasoningSummaryTextDeltaEvent:
					sumText.WriteString(e.Delta)
				case oresponses.ResponseFunctionCallArgumentsDeltaEvent:
					if argDeltas[e.ItemID] == nil {
						argDeltas[e.ItemID] = &strings.Builder{}
					}
					argDeltas[e.ItemID].WriteString(e.Delta)
				case oresponses.ResponseFunctionCallArgumentsDoneEvent:
					if got := argDeltas[e.ItemID].String(); got != e.Arguments {
						t.Errorf("argument deltas %q != done %q", got, e.Arguments)
					}
				case oresponses.ResponseCompletedEvent:
					final, completed = e.Response, true
				case nil:
					t.Errorf("SDK does not know event %q", ev.Type)
				}
			}
			if err := stream.Err(); err != nil {
				t.Fatalf("stream: %v", err)
			}
			if !completed {
				t.Fatal("no response.completed")
			}
			// The reasoning arrives on exactly one channel.
			const thought = "The user wants the weather in NYC."
			raw, sum := reasoning.String(), sumText.String()
			if summary {
				raw, sum = sum, raw
			}
			if text.String() != "Let me check <that> & \"more\" é🚀" || raw != thought || sum != "" {
				t.Errorf("text %q, reasoning on its channel %q, on the other %q", text.String(), raw, sum)
			}
			if final.OutputText() != text.String() || final.Status != "completed" || final.Usage.InputTokens != 120 || final.Usage.OutputTokensDetails.ReasoningTokens != 12 {
				t.Errorf("final: text %q status %q usage %+v", final.OutputText(), final.Status, final.Usage)
			}
			var types []string
			for _, it := range final.Output {
				types = append(types, it.Type)
			}
			if d := cmp.Diff([]string{"reasoning", "message", "function_call", "function_call"}, types); d != "" {
				t.Fatalf("output items (-want +got):\n%s", d)
			}
			rs := final.Output[0].AsReasoning()
			parts := rs.Content
			if summary {
				parts = nil
				for _, p := range rs.Summary {
					parts = append(parts, oresponses.ResponseReasoningItemContent{Text: p.Text, Type: "reasoning_text"})
				}
				if len(rs.Content) != 0 {
					t.Errorf("summary channel, but the item has content: %s", final.Output[0].RawJSON())
				}
			} else if len(rs.Summary) != 0 {
				t.Errorf("reasoning text channel, but the item has a summary: %s", final.Output[0].RawJSON())
			}
			if len(parts) != 1 || parts[0].Text != thought {
				t.Errorf("reasoning item %s", final.Output[0].RawJSON())
			}
			fc := final.Output[2].AsFunctionCall()
			var a map[string]any
			if err := json.Unmarshal([]byte(fc.Arguments), &a); err != nil || fc.CallID != "call_a1" || fc.Name != "get_weather" || a["unit"] != "c°" {
				t.Errorf("function call %s: %v", final.Output[2].RawJSON(), err)
			}
		})
	}
}
