package engine

import (
	"bytes"
	"context"
	"errors"
	"io"
	"mime"
	"net"
	"net/http"
	"net/http/httptrace"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/valyala/fastjson"

	"github.com/agentwire/agentwire/protocols"
)

// Config is the HTTP client configuration shared by the HTTP adapters
// (vLLM, SGLang, trtllm-serve, OpenAI-compatible chat): the base URL, the
// *http.Client, the API key (sent as a Bearer token), extra headers and
// the limits. Every HTTP adapter behaves alike:
//
//   - Request.RequestID is also sent as X-Request-Id, and Request.Header
//     (per-request session and routing headers) after Config.Header.
//   - The caller's context cancels the upstream request: a client that
//     goes away stops the generation, and so does Stream.Close.
//   - Three timeouts, each an ErrorTimeout: connect (until a connection
//     is obtained), first token (from the connection to the first event)
//     and idle (between two reads of the stream).
//   - Reads are bounded: a line or an event over MaxLineBytes /
//     MaxEventBytes fails the stream with ErrorMalformed, and at most
//     MaxErrorBytes of an error body are read; messages are cut to 512
//     bytes.
//   - The stream reader tolerates what engines and gateways send besides
//     data: comments, events with empty data, events named "ping", and
//     chunks without choices ("{}") are skipped.
//
// How failures are classified is written on Error; how the stream is
// read without allocating, on httpStream.
type Config struct {
	// BaseURL is the engine's address. For the OpenAI-compatible adapters
	// it is the API root including /v1 ("http://127.0.0.1:8000/v1"; a
	// missing /v1 is added); for SGLang's native API the server root
	// ("http://127.0.0.1:30000").
	BaseURL string

	// Client sends the requests. nil: a client of its own with a clone of
	// http.DefaultTransport (keep-alive pool per adapter, MaxIdleConns
	// idle connections). Its Timeout must be 0 for streams; use the
	// timeouts below instead.
	Client *http.Client

	// APIKey, when set, is sent as "Authorization: Bearer APIKey" (vLLM's
	// --api-key, SGLang's --api-key, trtllm-serve behind a gateway).
	APIKey string

	// Header holds extra request headers (routing hints, tracing).
	Header http.Header

	// ConnectTimeout bounds the time until a connection to the engine is
	// established (default 10s). FirstTokenTimeout bounds the time from
	// the connection to the first streamed event (queueing and prefill;
	// default 10m). IdleTimeout bounds the silence between two reads of
	// the stream (default 2m). A negative value disables that timeout.
	// Each gives an ErrorTimeout error.
	ConnectTimeout    time.Duration
	FirstTokenTimeout time.Duration
	IdleTimeout       time.Duration

	// MaxLineBytes bounds one line of the engine's stream and MaxEventBytes
	// one event (defaults 8 MiB each); a longer one fails the stream with
	// ErrorMalformed. MaxErrorBytes bounds how much of an error body is read
	// (default 64 KiB).
	MaxLineBytes  int
	MaxEventBytes int
	MaxErrorBytes int

	// MaxIdleConns is how many idle keep-alive connections to the engine
	// the adapter's own client keeps (default 64; net/http's default is 2
	// per host, so a server with more requests in flight opens and closes
	// connections all the time). Size it to the requests in flight. Not
	// used with Client.
	MaxIdleConns int
}

const (
	defaultConnectTimeout    = 10 * time.Second
	defaultFirstTokenTimeout = 10 * time.Minute
	defaultIdleTimeout       = 2 * time.Minute
	defaultMaxLine           = 8 << 20
	defaultMaxErrorBytes     = 64 << 10
	defaultMaxIdleConns      = 64
)

// client is the resolved Config every HTTP adapter embeds.
type client struct {
	url       string // the endpoint URL
	hc        *http.Client
	header    http.Header
	connect   time.Duration
	first     time.Duration
	idle      time.Duration
	maxLine   int
	maxEvent  int
	maxErrBdy int
}

// newClient resolves cfg for the endpoint path (appended to BaseURL).
func newClient(cfg Config, path string) client {
	c := client{
		hc:        cfg.Client,
		connect:   pick(cfg.ConnectTimeout, defaultConnectTimeout),
		first:     pick(cfg.FirstTokenTimeout, defaultFirstTokenTimeout),
		idle:      pick(cfg.IdleTimeout, defaultIdleTimeout),
		maxLine:   cfg.MaxLineBytes,
		maxEvent:  cfg.MaxEventBytes,
		maxErrBdy: cfg.MaxErrorBytes,
	}
	if c.hc == nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.MaxIdleConns = cfg.MaxIdleConns
		if tr.MaxIdleConns <= 0 {
			tr.MaxIdleConns = defaultMaxIdleConns
		}
		tr.MaxIdleConnsPerHost = tr.MaxIdleConns
		c.hc = &http.Client{Transport: tr}
	}
	if c.maxLine <= 0 {
		c.maxLine = defaultMaxLine
	}
	if c.maxEvent <= 0 {
		c.maxEvent = defaultMaxLine
	}
	if c.maxErrBdy <= 0 {
		c.maxErrBdy = defaultMaxErrorBytes
	}
	c.url = strings.TrimRight(cfg.BaseURL, "/") + path
	c.header = http.Header{}
	for k, v := range cfg.Header {
		c.header[k] = append([]string(nil), v...)
	}
	c.header.Set("Content-Type", "application/json")
	c.header.Set("Accept", "text/event-stream")
	if cfg.APIKey != "" {
		c.header.Set("Authorization", "Bearer "+cfg.APIKey)
	}
	return c
}

// openAIBase returns base with a trailing /v1 (added when missing).
func openAIBase(base string) string {
	base = strings.TrimRight(base, "/")
	if !strings.HasSuffix(base, "/v1") {
		base += "/v1"
	}
	return base
}

func pick(d, def time.Duration) time.Duration {
	switch {
	case d < 0:
		return 0
	case d == 0:
		return def
	}
	return d
}

// decoder turns the data payloads of one engine protocol into Outputs.
// One decoder serves one stream at a time; reset prepares it for the next.
type decoder interface {
	// reset prepares the decoder for req's stream.
	reset(req *Request)
	// feed decodes one event's data (never "[DONE]"); isError says the
	// event was named "error". Afterwards pop returns its outputs.
	feed(data []byte, isError bool) error
	// pop returns the next output of the last fed event, if any. The
	// output is valid until the next feed.
	pop() (*Output, bool)
	// finished reports whether every choice has reported its finish.
	finished() bool
}

// ErrConnectTimeout is the cause of an ErrorTimeout error whose engine
// never accepted the connection (Config.ConnectTimeout): nothing reached
// the engine, so another replica may take the request
// (errors.Is(err, ErrConnectTimeout)).
var ErrConnectTimeout = errors.New("engine connect timeout")

// timeout causes, told apart by context.Cause.
var (
	errFirstTokenTimeout = errors.New("engine first-token timeout")
	errIdleTimeout       = errors.New("engine idle timeout")
	errClosed            = errors.New("engine stream closed")
)

const (
	phaseConnect int32 = iota
	phaseFirst
	phaseIdle
	phaseDone
)

// httpStream is the Stream of every HTTP adapter: it owns the upstream
// request (canceled by the caller's context, by a timeout or by Close),
// reads the SSE body with bounded buffers and hands each event's data to
// the protocol's decoder.
//
// The body is read by a small SSE reader that reuses its buffer
// (sseReader: protocols/sse is a general reader; this one only keeps the
// data of an event, bounds events as well as lines and never copies a
// line twice). Upstream JSON is decoded with github.com/valyala/fastjson,
// one reused Parser per stream: Next allocates nothing per chunk after
// warm-up. The completions adapters first try a hand-written scanner for
// the chunk the engines send for almost every token (one or more choices
// with text, token ids and a finish reason; null logprobs and usage; see
// fastchunk.go); it gives up on anything else, which fastjson then
// decodes, and a fuzz target checks that both decode every chunk the
// scanner accepts identically.
//
// One timer per stream implements the three timeouts: it is armed with
// the connect timeout, re-armed with the first-token timeout when the
// connection is obtained, and with the idle timeout on every read that
// returns bytes. When it fires it cancels the request with the phase's
// cause, so a blocked read returns at once.
type httpStream struct {
	c       *client
	parent  context.Context
	ctx     context.Context
	w       *watch // per request: a late timer never touches the next request
	body    io.ReadCloser
	sse     sseReader
	dec     decoder
	done    bool  // [DONE] seen or the stream failed: Next returns err
	err     error // the terminal error (io.EOF after [DONE])
	closed  bool
	reads   bodyReader
	put     func(*httpStream) // returns the stream to its adapter's pool
	scratch [512]byte         // drain buffer
}

// bodyReader re-arms the idle timer after every read that returned bytes.
type bodyReader struct{ s *httpStream }

func (r bodyReader) Read(p []byte) (int, error) {
	n, err := r.s.body.Read(p)
	if n > 0 && r.s.c.idle > 0 && r.s.w.phase.Load() == phaseIdle {
		r.s.w.timer.Reset(r.s.c.idle)
	}
	return n, err
}

// watch is the per-request timeout state: the phase, the timer and the
// request's cancel function.
type watch struct {
	phase  atomic.Int32
	timer  *time.Timer
	cancel context.CancelCauseFunc
}

// fire is the timer callback: it cancels the request with the phase's cause.
func (w *watch) fire() {
	switch w.phase.Load() {
	case phaseConnect:
		w.cancel(ErrConnectTimeout)
	case phaseFirst:
		w.cancel(errFirstTokenTimeout)
	case phaseIdle:
		w.cancel(errIdleTimeout)
	}
}

// arm sets the phase and re-arms the timer for it (d 0: no timeout).
func (w *watch) arm(phase int32, d time.Duration) {
	w.phase.Store(phase)
	if d > 0 {
		w.timer.Reset(d)
	} else {
		w.timer.Stop()
	}
}

// start sends body to the engine and returns the stream once the engine
// answered with a 2xx status and an event stream.
func (c *client) start(ctx context.Context, s *httpStream, body []byte, requestID string, header http.Header) error {
	if err := ctx.Err(); err != nil {
		return ctxError(err)
	}
	s.c, s.parent = c, ctx
	s.done, s.err, s.closed = false, nil, false
	w := &watch{}
	s.w = w
	s.ctx, w.cancel = context.WithCancelCause(ctx)
	w.timer = time.AfterFunc(time.Hour, w.fire)
	w.arm(phaseConnect, c.connect)
	first := c.first
	trace := &httptrace.ClientTrace{GotConn: func(httptrace.GotConnInfo) {
		if w.phase.Load() == phaseConnect {
			w.arm(phaseFirst, first)
		}
	}}
	req, err := http.NewRequestWithContext(httptrace.WithClientTrace(s.ctx, trace), http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		s.stop()
		return newError(ErrorBadRequest, 0, "engine request: "+err.Error())
	}
	for k, v := range c.header {
		req.Header[k] = v
	}
	for k, v := range header {
		req.Header[http.CanonicalHeaderKey(k)] = v
	}
	if requestID != "" {
		req.Header.Set("X-Request-Id", requestID)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		e := s.mapErr(err)
		s.stop()
		return e
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		defer s.stop()
		defer resp.Body.Close()
		msg, rerr := io.ReadAll(io.LimitReader(resp.Body, int64(c.maxErrBdy)))
		if rerr != nil && len(msg) == 0 {
			return s.mapErr(rerr)
		}
		return httpError(resp.StatusCode, msg)
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt == "application/json" {
		// The engine ignored "stream": true or answered an error with 200.
		defer s.stop()
		defer resp.Body.Close()
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, int64(c.maxErrBdy)))
		if e := bodyError(msg); e != nil {
			return e
		}
		return newError(ErrorMalformed, resp.StatusCode, "engine answered a JSON body instead of an event stream")
	}
	if w.phase.Load() == phaseConnect {
		w.arm(phaseFirst, c.first)
	}
	s.body = resp.Body
	s.reads = bodyReader{s: s}
	s.sse.reset(s.reads, c.maxLine, c.maxEvent)
	return nil
}

// bodyError returns the error a 200 JSON body carries, or nil.
func bodyError(body []byte) *Error {
	var p fastjson.Parser
	v, err := p.ParseBytes(body)
	if err != nil || v.Type() != fastjson.TypeObject {
		return nil
	}
	if v.Get("error") == nil && string(v.GetStringBytes("object")) != "error" {
		return nil
	}
	return streamError(v)
}

// Next implements Stream.
func (s *httpStream) Next() (*Output, error) {
	if s.done {
		return nil, s.err
	}
	for {
		if out, ok := s.dec.pop(); ok {
			return out, nil
		}
		data, isErr, err := s.sse.next()
		if err != nil {
			if err == io.EOF {
				if s.dec.finished() {
					// Every choice finished; the engine omitted [DONE].
					return nil, s.end(io.EOF)
				}
				if cerr := s.parent.Err(); cerr != nil {
					return nil, s.end(ctxError(cerr))
				}
				return nil, s.end(newError(ErrorUpstream, 0, "the engine's stream ended before it finished ([DONE] missing)"))
			}
			return nil, s.end(s.mapErr(err))
		}
		if s.w.phase.Load() != phaseIdle {
			s.w.arm(phaseIdle, s.c.idle)
		}
		if !isErr && len(data) == 6 && string(data) == "[DONE]" {
			s.drain()
			if !s.dec.finished() {
				// An engine that says it is done without a finish reason
				// for every choice did not finish them: an empty [DONE]
				// is not a normal end.
				return nil, s.end(newError(ErrorUpstream, 0, "the engine's stream ended ([DONE]) before every choice finished"))
			}
			return nil, s.end(io.EOF)
		}
		if err := s.dec.feed(data, isErr); err != nil {
			return nil, s.end(err)
		}
	}
}

// drain reads what follows [DONE] (normally only the end of the chunked
// body) so that the connection goes back to the keep-alive pool; it gives
// up after a few reads or a second.
func (s *httpStream) drain() {
	s.w.arm(phaseIdle, time.Second)
	for i := 0; i < 8; i++ {
		if _, err := s.body.Read(s.scratch[:]); err != nil {
			return
		}
	}
}

// end makes err the stream's terminal error and releases the upstream.
func (s *httpStream) end(err error) error {
	s.done, s.err = true, err
	s.stop()
	return err
}

// mapErr maps a transport or read error: the caller's cancellation, a
// timeout of this stream, a bound exceeded, or a dropped connection.
func (s *httpStream) mapErr(err error) *Error {
	if cerr := s.parent.Err(); cerr != nil {
		return ctxError(cerr)
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	switch cause := context.Cause(s.ctx); cause {
	case ErrConnectTimeout:
		return &Error{Kind: ErrorTimeout, Message: "engine: no connection within " + s.c.connect.String(), Err: cause}
	case errFirstTokenTimeout:
		return &Error{Kind: ErrorTimeout, Message: "engine: no output within " + s.c.first.String(), Err: cause}
	case errIdleTimeout:
		return &Error{Kind: ErrorTimeout, Message: "engine: stream idle for " + s.c.idle.String(), Err: cause}
	case errClosed:
		return &Error{Kind: ErrorCanceled, Message: "engine stream closed", Err: cause}
	}
	switch {
	case errors.Is(err, errLineTooLong), errors.Is(err, errEventTooLarge):
		return newError(ErrorMalformed, 0, err.Error())
	case errors.Is(err, io.ErrUnexpectedEOF):
		return newError(ErrorUpstream, 0, "the engine's connection dropped mid-stream")
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return &Error{Kind: ErrorTimeout, Message: boundMessage("engine: " + err.Error()), Err: err}
	}
	return newError(ErrorUpstream, 0, "engine: "+err.Error())
}

// stop stops the timer and releases the upstream request (idempotent).
func (s *httpStream) stop() {
	if w := s.w; w != nil {
		w.phase.Store(phaseDone)
		w.timer.Stop()
		w.cancel(errClosed)
	}
	if s.body != nil {
		s.body.Close()
		s.body = nil
	}
}

// Close implements Stream: it cancels the upstream request if it is still
// running and returns the stream's buffers to the adapter.
func (s *httpStream) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	s.stop()
	if !s.done {
		s.done, s.err = true, &Error{Kind: ErrorCanceled, Message: "engine stream closed", Err: errClosed}
	}
	if s.put != nil {
		s.put(s)
	}
	return nil
}

// streamPool recycles httpStreams (their read buffers, parser and output
// buffers) across requests of one adapter.
type streamPool struct {
	p          sync.Pool
	newDecoder func() decoder
}

func (p *streamPool) get() *httpStream {
	if s, ok := p.p.Get().(*httpStream); ok {
		return s
	}
	s := &httpStream{dec: p.newDecoder()}
	s.put = p.putStream
	return s
}

func (p *streamPool) putStream(s *httpStream) {
	s.parent, s.ctx, s.w = nil, nil, nil
	s.sse.r = nil
	p.p.Put(s)
}

// generate is the Generate body shared by the HTTP adapters.
func generate(ctx context.Context, c *client, pool *streamPool, req *Request, body []byte) (Stream, error) {
	if req.N > MaxChoices {
		return nil, newError(ErrorBadRequest, 0, "engine request: n is larger than "+strconv.Itoa(MaxChoices))
	}
	s := pool.get()
	s.dec.reset(req)
	if err := c.start(ctx, s, body, req.RequestID, req.Header); err != nil {
		s.closed = true
		pool.putStream(s)
		return nil, err
	}
	return s, nil
}

// ---- request bodies ----

// jsonObj appends a JSON object member by member.
type jsonObj struct {
	b     []byte
	first bool
}

func newObj(b []byte) jsonObj { return jsonObj{b: append(b, '{'), first: true} }

func (o *jsonObj) key(k string) {
	if !o.first {
		o.b = append(o.b, ',')
	}
	o.first = false
	o.b = protocols.AppendJSONString(o.b, k)
	o.b = append(o.b, ':')
}

func (o *jsonObj) str(k, v string) { o.key(k); o.b = protocols.AppendJSONString(o.b, v) }
func (o *jsonObj) int(k string, v int64) {
	o.key(k)
	o.b = strconv.AppendInt(o.b, v, 10)
}
func (o *jsonObj) bool(k string, v bool) { o.key(k); o.b = strconv.AppendBool(o.b, v) }
func (o *jsonObj) raw(k string, v []byte) {
	o.key(k)
	o.b = append(o.b, v...)
}

// float appends a finite float (NaN and infinities are not JSON; they are
// left out, the engine default applies).
func (o *jsonObj) float(k string, v float64) {
	if v != v || v > 1e308 || v < -1e308 {
		return
	}
	o.key(k)
	o.b = strconv.AppendFloat(o.b, v, 'g', -1, 64)
}

func (o *jsonObj) strs(k string, v []string) {
	o.key(k)
	o.b = append(o.b, '[')
	for i, s := range v {
		if i > 0 {
			o.b = append(o.b, ',')
		}
		o.b = protocols.AppendJSONString(o.b, s)
	}
	o.b = append(o.b, ']')
}

func (o *jsonObj) ids(k string, v ...[]uint32) {
	o.key(k)
	o.b = append(o.b, '[')
	n := 0
	for _, ids := range v {
		for _, id := range ids {
			if n > 0 {
				o.b = append(o.b, ',')
			}
			n++
			o.b = strconv.AppendUint(o.b, uint64(id), 10)
		}
	}
	o.b = append(o.b, ']')
}

// extra merges the members of the JSON object extra (Request.ExtraArgs)
// last, so that they override the adapter's own values (the engines'
// Python JSON decoders keep the last of duplicate keys).
func (o *jsonObj) extra(extra []byte) error {
	extra = bytes.TrimSpace(extra)
	if len(extra) == 0 || string(extra) == "null" {
		return nil
	}
	if extra[0] != '{' || extra[len(extra)-1] != '}' || fastjson.ValidateBytes(extra) != nil {
		return newError(ErrorBadRequest, 0, "engine request: ExtraArgs is not a JSON object")
	}
	inner := bytes.TrimSpace(extra[1 : len(extra)-1])
	if len(inner) == 0 {
		return nil
	}
	if !o.first {
		o.b = append(o.b, ',')
	}
	o.first = false
	o.b = append(o.b, inner...)
	return nil
}

func (o *jsonObj) close() []byte { return append(o.b, '}') }
