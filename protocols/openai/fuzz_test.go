package openai_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/internal/testutil"
	"github.com/agentwire/agentwire/protocols/openai"
)

// FuzzChatRequestRoundTrip: whatever decodes must encode, and the encoding
// must be a fixed point of decode → encode. Decoding never panics.
func FuzzChatRequestRoundTrip(f *testing.F) {
	f.Add([]byte(fullChat))
	f.Add([]byte(`{"messages":[{"role":"user","content":[{"type":"text","text":""}]}],"stop":"x","tool_choice":"auto"}`))
	f.Add([]byte(`{"messages":[],"thinking":{"type":"adaptive","x":[1]},"nvext":{"agent_hints":{"priority":1}}}`))
	f.Add([]byte(`{"messages":[],"reasoning":{"effort":"high","enabled":false,"max_tokens":5},"prompt_cache_retention":"24h","verbosity":"low"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := openai.DecodeChatRequest(data, openai.DecodeOptions{})
		if err != nil {
			return
		}
		_ = protocols.UnknownFields(req)
		_ = req.NormalizeThinking()
		roundTrip(t, req, func() any { return new(openai.ChatRequest) })
	})
}

func roundTrip(t *testing.T, v any, fresh func() any) {
	t.Helper()
	once, err := jsonx.Marshal(v)
	if err != nil {
		t.Fatalf("decoded value does not encode: %v", err)
	}
	if !json.Valid(once) {
		t.Fatalf("invalid JSON: %s", once)
	}
	again := fresh()
	if err := jsonx.Unmarshal(once, again); err != nil {
		t.Fatalf("re-decode of %s: %v", once, err)
	}
	twice, err := jsonx.Marshal(again)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(once, twice) {
		if d := testutil.JSONDiff(t, once, twice); d != "" {
			t.Fatalf("decode → encode is not a fixed point:\n%s", d)
		}
	}
}

// FuzzEmitter feeds arbitrary text through every event kind: the
// output is always valid SSE with valid JSON chunks, and the concatenated
// deltas equal the input text.
func FuzzEmitter(f *testing.F) {
	f.Add([]byte("hello"), []byte("think"), []byte(`{"a":"\u00e9"}`), uint8(3))
	f.Add([]byte("\xff\xfe<\u2028>"), []byte("\x00\x1f"), []byte(`"`), uint8(0))
	f.Fuzz(func(t *testing.T, content, reasoning, args []byte, split uint8) {
		e := openai.NewEmitter(openai.EmitterConfig{ID: "c", Model: "m", IncludeUsage: true, ToolCallDispatch: true, ReasoningDispatch: true})
		var out []byte
		n := int(split)%4 + 1
		for _, piece := range chunks(reasoning, n) {
			out = e.Reasoning(out, piece)
		}
		for _, piece := range chunks(content, n) {
			out = e.Content(out, piece)
		}
		out = e.ToolCallStart(out, 0, []byte("call_1"), []byte("f"))
		for _, piece := range chunks(args, n) {
			out = e.ToolCallArgs(out, 0, piece)
		}
		out = e.ToolCallEnd(out, 0)
		out = e.Finish(out, protocols.FinishStop, protocols.Usage{})
		var gotContent, gotReasoning, gotArgs []byte
		for _, fr := range testutil.Frames(t, out) {
			if fr.Data == "[DONE]" {
				continue
			}
			if !json.Valid([]byte(fr.Data)) {
				t.Fatalf("invalid JSON frame %q", fr.Data)
			}
			if fr.Event != "" {
				continue
			}
			var c openai.ChatChunk
			if err := json.Unmarshal([]byte(fr.Data), &c); err != nil {
				t.Fatal(err)
			}
			for _, ch := range c.Choices {
				gotContent = append(gotContent, ch.Delta.Content.Value()...)
				gotReasoning = append(gotReasoning, ch.Delta.ReasoningContent.Value()...)
				for _, tc := range ch.Delta.ToolCalls {
					if tc.Function != nil {
						gotArgs = append(gotArgs, tc.Function.Arguments.Value()...)
					}
				}
			}
		}
		for _, c := range []struct {
			name      string
			got, want []byte
		}{{"content", gotContent, content}, {"reasoning", gotReasoning, reasoning}, {"args", gotArgs, args}} {
			if string(c.got) != string(bytes.ToValidUTF8(c.want, []byte("\uFFFD"))) && string(c.got) != validUTF8Pieces(c.want, n) {
				t.Fatalf("%s: got %q, want %q", c.name, c.got, c.want)
			}
		}
	})
}

// chunks splits b into pieces of at most n bytes.
func chunks(b []byte, n int) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		k := min(n, len(b))
		out = append(out, b[:k])
		b = b[k:]
	}
	return out
}

// validUTF8Pieces is what the emitter produces when b is split into pieces
// of n bytes: each piece is made valid on its own (a rune split across
// pieces becomes replacement characters).
func validUTF8Pieces(b []byte, n int) string {
	var s []byte
	for _, p := range chunks(b, n) {
		var back string
		_ = json.Unmarshal(jsonx.AppendString(nil, p), &back)
		s = append(s, back...)
	}
	return string(s)
}
