package responses_test

import (
	"testing"

	"github.com/agentwire/agentwire/protocols/responses"
)

func BenchmarkEmitterOutputTextDelta(b *testing.B) {
	e := responses.NewEmitter(responses.EmitterConfig{Response: responses.ResponseFrom(&responses.Request{Model: "m"})})
	text := []byte(`Use <b>bold</b> & "quotes" here.`)
	buf := e.Content(make([]byte, 0, 4096), text)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		buf = e.Content(buf[:0], text)
	}
}

// BenchmarkEmitterReasoningDelta: one reasoning delta on either channel
// (reasoning_text, or summary_text when the request asks for a summary).
func BenchmarkEmitterReasoningDelta(b *testing.B) {
	for _, summary := range []bool{false, true} {
		name := "reasoning_text"
		if summary {
			name = "summary_text"
		}
		b.Run(name, func(b *testing.B) {
			e := responses.NewEmitter(responses.EmitterConfig{Response: responses.ResponseFrom(&responses.Request{Model: "m"}), Summary: summary})
			text := []byte(`The user wants "weather" in <Paris> & Lyon.`)
			buf := e.Reasoning(make([]byte, 0, 4096), text)
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				buf = e.Reasoning(buf[:0], text)
			}
		})
	}
}

func BenchmarkEmitterArgumentsDelta(b *testing.B) {
	e := responses.NewEmitter(responses.EmitterConfig{Response: responses.ResponseFrom(&responses.Request{Model: "m"})})
	buf := e.ToolCallStart(make([]byte, 0, 4096), 0, []byte("call_1"), []byte("write_file"))
	frag := []byte(`{"path": "main.go", "content": "package main\n"}`)
	b.SetBytes(int64(len(frag)))
	b.ReportAllocs()
	for b.Loop() {
		buf = e.ToolCallArgs(buf[:0], 0, frag)
	}
}
