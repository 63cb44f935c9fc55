package pipeline

import (
	"bytes"
	"encoding/json"
	"io"
	"runtime"
	"strconv"
	"testing"
	"unicode/utf8"

	"github.com/agentwire/agentwire/preprocess"
	"github.com/agentwire/agentwire/preprocess/engine"
)

// ---- an in-memory vLLM /v1/completions SSE upstream ----

// vllmSSE renders deltas as vLLM's streamed /v1/completions body: one
// text_completion chunk per delta, the finish chunk, the usage chunk and
// [DONE].
func vllmSSE(deltas []string, finish string) []byte {
	var b bytes.Buffer
	for _, d := range deltas {
		t, _ := json.Marshal(d)
		b.WriteString(`data: {"id":"cmpl-1","object":"text_completion","created":1700000000,"model":"m","choices":[{"index":0,"text":`)
		b.Write(t)
		b.WriteString(`,"logprobs":null,"finish_reason":null,"stop_reason":null}],"usage":null}` + "\n\n")
	}
	b.WriteString(`data: {"id":"cmpl-1","object":"text_completion","created":1700000000,"model":"m","choices":[{"index":0,"text":"","logprobs":null,"finish_reason":"` + finish + `","stop_reason":null}],"usage":null}` + "\n\n")
	b.WriteString(`data: {"id":"cmpl-1","object":"text_completion","created":1700000000,"model":"m","choices":[],"usage":{"prompt_tokens":12,"total_tokens":` + strconv.Itoa(12+len(deltas)) + `,"completion_tokens":` + strconv.Itoa(len(deltas)) + `}}` + "\n\n")
	b.WriteString("data: [DONE]\n\n")
	return b.Bytes()
}

// sseStream decodes a vLLM completions SSE body from memory without
// allocating: a stand-in for the vLLM adapter's decoder, so that the
// benchmarks measure bytes in → bytes out. It understands exactly what
// vllmSSE writes.
type sseStream struct {
	data []byte
	pos  int
	out  engine.Output
	text []byte
	u    engine.Usage
}

func (s *sseStream) reset() { s.pos = 0 }

func (s *sseStream) Close() error { return nil }

func (s *sseStream) Next() (*engine.Output, error) {
	for {
		if s.pos >= len(s.data) {
			return nil, io.EOF
		}
		end := bytes.Index(s.data[s.pos:], []byte("\n\n"))
		if end < 0 {
			return nil, &engine.Error{Kind: engine.ErrMalformed, Message: "truncated event"}
		}
		ev := s.data[s.pos : s.pos+end]
		s.pos += end + 2
		ev = bytes.TrimPrefix(ev, []byte("data: "))
		if string(ev) == "[DONE]" {
			s.pos = len(s.data)
			return nil, io.EOF
		}
		s.out = engine.Output{}
		i := bytes.Index(ev, []byte(`text":"`))
		if i < 0 {
			if bytes.Contains(ev, []byte(`usage":{`)) {
				s.u = engine.Usage{PromptTokens: jsonInt(ev, `prompt_tokens":`), CompletionTokens: jsonInt(ev, `completion_tokens":`)}
				s.out.Usage = &s.u
				return &s.out, nil
			}
			return nil, &engine.Error{Kind: engine.ErrMalformed, Message: "no text"}
		}
		var n int
		var ok bool
		s.text, n, ok = unquote(s.text[:0], ev[i+len(`text":"`):])
		if !ok {
			return nil, &engine.Error{Kind: engine.ErrMalformed, Message: "bad string"}
		}
		s.out.Text, s.out.HasText = s.text, true
		rest := ev[i+len(`text":"`)+n:]
		if j := bytes.Index(rest, []byte(`finish_reason":`)); j >= 0 {
			switch v := rest[j+len(`finish_reason":`):]; {
			case bytes.HasPrefix(v, []byte(`"stop"`)):
				s.out.Finish = engine.FinishStop
			case bytes.HasPrefix(v, []byte(`"length"`)):
				s.out.Finish = engine.FinishLength
			}
		}
		return &s.out, nil
	}
}

func jsonInt(b []byte, key string) int64 {
	i := bytes.Index(b, []byte(key))
	if i < 0 {
		return 0
	}
	var n int64
	for _, c := range b[i+len(key):] {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int64(c-'0')
	}
	return n
}

// unquote decodes a JSON string body (after the opening quote) into dst
// and returns how many bytes of b it consumed (through the closing quote).
func unquote(dst, b []byte) ([]byte, int, bool) {
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '"':
			return dst, i + 1, true
		case c != '\\':
			dst = append(dst, c)
			continue
		}
		i++
		if i >= len(b) {
			return dst, i, false
		}
		switch b[i] {
		case 'n':
			dst = append(dst, '\n')
		case 't':
			dst = append(dst, '\t')
		case 'r':
			dst = append(dst, '\r')
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'u':
			if i+4 >= len(b) {
				return dst, i, false
			}
			r, err := strconv.ParseUint(string(b[i+1:i+5]), 16, 32)
			if err != nil {
				return dst, i, false
			}
			i += 4
			rr := rune(r)
			if utf8.RuneLen(rr) < 0 || rr >= 0xD800 && rr < 0xE000 {
				if rr >= 0xD800 && rr < 0xDC00 && i+6 < len(b) && b[i+1] == '\\' && b[i+2] == 'u' {
					lo, err := strconv.ParseUint(string(b[i+3:i+7]), 16, 32)
					if err == nil {
						rr = (rr-0xD800)<<10 + (rune(lo) - 0xDC00) + 0x10000
						i += 6
					}
				} else {
					rr = utf8.RuneError
				}
			}
			dst = utf8.AppendRune(dst, rr)
		default:
			dst = append(dst, b[i])
		}
	}
	return dst, len(b), false
}

// sliceStream replays prepared outputs from memory.
type sliceStream struct {
	outs []engine.Output
	i    int
	cur  engine.Output
}

func (s *sliceStream) reset()       { s.i = 0 }
func (s *sliceStream) Close() error { return nil }
func (s *sliceStream) Next() (*engine.Output, error) {
	if s.i >= len(s.outs) {
		return nil, io.EOF
	}
	s.cur = s.outs[s.i]
	s.i++
	return &s.cur, nil
}

type resettable interface {
	engine.Stream
	reset()
}

// benchCapture is the stream the benchmarks replay: a real Qwen3 capture
// with reasoning and a tool call (125 tokens).
const benchCapture = "vllm/qwen3-0.6B/chat_completion_stream_8f33c28b-tool.json"

func benchSetup(tb testing.TB, api preprocess.API, ids bool) (*preprocess.Prepared, resettable, int) {
	var c capture
	for _, x := range loadCaptures(tb) {
		if x.name == benchCapture {
			c = x
		}
	}
	prep := prepFor(api, true, c.toolParser, c.reasoningParser)
	if ids {
		v := captureTokenizer(tb)
		prep.Response.Tokenizer = v.tok
		prep.Engine.Stop.HiddenIDs = []uint32{v.eos}
		outs := v.idOutputs(tb, c.deltas, engine.FinishEOS)
		return prep, &sliceStream{outs: outs}, len(outs)
	}
	return prep, &sseStream{data: vllmSSE(c.deltas, "stop")}, len(c.deltas)
}

// runRequest runs one whole request through p (warm-up and tests).
func runRequest(tb testing.TB, p *Pipeline, prep *preprocess.Prepared, st resettable, buf []byte) []byte {
	if err := p.Reset(prep, Options{Now: fixedNow, Seed: 1}); err != nil {
		tb.Fatal(err)
	}
	st.reset()
	buf = p.Start(buf[:0])
	for {
		out, err := st.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			tb.Fatal(err)
		}
		if buf, err = p.Step(buf, out); err != nil {
			tb.Fatal(err)
		}
	}
	buf = p.Finish(buf)
	p.Release()
	return buf
}

func benchPipeline(b *testing.B, api preprocess.API, ids bool) {
	prep, st, tokens := benchSetup(b, api, ids)
	p := &Pipeline{}
	buf := make([]byte, 0, 1<<16)
	for i := 0; i < 3; i++ {
		buf = runRequest(b, p, prep, st, buf)
	}
	if err := p.Reset(prep, Options{Now: fixedNow, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	st.reset()
	var bytesOut int64
	var m0, m1 runtime.MemStats
	var excluded uint64 // allocations of per-request work
	b.ReportAllocs()
	runtime.ReadMemStats(&m0)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out, err := st.Next()
		if err == io.EOF {
			// Next request: finish and reset outside the measurement
			// (per-request work is not per-token work).
			b.StopTimer()
			runtime.ReadMemStats(&m1)
			before := m1.Mallocs
			p.Finish(buf[:0])
			p.Release()
			if err := p.Reset(prep, Options{Now: fixedNow, Seed: 1}); err != nil {
				b.Fatal(err)
			}
			st.reset()
			buf = p.Start(buf[:0])
			runtime.ReadMemStats(&m1)
			excluded += m1.Mallocs - before
			b.StartTimer()
			out, err = st.Next()
		}
		if err != nil {
			b.Fatal(err)
		}
		buf, _ = p.Step(buf[:0], out)
		bytesOut += int64(len(buf))
	}
	b.StopTimer()
	runtime.ReadMemStats(&m1)
	p.Release()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/token")
	b.ReportMetric(float64(m1.Mallocs-m0.Mallocs-excluded)/float64(b.N), "allocs/token")
	b.ReportMetric(float64(bytesOut)/float64(b.N), "bytes-out/token")
	_ = tokens
}

func BenchmarkPipelineChatVLLM(b *testing.B)   { benchPipeline(b, preprocess.APIChat, false) }
func BenchmarkPipelineChatReplay(b *testing.B) { benchPipeline(b, preprocess.APIChat, true) }
func BenchmarkPipelineCompletionsVLLM(b *testing.B) {
	benchPipeline(b, preprocess.APICompletions, false)
}
func BenchmarkPipelineCompletionsReplay(b *testing.B) {
	benchPipeline(b, preprocess.APICompletions, true)
}
func BenchmarkPipelineMessagesVLLM(b *testing.B)    { benchPipeline(b, preprocess.APIMessages, false) }
func BenchmarkPipelineMessagesReplay(b *testing.B)  { benchPipeline(b, preprocess.APIMessages, true) }
func BenchmarkPipelineResponsesVLLM(b *testing.B)   { benchPipeline(b, preprocess.APIResponses, false) }
func BenchmarkPipelineResponsesReplay(b *testing.B) { benchPipeline(b, preprocess.APIResponses, true) }

// TestStepAllocs asserts the hot path: after warm-up, one engine step in
// (SSE bytes decoded, or token ids) and API bytes out allocate nothing, on
// every API surface.
func TestStepAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation test")
	}
	for _, api := range allAPIs {
		for _, ids := range []bool{false, true} {
			prep, st, _ := benchSetup(t, api, ids)
			p := &Pipeline{}
			buf := make([]byte, 0, 1<<16)
			for i := 0; i < 3; i++ {
				buf = runRequest(t, p, prep, st, buf)
			}
			if err := p.Reset(prep, Options{Now: fixedNow, Seed: 1}); err != nil {
				t.Fatal(err)
			}
			st.reset()
			buf = p.Start(buf[:0])
			allocs := testing.AllocsPerRun(100, func() {
				out, err := st.Next()
				if err != nil {
					t.Fatal(err) // the capture has more than 100 steps
				}
				buf, _ = p.Step(buf[:0], out)
			})
			p.Release()
			if allocs != 0 {
				t.Errorf("%s ids=%v: %.2f allocations per token, want 0", api, ids, allocs)
			}
		}
	}
}
