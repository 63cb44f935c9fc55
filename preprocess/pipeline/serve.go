package pipeline

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/agentwire/agentwire/preprocess"
	"github.com/agentwire/agentwire/preprocess/engine"
)

var errStreaming = errors.New("pipeline: the request asked for a stream; there is no unary answer")

var pipelines = sync.Pool{New: func() any { return new(Pipeline) }}

// Serve runs prep on eng and answers on w: an SSE stream (one flush per
// engine step) when the client asked for one, else the unary JSON body.
// The status line, headers and stream envelope are written with the first
// engine output, so that errors before it (the engine refused the request
// or failed before its first output) are answered with the API's error
// status and body; after it, with the API's in-stream error event. Each
// write sets the connection's write deadline (http.ResponseController) to
// Options.WriteTimeout from now, or clears it, so a server WriteTimeout
// does not cut a long stream. Canceling ctx (the client went away) stops
// the engine; when ctx was canceled with a cause (context.WithCancelCause)
// other than the client leaving, the answer is the cause's error (a
// server shutting down ends its streams with the API's error event).
// Serve returns the engine or client error, if any, after answering.
func Serve(ctx context.Context, w http.ResponseWriter, eng engine.Engine, prep *preprocess.Prepared) error {
	return ServeWith(ctx, w, eng, prep, Options{})
}

// ServeWith is Serve with Options.
func ServeWith(ctx context.Context, w http.ResponseWriter, eng engine.Engine, prep *preprocess.Prepared, opts Options) error {
	p := pipelines.Get().(*Pipeline)
	defer func() {
		p.Release()
		p.prep = nil
		pipelines.Put(p)
	}()
	rc := http.NewResponseController(w)
	if err := p.Reset(prep, opts); err != nil {
		writeDeadline(rc, opts.WriteTimeout)
		WriteError(w, prep.API, err)
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	st, err := eng.Generate(ctx, &prep.Engine)
	if err != nil {
		err = streamErr(ctx, err)
		writeDeadline(rc, opts.WriteTimeout)
		WriteError(w, prep.API, err)
		return err
	}
	defer st.Close()
	if !prep.Stream {
		return serveUnary(ctx, w, rc, st, p, prep, opts.WriteTimeout)
	}
	return serveStream(ctx, w, rc, st, p, prep, opts.WriteTimeout)
}

// writeDeadline sets the connection's write deadline d from now (0:
// clears it). Writers that cannot (a test recorder) are left alone.
func writeDeadline(rc *http.ResponseController, d time.Duration) {
	var t time.Time
	if d > 0 {
		t = time.Now().Add(d)
	}
	_ = rc.SetWriteDeadline(t)
}

func serveUnary(ctx context.Context, w http.ResponseWriter, rc *http.ResponseController, st engine.Stream, p *Pipeline, prep *preprocess.Prepared, wt time.Duration) error {
	if err := drain(ctx, st, p); err != nil {
		writeDeadline(rc, wt)
		WriteError(w, prep.API, err)
		return err
	}
	body, err := p.UnaryJSON()
	writeDeadline(rc, wt)
	if err != nil {
		WriteError(w, prep.API, err)
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	_, err = w.Write(body)
	return err
}

// drain runs the whole stream through p (unary requests).
func drain(ctx context.Context, st engine.Stream, p *Pipeline) error {
	for !p.Done() {
		out, err := st.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return streamErr(ctx, err)
		}
		if _, err := p.Step(nil, out); err != nil {
			return err
		}
	}
	p.Finish(nil)
	return nil
}

// streamErr prefers the context's error when the request's context ended
// (the client went away, a deadline expired): its cause when the caller
// gave one (context.WithCancelCause: a server shutting down answers its
// own error), else the context's error.
func streamErr(ctx context.Context, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		if cause := context.Cause(ctx); cause != nil {
			return cause
		}
		return cerr
	}
	return err
}

func serveStream(ctx context.Context, w http.ResponseWriter, rc *http.ResponseController, st engine.Stream, p *Pipeline, prep *preprocess.Prepared, wt time.Duration) error {
	// ResponseController reaches Flush and the write deadline through
	// wrappers that implement Unwrap; a stream is bounded per write
	// (wt), never by the server's WriteTimeout for the whole response.
	writeDeadline(rc, wt)
	buf := p.buf[:0]
	wrote := false
	write := func() error {
		if wt > 0 {
			writeDeadline(rc, wt)
		}
		if !wrote {
			h := w.Header()
			h.Set("Content-Type", "text/event-stream")
			h.Set("Cache-Control", "no-cache")
			h.Set("X-Accel-Buffering", "no")
			w.WriteHeader(http.StatusOK)
			wrote = true
		}
		if len(buf) == 0 {
			return nil
		}
		_, err := w.Write(buf)
		buf = buf[:0]
		if err == nil {
			err = rc.Flush()
			if errors.Is(err, http.ErrNotSupported) {
				err = nil // an unbuffered or test writer
			}
		}
		return err
	}
	fail := func(err error) error {
		err = streamErr(ctx, err)
		if Status(prep.API, err) == StatusCanceled {
			return err // the client is gone: nothing to write
		}
		if !wrote {
			WriteError(w, prep.API, err)
			return err
		}
		buf = p.Fail(buf, err)
		_ = write()
		return err
	}
	for !p.Done() {
		out, err := st.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fail(err)
		}
		if !wrote {
			buf = p.Start(buf)
		}
		if buf, err = p.Step(buf, out); err != nil {
			return fail(err)
		}
		if len(buf) > 0 || !wrote {
			if err := write(); err != nil {
				return streamErr(ctx, err)
			}
		}
	}
	buf = p.Finish(buf)
	err := write()
	p.buf = buf[:0]
	return err
}
