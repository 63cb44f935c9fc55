package sdktest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
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
	"github.com/agentwire/agentwire/protocols/sse"
	"github.com/stretchr/testify/require"
)

// chunksToEvents turns a post-parser chat chunk stream (structured
// reasoning_content and tool_calls deltas, as an engine with parsers
// produces) into the neutral event script — the test's stand-in for the
// preprocess adapter.
func chunksToEvents(t *testing.T, chunks [][]byte) []event {
	t.Helper()
	var script []event
	open := -1
	reason := protocols.FinishStop
	var usage protocols.Usage
	for _, raw := range chunks {
		var c awopenai.ChatChunk
		require.NoError(t, json.Unmarshal(raw, &c))
		if u, ok := c.Usage.Get(); ok {
			usage = u.Neutral()
		}
		for _, ch := range c.Choices {
			if r := ch.Delta.ReasoningContent.Value(); r != "" {
				script = append(script, reasoning(r))
			}
			if s := ch.Delta.Content.Value(); s != "" {
				script = append(script, content(s))
			}
			for _, tc := range ch.Delta.ToolCalls {
				if tc.ID != "" {
					if open >= 0 {
						script = append(script, end(open))
					}
					open = tc.Index
					script = append(script, start(tc.Index, tc.ID, tc.Function.Name))
				}
				if tc.Function != nil && tc.Function.Arguments.Value() != "" {
					script = append(script, args(tc.Index, tc.Function.Arguments.Value()))
				}
			}
			if f, ok := ch.FinishReason.Get(); ok {
				reason, _ = protocols.ParseFinishReason(f)
			}
		}
	}
	if open >= 0 {
		script = append(script, end(open))
	}
	return append(script, finish(reason, usage))
}

func readChunks(t *testing.T, name string) [][]byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	var out [][]byte
	if strings.HasSuffix(name, ".sse") {
		r := sse.NewReader(bytes.NewReader(b), 0)
		for {
			ev, err := r.Next()
			if err != nil {
				break
			}
			if string(ev.Data) != "[DONE]" {
				out = append(out, bytes.Clone(ev.Data))
			}
		}
		return out
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) > 0 && !bytes.HasPrefix(line, []byte("//")) {
			out = append(out, bytes.Clone(line))
		}
	}
	return out
}

func accumulateAnthropic(t *testing.T, url string) anthropic.Message {
	t.Helper()
	client := anthropic.NewClient(aoption.WithBaseURL(url), aoption.WithAPIKey("test"), aoption.WithMaxRetries(0))
	stream := client.Messages.NewStreaming(context.Background(), anthropic.MessageNewParams{Model: "m", MaxTokens: 100,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("go"))}})
	var msg anthropic.Message
	for stream.Next() {
		require.NoError(t, msg.Accumulate(stream.Current()))
	}
	require.NoError(t, stream.Err())
	return msg
}

// blockView summarises an accumulated Anthropic message for comparison.
func blockView(t *testing.T, m anthropic.Message) []string {
	t.Helper()
	var out []string
	for _, b := range m.Content {
		switch b.Type {
		case "thinking":
			out = append(out, "thinking:"+b.Thinking)
		case "text":
			out = append(out, "text:"+b.Text)
		case "tool_use":
			var v any
			require.NoError(t, json.Unmarshal(b.Input, &v), "tool_use input %s", b.Input)
			norm, _ := json.Marshal(v)
			out = append(out, "tool_use:"+b.Name+":"+string(norm))
		}
	}
	return append(out, "stop:"+string(m.StopReason))
}

// TestAnthropicMatchesRecordedClaudeCodeTurn: the emitter's stream for the
// same turn accumulates, in the SDK, to the same message as the stream that
// Claude Code accepted in the recorded session.
func TestAnthropicMatchesRecordedClaudeCodeTurn(t *testing.T) {
	recorded, err := os.ReadFile(filepath.Join("testdata", "claude-code__B-bash__0001.sse"))
	require.NoError(t, err)
	rec := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write(recorded)
	}))
	defer rec.Close()
	want := blockView(t, accumulateAnthropic(t, rec.URL))

	script := []event{
		reasoning("The user wants me to run"), reasoning(" a quick harmless check."), reasoning(" I will call a read-only"), reasoning(" tool first."),
		start(0, "call_x", "Bash"), args(0, `{"command"`), args(0, `:"echo hi"`), args(0, `,"descript`), args(0, `ion":"Prin`), args(0, `t hi"}`), end(0),
		finish(protocols.FinishStop, protocols.Usage{PromptTokens: 12549, CompletionTokens: 37}),
	}
	srv := serve(t, func() protocols.Emitter {
		return awanthropic.NewEmitter(awanthropic.EmitterConfig{Model: "claude-opus-5-5", InputTokens: 12549, Ping: true})
	}, script, nil)
	got := blockView(t, accumulateAnthropic(t, srv.URL))
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-recorded +emitter):\n%s", d)
	}
}

// TestResponsesMatchesRecordedCodexTurn: same for the Codex turn (reasoning
// delivered as a summary, then an exec_command call).
func TestResponsesMatchesRecordedCodexTurn(t *testing.T) {
	recorded, err := os.ReadFile(filepath.Join("testdata", "codex__B-gpt-5.5__0004.sse"))
	require.NoError(t, err)
	view := func(url string) []string {
		client := openaisdk.NewClient(ooption.WithBaseURL(url), ooption.WithAPIKey("test"), ooption.WithMaxRetries(0))
		stream := client.Responses.NewStreaming(context.Background(), oresponses.ResponseNewParams{Model: "gpt-5.5",
			Input: oresponses.ResponseNewParamsInputUnion{OfString: openaisdk.String("go")}})
		var out []string
		for stream.Next() {
			ev := stream.Current()
			if c, ok := ev.AsAny().(oresponses.ResponseCompletedEvent); ok {
				for _, it := range c.Response.Output {
					switch it.Type {
					case "reasoning":
						r := it.AsReasoning()
						for _, s := range r.Summary {
							out = append(out, "summary:"+s.Text)
						}
					case "function_call":
						fc := it.AsFunctionCall()
						out = append(out, "call:"+fc.CallID+":"+fc.Name+":"+fc.Arguments+":"+string(fc.Status))
					case "message":
						out = append(out, "text:"+it.AsMessage().Content[0].Text)
					}
				}
				out = append(out, "status:"+string(c.Response.Status))
			}
		}
		if err := stream.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	rec := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write(recorded)
	}))
	defer rec.Close()
	want := view(rec.URL)

	script := []event{
		reasoning("The user wants me to run"), reasoning(" a quick harmless check."), reasoning(" I will call a read-only"), reasoning(" tool first."),
		start(0, "call_a9dd8f1c45bc4b9ba5a18d01", "exec_command"), args(0, `{"cmd":"ec`), args(0, `ho hi"}`), end(0),
		finish(protocols.FinishStop, protocols.Usage{PromptTokens: 9648, CompletionTokens: 30, ReasoningTokens: 21}),
	}
	env := awresponses.ResponseFrom(&awresponses.Request{Model: "gpt-5.5"})
	srv := serve(t, func() protocols.Emitter {
		return awresponses.NewEmitter(awresponses.EmitterConfig{Response: env, Summary: true})
	}, script, nil)
	if d := cmp.Diff(want, view(srv.URL)); d != "" {
		t.Errorf("(-recorded +emitter):\n%s", d)
	}
}

// TestReplayEngineStreams: Dynamo's harness replay streams (post-parser
// chunks) → neutral events → each emitter → the SDKs, which must see the
// same reasoning, text and calls.
func TestReplayEngineStreams(t *testing.T) {
	cases := []struct {
		file string
		want []string
	}{
		{"thinking-tool.sse", []string{"thinking:I should inspect the directory.", "text:I will list it.", `tool_use:list_directory:{"path":"/tmp"}`, "stop:tool_use"}},
		{"claude_code__tool_use.chunks.jsonl", []string{"text:Looking up the weather.", `tool_use:get_weather:{"city":"Paris","unit":"c"}`, "stop:tool_use"}},
		{"codex__parallel_function_calls.chunks.jsonl", []string{`tool_use:read_file:{"path":"/a"}`, `tool_use:read_file:{"path":"/b"}`, "stop:tool_use"}},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			script := chunksToEvents(t, readChunks(t, tc.file))
			srv := serve(t, func() protocols.Emitter {
				return awanthropic.NewEmitter(awanthropic.EmitterConfig{Model: "harness-model"})
			}, script, nil)
			if d := cmp.Diff(tc.want, blockView(t, accumulateAnthropic(t, srv.URL))); d != "" {
				t.Errorf("anthropic (-want +got):\n%s", d)
			}

			srv = serve(t, func() protocols.Emitter {
				return awopenai.NewEmitter(awopenai.EmitterConfig{ID: "chatcmpl-r", Model: "harness-model", IncludeUsage: true})
			}, script, nil)
			client := openaisdk.NewClient(ooption.WithBaseURL(srv.URL), ooption.WithAPIKey("test"), ooption.WithMaxRetries(0))
			stream := client.Chat.Completions.NewStreaming(context.Background(), openaisdk.ChatCompletionNewParams{Model: "m",
				Messages: []openaisdk.ChatCompletionMessageParamUnion{openaisdk.UserMessage("go")}})
			var acc openaisdk.ChatCompletionAccumulator
			for stream.Next() {
				require.True(t, acc.AddChunk(stream.Current()), "accumulator rejected a chunk")
			}
			require.NoError(t, stream.Err())
			var got []string
			for _, w := range tc.want {
				if strings.HasPrefix(w, "text:") {
					got = append(got, "text:"+acc.Choices[0].Message.Content)
				}
			}
			for _, c := range acc.Choices[0].Message.ToolCalls {
				var v any
				_ = json.Unmarshal([]byte(c.Function.Arguments), &v)
				norm, _ := json.Marshal(v)
				got = append(got, "tool_use:"+c.Function.Name+":"+string(norm))
			}
			var want []string
			for _, w := range tc.want {
				if !strings.HasPrefix(w, "thinking:") && !strings.HasPrefix(w, "stop:") {
					want = append(want, w)
				}
			}
			if d := cmp.Diff(want, got); d != "" || acc.Choices[0].FinishReason != "tool_calls" {
				t.Errorf("chat (-want +got):\n%s finish %q", d, acc.Choices[0].FinishReason)
			}
		})
	}
}
