package engine

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// bulkHandler answers every request with body, written at once (so the
// upstream does no per-chunk work while the client is measured).
func bulkHandler(body []byte) func(w http.ResponseWriter, r *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(body)
	}
}

// bulkBody is n text chunks of p followed by its end events.
func bulkBody(p wireProto, n int) []byte {
	words := []string{"Hello", " world", ",", " the", " weather", " in", " Paris", " is", " 14°C", "\n", "<tool_call>", " \"quoted\\\""}
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(p.chunk(words[i%len(words)]))
	}
	b.WriteString(p.end)
	return []byte(b.String())
}

// TestNextAllocs asserts that Next allocates nothing per chunk in steady
// state on every HTTP adapter, over a real HTTP connection.
func TestNextAllocs(t *testing.T) {
	for _, p := range httpProtos() {
		t.Run(p.name, func(t *testing.T) {
			u := newUpstream(t, bulkHandler(bulkBody(p, 5000)))
			eng, _ := p.engine(u.URL, Config{})
			st, err := eng.Generate(ctxTimeout(t, 20*time.Second), textReq())
			require.NoError(t, err)
			defer st.Close()
			for i := 0; i < 200; i++ { // warm-up: buffers reach their size
				if _, err := st.Next(); err != nil {
					t.Fatal(err)
				}
			}
			allocs := testing.AllocsPerRun(2000, func() {
				if _, err := st.Next(); err != nil {
					t.Fatal(err)
				}
			})
			require.Equal(t, float64(0), allocs, "%v allocations per chunk, want 0", allocs)
		})
	}
}

// TestReplayAllocs asserts the replay engine's Next allocates nothing per
// step, with stop strings active and with token ids.
func TestReplayAllocs(t *testing.T) {
	deltas := strings.Split(strings.Repeat("Hello world, the weather is fine. ", 200), " ")
	text := RecordText("t", deltas, FinishEOS)
	ids := make([]uint32, 5000)
	for i := range ids {
		ids[i] = uint32(i % 1000)
	}
	tok := RecordTokens("ids", ids, FinishEOS)
	for _, tc := range []struct {
		name string
		rec  *Recording
		req  Request
	}{
		{"text", text, Request{MaxTokens: 1 << 20}},
		{"text with stops", text, Request{MaxTokens: 1 << 20, Stop: Stop{Strings: []string{"never seen", "weather was"}}}},
		{"ids", tok, Request{MaxTokens: 1 << 20, Stop: Stop{HiddenIDs: []uint32{99999}}}},
		{"n=2", text, Request{MaxTokens: 1 << 20, N: 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := replayOf(tc.rec).Generate(context.Background(), &tc.req)
			require.NoError(t, err)
			defer st.Close()
			for i := 0; i < 50; i++ {
				st.Next()
			}
			allocs := testing.AllocsPerRun(1000, func() {
				if _, err := st.Next(); err != nil {
					t.Fatal(err)
				}
			})
			require.Equal(t, float64(0), allocs, "%v allocations per step, want 0", allocs)
		})
	}
}
