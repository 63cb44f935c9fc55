package anthropic_test

import (
	"encoding/json"
	"testing"

	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
)

// The real Claude Code turn-2 request (~49 KB: system prompt, 12 tools,
// thinking + tool_use + tool_result).
const claudeCodeFixture = "claude-code__B-bash__0002-messages.json"

func BenchmarkDecodeClaudeCodeRequest(b *testing.B) {
	body := harness(b, claudeCodeFixture)[claudeCodeFixture]
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := anthropic.DecodeMessagesRequest(body, anthropic.DecodeOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeClaudeCodeRequestStrict(b *testing.B) {
	body := harness(b, claudeCodeFixture)[claudeCodeFixture]
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := anthropic.DecodeMessagesRequest(body, anthropic.DecodeOptions{Strict: true}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeClaudeCodeRequest(b *testing.B) {
	body := harness(b, claudeCodeFixture)[claudeCodeFixture]
	req, err := anthropic.DecodeMessagesRequest(body, anthropic.DecodeOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := jsonx.Marshal(req); err != nil {
			b.Fatal(err)
		}
	}
}

// For scale: the same body into map[string]any with encoding/json.
func BenchmarkDecodeClaudeCodeGenericEncodingJSON(b *testing.B) {
	body := harness(b, claudeCodeFixture)[claudeCodeFixture]
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		var v map[string]any
		if err := json.Unmarshal(body, &v); err != nil {
			b.Fatal(err)
		}
	}
}
