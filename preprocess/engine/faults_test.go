package engine

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// wireProto describes one HTTP adapter's protocol for the shared fault,
// allocation and benchmark tests.
type wireProto struct {
	name string
	// engine returns the adapter for the upstream at url.
	engine func(url string, cfg Config) (Engine, *http.Client)
	// chunk is one event carrying text (not finished); end is the events
	// that finish the choice and end the stream.
	chunk func(text string) string
	end   string
}

func httpProtos() []wireProto {
	return []wireProto{
		{
			name: "vllm",
			engine: func(url string, cfg Config) (Engine, *http.Client) {
				cfg.BaseURL = url + "/v1"
				e := NewVLLM(VLLMConfig{Config: cfg})
				return e, e.c.hc
			},
			chunk: func(text string) string {
				return `data: {"id":"cmpl-1","object":"text_completion","created":1,"model":"m","choices":[{"index":0,"text":` +
					jsonStr([]byte(text)) + `,"logprobs":null,"finish_reason":null,"stop_reason":null,"token_ids":[1234]}],"usage":null}` + "\n\n"
			},
			end: `data: {"id":"cmpl-1","object":"text_completion","created":1,"model":"m","choices":[{"index":0,"text":"","finish_reason":"stop","stop_reason":null}],"usage":null}` + "\n\n" +
				`data: {"id":"cmpl-1","object":"text_completion","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}` + "\n\n" +
				"data: [DONE]\n\n",
		},
		{
			name: "sglang",
			engine: func(url string, cfg Config) (Engine, *http.Client) {
				cfg.BaseURL = url
				e := NewSGLang(SGLangConfig{Config: cfg, IncrementalText: true})
				return e, e.c.hc
			},
			chunk: func(text string) string {
				return `data: {"text":` + jsonStr([]byte(text)) + `,"output_ids":[1234],"meta_info":{"id":"r1","finish_reason":null,"prompt_tokens":3,"completion_tokens":7,"cached_tokens":0}}` + "\n\n"
			},
			end: `data: {"text":"","output_ids":[],"meta_info":{"id":"r1","finish_reason":{"type":"stop","matched":151645},"prompt_tokens":3,"completion_tokens":2,"cached_tokens":1}}` + "\n\n" +
				"data: [DONE]\n\n",
		},
		{
			name: "sglang-openai",
			engine: func(url string, cfg Config) (Engine, *http.Client) {
				cfg.BaseURL = url
				e := NewSGLangCompletions(cfg)
				return e, e.c.hc
			},
			chunk: func(text string) string {
				return `data: {"id":"c1","object":"text_completion","created":1,"model":"m","choices":[{"index":0,"text":` +
					jsonStr([]byte(text)) + `,"logprobs":null,"finish_reason":null,"matched_stop":null}],"usage":null}` + "\n\n"
			},
			end: `data: {"id":"c1","object":"text_completion","created":1,"model":"m","choices":[{"index":0,"text":"","logprobs":null,"finish_reason":"stop","matched_stop":151645}],"usage":null}` + "\n\n" +
				`data: {"id":"c1","object":"text_completion","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}` + "\n\n" +
				"data: [DONE]\n\n",
		},
		{
			name: "chat",
			engine: func(url string, cfg Config) (Engine, *http.Client) {
				cfg.BaseURL = url + "/v1"
				e := NewChat(ChatConfig{Config: cfg})
				return e, e.c.hc
			},
			chunk: func(text string) string {
				return `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"reasoning_content":` +
					jsonStr([]byte(text)) + `,"content":` + jsonStr([]byte(text)) + `,"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]},"logprobs":null,"finish_reason":null}]}` + "\n\n"
			},
			end: `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\n" +
				`data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}` + "\n\n" +
				"data: [DONE]\n\n",
		},
		{
			name: "trtllm",
			engine: func(url string, cfg Config) (Engine, *http.Client) {
				cfg.BaseURL = url + "/v1"
				e := NewTRTLLM(TRTLLMConfig{Config: cfg})
				return e, e.c.hc
			},
			chunk: func(text string) string {
				return `data: {"id":"cmpl-1","object":"text_completion","created":1,"model":"m","choices":[{"index":0,"text":` +
					jsonStr([]byte(text)) + `,"token_ids":null,"logprobs":null,"finish_reason":null,"stop_reason":null,"avg_decoded_tokens_per_iter":null}],"usage":null}` + "\n\n"
			},
			end: `data: {"id":"cmpl-1","object":"text_completion","created":1,"model":"m","choices":[{"index":0,"text":"","finish_reason":"stop","stop_reason":null}],"usage":null}` + "\n\n" +
				`data: {"id":"cmpl-1","object":"text_completion","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5,"prompt_tokens_details":null}}` + "\n\n" +
				"data: [DONE]\n\n",
		},
	}
}

func textReq() *Request {
	return &Request{Model: "m", Prompt: "hi", MaxTokens: 100, Chat: []byte(`{"messages":[{"role":"user","content":"hi"}]}`)}
}

// TestHTTPFaults runs each fault against each HTTP adapter: the error
// kind is right and no goroutine is left running.
func TestHTTPFaults(t *testing.T) {
	for _, p := range httpProtos() {
		t.Run(p.name, func(t *testing.T) { testFaults(t, p) })
	}
}

func testFaults(t *testing.T, p wireProto) {
	two := p.chunk("Hello") + p.chunk(" world")
	type fault struct {
		name    string
		cfg     Config
		handle  func(w http.ResponseWriter, r *http.Request)
		atStart ErrorKind // the error Generate returns (when before)
		before  bool
		kind    ErrorKind // the error Next returns after the good steps
		status  int
		msg     string
		ctxLen  [2]int
	}
	write := func(w http.ResponseWriter, s string) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte(s))
		w.(http.Flusher).Flush()
	}
	faults := []fault{
		{name: "drop mid-stream", kind: ErrorUpstream, handle: func(w http.ResponseWriter, r *http.Request) {
			write(w, two)
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				conn.Close()
			}
		}},
		{name: "malformed JSON", kind: ErrorMalformed, handle: func(w http.ResponseWriter, r *http.Request) {
			write(w, two+"data: {\"choices\": [{\"text\": \"x\"\n\n")
		}},
		{name: "not an object", kind: ErrorMalformed, handle: func(w http.ResponseWriter, r *http.Request) {
			write(w, two+"data: [1,2]\n\n")
		}},
		{name: "line too long", cfg: Config{MaxLineBytes: 1024}, kind: ErrorMalformed, handle: func(w http.ResponseWriter, r *http.Request) {
			write(w, two+p.chunk(strings.Repeat("x", 4096)))
		}},
		{name: "idle timeout", cfg: Config{IdleTimeout: 100 * time.Millisecond}, kind: ErrorTimeout, handle: func(w http.ResponseWriter, r *http.Request) {
			write(w, two)
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		}},
		{name: "first-token timeout", cfg: Config{FirstTokenTimeout: 100 * time.Millisecond}, before: true, atStart: ErrorTimeout, handle: func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		}},
		{name: "first-token timeout after headers", cfg: Config{FirstTokenTimeout: 100 * time.Millisecond}, kind: ErrorTimeout, handle: func(w http.ResponseWriter, r *http.Request) {
			write(w, ": keep-alive\n\n")
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		}},
		{name: "500", before: true, atStart: ErrorUpstream, status: 500, msg: "CUDA error", handle: func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, `{"error":{"message":"CUDA error: out of memory","type":"InternalServerError","code":500}}`, 500)
		}},
		{name: "503", before: true, atStart: ErrorOverloaded, status: 503, msg: "unavailable", handle: func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "service unavailable", 503)
		}},
		{name: "429", before: true, atStart: ErrorRateLimited, status: 429, handle: func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, `{"message":"slow down"}`, 429)
		}},
		{name: "400", before: true, atStart: ErrorBadRequest, status: 400, msg: "temperature", handle: func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, `{"object":"error","message":"temperature must be non-negative","type":"BadRequestError","code":400}`, 400)
		}},
		{name: "vLLM context overflow", before: true, atStart: ErrorContextLength, status: 400, ctxLen: [2]int{4000, 4096}, handle: func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, `{"error":{"message":"This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.","type":"BadRequestError","param":null,"code":400}}`, 400)
		}},
		{name: "SGLang context overflow", before: true, atStart: ErrorContextLength, status: 400, ctxLen: [2]int{5000, 4096}, handle: func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, `{"error":{"message":"The input (5000 tokens) is longer than the model's context length (4096 tokens)."}}`, 400)
		}},
		{name: "in-stream error", kind: ErrorUpstream, msg: "engine dead", handle: func(w http.ResponseWriter, r *http.Request) {
			write(w, two+`data: {"error":{"message":"engine dead","type":"InternalServerError","code":500}}`+"\n\n")
		}},
		{name: "in-stream context overflow", kind: ErrorContextLength, handle: func(w http.ResponseWriter, r *http.Request) {
			write(w, two+`data: {"object":"error","message":"This model's maximum context length is 2048 tokens and your request has 3000 input tokens"}`+"\n\n")
		}},
		{name: "error event with text", kind: ErrorUpstream, msg: "exploded", handle: func(w http.ResponseWriter, r *http.Request) {
			write(w, two+"event: error\ndata: the engine exploded\n\n")
		}},
		{name: "end without [DONE]", kind: ErrorUpstream, handle: func(w http.ResponseWriter, r *http.Request) {
			write(w, two)
		}},
		{name: "[DONE] before the finish", kind: ErrorUpstream, msg: "before every choice finished", handle: func(w http.ResponseWriter, r *http.Request) {
			write(w, two+"data: [DONE]\n\n")
		}},
		{name: "401: the server's key is wrong", before: true, atStart: ErrorUpstream, status: 401, msg: "invalid key", handle: func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, `{"error":"invalid key"}`, 401)
		}},
		{name: "403", before: true, atStart: ErrorUpstream, status: 403, handle: func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "forbidden", 403)
		}},
		{name: "404: the server's URL or model name is wrong", before: true, atStart: ErrorUpstream, status: 404, msg: "does not exist", handle: func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, `{"object":"error","message":"The model `+"`x`"+` does not exist.","type":"NotFoundError","code":404}`, 404)
		}},
		{name: "JSON body with 200", before: true, atStart: ErrorBadRequest, handle: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"object":"error","message":"bad","code":400}`))
		}},
		{name: "huge error body", before: true, atStart: ErrorUpstream, status: 502, handle: func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(502)
			for i := 0; i < 1000; i++ {
				w.Write([]byte(strings.Repeat("y", 1024)))
			}
		}},
	}
	for _, f := range faults {
		t.Run(f.name, func(t *testing.T) {
			u := newUpstream(t, f.handle)
			eng, hc := p.engine(u.URL, f.cfg)
			defer checkGoroutines(t, hc)()
			st, err := eng.Generate(ctxTimeout(t, 10*time.Second), textReq())
			if f.before {
				if err == nil {
					st.Close()
					t.Fatal("Generate: no error")
				}
				checkErr(t, err, f.atStart, f.status, f.msg, f.ctxLen)
				return
			}
			require.NoError(t, err)
			defer st.Close()
			got, err := drain(st)
			checkErr(t, err, f.kind, f.status, f.msg, f.ctxLen)
			require.False(t, got.text[0] != "Hello world" && f.name != "first-token timeout after headers", "text before the fault %q", got.text[0])
			_, err2 := st.Next()
			require.False(t, err2 != err, "Next after the failure: %v, want %v", err2, err)
		})
	}

	// What engines and gateways send besides data is skipped: comments,
	// empty data events, pings, chunks without choices.
	t.Run("keep-alives", func(t *testing.T) {
		u := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
			write(w, ": ping\n\ndata:\n\n"+p.chunk("Hello")+"event: ping\ndata: {\"type\":\"ping\"}\n\nevent: ping\n\n")
			if p.name != "sglang" { // SGLang's /generate chunk is the choice itself
				write(w, "data: {}\n\ndata: {\"id\":\"x\",\"object\":\"text_completion\"}\n\n")
			}
			write(w, "data: \n\n"+p.chunk(" world")+p.end)
		})
		eng, hc := p.engine(u.URL, Config{})
		defer checkGoroutines(t, hc)()
		st, err := eng.Generate(ctxTimeout(t, 10*time.Second), textReq())
		require.NoError(t, err)
		defer st.Close()
		got, err := drain(st)
		require.NoError(t, err, "%q %v: %v", got.text[0], got.finish, err)
		require.Equal(t, "Hello world", got.text[0], "%q %v: %v", got.text[0], got.finish, err)
		require.NotEqual(t, FinishNone, got.finish[0], "%q %v: %v", got.text[0], got.finish, err)
	})

	// A stream that is only [DONE] is not a normal end.
	t.Run("empty [DONE]", func(t *testing.T) {
		u := newUpstream(t, func(w http.ResponseWriter, r *http.Request) { write(w, "data: [DONE]\n\n") })
		eng, hc := p.engine(u.URL, Config{})
		defer checkGoroutines(t, hc)()
		st, err := eng.Generate(ctxTimeout(t, 10*time.Second), textReq())
		require.NoError(t, err)
		defer st.Close()
		_, err = drain(st)
		checkErr(t, err, ErrorUpstream, 0, "before every choice finished", [2]int{})
	})

	t.Run("n too large", func(t *testing.T) {
		eng, _ := p.engine("http://127.0.0.1:9", Config{})
		req := textReq()
		req.N = MaxChoices + 1
		_, err := eng.Generate(context.Background(), req)
		checkErr(t, err, ErrorBadRequest, 0, "n is larger", [2]int{})
	})

	t.Run("connect timeout", func(t *testing.T) {
		hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}}}
		defer checkGoroutines(t, hc)()
		eng, _ := p.engine("http://192.0.2.1:9", Config{Client: hc, ConnectTimeout: 50 * time.Millisecond})
		_, err := eng.Generate(ctxTimeout(t, 10*time.Second), textReq())
		checkErr(t, err, ErrorTimeout, 0, "connection", [2]int{})
	})

	t.Run("connection refused", func(t *testing.T) {
		ln, _ := net.Listen("tcp", "127.0.0.1:0")
		addr := ln.Addr().String()
		ln.Close()
		eng, hc := p.engine("http://"+addr, Config{})
		defer checkGoroutines(t, hc)()
		_, err := eng.Generate(ctxTimeout(t, 10*time.Second), textReq())
		checkErr(t, err, ErrorUpstream, 0, "refused", [2]int{})
	})

	// The caller's cancellation and Close stop the upstream request: the
	// engine sees the disconnect.
	for _, how := range []string{"cancel", "close", "deadline"} {
		t.Run(how+" mid-stream", func(t *testing.T) {
			gone := make(chan struct{})
			u := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
				write(w, two)
				for {
					select {
					case <-r.Context().Done():
						close(gone)
						return
					case <-time.After(5 * time.Millisecond):
						write(w, p.chunk("."))
					}
				}
			})
			eng, hc := p.engine(u.URL, Config{})
			defer checkGoroutines(t, hc)()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if how == "deadline" {
				ctx, cancel = context.WithTimeout(ctx, 200*time.Millisecond)
				defer cancel()
			}
			st, err := eng.Generate(ctx, textReq())
			require.NoError(t, err)
			for i := 0; i < 3; i++ {
				if _, err := st.Next(); err != nil {
					t.Fatal(err)
				}
			}
			switch how {
			case "cancel":
				cancel()
				_, err = drain(st)
				checkErr(t, err, ErrorCanceled, 0, "", [2]int{})
				require.ErrorIs(t, err, context.Canceled, "%v does not unwrap to context.Canceled", err)
			case "deadline":
				_, err = drain(st)
				checkErr(t, err, ErrorTimeout, 0, "", [2]int{})
				require.ErrorIs(t, err, context.DeadlineExceeded, "%v does not unwrap to context.DeadlineExceeded", err)
			}
			st.Close()
			st.Close()
			select {
			case <-gone:
			case <-time.After(5 * time.Second):
				t.Fatal("the upstream did not see the disconnect")
			}
			if _, err := st.Next(); err == nil || err == io.EOF {
				t.Errorf("Next after Close: %v", err)
			}
		})
	}
}

func checkErr(t *testing.T, err error, kind ErrorKind, status int, msg string, ctxLen [2]int) {
	t.Helper()
	var e *Error
	require.True(t, errors.As(err, &e), "error %v (%T) is not an *Error", err, err)
	require.Equal(t, kind, e.Kind, "kind %v, want %v (%q)", e.Kind, kind, e.Message)
	require.False(t, status != 0 && e.Status != status, "status %d, want %d", e.Status, status)
	require.False(t, msg != "" && !strings.Contains(e.Message, msg), "message %q does not contain %q", e.Message, msg)
	require.LessOrEqual(t, len(e.Message), maxMessage+40, "message of %d bytes", len(e.Message))
	require.False(t, ctxLen != [2]int{} && (e.PromptTokens != ctxLen[0] || e.MaxContext != ctxLen[1]), "prompt/context %d/%d, want %v", e.PromptTokens, e.MaxContext, ctxLen)
}
