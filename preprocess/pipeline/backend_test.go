package pipeline_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/agentwire/agentwire/preprocess"
	"github.com/agentwire/agentwire/preprocess/api"
	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/agentwire/agentwire/preprocess/pipeline"
	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/agentwire/agentwire/protocols/responses"
	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

// messagesBackend is a whole harness backend for Claude Code: the
// Anthropic Messages API served from one model and one engine (the
// program of the package documentation's example, as a handler).
func messagesBackend(pre *preprocess.Preprocessor, eng engine.Engine) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 32<<20))
		if err != nil {
			api.WriteError(w, api.Messages, err)
			return
		}
		req, err := anthropic.DecodeMessagesRequest(body, anthropic.DecodeOptions{})
		if err != nil {
			api.WriteError(w, api.Messages, err)
			return
		}
		prep, err := pre.Messages(r.Context(), req)
		if err != nil {
			api.WriteError(w, api.Messages, err)
			return
		}
		if err := pipeline.Serve(r.Context(), w, eng, prep); err != nil {
			log.Printf("messages: %v", err)
		}
	})
}

// TestHarnessBackend runs a Claude Code-shaped turn through the whole
// library: request decoding, the request half (tiny Qwen3-shaped model
// directory: chat template, tokenizer, parser choice), the replay engine
// streaming token ids, and the response pipeline decoding, parsing and
// emitting Anthropic SSE — the tool call and the thinking come back as
// tool_use and thinking blocks.
func TestHarnessBackend(t *testing.T) {
	model, err := preprocess.LoadModel("../../testdata/models/tiny", preprocess.ModelOptions{})
	require.NoError(t, err)
	pre := preprocess.New(model, preprocess.Options{})
	output := "<think>\nThe user wants the weather.\n</think>\n\n<tool_call>\n" +
		`{"name": "get_weather", "arguments": {"city": "Paris"}}` + "\n</tool_call>"
	ids, err := model.Tokenizer.Encode(output, false)
	require.NoError(t, err)
	eos, _ := model.Tokenizer.TokenToID("<|im_end|>")
	rec := engine.RecordTokens("tool-turn", append(ids, eos), engine.FinishEOS)
	eng := &engine.Replay{Select: func(*engine.Request) (engine.Source, error) { return rec, nil }}
	srv := httptest.NewServer(messagesBackend(pre, eng))
	defer srv.Close()

	reqBody := `{"model":"claude-sonnet-4-5","max_tokens":512,"stream":true,
		"thinking":{"type":"enabled","budget_tokens":1024},
		"tools":[{"name":"get_weather","description":"Weather of a city","input_schema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}],
		"messages":[{"role":"user","content":"Weather in Paris?"}]}`
	resp, err := http.Post(srv.URL, "application/json", strings.NewReader(reqBody))
	require.NoError(t, err)
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	var thinking, input, stop, tool string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var ev struct {
			Type         string `json:"type"`
			ContentBlock struct {
				Type string `json:"type"`
				Name string `json:"name"`
			} `json:"content_block"`
			Delta struct {
				Type        string `json:"type"`
				Thinking    string `json:"thinking"`
				PartialJSON string `json:"partial_json"`
				StopReason  string `json:"stop_reason"`
			} `json:"delta"`
		}
		require.NoError(t, json.Unmarshal([]byte(line), &ev), "%s", line)
		switch {
		case ev.Type == "content_block_start" && ev.ContentBlock.Type == "tool_use":
			tool = ev.ContentBlock.Name
		case ev.Delta.Type == "thinking_delta":
			thinking += ev.Delta.Thinking
		case ev.Delta.Type == "input_json_delta":
			input += ev.Delta.PartialJSON
		case ev.Type == "message_delta":
			stop = ev.Delta.StopReason
		}
	}
	require.Equal(t, "\nThe user wants the weather.\n", thinking, "thinking %q, tool %q, input %q, stop %q", thinking, tool, input, stop)
	require.Equal(t, "get_weather", tool, "thinking %q, tool %q, input %q, stop %q", thinking, tool, input, stop)
	require.Equal(t, `{"city": "Paris"}`, input, "thinking %q, tool %q, input %q, stop %q", thinking, tool, input, stop)
	require.Equal(t, "tool_use", stop, "thinking %q, tool %q, input %q, stop %q", thinking, tool, input, stop)
}

// TestResponsesReasoningOneChannel answers the recorded Codex request
// (preprocess/testdata/harness: reasoning.effort medium, no
// reasoning.summary) and the same request asking for a summary, streamed
// and unary: the reasoning reaches the client on exactly one channel —
// summary events when the request (or the server's DefaultSummary policy)
// asks for a summary, reasoning_text events otherwise — and the completed
// item, the terminal event's output and the unary answer carry it the
// same way.
func TestResponsesReasoningOneChannel(t *testing.T) {
	model, err := preprocess.LoadModel("../../testdata/models/tiny", preprocess.ModelOptions{ContextLength: 1 << 20})
	require.NoError(t, err)
	pre := preprocess.New(model, preprocess.Options{PrefixCacheEntries: -1})
	ids, err := model.Tokenizer.Encode("<think>\nList the files.\n</think>\n\nHere they are.", false)
	require.NoError(t, err)
	eos, _ := model.Tokenizer.TokenToID("<|im_end|>")
	rec := engine.RecordTokens("codex-turn", append(ids, eos), engine.FinishEOS)
	eng := &engine.Replay{Select: func(*engine.Request) (engine.Source, error) { return rec, nil }}
	body, err := os.ReadFile("../testdata/harness/codex_B-gpt-5.5_0004-POST-v1_responses.body.json")
	require.NoError(t, err)
	const reasoning = "\nList the files.\n"
	for _, tc := range []struct {
		name          string
		summary       string // reasoning.summary sent ("" as recorded: absent)
		defaultSum    bool   // the server's ReasoningPolicy.DefaultSummary
		wantSummaries bool
	}{
		{name: "recorded", wantSummaries: false},
		{name: "recorded/default-summary", defaultSum: true, wantSummaries: true},
		{name: "auto", summary: "auto", wantSummaries: true},
		{name: "none/default-summary", summary: "none", defaultSum: true, wantSummaries: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := body
			if tc.summary != "" {
				b = []byte(strings.Replace(string(body), `"reasoning":{"effort":"medium"}`, `"reasoning":{"effort":"medium","summary":"`+tc.summary+`"}`, 1))
				require.NotEqual(t, string(body), string(b), "the recorded request no longer has reasoning {effort: medium}")
			}
			opts := pipeline.Options{Reasoning: responses.ReasoningPolicy{DefaultSummary: tc.defaultSum}, Seed: 1}
			var items []string // the reasoning item: output_item.done, response.completed, unary
			for _, stream := range []bool{true, false} {
				req, err := responses.DecodeRequest(b, responses.DecodeOptions{})
				require.NoError(t, err)
				prep, err := pre.Responses(context.Background(), req)
				require.NoError(t, err)
				prep.Stream = stream
				w := httptest.NewRecorder()
				require.NoError(t, pipeline.ServeWith(context.Background(), w, eng, prep, opts))
				if !stream {
					var resp struct{ Output []json.RawMessage }
					if err := json.Unmarshal(w.Body.Bytes(), &resp); err != nil || len(resp.Output) == 0 {
						t.Fatalf("unary answer %v: %s", err, w.Body)
					}
					items = append(items, string(resp.Output[0]))
					continue
				}
				events := map[string]string{} // event type → the deltas joined (or the item)
				for _, line := range strings.Split(w.Body.String(), "\n") {
					data, ok := strings.CutPrefix(line, "data: ")
					if !ok {
						continue
					}
					var ev struct {
						Type     string          `json:"type"`
						Delta    string          `json:"delta"`
						Item     json.RawMessage `json:"item"`
						Response struct {
							Output []json.RawMessage `json:"output"`
						} `json:"response"`
					}
					require.NoError(t, json.Unmarshal([]byte(data), &ev), "%s", data)
					switch ev.Type {
					case "response.output_item.done":
						if strings.Contains(string(ev.Item), `"type":"reasoning"`) {
							items = append(items, string(ev.Item))
						}
					case "response.completed":
						items = append(items, string(ev.Response.Output[0]))
					}
					events[ev.Type] += ev.Delta
				}
				text, textSent := events["response.reasoning_text.delta"]
				sum, sumSent := events["response.reasoning_summary_text.delta"]
				require.NotEqual(t, sumSent, textSent, "reasoning_text events %v, summary events %v: want exactly one channel", textSent, sumSent)
				require.Equal(t, tc.wantSummaries, sumSent, "summary channel %v, want %v", sumSent, tc.wantSummaries)
				got := text + sum
				require.Equal(t, reasoning, got, "reasoning %q, want %q", got, reasoning)
				for _, ev := range []string{"response.reasoning_summary_part.added", "response.reasoning_summary_text.done", "response.reasoning_summary_part.done"} {
					_, ok := events[ev]
					require.Equal(t, tc.wantSummaries, ok, "%s sent: %v", ev, ok)
				}
				_, ok := events["response.reasoning_text.done"]
				require.NotEqual(t, tc.wantSummaries, ok, "response.reasoning_text.done sent: %v", ok)
			}
			want := `{"type":"reasoning","id":"<id>","summary":[],"content":[{"type":"reasoning_text","text":"\nList the files.\n"}]}`
			if tc.wantSummaries {
				want = `{"type":"reasoning","id":"<id>","summary":[{"type":"summary_text","text":"\nList the files.\n"}]}`
			}
			wantItems := []string{want, want, want}
			for i := range items {
				items[i] = rsID.ReplaceAllString(items[i], `"id":"<id>"`)
				items[i] = encrypted.ReplaceAllString(items[i], "")
			}
			if d := cmp.Diff(wantItems, items); d != "" {
				t.Errorf("reasoning items (done event, completed output, unary) (-want +got):\n%s", d)
			}
		})
	}
}

var (
	rsID      = regexp.MustCompile(`"id":"rs_[0-9a-f]+"`)
	encrypted = regexp.MustCompile(`,"encrypted_content":"[^"]*"`)
)
