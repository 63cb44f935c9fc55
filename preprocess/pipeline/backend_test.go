package pipeline_test

import (
	"bufio"
	"encoding/json"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentwire/agentwire/preprocess"
	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/agentwire/agentwire/preprocess/pipeline"
	"github.com/agentwire/agentwire/protocols/anthropic"
)

// messagesBackend is a whole harness backend for Claude Code: the
// Anthropic Messages API served from one model and one engine (the
// program of the package documentation's example, as a handler).
func messagesBackend(pre *preprocess.Preprocessor, eng engine.Engine) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 32<<20))
		if err != nil {
			pipeline.WriteError(w, preprocess.APIMessages, err)
			return
		}
		req, err := anthropic.DecodeMessagesRequest(body, anthropic.DecodeOptions{})
		if err != nil {
			pipeline.WriteError(w, preprocess.APIMessages, err)
			return
		}
		prep, err := pre.Messages(r.Context(), req)
		if err != nil {
			pipeline.WriteError(w, preprocess.APIMessages, err)
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
	if err != nil {
		t.Fatal(err)
	}
	pre := preprocess.New(model, preprocess.Options{})
	output := "<think>\nThe user wants the weather.\n</think>\n\n<tool_call>\n" +
		`{"name": "get_weather", "arguments": {"city": "Paris"}}` + "\n</tool_call>"
	ids, err := model.Tokenizer.Encode(output, false)
	if err != nil {
		t.Fatal(err)
	}
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
	if err != nil {
		t.Fatal(err)
	}
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
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
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
	if thinking != "\nThe user wants the weather.\n" || tool != "get_weather" || input != `{"city": "Paris"}` || stop != "tool_use" {
		t.Errorf("thinking %q, tool %q, input %q, stop %q", thinking, tool, input, stop)
	}
}
