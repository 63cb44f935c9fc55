package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Names returns the keys of recs, sorted (a test helper: the tests walk
// the captures in a stable order).
func Names(recs map[string]*Recording) []string { return slices.Sorted(maps.Keys(recs)) }

// streamsDir holds the captured engine streams (see its README).
const streamsDir = "../../testdata/engine-streams"

var (
	recsOnce sync.Once
	recsAll  map[string]*Recording
	recsErr  error
)

// recordings loads every capture of testdata/engine-streams once.
func recordings(t testing.TB) map[string]*Recording {
	t.Helper()
	recsOnce.Do(func() { recsAll, recsErr = LoadRecordings(streamsDir) })
	require.NoError(t, recsErr)
	return recsAll
}

// rawCaptures are the captures of raw engine text (vLLM and SGLang runs
// without their own parsers): every step is a text delta.
func rawCaptures(t testing.TB) []string {
	var names []string
	for _, n := range Names(recordings(t)) {
		if strings.HasPrefix(n, "vllm/") || strings.HasPrefix(n, "sglang/") || strings.HasPrefix(n, "replays/stream_interval") ||
			strings.HasPrefix(n, "replays/tool-calling") {
			names = append(names, n)
		}
	}
	return names
}

// fakeID is the token id the wire renderings give the i-th text step.
func fakeID(i int) uint32 { return uint32(1000 + i) }

// usageOf is the usage the wire renderings report for rec.
func usageOf(rec *Recording) Usage {
	n := int64(0)
	for _, s := range rec.Steps {
		if s.HasText && len(s.Text) > 0 {
			n++
		}
	}
	return Usage{PromptTokens: 12, CompletionTokens: n, CachedTokens: 4}
}

// finishWire is the OpenAI finish_reason of f.
func finishWire(f Finish) string {
	switch f {
	case FinishLength:
		return "length"
	case FinishCancelled:
		return "abort"
	case FinishContentFilter:
		return "content_filter"
	}
	return "stop"
}

func jsonStr(s []byte) string {
	b, _ := json.Marshal(string(s))
	return string(b)
}

// vllmWire renders rec as vLLM streams it from /v1/completions with
// return_token_ids and include_usage: one text_completion chunk per step,
// the finish on the last, a usage chunk, [DONE].
func vllmWire(rec *Recording, stopField string, ids bool) []byte {
	var b bytes.Buffer
	i := 0
	for k, s := range rec.Steps {
		last := k == len(rec.Steps)-1
		if !last && !(s.HasText && len(s.Text) > 0) {
			continue
		}
		b.WriteString(`data: {"id":"cmpl-1","object":"text_completion","created":1,"model":"m","choices":[{"index":0,"text":`)
		b.WriteString(jsonStr(s.Text))
		b.WriteString(`,"logprobs":null`)
		if ids && len(s.Text) > 0 {
			b.WriteString(`,"token_ids":[` + strconv.Itoa(int(fakeID(i))) + `]`)
		}
		if len(s.Text) > 0 {
			i++
		}
		if last {
			b.WriteString(`,"finish_reason":"` + finishWire(s.Finish) + `","` + stopField + `":null}]`)
		} else {
			b.WriteString(`,"finish_reason":null,"` + stopField + `":null}]`)
		}
		b.WriteString(`,"usage":null}` + "\n\n")
	}
	u := usageOf(rec)
	b.WriteString(`data: {"id":"cmpl-1","object":"text_completion","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":` +
		strconv.FormatInt(u.PromptTokens, 10) + `,"total_tokens":0,"completion_tokens":` + strconv.FormatInt(u.CompletionTokens, 10) +
		`,"prompt_tokens_details":{"cached_tokens":` + strconv.FormatInt(u.CachedTokens, 10) + `}}}` + "\n\n")
	b.WriteString("data: [DONE]\n\n")
	return b.Bytes()
}

// upstream is an httptest engine: it records each request body and
// answers with handle.
type upstream struct {
	*httptest.Server
	mu     sync.Mutex
	bodies [][]byte
	paths  []string
	header []http.Header
}

func newUpstream(t testing.TB, handle func(w http.ResponseWriter, r *http.Request)) *upstream {
	t.Helper()
	u := &upstream{}
	u.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		u.mu.Lock()
		u.bodies = append(u.bodies, body)
		u.paths = append(u.paths, r.URL.Path)
		u.header = append(u.header, r.Header.Clone())
		u.mu.Unlock()
		handle(w, r)
	}))
	t.Cleanup(u.Close)
	return u
}

func (u *upstream) lastBody() []byte {
	u.mu.Lock()
	defer u.mu.Unlock()
	if len(u.bodies) == 0 {
		return nil
	}
	return u.bodies[len(u.bodies)-1]
}

// sseHandler streams events (each already framed) with a flush after each.
func sseHandler(body []byte) func(w http.ResponseWriter, r *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fl := w.(http.Flusher)
		for _, ev := range bytes.SplitAfter(body, []byte("\n\n")) {
			if len(ev) == 0 {
				continue
			}
			if _, err := w.Write(ev); err != nil {
				return
			}
			fl.Flush()
		}
	}
}

// collected is what a stream yielded, per choice.
type collected struct {
	text      map[int]string
	reasoning map[int]string
	ids       map[int][]uint32
	finish    map[int]Finish
	stop      map[int]string
	usage     *Usage
	steps     int
	calls     map[int][]ToolCallDelta
}

// drain reads st to the end, copying what each output holds.
func drain(st Stream) (collected, error) {
	c := collected{text: map[int]string{}, reasoning: map[int]string{}, ids: map[int][]uint32{},
		finish: map[int]Finish{}, stop: map[int]string{}, calls: map[int][]ToolCallDelta{}}
	for {
		out, err := st.Next()
		if err == io.EOF {
			return c, nil
		}
		if err != nil {
			return c, err
		}
		c.steps++
		c.text[out.Index] += string(out.Text)
		c.reasoning[out.Index] += string(out.Reasoning)
		c.ids[out.Index] = append(c.ids[out.Index], out.TokenIDs...)
		for _, tc := range out.ToolCalls {
			c.calls[out.Index] = append(c.calls[out.Index], ToolCallDelta{Index: tc.Index, ID: bytes.Clone(tc.ID),
				Name: bytes.Clone(tc.Name), Arguments: bytes.Clone(tc.Arguments)})
		}
		if out.Finish != FinishNone {
			c.finish[out.Index] = out.Finish
			if len(out.StopReason) > 0 {
				c.stop[out.Index] = string(out.StopReason)
			}
		}
		if out.Usage != nil {
			u := *out.Usage
			c.usage = &u
		}
	}
}

// errKind returns err's kind, or -1 when it is not an *Error.
func errKind(err error) int {
	var e *Error
	if errors.As(err, &e) {
		return int(e.Kind)
	}
	return -1
}

// checkGoroutines fails t when goroutines started during the test are
// still running after a settle period. Call it first with defer.
func checkGoroutines(t *testing.T, clients ...*http.Client) func() {
	t.Helper()
	before := runtime.NumGoroutine()
	return func() {
		t.Helper()
		deadline := time.Now().Add(3 * time.Second)
		for {
			for _, c := range clients {
				c.CloseIdleConnections()
			}
			n := runtime.NumGoroutine()
			if n <= before {
				return
			}
			if time.Now().After(deadline) {
				buf := make([]byte, 1<<16)
				buf = buf[:runtime.Stack(buf, true)]
				t.Fatalf("%d goroutines before, %d after:\n%s", before, n, buf)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

func ptr[T any](v T) *T { return &v }

func ctxTimeout(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}
