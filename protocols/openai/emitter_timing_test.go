package openai_test

import (
	"encoding/json"
	"testing"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/openai"
)

// contentText is the content delta of the "content chunk" benchmark input
// (HTML-sensitive characters and quotes).
var contentText = []byte(`Use <b>bold</b> & "quotes" here.`)

func BenchmarkEmitterContent(b *testing.B) {
	e := openai.NewEmitter(openai.EmitterConfig{ID: "chatcmpl-8f3a1c2e9b7d4f60a1b2c3d4e5f60718", Model: "Qwen/Qwen3-32B", Created: 1767225600})
	buf := e.Content(make([]byte, 0, 1024), contentText) // first chunk carries the role
	b.SetBytes(int64(len(contentText)))
	b.ReportAllocs()
	for b.Loop() {
		buf = e.Content(buf[:0], contentText)
	}
}

// BenchmarkEmitterArgs streams a token-sized argument fragment.
func BenchmarkEmitterArgs(b *testing.B) { benchArgs(b, []byte(`{"location": "NY`)) }

// BenchmarkEmitterArgsLarge streams an 88-byte fragment full of escapes.
func BenchmarkEmitterArgsLarge(b *testing.B) {
	benchArgs(b, []byte(`{"path": "main.go", "content": "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n"}`))
}

func benchArgs(b *testing.B, frag []byte) {
	e := openai.NewEmitter(openai.EmitterConfig{ID: "chatcmpl-8f3a1c2e9b7d4f60a1b2c3d4e5f60718", Model: "Qwen/Qwen3-32B", Created: 1767225600})
	buf := e.ToolCallStart(make([]byte, 0, 1024), 0, []byte("call_9b2e"), []byte("write_file"))
	b.SetBytes(int64(len(frag)))
	b.ReportAllocs()
	for b.Loop() {
		buf = e.ToolCallArgs(buf[:0], 0, frag)
	}
}

func contentChunk() openai.ChatChunk {
	return openai.ChatChunk{ID: "chatcmpl-8f3a1c2e9b7d4f60a1b2c3d4e5f60718", Object: openai.ObjectChatCompletionChunk, Created: 1767225600, Model: "Qwen/Qwen3-32B",
		Choices: []openai.ChunkChoice{{Delta: openai.Delta{Content: protocols.Some(string(contentText))}, FinishReason: protocols.Null[string]()}}}
}

// For scale: the typed chunk through jsonx (goccy) and encoding/json. The
// protocol types carry Extra bags, so these include the MarshalJSON
// indirection the hand-written emitter avoids.
func BenchmarkChunkMarshalJSONX(b *testing.B) {
	c := contentChunk()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := jsonx.Marshal(c); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkChunkMarshalEncodingJSON(b *testing.B) {
	c := contentChunk()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(c); err != nil {
			b.Fatal(err)
		}
	}
}
