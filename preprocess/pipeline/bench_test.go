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
	"time"

	"github.com/agentwire/agentwire/preprocess"
	"github.com/agentwire/agentwire/preprocess/api"
	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/stretchr/testify/require"
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
	require.NoError(tb, p.Reset(prep, Options{Now: fixedNow, Seed: 1}))
	st, err := eng.Generate(context.Background(), &prep.Engine)
	require.NoError(tb, err)
	buf = p.Start(buf[:0])
	for {
		out, err := st.Next()
		if err == io.EOF {
			break
		}
		require.NoError(tb, err)
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
		if err != nil { // an if, not require: require's b.Helper stack walk would be measured
			b.Fatal(err)
		}
		buf, _ = p.Step(buf[:0], out)
		bytesOut += int64(len(buf))
	}
	b.StopTimer()
	runtime.ReadMemStats(&m1)
	_ = st.Close()
	p.Release()
	ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.ReportMetric(ns, "ns/token")
	b.ReportMetric(float64(m1.Mallocs-m0.Mallocs-excluded)/float64(b.N), "allocs/token")
	b.ReportMetric(float64(bytesOut)/float64(b.N), "bytes-out/token")
	if !ids && b.N > 1 {
		b.ReportMetric(naiveNsPerToken(b, a, b.N)/ns, "x-naive")
	}
}

// ---- the naive baseline ----

// The naive path is what a straightforward proxy does per engine chunk:
// encoding/json decodes the vLLM chunk into a struct and encoding/json
// encodes the API's chunk carrying its text (no parsers, no gates), framed
// as SSE. BenchmarkPipeline<API>Naive measure it on the same vLLM body as
// BenchmarkPipeline<API>VLLM, and those report x-naive: how many times
// faster the pipeline is per token (the naive ns/token, measured once per
// API in the same run, over the pipeline's).

// naiveVLLMChunk is a vLLM /v1/completions stream chunk.
type naiveVLLMChunk struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Created int64  `json:"created"`
	Model   string `json:"model"`
	Choices []struct {
		Index        int             `json:"index"`
		Text         string          `json:"text"`
		Logprobs     json.RawMessage `json:"logprobs"`
		FinishReason *string         `json:"finish_reason"`
		StopReason   json.RawMessage `json:"stop_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int64 `json:"prompt_tokens"`
		CompletionTokens int64 `json:"completion_tokens"`
		TotalTokens      int64 `json:"total_tokens"`
	} `json:"usage"`
}

type naiveChatChunk struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Created int64  `json:"created"`
	Model   string `json:"model"`
	Choices []struct {
		Index int `json:"index"`
		Delta struct {
			Content string `json:"content"`
		} `json:"delta"`
		Logprobs     json.RawMessage `json:"logprobs"`
		FinishReason *string         `json:"finish_reason"`
	} `json:"choices"`
}

type naiveCompletionChunk struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Created int64  `json:"created"`
	Model   string `json:"model"`
	Choices []struct {
		Index        int             `json:"index"`
		Text         string          `json:"text"`
		Logprobs     json.RawMessage `json:"logprobs"`
		FinishReason *string         `json:"finish_reason"`
	} `json:"choices"`
}

type naiveMessagesDelta struct {
	Type  string `json:"type"`
	Index int    `json:"index"`
	Delta struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"delta"`
}

type naiveResponsesDelta struct {
	Type           string   `json:"type"`
	SequenceNumber int      `json:"sequence_number"`
	ItemID         string   `json:"item_id"`
	OutputIndex    int      `json:"output_index"`
	ContentIndex   int      `json:"content_index"`
	Delta          string   `json:"delta"`
	Logprobs       []string `json:"logprobs"`
}

// naiveStep runs one SSE event of a vLLM body through the naive path,
// appending the API's bytes to dst.
func naiveStep(dst []byte, a api.API, event []byte, seq int) ([]byte, error) {
	data, ok := bytes.CutPrefix(event, []byte("data: "))
	if !ok || string(data) == "[DONE]" {
		return dst, nil
	}
	var in naiveVLLMChunk
	if err := json.Unmarshal(data, &in); err != nil {
		return dst, err
	}
	if len(in.Choices) == 0 {
		return dst, nil // the usage chunk
	}
	c := &in.Choices[0]
	var v any
	switch a {
	case api.Chat:
		var out naiveChatChunk
		out.ID, out.Object, out.Created, out.Model = "chatcmpl-"+in.ID, "chat.completion.chunk", in.Created, in.Model
		out.Choices = make([]struct {
			Index int `json:"index"`
			Delta struct {
				Content string `json:"content"`
			} `json:"delta"`
			Logprobs     json.RawMessage `json:"logprobs"`
			FinishReason *string         `json:"finish_reason"`
		}, 1)
		out.Choices[0].Index, out.Choices[0].Delta.Content, out.Choices[0].FinishReason = c.Index, c.Text, c.FinishReason
		v = out
	case api.Completions:
		var out naiveCompletionChunk
		out.ID, out.Object, out.Created, out.Model = in.ID, in.Object, in.Created, in.Model
		out.Choices = make([]struct {
			Index        int             `json:"index"`
			Text         string          `json:"text"`
			Logprobs     json.RawMessage `json:"logprobs"`
			FinishReason *string         `json:"finish_reason"`
		}, 1)
		out.Choices[0].Index, out.Choices[0].Text, out.Choices[0].FinishReason = c.Index, c.Text, c.FinishReason
		v = out
	case api.Messages:
		out := naiveMessagesDelta{Type: "content_block_delta", Index: c.Index}
		out.Delta.Type, out.Delta.Text = "text_delta", c.Text
		v = out
		dst = append(dst, "event: content_block_delta\n"...)
	case api.Responses:
		v = naiveResponsesDelta{Type: "response.output_text.delta", SequenceNumber: seq, ItemID: "msg_" + in.ID,
			Delta: c.Text, Logprobs: []string{}}
		dst = append(dst, "event: response.output_text.delta\n"...)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return dst, err
	}
	dst = append(dst, "data: "...)
	dst = append(dst, b...)
	return append(dst, "\n\n"...), nil
}

// naiveLoop runs the naive path over the vLLM body of benchCapture for n
// SSE events (n engine chunks, the pipeline's tokens), returning the
// bytes it wrote.
func naiveLoop(tb testing.TB, a api.API, n int) int64 {
	var c capture
	for _, x := range loadCaptures(tb) {
		if x.name == benchCapture {
			c = x
		}
	}
	body := vllmSSE(c.deltas, "stop")
	rest := body
	var out []byte
	var bytesOut int64
	for i := 0; i < n; i++ {
		j := bytes.Index(rest, []byte("\n\n"))
		if j < 0 {
			rest = body
			j = bytes.Index(rest, []byte("\n\n"))
		}
		var err error
		if out, err = naiveStep(out[:0], a, rest[:j], i); err != nil {
			tb.Fatal(err)
		}
		rest = rest[j+2:]
		bytesOut += int64(len(out))
	}
	return bytesOut
}

// benchNaive measures the naive path per token.
func benchNaive(b *testing.B, a api.API) {
	naiveLoop(b, a, 200) // warm encoding/json's type caches
	b.ReportAllocs()
	b.ResetTimer()
	bytesOut := naiveLoop(b, a, b.N)
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/token")
	b.ReportMetric(float64(bytesOut)/float64(b.N), "bytes-out/token")
}

// naiveNsPerToken times the naive path on n tokens (after a warm-up), for
// the x-naive ratio of a pipeline benchmark measured in the same run.
func naiveNsPerToken(tb testing.TB, a api.API, n int) float64 {
	naiveLoop(tb, a, 200)
	start := time.Now()
	naiveLoop(tb, a, n)
	return float64(time.Since(start).Nanoseconds()) / float64(n)
}

func BenchmarkPipelineChatNaive(b *testing.B)        { benchNaive(b, api.Chat) }
func BenchmarkPipelineCompletionsNaive(b *testing.B) { benchNaive(b, api.Completions) }
func BenchmarkPipelineMessagesNaive(b *testing.B)    { benchNaive(b, api.Messages) }
func BenchmarkPipelineResponsesNaive(b *testing.B)   { benchNaive(b, api.Responses) }

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
			require.NoError(t, p.Reset(prep, Options{Now: fixedNow, Seed: 1}))
			st, err := eng.Generate(context.Background(), &prep.Engine)
			require.NoError(t, err)
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
			require.Equal(t, float64(0), allocs, "%s ids=%v: %.2f allocations per token, want 0", a, ids, allocs)
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
