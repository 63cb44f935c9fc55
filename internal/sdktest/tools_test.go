package sdktest

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	openaisdk "github.com/openai/openai-go/v3"
	ooption "github.com/openai/openai-go/v3/option"
	oresponses "github.com/openai/openai-go/v3/responses"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/convert"
	awopenai "github.com/agentwire/agentwire/protocols/openai"
	awresponses "github.com/agentwire/agentwire/protocols/responses"
	"github.com/stretchr/testify/require"
)

// codexToolsRequest declares tools the way Codex does: a namespace
// (multi_agent_v1), the freeform apply_patch tool with a grammar, a hosted
// web_search tool.
const codexToolsRequest = `{"model":"gpt-5.5","input":"go","store":false,"include":["reasoning.encrypted_content"],"tools":[
 {"type":"function","name":"exec_command","parameters":{"type":"object"}},
 {"type":"namespace","name":"multi_agent_v1","description":"agents","tools":[{"type":"function","name":"spawn_agent","parameters":{"type":"object"}}]},
 {"type":"custom","name":"apply_patch","description":"Edit files.","format":{"type":"grammar","syntax":"lark","definition":"start: begin_patch hunk+ end_patch"}},
 {"type":"web_search"}]}`

const patchText = "*** Begin Patch\n*** Update File: a.go\n@@\n-x := \"<a>\"\n+x := \"é😀\"\n*** End Patch\n"

// The engine's view: a call of the namespaced function and a call of the
// custom tool as the chat function it is declared as, its JSON arguments
// split at awkward places.
func customToolTurn() []event {
	raw, _ := json.Marshal(map[string]string{"input": patchText})
	a := string(raw)
	return []event{
		content("Editing."),
		start(0, "call_ns", "spawn_agent"), args(0, `{"message":"check"}`), end(0),
		start(1, "call_patch", "apply_patch"), args(1, a[:7]), args(1, a[7:30]), args(1, a[30:31]), args(1, a[31:]), end(1),
		finish(protocols.FinishToolCalls, usage),
	}
}

func codexContext(t *testing.T) *convert.ResponsesContext {
	t.Helper()
	req, err := awresponses.DecodeRequest([]byte(codexToolsRequest), awresponses.DecodeOptions{Strict: true})
	require.NoError(t, err)
	_, ctx, err := convert.ResponsesToChat(req, convert.ResponsesOptions{})
	require.NoError(t, err)
	if d := cmp.Diff([]string{"web_search"}, ctx.DroppedTools); d != "" {
		t.Fatalf("dropped tools (-want +got):\n%s", d)
	}
	return ctx
}

func checkCodexOutput(t *testing.T, final oresponses.Response) {
	t.Helper()
	var types []string
	for _, it := range final.Output {
		types = append(types, it.Type)
	}
	if d := cmp.Diff([]string{"message", "function_call", "custom_tool_call"}, types); d != "" {
		t.Fatalf("output items (-want +got):\n%s", d)
	}
	fc := final.Output[1].AsFunctionCall()
	require.Equal(t, "spawn_agent", fc.Name, "namespaced call %s", final.Output[1].RawJSON())
	require.Equal(t, "multi_agent_v1", fc.Namespace, "namespaced call %s", final.Output[1].RawJSON())
	require.Equal(t, "call_ns", fc.CallID, "namespaced call %s", final.Output[1].RawJSON())
	ct := final.Output[2].AsCustomToolCall()
	require.Equal(t, "apply_patch", ct.Name, "custom tool call %s", final.Output[2].RawJSON())
	require.Equal(t, patchText, ct.Input, "custom tool call %s", final.Output[2].RawJSON())
	require.Equal(t, "call_patch", ct.CallID, "custom tool call %s", final.Output[2].RawJSON())
	require.Equal(t, "", ct.Namespace, "custom tool call %s", final.Output[2].RawJSON())
}

// Codex's namespaced and freeform tools survive decode → hourglass →
// emitter, as the official SDK reads the stream.
func TestOpenAIResponsesSDKCustomAndNamespacedToolsStream(t *testing.T) {
	ctx := codexContext(t)
	srv := serve(t, func() protocols.Emitter {
		return awresponses.NewEmitter(ctx.EmitterConfig(awresponses.ReasoningPolicy{}))
	}, customToolTurn(), nil)
	client := openaisdk.NewClient(ooption.WithBaseURL(srv.URL), ooption.WithAPIKey("test"), ooption.WithMaxRetries(0))
	stream := client.Responses.NewStreaming(context.Background(), oresponses.ResponseNewParams{Model: "gpt-5.5",
		Input: oresponses.ResponseNewParamsInputUnion{OfString: openaisdk.String("go")}})
	var (
		deltas    strings.Builder
		done      string
		added     []string
		final     oresponses.Response
		completed bool
	)
	for stream.Next() {
		switch e := stream.Current().AsAny().(type) {
		case oresponses.ResponseCustomToolCallInputDeltaEvent:
			deltas.WriteString(e.Delta)
		case oresponses.ResponseCustomToolCallInputDoneEvent:
			done = e.Input
		case oresponses.ResponseOutputItemAddedEvent:
			added = append(added, e.Item.Type)
		case oresponses.ResponseFunctionCallArgumentsDeltaEvent:
			require.NotEqual(t, "", e.ItemID, "argument delta without item")
		case oresponses.ResponseCompletedEvent:
			final, completed = e.Response, true
		case nil:
			t.Errorf("SDK does not know event %q", stream.Current().Type)
		}
	}
	err := stream.Err()
	require.NoError(t, err, "stream: %v, completed %v", err, completed)
	require.True(t, completed, "stream: %v, completed %v", err, completed)
	require.Equal(t, patchText, deltas.String(), "custom input deltas %q, done %q", deltas.String(), done)
	require.Equal(t, patchText, done, "custom input deltas %q, done %q", deltas.String(), done)
	if d := cmp.Diff([]string{"message", "function_call", "custom_tool_call"}, added); d != "" {
		t.Errorf("added items (-want +got):\n%s", d)
	}
	checkCodexOutput(t, final)
}

// The same turn answered unary: the engine's chat response aggregated,
// then ChatToResponses.
func TestOpenAIResponsesSDKCustomAndNamespacedToolsUnary(t *testing.T) {
	ctx := codexContext(t)
	agg := awopenai.NewAggregator(awopenai.AggregatorConfig{Model: "gpt-5.5"})
	for _, ev := range customToolTurn() {
		_ = ev(agg, nil)
	}
	body, err := json.Marshal(convert.ChatToResponses(agg.Response(), ctx, convert.BackOptions{}))
	require.NoError(t, err)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	defer srv.Close()
	client := openaisdk.NewClient(ooption.WithBaseURL(srv.URL), ooption.WithAPIKey("test"), ooption.WithMaxRetries(0))
	final, err := client.Responses.New(context.Background(), oresponses.ResponseNewParams{Model: "gpt-5.5",
		Input: oresponses.ResponseNewParamsInputUnion{OfString: openaisdk.String("go")}})
	require.NoError(t, err)
	checkCodexOutput(t, *final)
}

// On the chat side the custom tool is an ordinary function call: the
// openai-go ChatCompletionAccumulator assembles its {"input": …}
// arguments, and CustomToolInput recovers the free text exactly.
func TestOpenAIChatAccumulatorCustomToolArguments(t *testing.T) {
	srv := serve(t, func() protocols.Emitter {
		return awopenai.NewEmitter(awopenai.EmitterConfig{Model: "m"})
	}, customToolTurn(), nil)
	client := openaisdk.NewClient(ooption.WithBaseURL(srv.URL), ooption.WithAPIKey("test"), ooption.WithMaxRetries(0))
	stream := client.Chat.Completions.NewStreaming(context.Background(), openaisdk.ChatCompletionNewParams{Model: "m",
		Messages: []openaisdk.ChatCompletionMessageParamUnion{openaisdk.UserMessage("go")}})
	var acc openaisdk.ChatCompletionAccumulator
	for stream.Next() {
		acc.AddChunk(stream.Current())
	}
	require.NoError(t, stream.Err())
	calls := acc.Choices[0].Message.ToolCalls
	require.Len(t, calls, 2, "tool calls %+v", calls)
	require.Equal(t, "apply_patch", calls[1].Function.Name, "tool calls %+v", calls)
	got := string(awresponses.CustomToolInput(nil, []byte(calls[1].Function.Arguments)))
	require.Equal(t, patchText, got, "custom input %q, want %q", got, patchText)
}
