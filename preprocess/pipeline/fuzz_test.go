package pipeline

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentwire/agentwire/preprocess/api"
	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/stretchr/testify/require"
)

// FuzzPipeline feeds arbitrary engine output (text deltas separated by NUL
// bytes, or the same bytes as one token id per byte) with an arbitrary stop
// string through the chat pipeline: no panic, a well-formed stream, and the
// streamed and unary answers agree.
func FuzzPipeline(f *testing.F) {
	for _, c := range loadCaptures(f) {
		f.Add(strings.Join(c.deltas, "\x00"), "", c.toolParser, c.reasoningParser, false)
	}
	f.Add("Hello\x00 world\x00\nObs\x00ervation: x", "\nObservation:", "hermes", "qwen3", true)
	f.Add("<think>\x00a\x00</think>\x00\n\n\x00<tool_call>\x00{\"name\":\"f\",\"arguments\":{}}\x00</tool_call>", "", "hermes", "qwen3", true)
	f.Add("\xc3\x00\xa9\x00\xff\xfe", "\xa9", "", "", true)
	names := map[string]bool{"": true, "hermes": true, "qwen3": true, "harmony": true, "gpt_oss": true,
		"deepseek_v3": true, "deepseek_v3_1": true, "deepseek_v4": true, "nemotron_deci": true}
	v := captureTokenizer(f)
	f.Fuzz(func(t *testing.T, text, stop, tool, reasoning string, ids bool) {
		if !names[tool] || !names[reasoning] || len(text) > 1024 || len(stop) > 64 {
			return
		}
		wd := time.AfterFunc(20*time.Second, func() {
			buf := make([]byte, 1<<20)
			panic(fmt.Sprintf("stuck on %q %q %q %q %v\n%s", text, stop, tool, reasoning, ids, buf[:runtime.Stack(buf, true)]))
		})
		defer wd.Stop()
		var outs []engine.Output
		if ids {
			for i := 0; i < len(text); i++ {
				if text[i] != 0 {
					outs = append(outs, engine.Output{TokenIDs: []uint32{uint32(text[i])}})
				}
			}
		} else {
			for _, d := range strings.Split(text, "\x00") {
				outs = append(outs, engine.Output{Text: []byte(d), HasText: true})
			}
		}
		outs = append(outs, engine.Output{Finish: engine.FinishEOS})
		for _, a := range []api.API{api.Chat, api.Messages, api.Responses} {
			fuzzOne(t, v, a, outs, text, stop, tool, reasoning, ids)
		}
	})
}

func fuzzOne(t *testing.T, v *vocabTok, a api.API, outs []engine.Output, text, stop, tool, reasoning string, ids bool) {
	var got [2]result
	for k, stream := range []bool{true, false} {
		prep := prepFor(a, stream, tool, reasoning)
		if ids {
			prep.Response.Tokenizer = v.tok
			if stop != "" {
				prep.Engine.Stop.Strings = []string{stop}
			}
		}
		eng := newFake(outs)
		r, err := answerErr(eng, prep)
		if err != nil {
			if strings.Contains(err.Error(), "status 400") {
				return // a parser combination the parsers package rejects
			}
			t.Fatal(err)
		}
		require.Equal(t, 1, eng.closed, "stream closed %d times", eng.closed)
		got[k] = r
	}
	if d := cmp.Diff(got[0], got[1], cmpResult); d != "" {
		t.Fatalf("%s: streamed and unary differ:\n%s", a, d)
	}
	require.False(t, ids && stop != "" && !bytes.Contains([]byte(text), []byte{0}) && strings.Contains(got[0].Content, stop) && tool == "" && reasoning == "", fmt.Sprintf("stop string %q in content %q", stop, got[0].Content))
}
