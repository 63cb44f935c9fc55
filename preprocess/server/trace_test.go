package server_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/agentwire/agentwire/preprocess"
	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/agentwire/agentwire/preprocess/server"
	"github.com/agentwire/agentwire/preprocess/server/scripted"
	"github.com/stretchr/testify/require"
)

// outputsEngine streams fixed outputs and no usage.
type outputsEngine struct{ outs []engine.Output }

func (e *outputsEngine) Generate(context.Context, *engine.Request) (engine.Stream, error) {
	return &outputsStream{outs: e.outs}, nil
}

type outputsStream struct{ outs []engine.Output }

func (s *outputsStream) Next() (*engine.Output, error) {
	if len(s.outs) == 0 {
		return nil, io.EOF
	}
	out := &s.outs[0]
	s.outs = s.outs[1:]
	return out, nil
}

func (s *outputsStream) Close() error { return nil }

// engineBackend prepares like the scripted agent and generates with eng.
type engineBackend struct {
	scripted.Backend
	eng engine.Engine
}

func (b *engineBackend) Prepare(ctx context.Context, req *server.Job) (*preprocess.Prepared, engine.Engine, error) {
	prep, _, err := b.Backend.Prepare(ctx, req)
	return prep, b.eng, err
}

// TestMetricsCountUsage: the metrics count the tokens the answer reports,
// by the pipeline's one rule, also when the engine sends no usage and
// parses its own output (a reasoning step counts as a token there).
func TestMetricsCountUsage(t *testing.T) {
	eng := &outputsEngine{outs: []engine.Output{
		{Reasoning: []byte("Let me think.")},
		{Text: []byte("Hello"), HasText: true},
		{Text: []byte(" there"), HasText: true, Finish: engine.FinishStop},
	}}
	s, err := server.New(server.Config{Backend: &engineBackend{eng: eng}, Logger: discardLogger()})
	require.NoError(t, err)
	req, _ := http.NewRequest("POST", "/v1/chat/completions", strings.NewReader(`{"model":"agent","messages":[{"role":"user","content":"hi"}]}`))
	rec := newRecorder()
	s.ServeHTTP(rec, req)
	var body struct {
		Usage struct {
			PromptTokens     int `json:"prompt_tokens"`
			CompletionTokens int `json:"completion_tokens"`
		} `json:"usage"`
	}
	require.NoError(t, json.Unmarshal(rec.body.Bytes(), &body), "%d %s", rec.code, rec.body.String())
	require.Equal(t, 200, rec.code, "%s", rec.body.String())
	require.Equal(t, 3, body.Usage.CompletionTokens, "usage %+v, want 3 completion tokens (one per output)", body.Usage)
	require.Greater(t, body.Usage.PromptTokens, 0, "usage %+v, want 3 completion tokens (one per output)", body.Usage)
	mrec := newRecorder()
	s.ServeHTTP(mrec, httptestRequest("GET", "/metrics"))
	for _, want := range []string{
		`agentwire_generation_tokens_total{api="chat"} 3`,
		`agentwire_prompt_tokens_total{api="chat"} ` + itoa(body.Usage.PromptTokens),
		`agentwire_time_to_first_token_seconds_count{api="chat"} 1`,
		`agentwire_inter_token_latency_seconds_count{api="chat"} 2`,
	} {
		require.Contains(t, mrec.body.String(), want+"\n", "metrics lack %q", want)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
