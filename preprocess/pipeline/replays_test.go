package pipeline

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentwire/agentwire/parsers"
	"github.com/agentwire/agentwire/preprocess/api"
	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/stretchr/testify/require"
)

// chatChunkOutputs turns chat.completion.chunk lines (JSONL or SSE data)
// into engine outputs the way an OpenAI-compatible chat adapter does:
// content as text, reasoning_content and tool_calls passed through. It
// also returns what the chunks say (the expected answer).
func chatChunkOutputs(t *testing.T, path string) ([]engine.Output, result) {
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var outs []engine.Output
	var want result
	calls := map[int]*call{}
	var order []int
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		line = strings.TrimPrefix(line, "data: ")
		if line == "" || strings.HasPrefix(line, "//") || line == "[DONE]" {
			continue
		}
		var chunk struct {
			Choices []struct {
				Index int `json:"index"`
				Delta struct {
					Content          *string `json:"content"`
					ReasoningContent *string `json:"reasoning_content"`
					ToolCalls        []struct {
						Index    int    `json:"index"`
						ID       string `json:"id"`
						Function struct {
							Name      string `json:"name"`
							Arguments string `json:"arguments"`
						} `json:"function"`
					} `json:"tool_calls"`
				} `json:"delta"`
				FinishReason *string `json:"finish_reason"`
			} `json:"choices"`
			Usage *struct {
				PromptTokens     int64 `json:"prompt_tokens"`
				CompletionTokens int64 `json:"completion_tokens"`
			} `json:"usage"`
		}
		require.NoError(t, json.Unmarshal([]byte(line), &chunk), "%s: %s", path, line)
		var out engine.Output
		if chunk.Usage != nil {
			out.Usage = &engine.Usage{PromptTokens: chunk.Usage.PromptTokens, CompletionTokens: chunk.Usage.CompletionTokens}
		}
		if len(chunk.Choices) == 0 {
			out.Index = -1
			outs = append(outs, out)
			continue
		}
		ch := chunk.Choices[0]
		if ch.Delta.Content != nil {
			out.Text, out.HasText = []byte(*ch.Delta.Content), true
			want.Content += *ch.Delta.Content
		}
		if ch.Delta.ReasoningContent != nil {
			out.Reasoning = []byte(*ch.Delta.ReasoningContent)
			want.Reasoning += *ch.Delta.ReasoningContent
		}
		for _, tc := range ch.Delta.ToolCalls {
			out.ToolCalls = append(out.ToolCalls, engine.ToolCallDelta{Index: tc.Index, ID: []byte(tc.ID),
				Name: []byte(tc.Function.Name), Arguments: []byte(tc.Function.Arguments)})
			if calls[tc.Index] == nil {
				calls[tc.Index] = &call{}
				order = append(order, tc.Index)
			}
			calls[tc.Index].Name += tc.Function.Name
			calls[tc.Index].Args += tc.Function.Arguments
		}
		if ch.FinishReason != nil {
			switch *ch.FinishReason {
			case "length":
				out.Finish, want.Finish = engine.FinishLength, "length"
			default:
				out.Finish, want.Finish = engine.FinishStop, "stop"
			}
		}
		outs = append(outs, out)
	}
	for _, i := range order {
		want.Calls = append(want.Calls, call{Name: calls[i].Name, Args: compactJSON(calls[i].Args)})
	}
	if len(want.Calls) > 0 && want.Finish == "stop" {
		want.Finish = "tool"
	}
	return outs, want
}

// TestReplaysPassThrough replays the hand-written harness streams (already
// parsed chat chunks) through every API, streamed and unary.
func TestReplaysPassThrough(t *testing.T) {
	var files []string
	for _, g := range []string{"replays/harness/*.chunks.jsonl", "replays/agent-harness/*.sse"} {
		m, _ := filepath.Glob(filepath.Join(streamsDir, g))
		files = append(files, m...)
	}
	require.Len(t, files, 17, "%d replay files", len(files))
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			outs, want := chatChunkOutputs(t, f)
			for _, a := range []api.API{api.Chat, api.Messages, api.Responses} {
				got, body := both(t, prepFor(a, true, "", ""), outs)
				if d := cmp.Diff(want, got, cmpResult); d != "" {
					t.Errorf("%s (-want +got):\n%s\n%s", a, d, body)
				}
			}
		})
	}
}

// TestReplaysChunking replays two Qwen3 outputs shaped like vLLM's
// stream_interval=1 (one token per chunk) and stream_interval=20 (where
// </think>, <tool_call> and the start of the JSON share a delta) on every
// API; each must equal the buffered parse of its text with the framing
// rule, and the same text re-chunked one byte at a time must too.
func TestReplaysChunking(t *testing.T) {
	cfg := parsers.Config{ToolParser: "hermes", ReasoningParser: "qwen3"}
	for _, name := range []string{"stream_interval_1.jsonl", "stream_interval_20.jsonl"} {
		outs, _ := chatChunkOutputs(t, filepath.Join(streamsDir, "replays", name))
		var deltas []string
		for _, o := range outs {
			if o.HasText && len(o.Text) > 0 {
				deltas = append(deltas, string(o.Text))
			}
		}
		text := strings.Join(deltas, "")
		parsed, err := parsers.Parse(cfg, text)
		require.NoError(t, err)
		want := framed(capture{want: parsed, finish: "stop"})
		bytewise := make([]string, len(text))
		for i := range text {
			bytewise[i] = text[i : i+1]
		}
		for _, a := range []api.API{api.Chat, api.Messages, api.Responses} {
			for k, ds := range [][]string{deltas, bytewise} {
				got, body := both(t, prepFor(a, true, "hermes", "qwen3"), txtOuts(engine.FinishStop, ds...))
				if d := cmp.Diff(want, got, cmpResult); d != "" {
					t.Errorf("%s %s split %d (-want +got):\n%s\n%s", name, a, k, d, body)
				}
			}
		}
	}
}

// TestReplayGuidedNemotron replays a raw Nemotron 3 Nano stream captured
// with tool_choice required and thinking on: PRE.4 sees reasoning first,
// and the guided JSON after </think> becomes the call (immediate mode).
func TestReplayGuidedNemotron(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(streamsDir, "replays/tool-calling-cpu-e2e/nemotron-nano-required-guided.json"))
	require.NoError(t, err)
	var f struct {
		Raw []struct {
			Text         *string `json:"text"`
			FinishReason *string `json:"finish_reason"`
		} `json:"raw_backend_stream"`
		Expected struct {
			ReasoningContains string `json:"reasoning_contains"`
			Content           string `json:"content"`
			ToolCalls         []struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			} `json:"tool_calls"`
			FinishReason string `json:"finish_reason"`
		} `json:"expected"`
	}
	require.NoError(t, json.Unmarshal(data, &f))
	var outs []engine.Output
	for _, r := range f.Raw {
		switch {
		case r.Text != nil:
			outs = append(outs, engine.Output{Text: []byte(*r.Text), HasText: true})
		case r.FinishReason != nil:
			outs = append(outs, engine.Output{Finish: engine.FinishStop})
		}
	}
	for _, a := range []api.API{api.Chat, api.Messages, api.Responses} {
		prep := prepFor(a, true, "", "nemotron_nano")
		prep.Response.ShapeDetect, prep.Response.ImmediateTool = true, true
		got, body := both(t, prep, outs)
		require.Contains(t, got.Reasoning, f.Expected.ReasoningContains, "%s: %+v\n%s", a, got, body)
		require.Equal(t, f.Expected.Content, got.Content, "%s: %+v\n%s", a, got, body)
		require.Len(t, got.Calls, 1, "%s: %+v\n%s", a, got, body)
		require.Equal(t, f.Expected.ToolCalls[0].Name, got.Calls[0].Name, "%s: %+v\n%s", a, got, body)
		require.True(t, sameArgs(got.Calls[0].Args, string(f.Expected.ToolCalls[0].Arguments)), "%s: %+v\n%s", a, got, body)
		require.Equal(t, normFinish(f.Expected.FinishReason), got.Finish, "%s: %+v\n%s", a, got, body)
	}
}

// TestReplaysChatUpstream serves the harness streams from an httptest
// upstream speaking OpenAI's chat completions SSE, through the chat
// pass-through adapter: reasoning_content and tool_calls deltas reach
// every API as they are, streamed and unary.
func TestReplaysChatUpstream(t *testing.T) {
	var files []string
	for _, g := range []string{"replays/harness/*.chunks.jsonl", "replays/agent-harness/*.sse"} {
		m, _ := filepath.Glob(filepath.Join(streamsDir, g))
		files = append(files, m...)
	}
	for _, f := range files {
		_, want := chatChunkOutputs(t, f)
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		var sse bytes.Buffer
		for _, line := range strings.Split(string(data), "\n") {
			line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "data: "))
			if line == "" || strings.HasPrefix(line, "//") || line == "[DONE]" {
				continue
			}
			sse.WriteString("data: " + line + "\n\n")
		}
		sse.WriteString("data: [DONE]\n\n")
		srv := httptest.NewServer(sseBody(sse.Bytes()))
		eng := engine.NewChat(engine.ChatConfig{Config: engine.Config{BaseURL: srv.URL + "/v1"}})
		for _, a := range []api.API{api.Chat, api.Messages, api.Responses} {
			prep := prepFor(a, true, "", "")
			prep.Engine.Chat = json.RawMessage(`{"model":"m","messages":[{"role":"user","content":"hi"}]}`)
			got, body := both(t, prep, nil, eng)
			if d := cmp.Diff(want, got, cmpResult); d != "" {
				t.Errorf("%s %s (-want +got):\n%s\n%s", filepath.Base(f), a, d, body)
			}
		}
		srv.Close()
	}
}
