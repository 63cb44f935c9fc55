package server_test

import (
	"context"
	"io"
	"log/slog"

	"github.com/agentwire/agentwire/preprocess/engine"
)

func discardLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// blockingEngine starts streams that yield nothing until their context
// ends (a request held in flight).
type blockingEngine struct{ started chan struct{} }

func (e *blockingEngine) Generate(ctx context.Context, _ *engine.Request) (engine.Stream, error) {
	select {
	case e.started <- struct{}{}:
	default:
	}
	return blockingStream{ctx}, nil
}

type blockingStream struct{ ctx context.Context }

func (s blockingStream) Next() (*engine.Output, error) {
	<-s.ctx.Done()
	return nil, s.ctx.Err()
}

func (blockingStream) Close() error { return nil }
