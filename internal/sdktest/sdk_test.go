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
	"github.com/stretchr/testify/require"
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
		require.NoError(t, msg.Accumulate(stream.Current()), "Accumulate")
	}
	require.NoError(t, stream.Err(), "stream")
	require.Len(t, msg.Content, 4, "got %d blocks: %s", len(msg.Content), msg.RawJSON())
	th := msg.Content[0].AsThinking()
	require.Equal(t, "The user wants the weather in NYC.", th.Thinking, "thinking block %+v", th)
	require.Equal(t, "erased", th.Signature, "thinking block %+v", th)
	tx := msg.Content[1].AsText()
	require.Equal(t, "Let me check <that> & \"more\" é🚀", tx.Text, "text block %q", tx.Text)
	type call struct {
		Name  string
		Input map[string]any
	}
	var calls []call
	for _, b := range msg.Content[2:] {
		tu := b.AsToolUse()
		require.True(t, strings.HasPrefix(tu.ID, "toolu_"), "tool_use id %q", tu.ID)
		require.Len(t, tu.ID, 38, "tool_use id %q", tu.ID)
		var input map[string]any
		require.NoError(t, json.Unmarshal(tu.Input, &input), "tool_use input %s", tu.Input)
		calls = append(calls, call{tu.Name, input})
	}
	want := []call{
		{"get_weather", map[string]any{"location": "NYC", "unit": "c°", "days": []any{1.0, 2.0}}},
		{"get_time", map[string]any{}},
	}
	if d := cmp.Diff(want, calls); d != "" {
		t.Errorf("tool calls (-want +got):\n%s", d)
	}
	require.Equal(t, anthropic.StopReasonToolUse, msg.StopReason, "stop %q usage %+v", msg.StopReason, msg.Usage)
	require.Equal(t, int64(24), msg.Usage.InputTokens, "stop %q usage %+v", msg.StopReason, msg.Usage)
	require.Equal(t, int64(96), msg.Usage.CacheReadInputTokens, "stop %q usage %+v", msg.StopReason, msg.Usage)
	require.Equal(t, int64(42), msg.Usage.OutputTokens, "stop %q usage %+v", msg.StopReason, msg.Usage)
	require.True(t, strings.HasPrefix(msg.ID, "msg_"), "id %q model %q", msg.ID, msg.Model)
	require.Equal(t, "Qwen/Qwen3-32B", msg.Model, "id %q model %q", msg.ID, msg.Model)
}

func TestAnthropicSDKInterleavedAndStopSequence(t *testing.T) {
	script := []event{reasoning("plan A"), start(0, "x", "a"), args(0, `{"n":1}`), end(0), reasoning("plan B"), content("done"), finish(protocols.FinishStop, usage)}
	srv := serve(t, func() protocols.Emitter { return awanthropic.NewEmitter(awanthropic.EmitterConfig{Model: "m"}) }, script, nil)
	client := anthropic.NewClient(aoption.WithBaseURL(srv.URL), aoption.WithAPIKey("test"), aoption.WithMaxRetries(0))
	stream := client.Messages.NewStreaming(context.Background(), anthropic.MessageNewParams{Model: "m", MaxTokens: 10,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("go"))}})
	var msg anthropic.Message
	for stream.Next() {
		require.NoError(t, msg.Accumulate(stream.Current()))
	}
	require.NoError(t, stream.Err())
	var types []string
	for _, b := range msg.Content {
		types = append(types, b.Type)
	}
	if d := cmp.Diff([]string{"thinking", "tool_use", "thinking", "text"}, types); d != "" {
		t.Errorf("block order (-want +got):\n%s", d)
	}
	require.Equal(t, "plan B", msg.Content[2].AsThinking().Thinking, "blocks %s", msg.RawJSON())
	require.Equal(t, "done", msg.Content[3].AsText().Text, "blocks %s", msg.RawJSON())
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
				require.True(t, acc.AddChunk(chunk), "accumulator rejected chunk %s", chunk.RawJSON())
				for _, ch := range chunk.Choices {
					if f, ok := ch.Delta.JSON.ExtraFields["reasoning_content"]; ok {
						var s string
						require.NoError(t, json.Unmarshal([]byte(f.Raw()), &s))
						reasoningText.WriteString(s)
					}
				}
			}
			require.NoError(t, stream.Err(), "stream")
			require.Len(t, acc.Choices, 1, "choices: %s", acc.RawJSON())
			m := acc.Choices[0].Message
			require.Equal(t, "Let me check <that> & \"more\" é🚀", m.Content, "content %q reasoning %q", m.Content, reasoningText.String())
			require.Equal(t, "The user wants the weather in NYC.", reasoningText.String(), "content %q reasoning %q", m.Content, reasoningText.String())
			type call struct {
				ID, Name string
				Args     map[string]any
			}
			var calls []call
			for _, tcall := range m.ToolCalls {
				var a map[string]any
				require.NoError(t, json.Unmarshal([]byte(tcall.Function.Arguments), &a), "arguments %q", tcall.Function.Arguments)
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
			require.Equal(t, "tool_calls", acc.Choices[0].FinishReason, "finish %q usage %+v id %q", acc.Choices[0].FinishReason, acc.Usage, acc.ID)
			require.Equal(t, int64(120), acc.Usage.PromptTokens, "finish %q usage %+v id %q", acc.Choices[0].FinishReason, acc.Usage, acc.ID)
			require.Equal(t, int64(42), acc.Usage.CompletionTokens, "finish %q usage %+v id %q", acc.Choices[0].FinishReason, acc.Usage, acc.ID)
			require.Equal(t, int64(96), acc.Usage.PromptTokensDetails.CachedTokens, "finish %q usage %+v id %q", acc.Choices[0].FinishReason, acc.Usage, acc.ID)
			require.Equal(t, "chatcmpl-abc", acc.ID, "finish %q usage %+v id %q", acc.Choices[0].FinishReason, acc.Usage, acc.ID)
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
				require.Equal(t, seq, ev.SequenceNumber, "sequence %d, want %d (%s)", ev.SequenceNumber, seq, ev.Type)
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
					got := argDeltas[e.ItemID].String()
					require.Equal(t, e.Arguments, got, "argument deltas %q != done %q", got, e.Arguments)
				case oresponses.ResponseCompletedEvent:
					final, completed = e.Response, true
				case nil:
					t.Errorf("SDK does not know event %q", ev.Type)
				}
			}
			require.NoError(t, stream.Err(), "stream")
			require.True(t, completed, "no response.completed")
			// The reasoning arrives on exactly one channel.
			const thought = "The user wants the weather in NYC."
			raw, sum := reasoning.String(), sumText.String()
			if summary {
				raw, sum = sum, raw
			}
			require.Equal(t, "Let me check <that> & \"more\" é🚀", text.String(), "text %q, reasoning on its channel %q, on the other %q", text.String(), raw, sum)
			require.Equal(t, thought, raw, "text %q, reasoning on its channel %q, on the other %q", text.String(), raw, sum)
			require.Equal(t, "", sum, "text %q, reasoning on its channel %q, on the other %q", text.String(), raw, sum)
			require.Equal(t, text.String(), final.OutputText(), "final: text %q status %q usage %+v", final.OutputText(), final.Status, final.Usage)
			require.Equal(t, oresponses.ResponseStatus("completed"), final.Status, "final: text %q status %q usage %+v", final.OutputText(), final.Status, final.Usage)
			require.Equal(t, int64(120), final.Usage.InputTokens, "final: text %q status %q usage %+v", final.OutputText(), final.Status, final.Usage)
			require.Equal(t, int64(12), final.Usage.OutputTokensDetails.ReasoningTokens, "final: text %q status %q usage %+v", final.OutputText(), final.Status, final.Usage)
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
				require.Len(t, rs.Content, 0, "summary channel, but the item has content: %s", final.Output[0].RawJSON())
			} else if len(rs.Summary) != 0 {
				t.Errorf("reasoning text channel, but the item has a summary: %s", final.Output[0].RawJSON())
			}
			require.Len(t, parts, 1, "reasoning item %s", final.Output[0].RawJSON())
			require.Equal(t, thought, parts[0].Text, "reasoning item %s", final.Output[0].RawJSON())
			fc := final.Output[2].AsFunctionCall()
			var a map[string]any
			err := json.Unmarshal([]byte(fc.Arguments), &a)
			require.NoError(t, err, "function call %s: %v", final.Output[2].RawJSON(), err)
			require.Equal(t, "call_a1", fc.CallID, "function call %s: %v", final.Output[2].RawJSON(), err)
			require.Equal(t, "get_weather", fc.Name, "function call %s: %v", final.Output[2].RawJSON(), err)
			require.False(t, a["unit"] != "c°", "function call %s: %v", final.Output[2].RawJSON(), err)
		})
	}
}
