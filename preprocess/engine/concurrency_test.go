package engine

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestConcurrentStreams runs many streams at once through one adapter of
// each kind (run it with -race): every stream yields its whole text.
func TestConcurrentStreams(t *testing.T) {
	const streams, chunks = 24, 200
	for _, p := range httpProtos() {
		t.Run(p.name, func(t *testing.T) {
			u := newUpstream(t, sseHandler(bulkBody(p, chunks)))
			eng, hc := p.engine(u.URL, Config{})
			defer checkGoroutines(t, hc)()
			runConcurrent(t, eng, streams, chunks)
		})
	}
	t.Run("replay", func(t *testing.T) {
		defer checkGoroutines(t)()
		deltas := make([]string, chunks)
		for i := range deltas {
			deltas[i] = fmt.Sprint(" w", i)
		}
		e := &Replay{Select: func(*Request) (Source, error) { return RecordText("r", deltas, FinishEOS), nil }, PerToken: 10 * time.Microsecond}
		runConcurrent(t, e, streams, chunks)
	})
}

func runConcurrent(t *testing.T, eng Engine, streams, chunks int) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, streams)
	texts := make([]string, streams)
	for i := 0; i < streams; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			st, err := eng.Generate(ctx, textReq())
			if err != nil {
				errs <- err
				return
			}
			defer st.Close()
			got, err := drain(st)
			if err != nil {
				errs <- err
				return
			}
			texts[i] = got.text[0]
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for i := 1; i < streams; i++ {
		require.Equal(t, texts[0], texts[i], "stream %d: %d bytes, stream 0: %d bytes", i, len(texts[i]), len(texts[0]))
		require.GreaterOrEqual(t, len(texts[0]), chunks, "stream %d: %d bytes, stream 0: %d bytes", i, len(texts[i]), len(texts[0]))
	}
}

// TestIdleConnsReused: an adapter's own client keeps MaxIdleConns idle
// connections to the engine, so requests in flight reuse them (net/http's
// two per host made 192 requests at concurrency 16 open 89 connections).
func TestIdleConnsReused(t *testing.T) {
	const concurrency, requests, chunks = 16, 192, 20
	p := httpProtos()[0] // vllm
	var opened atomic.Int64
	u := httptest.NewUnstartedServer(http.HandlerFunc(sseHandler(bulkBody(p, chunks))))
	u.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			opened.Add(1)
		}
	}
	u.Start()
	defer u.Close()
	eng, hc := p.engine(u.URL, Config{MaxIdleConns: concurrency})
	defer checkGoroutines(t, hc)()
	for range requests / concurrency {
		runConcurrent(t, eng, concurrency, chunks)
	}
	n := opened.Load()
	require.LessOrEqual(t, n, int64(concurrency+2), "%d requests at concurrency %d opened %d connections", requests, concurrency, n)
}
