package engine

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/require"
)

// fastChunkSeeds are completions chunks of the common shape and of the
// shapes next to it (the fast path must decode the first and may give up
// on the others, but never disagree with fastjson).
var fastChunkSeeds = []string{
	string(benchChunk),
	`{"id":"cmpl-1","object":"text_completion","created":1,"model":"m","choices":[{"index":1,"text":"v","finish_reason":"length"}],"usage":null}`,
	`{"id":"c","object":"text_completion","created":1,"model":"m","choices":[{"index":0,"text":"a\nb\t\u00e9\/","logprobs":null,"finish_reason":null,"stop_reason":null,"token_ids":[1,2,3]}],"usage":null}`,
	`{"id":"c","object":"text_completion","created":1,"model":"m","choices":[{"index":1,"text":"","logprobs":null,"finish_reason":"stop","stop_reason":"</answer>","token_ids":[]}],"usage":null}`,
	`{"id":"c","object":"text_completion","created":1,"model":"m","choices":[{"index":0,"text":"x","logprobs":null,"finish_reason":"stop","stop_reason":151645,"token_ids":[151645]},{"index":1,"text":"y","finish_reason":"length","stop_reason":null}],"usage":null}`,
	`{"id":"c","object":"text_completion","created":1,"model":"m","choices":[{"index":0,"text":"x","finish_reason":"error: boom","matched_stop":7}],"usage":null}`,
	`{"choices":[{"text":"x","finish_reason":"stop","matched_stop":"END"}]}`,
	` { "choices" : [ { "index" : 0 , "text" : "x" , "token_ids" : null } ] } ` + "\r\n",
	`{"id":"c","object":"text_completion","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":4}}`,
	`{"choices":[{"text":"x","logprobs":{"tokens":["x"],"token_logprobs":[-0.5],"top_logprobs":[{"x":-0.5}]}}]}`,
	`{"object":"error","message":"boom","code":500}`,
	`{"error":{"message":"boom"},"choices":[]}`,
	`{"choices":[{"index":0,"text":"a"}],"choices":[{"index":1,"text":"b"}]}`,
	`{"choices":[{"index":0,"index":1,"text":"a"}]}`,
	`{"choices":[{"\u0069ndex":1,"text":"a"}]}`,
	`{"choices":[{"index":01,"text":"a\ud83d\ude00"}]}`,
	`{"choices":[{"index":0,"text":"a","token_ids":[4294967296]}]}`,
	`{"choices":[{"index":2000,"text":"a"}]}`,
	`{"choices":null}`,
	`{"choices":[{"text":"a\"}]}`,
	`{"choices":[{"text":"a\\"}]} x`,
	`{"id":"cmpl-1","object":"text_completion","created":1,"model":"m","choices":[{"index":0,"text":"v"}],"choices":[],"usage":null}`,
	`{"id":"cmpl-1","object":"text_completion","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":1}}`,
	`{"id":"cmpl-1","object":"text_completion","created":1,"model":"m","choices":[{"index":0,"text":"v"}],"error":{}}`,
	// the warm-up chunks' template with other texts and ids
	`{"id":"cmpl-1","object":"text_completion","created":1,"model":"m","choices":[{"index":0,"text":"a\"b\\n\u00e9\n","logprobs":null,"finish_reason":null,"stop_reason":null}],"usage":null}`,
	`{"id":"cmpl-1","object":"text_completion","created":1,"model":"m","choices":[{"index":0,"text":"","logprobs":null,"finish_reason":null,"stop_reason":null}],"usage":null}`,
	`{"id":"cmpl-1","object":"text_completion","created":1,"model":"m","choices":[{"index":0,"text":"x","logprobs":null,"finish_reason":"stop","stop_reason":null}],"usage":null}`,
	`{"id":"cmpl-1","object":"text_completion","created":1,"model":"m","choices":[{"index":0,"text":"x","logprobs":null,"finish_reason":null,"stop_reason":null}],"usage":null}x`,
	`{"id":"cmpl-1","object":"text_completion","created":1,"model":"m","choices":[{"index":0,"text":"x\ud800","logprobs":null,"finish_reason":null,"stop_reason":null}],"usage":null}`,
	`{"id":"cmpl-1","object":"text_completion","created":1,"model":"m","choices":[{"index":0,"text":"w","logprobs":null,"finish_reason":null,"stop_reason":null,"token_ids":[]}],"usage":null}`,
	`{"id":"cmpl-1","object":"text_completion","created":1,"model":"m","choices":[{"index":0,"text":"","logprobs":null,"finish_reason":null,"stop_reason":null,"token_ids":[ 1 ,2,3 ]}],"usage":null}`,
	`{"id":"cmpl-1","object":"text_completion","created":1,"model":"m","choices":[{"index":0,"text":"w","logprobs":null,"finish_reason":null,"stop_reason":null,"token_ids":[4294967296]}],"usage":null}`,
	`{"id":"cmpl-1","object":"text_completion","created":1,"model":"m","choices":[{"index":0,"text":"w","logprobs":null,"finish_reason":null,"stop_reason":null,"token_ids":[1,]}],"usage":null}`,
	`{"id":"cmpl-1","object":"text_completion","created":1,"model":"m","choices":[{"index":0,"text":"w","logprobs":null,"finish_reason":null,"stop_reason":null,"token_ids":[9]}],"usage":null}`,
}

// decodeBoth decodes data with the fast path (when it accepts it) and
// with fastjson, each on a fresh decoder, and fails on any difference.
func decodeBoth(t *testing.T, data []byte, stopField string, idsOnly bool) (fast bool) {
	t.Helper()
	newDec := func() *completionsDecoder {
		d := &completionsDecoder{stopField: stopField, idsOnly: idsOnly}
		d.reset(&Request{N: 3})
		return d
	}
	jd := newDec()
	jerr := jd.feedJSON(data, false)
	opts := cmp.Options{
		cmpopts.EquateEmpty(),
		cmp.Comparer(func(a, b error) bool { return a == nil && b == nil || a != nil && b != nil && a.Error() == b.Error() }),
	}
	// A fresh decoder; one that remembers the prefix of a common chunk
	// (and may resume after it) and the chunk as a template; one that
	// remembers a chunk with token ids as a template; the first one again
	// on data, now remembering data itself.
	warm, warmIDs := newDec(), newDec()
	warm.feedFast(warmChunk)
	warmIDs.feedFast(warmIDsChunk)
	fresh := newDec()
	for i, fd := range []*completionsDecoder{fresh, warm, warmIDs, warm} {
		if !fd.feedTemplate(data) && !fd.feedFast(data) {
			if i == 0 {
				for _, w := range []*completionsDecoder{warm, warmIDs} {
					require.False(t, w.feedTemplate(data), "%q: the template path accepted what the fast path refuses", data)
				}
				return false
			}
			t.Fatalf("%q: the fast path accepted it fresh, not after a warm-up (%d)", data, i)
		}
		require.NoError(t, jerr, "fast path accepted %q, fastjson fails it", data)
		if diff := cmp.Diff(jd.outs, fd.outs, opts); diff != "" {
			t.Fatalf("%q (stop field %s, ids only %v, run %d): outputs differ (-fastjson +fast):\n%s", data, stopField, idsOnly, i, diff)
		}
		if diff := cmp.Diff(jd.fin, fd.fin, cmp.AllowUnexported(finishTracker{})); diff != "" {
			t.Fatalf("%q (run %d): finish tracking differs (-fastjson +fast):\n%s", data, i, diff)
		}
	}
	return true
}

// warmChunk has the prefix most seeds share (no finish, so the finish
// tracking stays comparable).
var warmChunk = []byte(`{"id":"cmpl-1","object":"text_completion","created":1,"model":"m","choices":[{"index":0,"text":"w","logprobs":null,"finish_reason":null,"stop_reason":null}],"usage":null}`)

// warmIDsChunk is warmChunk with token ids.
var warmIDsChunk = []byte(`{"id":"cmpl-1","object":"text_completion","created":1,"model":"m","choices":[{"index":0,"text":"w","logprobs":null,"finish_reason":null,"stop_reason":null,"token_ids":[7, 8]}],"usage":null}`)

func TestFastPathAgrees(t *testing.T) {
	accepted := 0
	for _, s := range fastChunkSeeds {
		for _, sf := range []string{"stop_reason", "matched_stop"} {
			for _, ids := range []bool{false, true} {
				if decodeBoth(t, []byte(s), sf, ids) {
					accepted++
				}
			}
		}
	}
	// The common shapes (the first eight seeds, under their stop field)
	// must take the fast path, or it is dead code.
	for _, s := range fastChunkSeeds[:8] {
		sf := "stop_reason"
		if strings.Contains(s, "matched_stop") {
			sf = "matched_stop"
		}
		d := &completionsDecoder{stopField: sf}
		d.reset(&Request{N: 3})
		require.True(t, d.feedFast([]byte(s)), "fast path gave up on %s", s)
	}
	// Every chunk of the rendered recordings takes the fast path except
	// the usage chunk.
	for _, name := range fastPathRecordings(t) {
		rec, err := LoadRecording(name)
		require.NoError(t, err)
		for _, line := range bytes.Split(vllmWire(rec, "stop_reason", true), []byte("\n\n")) {
			data, ok := bytes.CutPrefix(line, []byte("data: "))
			if !ok || string(data) == "[DONE]" {
				continue
			}
			require.False(t, !decodeBoth(t, data, "stop_reason", false) && !bytes.Contains(data, []byte(`"usage":{`)), "%s: fast path gave up on %s", name, data)
		}
	}
}

// fastPathRecordings are the vLLM and SGLang recordings of the test data.
func fastPathRecordings(t testing.TB) []string {
	var names []string
	for _, dir := range []string{"vllm/*/*.json", "sglang/*/*.json"} {
		m, err := filepath.Glob(filepath.Join(streamsDir, dir))
		require.NoError(t, err)
		names = append(names, m...)
	}
	return names
}

// FuzzCompletionsFastPath: on any input the fast path either gives up or
// yields exactly what the fastjson path yields.
func FuzzCompletionsFastPath(f *testing.F) {
	for _, s := range fastChunkSeeds {
		f.Add([]byte(s))
	}
	for _, name := range fastPathRecordings(f) {
		rec, err := LoadRecording(name)
		if err != nil {
			continue
		}
		// The first chunks and the last ones (finish, usage) of each:
		// enough shapes, few enough seeds for a short fuzz run.
		lines := bytes.Split(vllmWire(rec, "stop_reason", true), []byte("\n\n"))
		if len(lines) > 8 {
			lines = append(lines[:4:4], lines[len(lines)-4:]...)
		}
		for _, line := range lines {
			if data, ok := bytes.CutPrefix(line, []byte("data: ")); ok {
				f.Add(data)
			}
		}
	}
	if data, err := os.ReadFile(filepath.Join(streamsDir, "replays/agent-harness/text.sse")); err == nil {
		for _, line := range bytes.Split(data, []byte("\n")) {
			if d, ok := bytes.CutPrefix(line, []byte("data: ")); ok {
				f.Add(d)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, sf := range []string{"stop_reason", "matched_stop"} {
			for _, ids := range []bool{false, true} {
				decodeBoth(t, data, sf, ids)
			}
		}
	})
}
