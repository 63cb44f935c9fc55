package pipeline

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentwire/agentwire/preprocess"
	"github.com/agentwire/agentwire/preprocess/api"
	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/stretchr/testify/require"
)

var fixedNow = func() time.Time { return time.Unix(1700000000, 0) }

// serve runs prep on eng through ServeWith and returns the response.
func serve(t testing.TB, eng engine.Engine, prep *preprocess.Prepared) *httptest.ResponseRecorder {
	t.Helper()
	w := httptest.NewRecorder()
	_ = ServeWith(context.Background(), w, eng, prep, Options{Now: fixedNow, Seed: 7})
	return w
}

// answer serves prep and decodes the answer (stream or unary).
func answer(t testing.TB, eng engine.Engine, prep *preprocess.Prepared) result {
	t.Helper()
	r, err := answerErr(eng, prep)
	require.NoError(t, err)
	return r
}

// answerErr is answer for any goroutine.
func answerErr(eng engine.Engine, prep *preprocess.Prepared) (result, error) {
	w := httptest.NewRecorder()
	_ = ServeWith(context.Background(), w, eng, prep, Options{Now: fixedNow, Seed: 7})
	if w.Code != 200 {
		return result{}, fmt.Errorf("status %d: %s", w.Code, w.Body)
	}
	var r result
	var err error
	if prep.Stream {
		if ct := w.Header().Get("Content-Type"); ct != "text/event-stream" {
			return r, fmt.Errorf("content type %q", ct)
		}
		r, err = streamResult(prep.API, w.Body.Bytes())
	} else {
		r, err = unaryResult(prep.API, w.Body.Bytes())
	}
	if err != nil {
		return r, fmt.Errorf("%v\n%s", err, w.Body)
	}
	return r, nil
}

// framed applies the whitespace framing rule to a parse whose content is
// one run (true of every capture): whitespace-only content is dropped, and
// content after reasoning loses its leading whitespace.
func framed(c capture) result {
	want := result{Content: c.want.Content, Reasoning: c.want.Reasoning, Finish: "stop"}
	switch {
	case strings.TrimLeft(want.Content, " \t\r\n") == "":
		want.Content = ""
	case want.Reasoning != "":
		want.Content = strings.TrimLeft(want.Content, " \t\r\n")
	}
	for _, tc := range c.want.Calls {
		want.Calls = append(want.Calls, call{Name: tc.Name, Args: compactJSON(tc.Arguments)})
	}
	if len(want.Calls) > 0 {
		want.Finish = "tool"
	}
	if c.finish == "length" {
		want.Finish = "length"
	}
	return want
}

var cmpResult = cmp.Options{
	cmp.Comparer(func(a, b call) bool { return a.Name == b.Name && sameArgs(a.Args, b.Args) }),
	cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Usage" }, cmp.Ignore()),
}

// TestCaptures replays every capture through every API surface, streamed
// and unary, from a text engine and from a token-id engine, and checks the
// expected content, reasoning, tool calls and finish — and that the
// streamed and unary answers agree.
func TestCaptures(t *testing.T) {
	caps := loadCaptures(t)
	require.GreaterOrEqual(t, len(caps), 27, "%d captures", len(caps))
	v := captureTokenizer(t)
	for _, c := range caps {
		t.Run(c.name, func(t *testing.T) {
			want := framed(c)
			raw := result{Content: strings.Join(c.deltas, ""), Finish: want.Finish}
			if raw.Finish == "tool" {
				raw.Finish = "stop"
			}
			for _, a := range allAPIs {
				for _, ids := range []bool{false, true} {
					var got [2]result
					for k, stream := range []bool{true, false} {
						prep := prepFor(a, stream, c.toolParser, c.reasoningParser)
						var outs []engine.Output
						if ids {
							prep.Response.Tokenizer = v.tok
							prep.Engine.Stop.HiddenIDs = []uint32{v.eos}
							outs = v.idOutputs(t, c.deltas, engineFinish(c.finish))
						} else {
							outs = textOutputs(c.deltas, engineFinish(c.finish))
						}
						got[k] = answer(t, newFake(outs), prep)
						w := want
						if a == api.Completions {
							w = raw
						}
						if d := cmp.Diff(w, got[k], cmpResult); d != "" {
							t.Errorf("%s stream=%v ids=%v (-want +got):\n%s", a, stream, ids, d)
						}
					}
					if d := cmp.Diff(got[0], got[1], cmpResult); d != "" {
						t.Errorf("%s ids=%v: streamed and unary answers differ (-stream +unary):\n%s", a, ids, d)
					}
				}
			}
		})
	}
}

// TestChoicesLimit: engine.MaxChoices is the one bound on n, the
// pipeline's and the engines': n at the bound is served, one more is the
// API's 400 before the engine is asked.
func TestChoicesLimit(t *testing.T) {
	for _, a := range []api.API{api.Chat, api.Completions} {
		prep := prepFor(a, false, "", "")
		prep.Engine.N = engine.MaxChoices
		rec := engine.RecordText("limit", []string{"hi"}, engine.FinishStop)
		eng := &engine.Replay{Select: func(*engine.Request) (engine.Source, error) { return rec, nil }}
		w := serve(t, eng, prep)
		require.Equal(t, 200, w.Code, "%s: n = %d: %d %.300s", a, engine.MaxChoices, w.Code, w.Body)
		require.Equal(t, engine.MaxChoices, strings.Count(w.Body.String(), `"index":`), "%s: n = %d: %d %.300s", a, engine.MaxChoices, w.Code, w.Body)
		prep.Engine.N = engine.MaxChoices + 1
		w = serve(t, eng, prep)
		require.Equal(t, 400, w.Code, "%s: n = %d: %s", a, engine.MaxChoices+1, w.Body)
		require.Contains(t, w.Body.String(), fmt.Sprintf("n must be at most %d", engine.MaxChoices), "%s: n = %d", a, engine.MaxChoices+1)
		_, err := eng.Generate(context.Background(), &prep.Engine)
		require.Error(t, err, "the replay engine took n = %d", prep.Engine.N)
	}
}
