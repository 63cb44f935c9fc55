package conformance_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

	"github.com/agentwire/agentwire/preprocess/api"
	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/agentwire/agentwire/preprocess/server"
	"github.com/agentwire/agentwire/preprocess/server/scripted"
	"github.com/stretchr/testify/require"
)

// The conformance suite every registered API passes (api.All): the same
// request answered streamed and unary gives the same answer; the server's
// and the engine's errors reach the client in the API's error shape, before
// the first byte and inside a stream; the API's official SDK accepts the
// answers. A conformance client says how to speak one API; an API
// registered without one fails the suite.

// conformClient speaks one API.
type conformClient struct {
	// body is a request the scripted agent answers by calling the shell
	// tool (chat-shaped APIs) or with text (Completions).
	body func(stream bool) string
	// read returns the answer in neutral form (reasoning, content, calls).
	read func(raw []byte, stream bool) (turn, error)
	// errorType reads the error type of an error body (or in-stream error
	// event data) in the API's shape; ok is false for another shape.
	errorType func(data []byte) (typ string, ok bool)
	// streamError reports whether a stream ends with the API's error
	// event.
	streamError func(raw []byte) bool
	// sdk runs one streamed and one unary request with the API's official
	// SDK and returns their texts (or call names).
	sdk func(ctx context.Context, ts *httptest.Server) (streamed, unary string, err error)
}

var conformClients = map[string]conformClient{
	"chat": {
		body: func(stream bool) string {
			return `{"model":"agent","stream":` + jsonBool(stream) + `,"messages":[{"role":"user","content":"say hello with the shell"}],` +
				`"tools":[{"type":"function","function":{"name":"shell","parameters":{"type":"object","properties":{"command":{"type":"string"}}}}}]}`
		},
		read:        func(raw []byte, stream bool) (turn, error) { return readTurn(shapeChatRC, raw, stream) },
		errorType:   openaiErrorType,
		streamError: func(raw []byte) bool { return lastEvent(raw, "error", openaiErrorType) },
		sdk: func(ctx context.Context, ts *httptest.Server) (string, string, error) {
			c := openaiClient(ts, testKey)
			p := openai.ChatCompletionNewParams{Model: "agent", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")}}
			st := c.Chat.Completions.NewStreaming(ctx, p)
			var acc openai.ChatCompletionAccumulator
			for st.Next() {
				acc.AddChunk(st.Current())
			}
			if err := st.Err(); err != nil {
				return "", "", err
			}
			r, err := c.Chat.Completions.New(ctx, p)
			if err != nil {
				return "", "", err
			}
			return acc.Choices[0].Message.Content, r.Choices[0].Message.Content, nil
		},
	},
	"completions": {
		body: func(stream bool) string {
			return `{"model":"agent","stream":` + jsonBool(stream) + `,"prompt":"say hello"}`
		},
		read:        readCompletion,
		errorType:   openaiErrorType,
		streamError: func(raw []byte) bool { return lastEvent(raw, "error", openaiErrorType) },
		sdk: func(ctx context.Context, ts *httptest.Server) (string, string, error) {
			c := openaiClient(ts, testKey)
			p := openai.CompletionNewParams{Model: "agent", Prompt: openai.CompletionNewParamsPromptUnion{OfString: openai.String("hi")}}
			st := c.Completions.NewStreaming(ctx, p)
			var text strings.Builder
			for st.Next() {
				for _, ch := range st.Current().Choices {
					text.WriteString(ch.Text)
				}
			}
			if err := st.Err(); err != nil {
				return "", "", err
			}
			r, err := c.Completions.New(ctx, p)
			if err != nil {
				return "", "", err
			}
			return text.String(), r.Choices[0].Text, nil
		},
	},
	"messages": {
		body: func(stream bool) string {
			return `{"model":"agent","max_tokens":1024,"stream":` + jsonBool(stream) + `,"thinking":{"type":"enabled","budget_tokens":1024},` +
				`"messages":[{"role":"user","content":"say hello with the shell"}],` +
				`"tools":[{"name":"Bash","input_schema":{"type":"object","properties":{"command":{"type":"string"}}}}]}`
		},
		read:        func(raw []byte, stream bool) (turn, error) { return readTurn(shapeAnthropic, raw, stream) },
		errorType:   anthropicErrorType,
		streamError: func(raw []byte) bool { return lastEvent(raw, "error", anthropicErrorType) },
		sdk: func(ctx context.Context, ts *httptest.Server) (string, string, error) {
			c := anthropicClient(ts, testKey)
			p := anthropic.MessageNewParams{Model: "agent", MaxTokens: 1024,
				Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("hi"))}}
			st := c.Messages.NewStreaming(ctx, p)
			var msg anthropic.Message
			for st.Next() {
				if err := msg.Accumulate(st.Current()); err != nil {
					return "", "", err
				}
			}
			if err := st.Err(); err != nil {
				return "", "", err
			}
			r, err := c.Messages.New(ctx, p)
			if err != nil {
				return "", "", err
			}
			return anthropicText(msg.Content), anthropicText(r.Content), nil
		},
	},
	"responses": {
		body: func(stream bool) string {
			return `{"model":"agent","stream":` + jsonBool(stream) + `,"input":"say hello with the shell",` +
				`"tools":[{"type":"function","name":"shell","parameters":{"type":"object","properties":{"command":{"type":"string"}}}}]}`
		},
		read:      func(raw []byte, stream bool) (turn, error) { return readTurn(shapeResponses, raw, stream) },
		errorType: openaiErrorType,
		streamError: func(raw []byte) bool {
			names, _ := sseEvents(raw)
			return len(names) > 0 && names[len(names)-1] == "response.failed"
		},
		sdk: func(ctx context.Context, ts *httptest.Server) (string, string, error) {
			c := openaiClient(ts, testKey)
			p := responses.ResponseNewParams{Model: "agent", Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("hi")}}
			st := c.Responses.NewStreaming(ctx, p)
			var done string
			for st.Next() {
				if ev := st.Current(); ev.Type == "response.completed" {
					done = ev.Response.OutputText()
				}
			}
			if err := st.Err(); err != nil {
				return "", "", err
			}
			r, err := c.Responses.New(ctx, p)
			if err != nil {
				return "", "", err
			}
			return done, r.OutputText(), nil
		},
	},
}

func TestEveryAPIConforms(t *testing.T) {
	ts := newServer(t, server.Config{})
	failing := newServer(t, server.Config{Backend: &scripted.Backend{Engine: failAfterOne{}}})
	ctx := ctxT(t)
	for _, a := range api.All() {
		c, ok := conformClients[a.String()]
		if !ok {
			t.Errorf("the API %s has no conformance client (conformClients)", a)
			continue
		}
		t.Run(a.String(), func(t *testing.T) {
			// streamed == unary
			var answers [2]turn
			for i, stream := range []bool{true, false} {
				st, raw := postRaw(t, ts.URL+a.Path(), c.body(stream), testKey)
				require.Equal(t, http.StatusOK, st, "stream=%v: %d %s", stream, st, raw)
				got, err := c.read(raw, stream)
				require.NoError(t, err, "stream=%v\n%s", stream, raw)
				got.raw, got.status, got.reasoningJSON, got.signature, got.encrypted, got.rsID = "", 0, nil, "", "", ""
				for k := range got.calls {
					got.calls[k].id = ""
				}
				answers[i] = got
			}
			require.False(t, answers[0].content+answers[0].reasoning == "" && len(answers[0].calls) == 0, "empty answer")
			s, u := answers[0], answers[1]
			require.Equal(t, u.content, s.content, "streamed %+v\nunary    %+v", s, u)
			require.Equal(t, u.reasoning, s.reasoning, "streamed %+v\nunary    %+v", s, u)
			require.True(t, sameCalls(s.calls, u.calls), "streamed %+v\nunary    %+v", s, u)

			// errors in the API's shape, before the first byte
			for _, e := range []struct {
				name, body, key string
				status          int
			}{
				{"no key", c.body(false), "", http.StatusUnauthorized},
				{"bad JSON", `{"model":`, testKey, http.StatusBadRequest},
				{"unknown model", strings.Replace(c.body(true), `"model":"agent"`, `"model":"replay/nope"`, 1), testKey, http.StatusNotFound},
			} {
				st, raw := postRaw(t, ts.URL+a.Path(), e.body, e.key)
				require.Equal(t, e.status, st, "%s: %s", e.name, raw)
				typ, ok := c.errorType(raw)
				require.True(t, ok, "%s: %s is not in the API's error shape", e.name, raw)
				require.NotEmpty(t, typ, "%s: %s has no error type", e.name, raw)
			}
			// and inside a stream, when the engine fails after its first output
			st, raw := postRaw(t, failing.URL+a.Path(), c.body(true), testKey)
			require.Equal(t, http.StatusOK, st, "engine failure in a stream: %d\n%s", st, raw)
			require.True(t, c.streamError(raw), "engine failure in a stream: %d\n%s", st, raw)

			// the official SDK accepts both answers
			streamed, unary, err := c.sdk(ctx, ts)
			require.NoError(t, err, "SDK")
			require.NotEqual(t, "", streamed, "SDK: streamed %q, unary %q", streamed, unary)
			require.Equal(t, unary, streamed, "SDK: streamed %q, unary %q", streamed, unary)
		})
	}
}

// failAfterOne is an engine that sends one piece of text, then fails
// (overloaded).
type failAfterOne struct{}

func (failAfterOne) Generate(context.Context, *engine.Request) (engine.Stream, error) {
	return &failStream{}, nil
}

type failStream struct {
	n   int
	out engine.Output
}

func (s *failStream) Next() (*engine.Output, error) {
	if s.n++; s.n > 1 {
		return nil, &engine.Error{Kind: engine.ErrorOverloaded, Message: "engine draining"}
	}
	s.out = engine.Output{Text: []byte("Hel"), HasText: true}
	return &s.out, nil
}

func (*failStream) Close() error { return nil }

func postRaw(t *testing.T, url, body, key string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("x-api-key", key)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, raw
}

func readTurn(s clientShape, raw []byte, stream bool) (turn, error) {
	var out turn
	if stream {
		return out, readStream(s, raw, &out)
	}
	return out, readUnary(s, raw, &out)
}

// readCompletion reads a completions answer's text.
func readCompletion(raw []byte, stream bool) (turn, error) {
	var out turn
	var chunk struct {
		Choices []struct {
			Text string `json:"text"`
		} `json:"choices"`
	}
	if !stream {
		err := json.Unmarshal(raw, &chunk)
		for _, ch := range chunk.Choices {
			out.content += ch.Text
		}
		return out, err
	}
	_, data := sseEvents(raw)
	for _, d := range data {
		chunk.Choices = nil
		if err := json.Unmarshal(d, &chunk); err != nil {
			return out, err
		}
		for _, ch := range chunk.Choices {
			out.content += ch.Text
		}
	}
	return out, nil
}

// openaiErrorType reads {"error":{"message","type"}}.
func openaiErrorType(data []byte) (string, bool) {
	var e struct {
		Error *struct {
			Message *string `json:"message"`
			Type    string  `json:"type"`
		} `json:"error"`
	}
	if json.Unmarshal(data, &e) != nil || e.Error == nil || e.Error.Message == nil {
		return "", false
	}
	return e.Error.Type, true
}

// anthropicErrorType reads {"type":"error","error":{"type","message"}}.
func anthropicErrorType(data []byte) (string, bool) {
	var e struct {
		Type  string `json:"type"`
		Error *struct {
			Type    string  `json:"type"`
			Message *string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(data, &e) != nil || e.Type != "error" || e.Error == nil || e.Error.Message == nil {
		return "", false
	}
	return e.Error.Type, true
}

// lastEvent reports whether the stream's last event is named name and its
// data is an error in the shape typ reads.
func lastEvent(raw []byte, name string, typ func([]byte) (string, bool)) bool {
	names, data := sseEvents(raw)
	if len(names) == 0 || names[len(names)-1] != name {
		return false
	}
	_, ok := typ(data[len(data)-1])
	return ok && !bytes.Contains(raw, []byte("[DONE]"))
}

func sameCalls(a, b []clientCall) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].name != b[i].name || a[i].args != b[i].args {
			return false
		}
	}
	return true
}

func anthropicText(blocks []anthropic.ContentBlockUnion) string {
	var b strings.Builder
	for _, c := range blocks {
		if c.Type == "text" {
			b.WriteString(c.Text)
		}
	}
	return b.String()
}

func jsonBool(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
