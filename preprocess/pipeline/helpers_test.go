package pipeline

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/agentwire/agentwire/parsers"
	"github.com/agentwire/agentwire/preprocess"
	"github.com/agentwire/agentwire/preprocess/api"
	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/agentwire/agentwire/protocols/convert"
	"github.com/agentwire/agentwire/protocols/responses"
	"github.com/agentwire/agentwire/tokenizers"
	"github.com/stretchr/testify/require"
)

// ---- a fake engine over prepared outputs ----

// fakeEngine replays outs for every Generate. failAt >= 0 makes Next
// return failErr instead of the output at that position.
type fakeEngine struct {
	outs    []engine.Output
	failAt  int
	failErr error
	genErr  error
	block   bool // after the outputs, block until ctx is canceled

	mu     sync.Mutex
	closed int
}

func newFake(outs []engine.Output) *fakeEngine { return &fakeEngine{outs: outs, failAt: -1} }

func (f *fakeEngine) Generate(ctx context.Context, req *engine.Request) (engine.Stream, error) {
	if f.genErr != nil {
		return nil, f.genErr
	}
	return &fakeStream{f: f, ctx: ctx}, nil
}

type fakeStream struct {
	f   *fakeEngine
	ctx context.Context
	i   int
	cur engine.Output
}

func (s *fakeStream) Next() (*engine.Output, error) {
	if err := s.ctx.Err(); err != nil {
		return nil, err
	}
	if s.i == s.f.failAt {
		return nil, s.f.failErr
	}
	if s.i >= len(s.f.outs) {
		if s.f.block {
			<-s.ctx.Done()
			return nil, s.ctx.Err()
		}
		return nil, io.EOF
	}
	s.cur = s.f.outs[s.i]
	s.i++
	return &s.cur, nil
}

func (s *fakeStream) Close() error {
	s.f.mu.Lock()
	s.f.closed++
	s.f.mu.Unlock()
	return nil
}

// ---- captures ----

// capture is one engine stream of testdata/engine-streams with the
// library's expected parse (the parsers package's capture fixtures, which
// decide the cases where Dynamo's legacy expectation differs).
type capture struct {
	name            string
	toolParser      string
	reasoningParser string
	deltas          []string // raw text deltas (delta.content)
	finish          string   // the engine's last finish reason
	want            parsers.Result
}

type fixtureFile struct {
	ToolParsers      []string `json:"tool_parsers"`
	ReasoningParsers []string `json:"reasoning_parsers"`
	Cases            []struct {
		Ref      string         `json:"ref"`
		Input    string         `json:"input"`
		Options  map[string]any `json:"options"`
		Expected struct {
			Content   string `json:"content"`
			Reasoning string `json:"reasoning"`
			Calls     []struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			} `json:"calls"`
		} `json:"expected"`
	} `json:"cases"`
}

var (
	capturesOnce sync.Once
	capturesAll  []capture
	capturesErr  error
)

const streamsDir = "../../testdata/engine-streams"

// loadCaptures reads every vLLM and SGLang capture and pairs it with its
// expected parse from ../../parsers/testdata/captures.
func loadCaptures(t testing.TB) []capture {
	capturesOnce.Do(func() { capturesAll, capturesErr = readCaptures() })
	require.NoError(t, capturesErr)
	return capturesAll
}

func readCaptures() ([]capture, error) {
	fixtures, err := filepath.Glob("../../parsers/testdata/captures/*.json")
	if err != nil {
		return nil, err
	}
	var out []capture
	for _, path := range fixtures {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		var f fixtureFile
		if err := json.Unmarshal(data, &f); err != nil {
			return nil, err
		}
		seen := map[string]bool{}
		for _, c := range f.Cases {
			if len(c.Options) > 0 {
				continue
			}
			rel, _, _ := strings.Cut(c.Ref, " ")
			rel = strings.TrimSuffix(strings.TrimPrefix(rel, "engine-streams/"), ":")
			if seen[rel] {
				continue
			}
			seen[rel] = true
			deltas, finish, err := readStream(filepath.Join(streamsDir, rel))
			if err != nil {
				return nil, err
			}
			if got := strings.Join(deltas, ""); got != c.Input {
				return nil, &json.UnsupportedValueError{Str: rel + ": stream text differs from the fixture input"}
			}
			cp := capture{name: rel, toolParser: f.ToolParsers[0], reasoningParser: f.ReasoningParsers[0],
				deltas: deltas, finish: finish}
			cp.want.Content, cp.want.Reasoning = c.Expected.Content, c.Expected.Reasoning
			for _, call := range c.Expected.Calls {
				args := string(call.Arguments)
				var s string
				if json.Unmarshal(call.Arguments, &s) == nil {
					args = s
				}
				cp.want.Calls = append(cp.want.Calls, parsers.ToolCall{Name: call.Name, Arguments: args})
			}
			out = append(out, cp)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out, nil
}

// readStream returns the content deltas and the last finish reason of a
// capture (current format: input_stream; legacy: data).
func readStream(path string) ([]string, string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, "", err
	}
	var f struct {
		InputStream []struct{ Data json.RawMessage } `json:"input_stream"`
		Data        []struct{ Data json.RawMessage } `json:"data"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, "", err
	}
	items := f.InputStream
	if len(items) == 0 {
		items = f.Data
	}
	var deltas []string
	finish := ""
	for _, it := range items {
		var chunk struct {
			Choices []struct {
				Delta struct {
					Content *string `json:"content"`
				} `json:"delta"`
				FinishReason *string `json:"finish_reason"`
			} `json:"choices"`
		}
		if err := json.Unmarshal(it.Data, &chunk); err != nil {
			return nil, "", err
		}
		for _, ch := range chunk.Choices {
			if ch.Delta.Content != nil && *ch.Delta.Content != "" {
				deltas = append(deltas, *ch.Delta.Content)
			}
			if ch.FinishReason != nil && *ch.FinishReason != "" {
				finish = *ch.FinishReason
			}
		}
	}
	return deltas, finish, nil
}

// textOutputs turns deltas into text-engine outputs; the last carries the
// finish reason and usage.
func textOutputs(deltas []string, finish engine.Finish) []engine.Output {
	outs := make([]engine.Output, len(deltas))
	for i, d := range deltas {
		outs[i] = engine.Output{Text: []byte(d), HasText: true}
	}
	if len(outs) == 0 {
		outs = append(outs, engine.Output{HasText: true})
	}
	outs[len(outs)-1].Finish = finish
	outs[len(outs)-1].Usage = &engine.Usage{PromptTokens: 12, CompletionTokens: int64(len(deltas))}
	return outs
}

func engineFinish(s string) engine.Finish {
	switch s {
	case "length":
		return engine.FinishLength
	case "stop", "tool_calls":
		return engine.FinishStop
	}
	return engine.FinishEOS
}

// ---- a byte-level tokenizer whose tokens are the captures' deltas ----

// extraTokens are tokens the unit tests spell outputs with.
var extraTokens = []string{"Hello", " world", "\nObs", "ervation:", " more", "<th", "ink>", "<think>", "</think>",
	"Hi", " there", "<tool_call>", "</tool_call>", `{"name": "get_weather", "arguments": {"city": "Paris"}}`,
	"  ", "\n\n", "[{", `"name": "get_weather", `, `"parameters": {"city": "Paris"}}]`, `{"city": "Paris"}`,
	"I should call it.", "STOP", "ST", "OP", "é", "\xc3", "\xa9"}

// eosToken is the special token appended to every token-id replay (a
// hidden stop id).
const eosToken = "<|endoftext|>"

type vocabTok struct {
	tok *tokenizers.BPE
	ids map[string]uint32
	eos uint32
}

var (
	vocabOnce sync.Once
	vocab     *vocabTok
	vocabErr  error
)

// byteLevelChars is GPT-2's byte → printable rune table.
func byteLevelChars() [256]rune {
	var t [256]rune
	n := 0
	for b := 0; b < 256; b++ {
		if b >= '!' && b <= '~' || b >= 0xA1 && b <= 0xAC || b >= 0xAE && b <= 0xFF {
			t[b] = rune(b)
		} else {
			t[b] = rune(256 + n)
			n++
		}
	}
	return t
}

// captureTokenizer builds a byte-level BPE tokenizer whose vocabulary has
// the 256 byte tokens and one token per distinct capture delta, so each
// delta replays as exactly one id, as the engine generated it.
func captureTokenizer(t testing.TB, extra ...string) *vocabTok {
	vocabOnce.Do(func() {
		chars := byteLevelChars()
		spell := func(s string) string {
			var b strings.Builder
			for i := 0; i < len(s); i++ {
				b.WriteRune(chars[s[i]])
			}
			return b.String()
		}
		v := map[string]uint32{}
		ids := map[string]uint32{}
		for b := 0; b < 256; b++ {
			v[string(chars[b])] = uint32(b)
			ids[string([]byte{byte(b)})] = uint32(b)
		}
		var all []string
		caps, err := readCaptures()
		if err != nil {
			vocabErr = err
			return
		}
		for _, c := range caps {
			all = append(all, c.deltas...)
		}
		all = append(all, extra...)
		all = append(all, extraTokens...)
		for _, d := range all {
			if _, ok := ids[d]; ok {
				continue
			}
			sp := spell(d)
			if id, ok := v[sp]; ok {
				ids[d] = id
				continue
			}
			id := uint32(len(v))
			v[sp] = id
			ids[d] = id
		}
		eos := uint32(len(v))
		doc := map[string]any{
			"version":        "1.0",
			"added_tokens":   []any{map[string]any{"id": eos, "content": eosToken, "single_word": false, "lstrip": false, "rstrip": false, "normalized": false, "special": true}},
			"normalizer":     nil,
			"pre_tokenizer":  map[string]any{"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": true},
			"post_processor": nil,
			"decoder":        map[string]any{"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": true},
			"model":          map[string]any{"type": "BPE", "dropout": nil, "unk_token": nil, "continuing_subword_prefix": "", "end_of_word_suffix": "", "fuse_unk": false, "byte_fallback": false, "ignore_merges": true, "vocab": v, "merges": []any{}},
		}
		data, _ := json.Marshal(doc)
		tok, err := tokenizers.FromJSON(data)
		if err != nil {
			vocabErr = err
			return
		}
		vocab = &vocabTok{tok: tok, ids: ids, eos: eos}
	})
	require.NoError(t, vocabErr)
	return vocab
}

// idOutputs turns deltas into token-id outputs (one id per delta) ending
// with the EOS id and no finish reason from the engine beyond FinishEOS.
func (v *vocabTok) idOutputs(t testing.TB, deltas []string, finish engine.Finish) []engine.Output {
	outs := make([]engine.Output, 0, len(deltas)+1)
	for _, d := range deltas {
		id, ok := v.ids[d]
		require.True(t, ok, "delta %q not in the capture vocabulary", d)
		outs = append(outs, engine.Output{TokenIDs: []uint32{id}})
	}
	if finish == engine.FinishLength {
		outs[len(outs)-1].Finish = engine.FinishLength
	} else {
		outs = append(outs, engine.Output{TokenIDs: []uint32{v.eos}, Finish: engine.FinishEOS})
	}
	return outs
}

// ---- prepared requests ----

func prepFor(a api.API, stream bool, toolParser, reasoningParser string) *preprocess.Prepared {
	prep := &preprocess.Prepared{
		API:    a,
		Stream: stream,
		Engine: engine.Request{Model: "test-model", MaxTokens: 1024, RequestID: "req1"},
		Parsers: parsers.Config{ToolParser: toolParser, ReasoningParser: reasoningParser,
			Tools: []parsers.Tool{{Name: "get_weather", Parameters: json.RawMessage(`{"type":"object"}`)}}},
		Response: preprocess.ResponsePlan{Model: "test-model", PromptTokens: 12, IncludeUsage: true},
	}
	switch a {
	case api.Messages:
		prep.Response.Anthropic = &convert.AnthropicContext{Model: "claude-test", Request: &anthropic.MessagesRequest{Model: "claude-test"}}
	case api.Responses:
		prep.Response.Responses = &convert.ResponsesContext{Request: &responses.Request{Model: "test-model"}}
	}
	return prep
}

var allAPIs = []api.API{api.Chat, api.Completions, api.Messages, api.Responses}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

// ---- errors ----

// ErrorBody is the status and body a's answer to err starts with.
func ErrorBody(a api.API, err error) (int, []byte) { return a.ErrorBody(err) }

// appendStreamError appends the in-stream error event of a for err: what
// a streamed answer's emitter writes when it fails (Responses: its
// response.failed event).
func appendStreamError(dst []byte, a api.API, err error) []byte {
	w := a.NewWriter()
	w.Reset(&api.WriterConfig{N: 1, Stream: true, Model: "test-model", IDs: protocols.NewSeededIDSource(1)})
	return w.Emitter(0).FailError(dst, protocols.ErrorOf(err))
}
