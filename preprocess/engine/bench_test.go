package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	gojson "github.com/goccy/go-json"
	"github.com/valyala/fastjson"
)

// benchStreamChunks is the length of the streams the adapter benchmarks
// read: one Generate per that many chunks, so the per-request cost is
// included but amortized as in a real generation.
const benchStreamChunks = 2000

// benchAdapter reads b.N chunks from eng, opening a new stream whenever
// one ends, and reports ns/chunk and allocs/chunk.
func benchAdapter(b *testing.B, eng Engine, req *Request) {
	b.Helper()
	b.ReportAllocs()
	ctx := context.Background()
	var st Stream
	b.ResetTimer()
	for i := 0; i < b.N; {
		if st == nil {
			var err error
			if st, err = eng.Generate(ctx, req); err != nil {
				b.Fatal(err)
			}
		}
		_, err := st.Next()
		if err == io.EOF {
			st.Close()
			st = nil
			continue
		}
		if err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.StopTimer()
	if st != nil {
		st.Close()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/chunk")
}

func benchHTTP(b *testing.B, name string) {
	for _, p := range httpProtos() {
		if p.name != name {
			continue
		}
		u := newUpstream(b, bulkHandler(bulkBody(p, benchStreamChunks)))
		eng, _ := p.engine(u.URL, Config{})
		benchAdapter(b, eng, textReq())
		return
	}
	b.Fatalf("no protocol %q", name)
}

func BenchmarkAdapterVLLM(b *testing.B)         { benchHTTP(b, "vllm") }
func BenchmarkAdapterSGLang(b *testing.B)       { benchHTTP(b, "sglang") }
func BenchmarkAdapterSGLangOpenAI(b *testing.B) { benchHTTP(b, "sglang-openai") }
func BenchmarkAdapterTRTLLM(b *testing.B)       { benchHTTP(b, "trtllm") }
func BenchmarkAdapterChat(b *testing.B)         { benchHTTP(b, "chat") }

func BenchmarkAdapterReplay(b *testing.B) {
	deltas := strings.Split(strings.Repeat("Hello world, the weather is fine. ", benchStreamChunks/6), " ")
	benchAdapter(b, replayOf(RecordText("t", deltas, FinishEOS)), &Request{MaxTokens: 1 << 20})
}

func BenchmarkAdapterReplayStops(b *testing.B) {
	deltas := strings.Split(strings.Repeat("Hello world, the weather is fine. ", benchStreamChunks/6), " ")
	benchAdapter(b, replayOf(RecordText("t", deltas, FinishEOS)),
		&Request{MaxTokens: 1 << 20, Stop: Stop{Strings: []string{"\nObservation:", "</answer>"}}})
}

// The decoder comparison: one vLLM completions chunk (the common case: a
// token of text, its id, no finish) decoded into what an Output needs.

var benchChunk = []byte(`{"id":"cmpl-8f33c28b","object":"text_completion","created":1763900000,"model":"Qwen/Qwen3-0.6B","choices":[{"index":0,"text":" weather \"in\" Paris","logprobs":null,"finish_reason":null,"stop_reason":null,"token_ids":[9104]}],"usage":null}`)

// BenchmarkDecodeChunkFastjson is the adapters' decoder.
func BenchmarkDecodeChunkFastjson(b *testing.B) {
	var d completionsDecoder
	d.stopField = "stop_reason"
	d.reset(&Request{})
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := d.feed(benchChunk, false); err != nil {
			b.Fatal(err)
		}
		out, _ := d.pop()
		if len(out.Text) == 0 {
			b.Fatal("no text")
		}
	}
}

// chunkStruct is the struct a reflection decoder fills.
type chunkStruct struct {
	Choices []struct {
		Index        int             `json:"index"`
		Text         string          `json:"text"`
		TokenIDs     []uint32        `json:"token_ids"`
		FinishReason *string         `json:"finish_reason"`
		StopReason   json.RawMessage `json:"stop_reason"`
		Logprobs     json.RawMessage `json:"logprobs"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int64 `json:"prompt_tokens"`
		CompletionTokens int64 `json:"completion_tokens"`
	} `json:"usage"`
}

// BenchmarkDecodeChunkGoccy decodes into a reused struct with
// goccy/go-json.
func BenchmarkDecodeChunkGoccy(b *testing.B) {
	var c chunkStruct
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		c.Choices = c.Choices[:0]
		if err := gojson.Unmarshal(benchChunk, &c); err != nil {
			b.Fatal(err)
		}
		if len(c.Choices[0].Text) == 0 {
			b.Fatal("no text")
		}
	}
}

// BenchmarkDecodeChunkEncodingJSON decodes into a reused struct with
// encoding/json.
func BenchmarkDecodeChunkEncodingJSON(b *testing.B) {
	var c chunkStruct
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		c.Choices = c.Choices[:0]
		if err := json.Unmarshal(benchChunk, &c); err != nil {
			b.Fatal(err)
		}
		if len(c.Choices[0].Text) == 0 {
			b.Fatal("no text")
		}
	}
}

// BenchmarkDecodeChunkFastjsonParseOnly is the parse without building the
// Output (the floor of the fastjson approach).
func BenchmarkDecodeChunkFastjsonParseOnly(b *testing.B) {
	var p fastjson.Parser
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		v, err := p.ParseBytes(benchChunk)
		if err != nil {
			b.Fatal(err)
		}
		if !bytes.Contains(v.GetStringBytes("choices", "0", "text"), []byte("Paris")) {
			b.Fatal("no text")
		}
	}
}

// chunkRaw keeps strings as raw JSON (reused, unescaped by the caller):
// the allocation-free way to use a reflection decoder for this job.
type chunkRaw struct {
	Choices []struct {
		Index        int             `json:"index"`
		Text         json.RawMessage `json:"text"`
		TokenIDs     []uint32        `json:"token_ids"`
		FinishReason json.RawMessage `json:"finish_reason"`
		StopReason   json.RawMessage `json:"stop_reason"`
		Logprobs     json.RawMessage `json:"logprobs"`
	} `json:"choices"`
	Usage json.RawMessage `json:"usage"`
}

// BenchmarkDecodeChunkGoccyRaw decodes into a reused struct whose string
// members are json.RawMessage (no unescaping included).
func BenchmarkDecodeChunkGoccyRaw(b *testing.B) {
	var c chunkRaw
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		c.Choices = c.Choices[:0]
		if err := gojson.Unmarshal(benchChunk, &c); err != nil {
			b.Fatal(err)
		}
		if len(c.Choices[0].Text) == 0 {
			b.Fatal("no text")
		}
	}
}

// memTransport answers every request with body from memory: the adapter's
// own cost (SSE framing, decoding, timers) without loopback TCP and the
// upstream's writes.
type memTransport struct{ body []byte }

func (m memTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/event-stream"}},
		Body: io.NopCloser(bytes.NewReader(m.body)), Request: r}, nil
}

func benchMem(b *testing.B, name string) {
	for _, p := range httpProtos() {
		if p.name == name {
			eng, _ := p.engine("http://engine.invalid", Config{Client: &http.Client{Transport: memTransport{bulkBody(p, benchStreamChunks)}}})
			benchAdapter(b, eng, textReq())
			return
		}
	}
	b.Fatalf("no protocol %q", name)
}

func BenchmarkAdapterVLLMInMemory(b *testing.B)   { benchMem(b, "vllm") }
func BenchmarkAdapterSGLangInMemory(b *testing.B) { benchMem(b, "sglang") }
func BenchmarkAdapterChatInMemory(b *testing.B)   { benchMem(b, "chat") }
