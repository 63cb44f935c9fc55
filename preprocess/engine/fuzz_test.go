package engine

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"testing/iotest"
	"time"

	"github.com/stretchr/testify/require"
)

// memStream wires a decoder to an in-memory SSE body, as httpStream does
// for a response body (no network; the timeouts are not armed).
func memStream(dec decoder, body []byte, req *Request) *httpStream {
	c := &client{maxLine: 64 << 10, maxEvent: 64 << 10}
	ctx, cancel := context.WithCancelCause(context.Background())
	s := &httpStream{c: c, parent: context.Background(), ctx: ctx, dec: dec}
	s.w = &watch{cancel: cancel, timer: time.AfterFunc(time.Hour, func() {})}
	s.w.phase.Store(phaseIdle)
	s.body = io.NopCloser(bytes.NewReader(body))
	s.reads = bodyReader{s: s}
	s.sse.reset(s.reads, c.maxLine, c.maxEvent)
	dec.reset(req)
	return s
}

// fuzzStream reads a whole fuzzed stream: it must end with io.EOF or an
// *Error, never panic, and never yield more text than it was given.
func fuzzStream(t *testing.T, dec decoder, body []byte, n int) {
	s := memStream(dec, body, &Request{N: n, MaxTokens: 10})
	defer s.Close()
	total := 0
	for i := 0; ; i++ {
		out, err := s.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			require.GreaterOrEqual(t, errKind(err), 0, "error %v (%T) is not an *Error", err, err)
			break
		}
		total += len(out.Text) + len(out.Reasoning)
		require.LessOrEqual(t, total, 2*len(body), "%d bytes of output from %d bytes of input", total, len(body))
		require.LessOrEqual(t, i, len(body)+1, "more outputs than input bytes")
	}
}

// seeds adds the protocol's test chunks and a few capture renderings.
func seeds(f *testing.F, name string) {
	for _, p := range httpProtos() {
		if p.name == name {
			f.Add([]byte(p.chunk("Hello") + p.chunk(" \"wörld\"\n") + p.end))
			f.Add([]byte(p.chunk("x") + "data: {\"choices\": [\n\n"))
		}
	}
	f.Add([]byte("data: [DONE]\n\n"))
	f.Add([]byte(": ping\r\nevent: error\r\ndata: {\"error\":{\"message\":\"boom\",\"code\":503}}\r\n\r\n"))
}

func FuzzCompletionsStream(f *testing.F) {
	seeds(f, "vllm")
	seeds(f, "trtllm")
	if rec, err := LoadRecording(filepath.Join(streamsDir, "vllm/qwen3-0.6B/chat_completion_stream_finish_length.json")); err == nil {
		f.Add(vllmWire(rec, "stop_reason", true))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		fuzzStream(t, &completionsDecoder{stopField: "stop_reason"}, body, 2)
	})
}

func FuzzSGLangStream(f *testing.F) {
	seeds(f, "sglang")
	if rec, err := LoadRecording(filepath.Join(streamsDir, "vllm/qwen3-0.6B/chat_completion_stream_finish_length.json")); err == nil {
		f.Add(sglangWire(rec, true, true))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		fuzzStream(t, &sglangDecoder{}, body, 2)
		fuzzStream(t, &sglangDecoder{incrementalText: true}, body, 1)
	})
}

func FuzzChatStream(f *testing.F) {
	seeds(f, "chat")
	if data, err := os.ReadFile(filepath.Join(streamsDir, "replays/agent-harness/thinking-tool.sse")); err == nil {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		fuzzStream(t, &chatDecoder{}, body, 2)
	})
}

// FuzzSSEReader checks the reader's bounds: no event or line beyond the
// limits, no panic.
func FuzzSSEReader(f *testing.F) {
	f.Add([]byte("data: a\n\ndata: b\r\ndata: c\r\n\r\n: x\nevent: error\ndata:\n\n"), 8)
	f.Add([]byte("data: "+string(bytes.Repeat([]byte("y"), 100))+"\r"), 16)
	f.Add([]byte("event: ping\ndata: {}\n\ndata:\n\ndata: \ndata:\n\ndata: {}\n\nevent: ping\r\n\r\ndata: [DONE]"), 64)
	f.Fuzz(func(t *testing.T, body []byte, limit int) {
		limit = 1 + abs(limit)%256
		var r sseReader
		r.reset(bytes.NewReader(body), limit, limit)
		for i := 0; i <= len(body); i++ {
			data, _, err := r.next()
			if err != nil {
				break
			}
			require.LessOrEqual(t, len(data), limit, "event of %d bytes over the limit %d", len(data), limit)
			require.NotEqual(t, len(body), i, "more events than bytes")
		}
		// Without limits in the way, the events are the reference
		// framing's, read whole or one byte at a time.
		want := referenceSSE(body)
		for _, oneByte := range []bool{false, true} {
			var rd io.Reader = bytes.NewReader(body)
			if oneByte {
				rd = iotest.OneByteReader(rd)
			}
			r.reset(rd, len(body)+1, len(body)+1)
			var got []string
			for {
				data, isErr, err := r.next()
				if err == io.EOF {
					break
				}
				require.NoError(t, err, "unbounded read")
				got = append(got, fmt.Sprintf("%v:%s", isErr, data))
			}
			require.True(t, slices.Equal(got, want), "one byte %v: events %q, want %q", oneByte, got, want)
		}
	})
}

// referenceSSE frames body as the SSE rules say (lines end with LF, CR
// or CRLF; data lines joined with LF; an event ends at a blank line or
// the end of the body), dispatching the events sseReader must return:
// those with data that is not only white space, not named "ping".
func referenceSSE(body []byte) []string {
	var lines [][]byte
	for len(body) > 0 {
		i := bytes.IndexAny(body, "\r\n")
		if i < 0 {
			lines = append(lines, body)
			break
		}
		lines = append(lines, body[:i])
		if body[i] == '\r' && i+1 < len(body) && body[i+1] == '\n' {
			i++
		}
		body = body[i+1:]
	}
	var out []string
	var data []byte
	has, name := false, ""
	dispatch := func() {
		if has && name != "ping" && len(bytes.TrimSpace(data)) > 0 {
			out = append(out, fmt.Sprintf("%v:%s", name == "error", data))
		}
		data, has, name = nil, false, ""
	}
	for _, l := range lines {
		if len(l) == 0 {
			dispatch()
			continue
		}
		if l[0] == ':' {
			continue
		}
		field, value, _ := bytes.Cut(l, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "data":
			if has {
				data = append(data, '\n')
			}
			data, has = append(data, value...), true
		case "event":
			name = string(value)
		}
	}
	dispatch()
	return out
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// FuzzParseRecording: capture files are input too (a replay directory).
func FuzzParseRecording(f *testing.F) {
	for _, name := range []string{"replays/agent-harness/text.sse", "replays/harness/codex__hello.chunks.jsonl",
		"vllm/deepseek-v3/chat_completion_stream_no_tool.json", "replays/tool-calling-cpu-e2e/nemotron-nano-required-guided.json"} {
		if data, err := os.ReadFile(filepath.Join(streamsDir, name)); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`["a","b"]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := ParseRecording("f", data)
		if err != nil {
			return
		}
		st, err := replayOf(rec).Generate(context.Background(), &Request{MaxTokens: 50, N: 2, Stop: Stop{Strings: []string{"a", "bc"}}})
		if err != nil {
			return
		}
		defer st.Close()
		for i := 0; i < 2*len(rec.Steps)+2; i++ {
			if _, err := st.Next(); err != nil {
				return
			}
		}
		t.Fatal("the replay did not end")
	})
}
