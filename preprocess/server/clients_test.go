package server_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentwire/agentwire/preprocess/pipeline"
	"github.com/agentwire/agentwire/preprocess/server"
	"github.com/agentwire/agentwire/protocols/convert"
	"github.com/agentwire/agentwire/protocols/openai"
	protoresponses "github.com/agentwire/agentwire/protocols/responses"
	"github.com/stretchr/testify/require"
)

// clientHarness holds request bodies recorded from real agent CLIs
// (OpenCode, Qwen Code, pi) talking to the example server on loopback:
// provenance in its README.
const clientHarness = "../../protocols/testdata/harness"

// clientCaptures returns the recorded bodies of OpenCode, Qwen Code and pi
// by file name.
func clientCaptures(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, client := range []string{"opencode", "qwen-code", "pi"} {
		files, err := filepath.Glob(filepath.Join(clientHarness, client+"__*.json"))
		require.NoError(t, err, "no %s captures in %s", client, clientHarness)
		require.NotEmpty(t, files, "no %s captures in %s", client, clientHarness)
		for _, f := range files {
			b, err := os.ReadFile(f)
			require.NoError(t, err)
			out[filepath.Base(f)] = b
		}
	}
	return out
}

// clientRoute returns the route of a capture from its name's suffix.
func clientRoute(t *testing.T, name string) string {
	t.Helper()
	for suffix, route := range map[string]string{"-chat.json": "/v1/chat/completions", "-responses.json": "/v1/responses", "-messages.json": "/v1/messages"} {
		if strings.HasSuffix(name, suffix) {
			return route
		}
	}
	t.Fatalf("%s: no route", name)
	return ""
}

// sseEvent is one data payload of a stream, with the members the checks
// below read.
type sseEvent struct {
	Type    string `json:"type"`
	Choices []struct {
		Delta struct {
			Content          string `json:"content"`
			ReasoningContent string `json:"reasoning_content"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Delta json.RawMessage `json:"delta"` // Anthropic deltas; Responses' text deltas are strings
	Item  struct {
		Type             string `json:"type"`
		EncryptedContent string `json:"encrypted_content"`
	} `json:"item"`
}

// postStream posts body to route and returns the stream's events; the
// answer must be 200 and an event stream.
func postStream(t *testing.T, ts *httptest.Server, route string, body []byte) []sseEvent {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctxT(t), http.MethodPost, ts.URL+route, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+testKey)
	req.Header.Set("Anthropic-Version", "2023-06-01")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s: %d %s: %.400s", route, resp.StatusCode, resp.Header.Get("Content-Type"), raw)
	require.True(t, strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream"), "%s: %d %s: %.400s", route, resp.StatusCode, resp.Header.Get("Content-Type"), raw)
	var events []sseEvent
	for _, line := range strings.Split(string(raw), "\n") {
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok || data == "[DONE]" {
			continue
		}
		var ev sseEvent
		require.NoError(t, json.Unmarshal([]byte(data), &ev), "%s: %s", route, data)
		events = append(events, ev)
	}
	return events
}

// streamOutcome returns the visible text and the reasoning of a stream,
// and whether it ended as its API ends a complete answer.
func streamOutcome(route string, events []sseEvent) (text, reasoning string, complete bool) {
	for _, ev := range events {
		switch route {
		case "/v1/chat/completions":
			for _, c := range ev.Choices {
				text += c.Delta.Content
				reasoning += c.Delta.ReasoningContent
				complete = complete || c.FinishReason != nil
			}
		case "/v1/responses":
			var d string
			_ = json.Unmarshal(ev.Delta, &d)
			switch ev.Type {
			case "response.output_text.delta":
				text += d
			case "response.reasoning_text.delta", "response.reasoning_summary_text.delta":
				reasoning += d
			case "response.completed":
				complete = true
			}
		case "/v1/messages":
			var d struct{ Type, Text, Thinking string }
			_ = json.Unmarshal(ev.Delta, &d)
			text += d.Text
			reasoning += d.Thinking
			complete = complete || ev.Type == "message_stop"
		}
	}
	return text, reasoning, complete
}

// TestRealClientRequests answers every recorded OpenCode, Qwen Code and pi
// request with the server's strict decoding on (every member a request
// carries must be one the protocol types model): each is a complete
// streamed answer: the scripted agent's final answer to the tool result
// each ends with. Before the protocol types modelled them,
// strict decoding answered 400 to pi's tools[].eager_input_streaming
// (Anthropic) and prompt_cache_retention (Chat, Responses) and to Qwen
// Code's reasoning object (Chat).
func TestRealClientRequests(t *testing.T) {
	ts := newServer(t, server.Config{Strict: true,
		Pipeline: pipeline.Options{Reasoning: protoresponses.ReasoningPolicy{DefaultSummary: true, DefaultPassback: true}}})
	for name, body := range clientCaptures(t) {
		t.Run(name, func(t *testing.T) {
			route := clientRoute(t, name)
			text, _, complete := streamOutcome(route, postStream(t, ts, route, body))
			require.True(t, complete, "the stream did not end with its API's terminal event (text %q)", text)
			// every capture ends with the tool result the client sent back
			require.True(t, strings.HasPrefix(text, "Done. The tool returned"), "after the tool result: answer %q", text)
		})
	}
}

// TestResponsesReasoningPassbackClients: Qwen Code and OpenCode keep no
// server state (store:false) and do not ask for
// include:["reasoning.encrypted_content"]. Without encrypted_content on the
// reasoning items, Qwen Code sent the reasoning back as a visible assistant
// message and OpenCode dropped it, so the model's next prompt lost its
// reasoning (and the engine its prefix cache). With the server's
// DefaultPassback the items carry it, and the recorded turn-2 requests (sent
// after such answers) bring the exact reasoning back: the converted chat
// history has it as reasoning_content of the assistant turns, byte for byte
// as streamed (Qwen Code's own summary copy is trimmed), and never as text.
func TestResponsesReasoningPassbackClients(t *testing.T) {
	for _, name := range []string{"qwen-code__tool-t2__0023-responses.json", "opencode__tool-t2__0010-responses.json"} {
		t.Run(name, func(t *testing.T) {
			body, err := os.ReadFile(filepath.Join(clientHarness, name))
			require.NoError(t, err)
			req, err := protoresponses.DecodeRequest(body, protoresponses.DecodeOptions{Strict: true})
			require.NoError(t, err)
			require.False(t, protoresponses.WantsEncryptedReasoning(req), "the capture asks for encrypted reasoning or stores: include %v store %v", req.Include, req.Store)
			require.False(t, req.Store.Or(true), "the capture asks for encrypted reasoning or stores: include %v store %v", req.Include, req.Store)
			chat, _, err := convert.ResponsesToChat(req, convert.ResponsesOptions{})
			require.NoError(t, err)
			var withCalls int
			for _, m := range chat.Messages {
				if m.Role != openai.RoleAssistant {
					continue
				}
				c, ok := m.Content.Get()
				require.False(t, ok && strings.Contains(openai.ContentText(c, ""), "I will call the"), "reasoning sent back as text: %q", openai.ContentText(c, ""))
				r := openai.FlattenReasoning(m.ReasoningValue().Value())
				if len(m.ToolCalls) > 0 {
					withCalls++
					require.True(t, strings.HasPrefix(r, "\nThe user wants me to act."), "assistant turn with %d calls: reasoning_content %q", len(m.ToolCalls), r)
					require.True(t, strings.HasSuffix(r, " tool.\n"), "assistant turn with %d calls: reasoning_content %q", len(m.ToolCalls), r)
				}
			}
			require.GreaterOrEqual(t, withCalls, 2, "%d assistant turns with tool calls, want the two turns'", withCalls)

			// The answer: encrypted_content with the policy, none without.
			for _, passback := range []bool{false, true} {
				ts := newServer(t, server.Config{Strict: true,
					Pipeline: pipeline.Options{Reasoning: protoresponses.ReasoningPolicy{DefaultSummary: true, DefaultPassback: passback}}})
				events := postStream(t, ts, "/v1/responses", body)
				_, reasoning, _ := streamOutcome("/v1/responses", events)
				var items int
				for _, ev := range events {
					if ev.Type != "response.output_item.done" || ev.Item.Type != "reasoning" {
						continue
					}
					items++
					text, ok := protoresponses.DecodeReasoning(ev.Item.EncryptedContent)
					require.Equal(t, passback, ok, "DefaultPassback %v: encrypted_content %q (decoded %q, streamed %q)", passback, ev.Item.EncryptedContent, text, reasoning)
					require.False(t, passback && text != reasoning, "DefaultPassback %v: encrypted_content %q (decoded %q, streamed %q)", passback, ev.Item.EncryptedContent, text, reasoning)
				}
				require.Equal(t, 1, items, "DefaultPassback %v: %d reasoning items, reasoning %q", passback, items, reasoning)
				require.NotEqual(t, "", reasoning, "DefaultPassback %v: %d reasoning items, reasoning %q", passback, items, reasoning)
			}
		})
	}
}

// TestThinkingOffChat: on Chat Completions, reasoning_effort "none" and the
// reasoning object with enabled false turn the embedded agent's thinking
// off, as they turn off a model directory's template (enable_thinking).
func TestThinkingOffChat(t *testing.T) {
	ts := newServer(t, server.Config{})
	for _, tc := range []struct {
		control       string
		wantReasoning bool
	}{
		{``, true},
		{`,"reasoning_effort":"none"`, false},
		{`,"reasoning":{"enabled":false}`, false},
		{`,"reasoning":{"effort":"low"}`, true},
	} {
		body := []byte(`{"model":"agent","stream":true,"messages":[{"role":"user","content":"hi"}]` + tc.control + `}`)
		text, reasoning, complete := streamOutcome("/v1/chat/completions", postStream(t, ts, "/v1/chat/completions", body))
		require.True(t, complete, "%q: text %q reasoning %q", tc.control, text, reasoning)
		require.True(t, strings.HasPrefix(text, "Hello!"), "%q: text %q reasoning %q", tc.control, text, reasoning)
		require.Equal(t, tc.wantReasoning, (reasoning != ""), "%q: text %q reasoning %q", tc.control, text, reasoning)
	}
}
