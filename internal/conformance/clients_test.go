package conformance_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentwire/agentwire/preprocess/api"
	"github.com/stretchr/testify/require"
)

// This file holds the client side of the tool-loop suite (toolloop_test.go):
// the four client shapes, each building its request from the conversation
// so far as that client would, and reading the answer (an SSE stream or a
// unary body) as that client would.

// clientShape is how a harness speaks to the server.
type clientShape int

const (
	// shapeChatRC: Chat Completions, history sent back with
	// reasoning_content (vLLM's spelling; Qwen Code, OpenCode).
	shapeChatRC clientShape = iota
	// shapeChatR: Chat Completions, history sent back with reasoning.
	shapeChatR
	// shapeAnthropic: Anthropic Messages as Claude Code sends them:
	// system blocks with cache_control, adaptive thinking with display
	// "omitted" (the answer's thinking blocks have no text; the client
	// sends them back with the signature they came with), output_config
	// effort, context_management, tool_use input as an object
	// re-serialised compactly (JSON.stringify).
	shapeAnthropic
	// shapeAnthropicShown: the same with thinking shown (display absent):
	// thinking blocks are sent back with their text.
	shapeAnthropicShown
	// shapeResponses: Responses as Codex sends them: a developer message
	// first, reasoning.effort "medium", include
	// reasoning.encrypted_content, store false, reasoning items and
	// function_call items with their arguments strings sent back.
	shapeResponses
)

var shapes = []clientShape{shapeChatRC, shapeChatR, shapeAnthropic, shapeAnthropicShown, shapeResponses}

func (s clientShape) String() string {
	return [...]string{"chat+reasoning_content", "chat+reasoning", "anthropic", "anthropic+shown", "responses"}[s]
}

func (s clientShape) api() api.API {
	switch s {
	case shapeAnthropic, shapeAnthropicShown:
		return api.Messages
	case shapeResponses:
		return api.Responses
	}
	return api.Chat
}

// loopTool is one tool of the conversation (declared in every API's form).
type loopTool struct {
	name, description string
	schema            string
}

var loopTools = []loopTool{
	{"Bash", "Run a shell command and return its output.",
		`{"type":"object","properties":{"command":{"type":"string","description":"The command to run"},"timeout":{"type":"integer","description":"Seconds before the command is stopped"}},"required":["command"]}`},
	{"Read", "Read a file from the workspace.",
		`{"type":"object","properties":{"file_path":{"type":"string","description":"The path of the file"}},"required":["file_path"]}`},
}

// turn is one answer as the client read it.
type turn struct {
	reasoning string
	// reasoningJSON is the chat message's reasoning as the server sent it
	// (a string or an array of segments), sent back as it came.
	reasoningJSON json.RawMessage
	signature     string // Anthropic thinking signature
	encrypted     string // Responses reasoning encrypted_content
	rsID          string // Responses reasoning item id
	content       string
	calls         []clientCall
	status        int
	raw           string // the body, for failure messages
}

// clientCall is a call as the client holds it: the id it will send back and
// the arguments as it will send them (Chat and Responses: the streamed
// string; Anthropic: the input object).
type clientCall struct {
	id, name, args string
}

// histItem is one step of the conversation in API-neutral form.
type histItem struct {
	role    string // user, assistant, tool
	text    string
	turn    *turn  // assistant
	callID  string // tool result
	callIdx int    // tool result: the call's position in its turn
}

// loopRequest builds the request body of shape s for the conversation.
func loopRequest(s clientShape, system string, hist []histItem, stream bool, kwargs map[string]any) []byte {
	switch s {
	case shapeAnthropic, shapeAnthropicShown:
		return anthropicRequest(system, hist, stream, s == shapeAnthropic)
	case shapeResponses:
		return responsesRequest(system, hist, stream)
	}
	return chatRequest(s, system, hist, stream, kwargs)
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func chatRequest(s clientShape, system string, hist []histItem, stream bool, kwargs map[string]any) []byte {
	msgs := []any{map[string]any{"role": "system", "content": system}}
	for _, h := range hist {
		switch h.role {
		case "user":
			msgs = append(msgs, map[string]any{"role": "user", "content": h.text})
		case "tool":
			msgs = append(msgs, map[string]any{"role": "tool", "tool_call_id": h.callID, "content": h.text})
		case "assistant":
			m := map[string]any{"role": "assistant", "content": nil}
			if h.turn.content != "" {
				m["content"] = h.turn.content
			}
			key := "reasoning_content"
			if s == shapeChatR {
				key = "reasoning"
			}
			switch {
			case h.turn.reasoningJSON != nil:
				m[key] = h.turn.reasoningJSON
			case h.turn.reasoning != "":
				m[key] = h.turn.reasoning
			}
			var calls []any
			for _, c := range h.turn.calls {
				calls = append(calls, map[string]any{"id": c.id, "type": "function",
					"function": map[string]any{"name": c.name, "arguments": c.args}})
			}
			if calls != nil {
				m["tool_calls"] = calls
			}
			msgs = append(msgs, m)
		}
	}
	var tools []any
	for _, t := range loopTools {
		tools = append(tools, map[string]any{"type": "function", "function": map[string]any{
			"name": t.name, "description": t.description, "parameters": json.RawMessage(t.schema)}})
	}
	req := map[string]any{"model": "loop-model", "messages": msgs, "tools": tools, "stream": stream, "max_tokens": 2048}
	if stream {
		req["stream_options"] = map[string]any{"include_usage": true}
	}
	if len(kwargs) > 0 {
		req["chat_template_kwargs"] = kwargs
	}
	return mustJSON(req)
}

func anthropicRequest(system string, hist []histItem, stream, omitted bool) []byte {
	var msgs []any
	var results []any
	flush := func() {
		if results != nil {
			msgs = append(msgs, map[string]any{"role": "user", "content": results})
			results = nil
		}
	}
	for _, h := range hist {
		switch h.role {
		case "user":
			flush()
			msgs = append(msgs, map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": h.text}}})
		case "tool":
			results = append(results, map[string]any{"type": "tool_result", "tool_use_id": h.callID, "content": h.text, "is_error": false})
		case "assistant":
			flush()
			var blocks []any
			if h.turn.reasoning != "" || h.turn.signature != "" {
				blocks = append(blocks, map[string]any{"type": "thinking", "thinking": h.turn.reasoning, "signature": h.turn.signature})
			}
			if h.turn.content != "" {
				blocks = append(blocks, map[string]any{"type": "text", "text": h.turn.content})
			}
			for _, c := range h.turn.calls {
				// The client parsed the input and serialises it again with
				// JSON.stringify when it sends the history back.
				blocks = append(blocks, map[string]any{"type": "tool_use", "id": c.id, "name": c.name, "input": json.RawMessage(c.args)})
			}
			msgs = append(msgs, map[string]any{"role": "assistant", "content": blocks})
		}
	}
	flush()
	var tools []any
	for _, t := range loopTools {
		tools = append(tools, map[string]any{"name": t.name, "description": t.description, "input_schema": json.RawMessage(t.schema)})
	}
	thinking := map[string]any{"type": "adaptive"}
	if omitted {
		thinking["display"] = "omitted"
	}
	return mustJSON(map[string]any{
		"model": "claude-opus-5-5", "max_tokens": 32000, "stream": stream,
		"system":             []any{map[string]any{"type": "text", "text": system, "cache_control": map[string]any{"type": "ephemeral"}}},
		"messages":           msgs,
		"tools":              tools,
		"thinking":           thinking,
		"context_management": map[string]any{"edits": []any{map[string]any{"type": "clear_thinking_20251015", "keep": "all"}}},
		"output_config":      map[string]any{"effort": "medium"},
		"metadata":           map[string]any{"user_id": `{"device_id":"loop","session_id":"loop"}`},
	})
}

func responsesRequest(system string, hist []histItem, stream bool) []byte {
	input := []any{map[string]any{"type": "message", "role": "developer", "content": []any{map[string]any{"type": "input_text", "text": system}}}}
	for _, h := range hist {
		switch h.role {
		case "user":
			input = append(input, map[string]any{"type": "message", "role": "user", "content": []any{map[string]any{"type": "input_text", "text": h.text}}})
		case "tool":
			input = append(input, map[string]any{"type": "function_call_output", "call_id": h.callID, "output": h.text})
		case "assistant":
			if h.turn.rsID != "" {
				summary := []any{}
				if h.turn.reasoning != "" {
					summary = append(summary, map[string]any{"type": "summary_text", "text": h.turn.reasoning})
				}
				input = append(input, map[string]any{"type": "reasoning", "id": h.turn.rsID, "summary": summary,
					"content": nil, "encrypted_content": h.turn.encrypted})
			}
			if h.turn.content != "" {
				input = append(input, map[string]any{"type": "message", "role": "assistant",
					"content": []any{map[string]any{"type": "output_text", "text": h.turn.content, "annotations": []any{}}}})
			}
			for _, c := range h.turn.calls {
				input = append(input, map[string]any{"type": "function_call", "name": c.name, "arguments": c.args, "call_id": c.id})
			}
		}
	}
	var tools []any
	for _, t := range loopTools {
		tools = append(tools, map[string]any{"type": "function", "name": t.name, "description": t.description,
			"strict": false, "parameters": json.RawMessage(t.schema)})
	}
	return mustJSON(map[string]any{
		"model": "gpt-5.5", "stream": stream, "input": input, "tools": tools, "tool_choice": "auto",
		"parallel_tool_calls": true, "reasoning": map[string]any{"effort": "medium"}, "store": false,
		"include": []any{"reasoning.encrypted_content"}, "prompt_cache_key": "loop", "text": map[string]any{"verbosity": "low"},
	})
}

// postTurn sends body to the API's route and reads the answer.
func postTurn(t *testing.T, base string, s clientShape, body []byte, stream bool) turn {
	t.Helper()
	req, err := http.NewRequest("POST", base+s.api().Path(), bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+testKey)
	req.Header.Set("x-api-key", testKey)
	req.Header.Set("anthropic-version", "2023-06-01")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	out := turn{status: resp.StatusCode, raw: string(raw)}
	if resp.StatusCode != http.StatusOK {
		return out
	}
	if stream {
		err = readStream(s, raw, &out)
	} else {
		err = readUnary(s, raw, &out)
	}
	require.NoError(t, err, "%s\n%s", s, raw)
	return out
}

// sseEvents splits an SSE body into its data payloads (with the event
// names).
func sseEvents(raw []byte) (names []string, data [][]byte) {
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	name := ""
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event:"):
			name = strings.TrimSpace(line[len("event:"):])
		case strings.HasPrefix(line, "data:"):
			d := strings.TrimSpace(line[len("data:"):])
			if d != "[DONE]" {
				names = append(names, name)
				data = append(data, []byte(d))
			}
			name = ""
		}
	}
	return names, data
}

func readStream(s clientShape, raw []byte, out *turn) error {
	names, data := sseEvents(raw)
	switch s.api() {
	case api.Chat:
		type callAcc struct{ id, name, args strings.Builder }
		var calls []*callAcc
		var content, reasoning strings.Builder
		for _, d := range data {
			var ch struct {
				Choices []struct {
					Delta struct {
						Content          *string `json:"content"`
						ReasoningContent *string `json:"reasoning_content"`
						Reasoning        *string `json:"reasoning"`
						ToolCalls        []struct {
							Index    int    `json:"index"`
							ID       string `json:"id"`
							Function struct {
								Name      string `json:"name"`
								Arguments string `json:"arguments"`
							} `json:"function"`
						} `json:"tool_calls"`
					} `json:"delta"`
				} `json:"choices"`
				Error json.RawMessage `json:"error"`
			}
			if err := json.Unmarshal(d, &ch); err != nil {
				return err
			}
			if len(ch.Error) > 0 {
				return fmt.Errorf("stream error %s", ch.Error)
			}
			for _, c := range ch.Choices {
				if c.Delta.Content != nil {
					content.WriteString(*c.Delta.Content)
				}
				// A client reads whichever spelling the server sends.
				if c.Delta.ReasoningContent != nil {
					reasoning.WriteString(*c.Delta.ReasoningContent)
				} else if c.Delta.Reasoning != nil {
					reasoning.WriteString(*c.Delta.Reasoning)
				}
				for _, tc := range c.Delta.ToolCalls {
					for len(calls) <= tc.Index {
						calls = append(calls, &callAcc{})
					}
					a := calls[tc.Index]
					a.id.WriteString(tc.ID)
					a.name.WriteString(tc.Function.Name)
					a.args.WriteString(tc.Function.Arguments)
				}
			}
		}
		out.content, out.reasoning = content.String(), reasoning.String()
		for _, a := range calls {
			out.calls = append(out.calls, clientCall{a.id.String(), a.name.String(), a.args.String()})
		}
	case api.Messages:
		type block struct {
			typ, id, name string
			text, sig     strings.Builder
		}
		var blocks []*block
		for i, d := range data {
			var ev struct {
				Type         string `json:"type"`
				Index        int    `json:"index"`
				ContentBlock struct {
					Type string `json:"type"`
					ID   string `json:"id"`
					Name string `json:"name"`
				} `json:"content_block"`
				Delta struct {
					Type        string `json:"type"`
					Text        string `json:"text"`
					Thinking    string `json:"thinking"`
					Signature   string `json:"signature"`
					PartialJSON string `json:"partial_json"`
				} `json:"delta"`
			}
			if err := json.Unmarshal(d, &ev); err != nil {
				return err
			}
			if names[i] == "error" {
				return fmt.Errorf("stream error %s", d)
			}
			switch ev.Type {
			case "content_block_start":
				for len(blocks) <= ev.Index {
					blocks = append(blocks, &block{})
				}
				b := blocks[ev.Index]
				b.typ, b.id, b.name = ev.ContentBlock.Type, ev.ContentBlock.ID, ev.ContentBlock.Name
			case "content_block_delta":
				b := blocks[ev.Index]
				switch ev.Delta.Type {
				case "text_delta":
					b.text.WriteString(ev.Delta.Text)
				case "thinking_delta":
					b.text.WriteString(ev.Delta.Thinking)
				case "signature_delta":
					b.sig.WriteString(ev.Delta.Signature)
				case "input_json_delta":
					b.text.WriteString(ev.Delta.PartialJSON)
				}
			}
		}
		for _, b := range blocks {
			switch b.typ {
			case "thinking":
				out.reasoning += b.text.String()
				out.signature = b.sig.String()
			case "text":
				out.content += b.text.String()
			case "tool_use":
				in := b.text.String()
				if in == "" {
					in = "{}"
				}
				args, err := jsStringify([]byte(in))
				if err != nil {
					return err
				}
				out.calls = append(out.calls, clientCall{b.id, b.name, args})
			}
		}
	case api.Responses:
		// Reasoning is read from the finished output items, so whichever
		// reasoning channel the stream uses, the client has it.
		for i, d := range data {
			if names[i] != "response.completed" {
				if names[i] == "error" || names[i] == "response.failed" {
					return fmt.Errorf("stream error %s", d)
				}
				continue
			}
			var ev struct {
				Response json.RawMessage `json:"response"`
			}
			if err := json.Unmarshal(d, &ev); err != nil {
				return err
			}
			return readResponsesOutput(ev.Response, out)
		}
		return fmt.Errorf("no response.completed event")
	}
	return nil
}

func readUnary(s clientShape, raw []byte, out *turn) error {
	switch s.api() {
	case api.Chat:
		var r struct {
			Choices []struct {
				Message struct {
					Content          *string         `json:"content"`
					ReasoningContent json.RawMessage `json:"reasoning_content"`
					Reasoning        json.RawMessage `json:"reasoning"`
					ToolCalls        []struct {
						ID       string `json:"id"`
						Function struct {
							Name      string `json:"name"`
							Arguments string `json:"arguments"`
						} `json:"function"`
					} `json:"tool_calls"`
				} `json:"message"`
			} `json:"choices"`
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			return err
		}
		m := r.Choices[0].Message
		if m.Content != nil {
			out.content = *m.Content
		}
		rj := m.ReasoningContent
		if len(rj) == 0 || string(rj) == "null" {
			rj = m.Reasoning
		}
		if len(rj) > 0 && string(rj) != "null" {
			out.reasoningJSON = rj
			var segs []string
			if json.Unmarshal(rj, &out.reasoning) != nil && json.Unmarshal(rj, &segs) == nil {
				out.reasoning = strings.Join(segs, "")
			}
		}
		for _, c := range m.ToolCalls {
			out.calls = append(out.calls, clientCall{c.ID, c.Function.Name, c.Function.Arguments})
		}
	case api.Messages:
		var r struct {
			Content []struct {
				Type      string          `json:"type"`
				Text      string          `json:"text"`
				Thinking  string          `json:"thinking"`
				Signature string          `json:"signature"`
				ID        string          `json:"id"`
				Name      string          `json:"name"`
				Input     json.RawMessage `json:"input"`
			} `json:"content"`
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			return err
		}
		for _, b := range r.Content {
			switch b.Type {
			case "thinking":
				out.reasoning += b.Thinking
				out.signature = b.Signature
			case "text":
				out.content += b.Text
			case "tool_use":
				args, err := jsStringify(b.Input)
				if err != nil {
					return err
				}
				out.calls = append(out.calls, clientCall{b.ID, b.Name, args})
			}
		}
	case api.Responses:
		return readResponsesOutput(raw, out)
	}
	return nil
}

func readResponsesOutput(resp []byte, out *turn) error {
	var r struct {
		Output []struct {
			Type    string `json:"type"`
			ID      string `json:"id"`
			Summary []struct {
				Text string `json:"text"`
			} `json:"summary"`
			Content []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
			EncryptedContent string `json:"encrypted_content"`
			Name             string `json:"name"`
			CallID           string `json:"call_id"`
			Arguments        string `json:"arguments"`
		} `json:"output"`
	}
	if err := json.Unmarshal(resp, &r); err != nil {
		return err
	}
	for _, it := range r.Output {
		switch it.Type {
		case "reasoning":
			out.rsID, out.encrypted = it.ID, it.EncryptedContent
			var text strings.Builder
			for _, c := range it.Content {
				text.WriteString(c.Text)
			}
			if text.Len() == 0 {
				for _, s := range it.Summary {
					text.WriteString(s.Text)
				}
			}
			out.reasoning += text.String()
		case "message":
			for _, c := range it.Content {
				out.content += c.Text
			}
		case "function_call":
			out.calls = append(out.calls, clientCall{it.CallID, it.Name, it.Arguments})
		}
	}
	return nil
}

// jsStringify is JSON.parse then JSON.stringify, as a JavaScript client
// re-serialises a tool_use input it received: compact, key order kept,
// numbers in JavaScript's shortest form, strings with only the escapes
// JSON.stringify writes.
func jsStringify(in []byte) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(in))
	dec.UseNumber()
	var b strings.Builder
	if err := jsValue(dec, &b); err != nil {
		return "", err
	}
	return b.String(), nil
}

func jsValue(dec *json.Decoder, b *strings.Builder) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch v := tok.(type) {
	case json.Delim:
		closer := map[json.Delim]byte{'{': '}', '[': ']'}[v]
		b.WriteByte(byte(v))
		for i := 0; dec.More(); i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			if v == '{' {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				jsString(b, k.(string))
				b.WriteByte(':')
			}
			if err := jsValue(dec, b); err != nil {
				return err
			}
		}
		if _, err := dec.Token(); err != nil {
			return err
		}
		b.WriteByte(closer)
	case string:
		jsString(b, v)
	case json.Number:
		f, err := v.Float64()
		if err != nil {
			return err
		}
		b.WriteString(jsNumber(f))
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case nil:
		b.WriteString("null")
	}
	return nil
}

func jsNumber(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if i := strings.IndexByte(s, 'e'); i >= 0 {
		exp := strings.TrimLeft(s[i+2:], "0")
		s = s[:i+1] + s[i+1:i+2] + exp
		if s[i+1] == '+' || s[i+1] == '-' {
			return s
		}
	}
	return s
}

func jsString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20:
			fmt.Fprintf(b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	b.WriteByte('"')
}
