package anthropic_test

import (
	"testing"

	"github.com/agentwire/agentwire/protocols/anthropic"
)

func BenchmarkEmitterTextDelta(b *testing.B) {
	e := anthropic.NewEmitter(anthropic.EmitterConfig{Model: "Qwen/Qwen3-32B", InputTokens: 100})
	text := []byte(`Use <b>bold</b> & "quotes" here.`)
	buf := e.Content(make([]byte, 0, 1024), text) // message_start and the block start
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		buf = e.Content(buf[:0], text)
	}
}

// BenchmarkEmitterInputJSONDelta streams a token-sized argument fragment
// (what a parser emits per engine step).
func BenchmarkEmitterInputJSONDelta(b *testing.B) {
	benchInputJSON(b, []byte(`{"location": "NY`))
}

// BenchmarkEmitterInputJSONDeltaLarge streams an 88-byte fragment full of
// escapes (a chunk of a file write).
func BenchmarkEmitterInputJSONDeltaLarge(b *testing.B) {
	benchInputJSON(b, []byte(`{"path": "main.go", "content": "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n"}`))
}

func benchInputJSON(b *testing.B, frag []byte) {
	e := anthropic.NewEmitter(anthropic.EmitterConfig{Model: "Qwen/Qwen3-32B", InputTokens: 100})
	buf := e.ToolCallStart(make([]byte, 0, 1024), 0, []byte("call_1"), []byte("write_file"))
	b.SetBytes(int64(len(frag)))
	b.ReportAllocs()
	for b.Loop() {
		buf = e.ToolCallArgs(buf[:0], 0, frag)
	}
}

func BenchmarkEmitterThinkingDelta(b *testing.B) {
	e := anthropic.NewEmitter(anthropic.EmitterConfig{Model: "Qwen/Qwen3-32B", InputTokens: 100})
	text := []byte(" the user wants the weather")
	buf := e.Reasoning(make([]byte, 0, 1024), text)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		buf = e.Reasoning(buf[:0], text)
	}
}
