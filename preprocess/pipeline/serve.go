package pipeline

import (
	"cmp"
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/agentwire/agentwire/preprocess"
	"github.com/agentwire/agentwire/preprocess/api"
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
// server shutting down ends its streams with the API's error event). When
// every choice ended with the engine's own finish, the engine's stream is
// read to its end before the answer ends, so that a usage sent after the
// finish (vLLM's, with the prompt's cache hits) is the answer's, for at
// most Options.UsageWait; a failure there only loses that usage. Serve
// returns the engine or client error, if any, after answering.
func Serve(ctx context.Context, w http.ResponseWriter, eng engine.Engine, prep *preprocess.Prepared) error {
	return ServeWith(ctx, w, eng, prep, Options{})
}

// ServeWith is Serve with Options.
func ServeWith(ctx context.Context, w http.ResponseWriter, eng engine.Engine, prep *preprocess.Prepared, opts Options) error {
	p := pipelines.Get().(*Pipeline)
	defer func() {
		p.Release()
		p.prep, p.opts = nil, Options{} // the pool keeps neither the request nor its trace
		pipelines.Put(p)
	}()
	rc := http.NewResponseController(w)
	if err := p.Reset(prep, opts); err != nil {
		writeDeadline(rc, opts.WriteTimeout)
		api.WriteError(w, prep.API, err)
		return err
	}
	if t := opts.Trace; t != nil && t.Usage != nil {
		defer func() { t.Usage(p.Usage()) }()
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	st, err := eng.Generate(ctx, &prep.Engine)
	if err != nil {
		err = streamErr(ctx, err)
		writeDeadline(rc, opts.WriteTimeout)
		api.WriteError(w, prep.API, err)
		return err
	}
	defer st.Close()
	tail := &trailer{p: p, ctx: ctx, cancel: cancel, wait: cmp.Or(opts.UsageWait, defaultUsageWait)}
	defer tail.stop()
	if !prep.Stream {
		return serveUnary(ctx, w, rc, st, p, prep, tail, opts.WriteTimeout)
	}
	return serveStream(ctx, w, rc, st, p, prep, tail, opts.WriteTimeout)
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

// errTrailer is the cause with which a trailer stops an engine that went
// silent after its finish.
var errTrailer = errors.New("pipeline: no end of the engine's stream after its finish")

// trailer decides how long the engine's stream is read: until every
// choice ended; then, when the engine finished them all by itself, on to
// the end of its stream (its usage may follow the finish), for at most
// wait (the engine's context is then canceled with errTrailer).
type trailer struct {
	p      *Pipeline
	ctx    context.Context
	cancel context.CancelCauseFunc
	wait   time.Duration
	timer  *time.Timer
}

// more reports whether to read another output.
func (t *trailer) more() bool {
	if !t.p.Done() {
		return true
	}
	if t.wait < 0 || !t.p.EngineFinished() {
		return false
	}
	if t.timer == nil {
		t.timer = time.AfterFunc(t.wait, func() { t.cancel(errTrailer) })
	}
	return true
}

// ended reports whether a failure of the stream only ends the trailing
// read (every choice ended, and the client is still there).
func (t *trailer) ended() bool {
	return t.p.Done() && (t.ctx.Err() == nil || context.Cause(t.ctx) == errTrailer)
}

func (t *trailer) stop() {
	if t.timer != nil {
		t.timer.Stop()
	}
}

func serveUnary(ctx context.Context, w http.ResponseWriter, rc *http.ResponseController, st engine.Stream, p *Pipeline, prep *preprocess.Prepared, tail *trailer, wt time.Duration) error {
	if err := drain(ctx, st, p, tail); err != nil {
		writeDeadline(rc, wt)
		api.WriteError(w, prep.API, err)
		return err
	}
	body, err := p.UnaryJSON()
	writeDeadline(rc, wt)
	if err != nil {
		api.WriteError(w, prep.API, err)
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	_, err = w.Write(body)
	return err
}

// drain runs the whole stream through p (unary requests).
func drain(ctx context.Context, st engine.Stream, p *Pipeline, tail *trailer) error {
	for tail.more() {
		out, err := st.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			if tail.ended() {
				break // the answer is whole; only the engine's usage is lost
			}
			return streamErr(ctx, err)
		}
		p.traceOutput(out)
		if _, err := p.Step(nil, out); err != nil {
			return err
		}
	}
	p.Finish(nil)
	return nil
}

// traceOutput hands an engine output to Options.Trace.
func (p *Pipeline) traceOutput(out *engine.Output) {
	if t := p.opts.Trace; t != nil && t.Output != nil {
		t.Output(out)
	}
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

func serveStream(ctx context.Context, w http.ResponseWriter, rc *http.ResponseController, st engine.Stream, p *Pipeline, prep *preprocess.Prepared, tail *trailer, wt time.Duration) error {
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
		if status, _ := prep.API.ErrorBody(err); status == api.StatusClientClosed {
			return err // the client is gone: nothing to write
		}
		if !wrote {
			api.WriteError(w, prep.API, err)
			return err
		}
		buf = p.Fail(buf, err)
		_ = write()
		return err
	}
	// After the last choice ended, an engine that finished by itself is
	// read to its end: its usage (prompt cache hits included) may follow.
	for tail.more() {
		out, err := st.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			if tail.ended() {
				break // the answer is whole; only the engine's usage is lost
			}
			return fail(err)
		}
		p.traceOutput(out)
		// Step writes the envelope first (after taking the output's usage:
		// an engine that reports the prompt's cache hits with its first
		// output has them in Anthropic's message_start).
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
