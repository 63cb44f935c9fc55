package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime/debug"
	"time"

	"github.com/agentwire/agentwire/preprocess/api"
	"github.com/agentwire/agentwire/preprocess/pipeline"
	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/agentwire/agentwire/protocols/openai"
)

// generate serves one generation route: auth, body (within BodyTimeout),
// a concurrency slot, decode and validation, Backend.Prepare, then the
// response pipeline on the Backend's engine, metered by the exchange. The
// slot is taken after the body has arrived: a client that uploads slowly
// holds a connection and its bytes, never a slot.
func (s *Server) generate(route int, a api.API) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		x := s.begin(w, r, route, a)
		defer s.end(x)
		defer s.recoverPanic(x)
		if !s.authorized(r) {
			x.fail(errUnauthorized)
			return
		}
		ctx := r.Context()
		if s.cfg.RequestTimeout > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, s.cfg.RequestTimeout)
			defer cancel()
		}
		body, err := s.readBody(x, r)
		if err != nil {
			x.fail(err)
			return
		}
		if !s.acquire() {
			s.metrics.rejected.Add(1)
			x.fail(errOverloaded)
			return
		}
		defer s.release()
		s.metrics.running.Add(1)
		defer s.metrics.running.Add(-1)

		dec, err := a.Decode(body, api.DecodeOptions{Strict: s.cfg.Strict, MaxBytes: s.decodeMax})
		body = nil
		if err != nil {
			x.fail(err)
			return
		}
		x.model, x.stream = dec.Model(), dec.Stream()
		if err := checkModelName(x.model); err != nil {
			x.fail(err)
			return
		}
		if err := dec.Check(); err != nil {
			x.fail(err)
			return
		}
		req := &Job{ID: x.id, ClientID: x.clientID, Model: x.model, Stream: x.stream, Header: r.Header, Body: dec}
		prep, eng, err := s.cfg.Backend.Prepare(ctx, req)
		if err != nil {
			x.fail(err)
			return
		}
		if prep.Engine.RequestID == "" {
			prep.Engine.RequestID = x.id
		}
		s.applySession(req, &prep.Engine)
		x.session = prep.Engine.SessionID
		x.err = x.serve(ctx, eng, prep, s.pipelineOpts)
	})
}

// recoverPanic turns a panic in a handler (a bug: client input must never
// cause one) into the API's 500 when nothing was written yet, logs it
// with its stack, and aborts the response otherwise.
func (s *Server) recoverPanic(x *exchange) {
	v := recover()
	if v == nil {
		return
	}
	if v == http.ErrAbortHandler {
		panic(v)
	}
	s.log.Error("panic serving a request", "request_id", x.id, "route", routeNames[x.route], "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
	if x.wrote {
		panic(http.ErrAbortHandler) // the client sees the response cut, not a clean end
	}
	x.fail(&protocols.Error{Kind: protocols.ErrorUpstream})
}

// readBody reads the body within the limit (413 in the API's shape) and
// within BodyTimeout (408): the connection's read deadline is set for the
// body and cleared once it has arrived.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	rd := io.Reader(r.Body)
	if s.maxBody > 0 {
		rd = http.MaxBytesReader(w, r.Body, s.maxBody)
	}
	rc := http.NewResponseController(w)
	if s.bodyTimeout > 0 {
		_ = rc.SetReadDeadline(time.Now().Add(s.bodyTimeout))
	}
	// io.ReadAll grows with the bytes received (never with a declared
	// Content-Length, which a client can lie about): at most about twice
	// the body.
	body, err := io.ReadAll(rd)
	if s.bodyTimeout > 0 {
		_ = rc.SetReadDeadline(time.Time{})
	}
	if err != nil {
		// The connection closes after the answer: net/http would otherwise
		// read the rest of the body first (forever, from a client that
		// trickles it).
		w.Header().Set("Connection", "close")
		var tooLarge *http.MaxBytesError
		switch {
		case errors.As(err, &tooLarge):
			return nil, &protocols.Error{Kind: protocols.ErrorRequestTooLarge, Message: "request body too large: the limit is " + formatBytes(s.maxBody)}
		case errors.Is(err, os.ErrDeadlineExceeded):
			// 408 in the API's shape (Anthropic timeout_error), which the
			// SDKs retry.
			return nil, &protocols.Error{Kind: protocols.ErrorRequestTimeout,
				Message: "the request body did not arrive within " + s.bodyTimeout.String()}
		}
		return nil, BadRequest("reading the request body: " + truncate(err.Error(), 200))
	}
	return body, nil
}

// handle wraps the non-generation API routes: auth (errors in errAPI's
// shape), metering and logging.
func (s *Server) handle(route int, errAPI api.API, h func(x *exchange, r *http.Request) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		x := s.begin(w, r, route, errAPI)
		defer s.end(x)
		defer s.recoverPanic(x)
		if !s.authorized(r) {
			x.fail(errUnauthorized)
			return
		}
		if err := h(x, r); err != nil {
			x.fail(err)
		}
	})
}

// readWork reads the body of a route that works with the model
// (count_tokens, /tokenize, /detokenize) and takes a concurrency slot for
// it, as a generation does; release gives the slot back.
func (s *Server) readWork(x *exchange, r *http.Request) (body []byte, release func(), err error) {
	if body, err = s.readBody(x, r); err != nil {
		return nil, nil, err
	}
	if !s.acquire() {
		s.metrics.rejected.Add(1)
		return nil, nil, errOverloaded
	}
	return body, s.release, nil
}

func writeJSON(w http.ResponseWriter, v any) error {
	body, err := pipeline.MarshalJSON(v)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	_, err = w.Write(body)
	return err
}

// countTokens answers POST /v1/messages/count_tokens with the Backend's
// count (its tokenizer and template) or, without a TokenCounter, the
// byte-based estimate.
func (s *Server) countTokens(x *exchange, r *http.Request) error {
	body, release, err := s.readWork(x, r)
	if err != nil {
		return err
	}
	defer release()
	req, err := anthropic.DecodeCountTokensRequest(body, anthropic.DecodeOptions{Strict: s.cfg.Strict, MaxBytes: s.decodeMax})
	if err != nil {
		return err
	}
	x.model = req.Model
	if err := checkModelName(req.Model); err != nil {
		return err
	}
	var n int64
	if tc, ok := s.cfg.Backend.(TokenCounter); ok {
		if n, err = tc.CountTokens(r.Context(), req); err != nil {
			return err
		}
	} else {
		n = req.EstimateTokens()
	}
	x.promptTokens = n
	return writeJSON(x, anthropic.CountTokensResponse{InputTokens: n})
}

// wantsAnthropic reports whether a model listing should use the Anthropic
// shape: Anthropic clients send anthropic-version on every request.
func wantsAnthropic(r *http.Request) bool { return r.Header.Get("Anthropic-Version") != "" }

func (s *Server) listModels(x *exchange, r *http.Request) error {
	cards := s.cfg.Backend.Models()
	if wantsAnthropic(r) {
		list := anthropic.ModelList{Data: make([]anthropic.ModelInfo, len(cards))}
		for i, c := range cards {
			list.Data[i] = anthropicModel(c)
		}
		if len(cards) > 0 {
			list.FirstID = protocols.Some(cards[0].ID)
			list.LastID = protocols.Some(cards[len(cards)-1].ID)
		}
		return writeJSON(x, list)
	}
	list := openai.ModelList{Object: "list", Data: make([]openai.Model, len(cards))}
	for i, c := range cards {
		list.Data[i] = openaiModel(c)
	}
	return writeJSON(x, list)
}

func (s *Server) getModel(x *exchange, r *http.Request) error {
	id := r.PathValue("id")
	for _, c := range s.cfg.Backend.Models() {
		if c.ID == id {
			if wantsAnthropic(r) {
				return writeJSON(x, anthropicModel(c))
			}
			return writeJSON(x, openaiModel(c))
		}
	}
	if wantsAnthropic(r) {
		x.api = api.Messages
	}
	return ModelNotFound(id)
}

func openaiModel(c ModelCard) openai.Model {
	m := openai.Model{ID: c.ID, Object: "model", Created: c.Created.Unix(), OwnedBy: c.OwnedBy}
	if m.OwnedBy == "" {
		m.OwnedBy = "agentwire"
	}
	if c.ContextWindow > 0 {
		m.ContextWindow = protocols.Some(int64(c.ContextWindow))
	}
	if c.MaxOutputTokens > 0 {
		m.MaxOutputTokens = protocols.Some(int64(c.MaxOutputTokens))
	}
	return m
}

func anthropicModel(c ModelCard) anthropic.ModelInfo {
	m := anthropic.ModelInfo{ID: c.ID, DisplayName: c.DisplayName, Type: "model", CreatedAt: c.Created.UTC().Format(time.RFC3339)}
	if m.DisplayName == "" {
		m.DisplayName = c.ID
	}
	if c.ContextWindow > 0 {
		m.MaxInputTokens = protocols.Some(int64(c.ContextWindow))
	}
	if c.MaxOutputTokens > 0 {
		m.MaxTokens = protocols.Some(int64(c.MaxOutputTokens))
	}
	return m
}

func (s *Server) tokenize(x *exchange, r *http.Request) error {
	tk, ok := s.cfg.Backend.(Tokenizer)
	if !ok {
		return errNoTokenizer
	}
	body, release, err := s.readWork(x, r)
	if err != nil {
		return err
	}
	defer release()
	var req openai.TokenizeRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return BadRequest(truncate(err.Error(), 512))
	}
	x.model = req.Model
	resp, err := tk.Tokenize(r.Context(), &req)
	if err != nil {
		return err
	}
	x.promptTokens = int64(resp.Count)
	return writeJSON(x, resp)
}

func (s *Server) detokenize(x *exchange, r *http.Request) error {
	tk, ok := s.cfg.Backend.(Tokenizer)
	if !ok {
		return errNoTokenizer
	}
	body, release, err := s.readWork(x, r)
	if err != nil {
		return err
	}
	defer release()
	var req openai.DetokenizeRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return BadRequest(truncate(err.Error(), 512))
	}
	x.model = req.Model
	resp, err := tk.Detokenize(r.Context(), &req)
	if err != nil {
		return err
	}
	return writeJSON(x, resp)
}

// errNoTokenizer answers /tokenize and /detokenize on a Backend without a
// Tokenizer.
var errNoTokenizer = &protocols.Error{Kind: protocols.ErrorNotImplemented,
	Message: "this server has no tokenizer (start it with a model directory)"}

func formatBytes(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return itoa(n>>20) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return itoa(n>>10) + " KiB"
	}
	return itoa(n) + " bytes"
}
