package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"runtime"
	"strconv"
	"testing"

	"github.com/agentwire/agentwire/preprocess"
	"github.com/agentwire/agentwire/preprocess/api"
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

// memTransport answers every request with body, from memory: the vLLM
// adapter's whole client path (request encoding, bounded SSE reader,
// fastjson decoding) runs, without a network.
type memTransport struct{ body []byte }

func (m memTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		_, _ = io.Copy(io.Discard, r.Body)
		_ = r.Body.Close()
	}
	return &http.Response{StatusCode: 200, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:  http.Header{"Content-Type": {"text/event-stream"}},
		Body:    io.NopCloser(bytes.NewReader(m.body)),
		Request: r}, nil
}

// benchCapture is the stream the benchmarks replay: a real Qwen3 capture
// with reasoning and a tool call (125 tokens).
const benchCapture = "vllm/qwen3-0.6B/chat_completion_stream_8f33c28b-tool.json"

func benchSetup(tb testing.TB, a api.API, ids bool) (*preprocess.Prepared, engine.Engine, int) {
	var c capture
	for _, x := range loadCaptures(tb) {
		if x.name == benchCapture {
			c = x
		}
	}
	prep := prepFor(a, true, c.toolParser, c.reasoningParser)
	if ids {
		v := captureTokenizer(tb)
		prep.Response.Tokenizer = v.tok
		prep.Engine.Stop.HiddenIDs = []uint32{v.eos}
		outs := v.idOutputs(tb, c.deltas, engine.FinishEOS)
		var all []uint32
		for _, o := range outs {
			all = append(all, o.TokenIDs...)
		}
		rec := engine.RecordTokens(c.name, all, engine.FinishEOS)
		eng := &engine.Replay{Select: func(*engine.Request) (engine.Source, error) { return rec, nil }}
		return prep, eng, len(all)
	}
	eng := engine.NewVLLM(engine.VLLMConfig{Config: engine.Config{BaseURL: "http://vllm.invalid/v1",
		Client: &http.Client{Transport: memTransport{body: vllmSSE(c.deltas, "stop")}}}})
	return prep, eng, len(c.deltas)
}

// runRequest runs one whole request through p (warm-up).
func runRequest(tb testing.TB, p *Pipeline, prep *preprocess.Prepared, eng engine.Engine, buf []byte) []byte {
	if err := p.Reset(prep, Options{Now: fixedNow, Seed: 1}); err != nil {
		tb.Fatal(err)
	}
	st, err := eng.Generate(context.Background(), &prep.Engine)
	if err != nil {
		tb.Fatal(err)
	}
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
	_ = st.Close()
	p.Release()
	return buf
}

// benchPipeline measures engine bytes (or ids) in → API bytes out, per
// token. Each iteration is one engine step; the per-request work between
// two streams (Generate, Reset, the terminal events) runs with the timer
// stopped and its allocations are not counted in allocs/token.
func benchPipeline(b *testing.B, a api.API, ids bool) {
	prep, eng, _ := benchSetup(b, a, ids)
	p := &Pipeline{}
	buf := make([]byte, 0, 1<<16)
	for i := 0; i < 3; i++ {
		buf = runRequest(b, p, prep, eng, buf)
	}
	var st engine.Stream
	var bytesOut int64
	var m0, m1 runtime.MemStats
	var excluded uint64 // allocations of per-request work
	next := func() {
		runtime.ReadMemStats(&m1)
		before := m1.Mallocs
		if st != nil {
			p.Finish(buf[:0])
			_ = st.Close()
			p.Release()
		}
		if err := p.Reset(prep, Options{Now: fixedNow, Seed: 1}); err != nil {
			b.Fatal(err)
		}
		var err error
		if st, err = eng.Generate(context.Background(), &prep.Engine); err != nil {
			b.Fatal(err)
		}
		buf = p.Start(buf[:0])
		runtime.ReadMemStats(&m1)
		excluded += m1.Mallocs - before
	}
	next()
	excluded = 0
	b.ReportAllocs()
	runtime.ReadMemStats(&m0)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out, err := st.Next()
		if err == io.EOF {
			b.StopTimer()
			next()
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
	_ = st.Close()
	p.Release()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/token")
	b.ReportMetric(float64(m1.Mallocs-m0.Mallocs-excluded)/float64(b.N), "allocs/token")
	b.ReportMetric(float64(bytesOut)/float64(b.N), "bytes-out/token")
}

func BenchmarkPipelineChatVLLM(b *testing.B)   { benchPipeline(b, api.Chat, false) }
func BenchmarkPipelineChatReplay(b *testing.B) { benchPipeline(b, api.Chat, true) }
func BenchmarkPipelineCompletionsVLLM(b *testing.B) {
	benchPipeline(b, api.Completions, false)
}
func BenchmarkPipelineCompletionsReplay(b *testing.B) {
	benchPipeline(b, api.Completions, true)
}
func BenchmarkPipelineMessagesVLLM(b *testing.B)    { benchPipeline(b, api.Messages, false) }
func BenchmarkPipelineMessagesReplay(b *testing.B)  { benchPipeline(b, api.Messages, true) }
func BenchmarkPipelineResponsesVLLM(b *testing.B)   { benchPipeline(b, api.Responses, false) }
func BenchmarkPipelineResponsesReplay(b *testing.B) { benchPipeline(b, api.Responses, true) }

// TestStepAllocs asserts the hot path: after warm-up, one engine step in
// (vLLM SSE bytes decoded by the vLLM adapter, or token ids from the
// replay engine) and API bytes out allocate nothing, on every API surface.
func TestStepAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation test")
	}
	for _, a := range allAPIs {
		for _, ids := range []bool{false, true} {
			prep, eng, _ := benchSetup(t, a, ids)
			p := &Pipeline{}
			buf := make([]byte, 0, 1<<16)
			for i := 0; i < 3; i++ {
				buf = runRequest(t, p, prep, eng, buf)
			}
			if err := p.Reset(prep, Options{Now: fixedNow, Seed: 1}); err != nil {
				t.Fatal(err)
			}
			st, err := eng.Generate(context.Background(), &prep.Engine)
			if err != nil {
				t.Fatal(err)
			}
			buf = p.Start(buf[:0])
			allocs := testing.AllocsPerRun(100, func() {
				out, err := st.Next()
				if err != nil {
					t.Fatal(err) // the capture has more than 100 steps
				}
				buf, _ = p.Step(buf[:0], out)
			})
			_ = st.Close()
			p.Release()
			if allocs != 0 {
				t.Errorf("%s ids=%v: %.2f allocations per token, want 0", a, ids, allocs)
			}
		}
	}
}

// BenchmarkRequest measures whole requests (the 126-token capture, token
// ids through the Replay engine) on a reused Pipeline: the per-request
// cost that BenchmarkPipeline* leave out (Reset, the envelope and terminal
// events, Generate).
func BenchmarkRequest(b *testing.B) {
	for _, a := range allAPIs {
		b.Run(a.String(), func(b *testing.B) {
			prep, eng, _ := benchSetup(b, a, true)
			p := &Pipeline{}
			buf := make([]byte, 0, 1<<16)
			for i := 0; i < 3; i++ {
				buf = runRequest(b, p, prep, eng, buf)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				buf = runRequest(b, p, prep, eng, buf)
			}
		})
	}
}
