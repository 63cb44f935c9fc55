package preprocess

import (
	"context"
	"os"
	"syscall"
	"testing"

	"github.com/agentwire/agentwire/preprocess/api"
	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/stretchr/testify/require"
)

const (
	claudeTurn1 = "claude-code_B-bash_0001-POST-v1_messages.body.json"
	claudeTurn2 = "claude-code_B-bash_0002-POST-v1_messages.body.json"
)

// benchModel is Qwen3's real tokenizer and template when fetched, else the
// tiny directory (its byte-level vocabulary makes tokenizing slower than a
// real one: more merges per byte are missing, more ids per byte).
func benchModel(b *testing.B) *Model {
	if _, err := os.Stat("../tokenizers/testdata/large/qwen3/tokenizer.json"); err == nil {
		return largeModel(b, "qwen3")
	}
	b.Log("qwen3 tokenizer absent (bash .ci/setup.d/tokenizers.sh); using the tiny model")
	return tinyModel(b, ModelOptions{ContextLength: 1 << 20})
}

// BenchmarkPrepareClaudeCode prepares the real 49 KB Claude Code request
// (Anthropic → chat translation, chat template render, tokenize, PRE
// decisions, engine request) without the prefix cache.
func BenchmarkPrepareClaudeCode(b *testing.B) {
	m := benchModel(b)
	p := New(m, Options{PrefixCacheEntries: -1})
	req := loadMessages(b, claudeTurn1)
	bench(b, func() {
		r := *req
		if _, err := p.Messages(context.Background(), &r); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkPrepareClaudeCodeNextTurn prepares Claude Code's second turn
// with the first turn in the prefix cache (the cache is reset to hold only
// the first turn before each iteration).
func BenchmarkPrepareClaudeCodeNextTurn(b *testing.B) {
	m := benchModel(b)
	p := New(m, Options{})
	if p.cache == nil {
		b.Skip("tokenizer not prefix-cacheable")
	}
	first := loadMessages(b, claudeTurn1)
	_, err := p.Messages(context.Background(), first)
	require.NoError(b, err)
	req := loadMessages(b, claudeTurn2)
	bench(b, func() {
		p.cache.entries = p.cache.entries[:1]
		r := *req
		if _, err := p.Messages(context.Background(), &r); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkRenderClaudeCode and BenchmarkTokenizeClaudeCode split a cold
// preparation into its two costs.
func BenchmarkRenderClaudeCode(b *testing.B) {
	m := benchModel(b)
	p := New(m, Options{PrefixCacheEntries: -1})
	prep := prepareTurn(b, p, api.Messages, claudeTurn1)
	_ = prep
	req := loadMessages(b, claudeTurn1)
	bench(b, func() {
		r := *req
		chat, _, err := convertMessages(p, &r)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := p.render(m.Template(true), chat.Messages, chat.Tools, templateArgs(nil), api.Messages, true); err != nil {
			b.Fatal(err)
		}
	})
}

func BenchmarkTokenizeClaudeCode(b *testing.B) {
	m := benchModel(b)
	p := New(m, Options{PrefixCacheEntries: -1})
	prompt := prepareTurn(b, p, api.Messages, claudeTurn1).Engine.Prompt
	b.SetBytes(int64(len(prompt)))
	bench(b, func() { p.encode(prompt) })
}

// bench runs f and also reports the process CPU time per operation
// (cpu-ns/op): on a machine shared with other jobs the wall time measures
// the contention, the CPU time the work.
func bench(b *testing.B, f func()) {
	b.ReportAllocs()
	start := cpuTime()
	n := 0
	for b.Loop() {
		f()
		n++
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(n), "cpu-ns/op")
}

func cpuTime() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

func convertMessages(p *Preprocessor, r *anthropic.MessagesRequest) (*chatAlias, any, error) {
	opts := p.opts.Anthropic
	opts.ReasoningParser = p.model.ReasoningParser != ""
	return anthropicToChat(r, opts)
}

// BenchmarkTokenizeClaudeCodeNextTurn is the tokenizing part of the next
// turn: turn 2's prompt encoded with turn 1's in the prefix cache.
func BenchmarkTokenizeClaudeCodeNextTurn(b *testing.B) {
	m := benchModel(b)
	p := New(m, Options{})
	if p.cache == nil {
		b.Skip("tokenizer not prefix-cacheable")
	}
	cold := New(m, Options{PrefixCacheEntries: -1})
	first := prepareTurn(b, cold, api.Messages, claudeTurn1).Engine.Prompt
	second := prepareTurn(b, cold, api.Messages, claudeTurn2).Engine.Prompt
	p.encode(first)
	b.SetBytes(int64(len(second)))
	bench(b, func() {
		p.cache.entries = p.cache.entries[:1]
		p.encode(second)
	})
}

// BenchmarkEffortProbe is the load-time cost of the reasoning-effort probe
// (eight renders of a one-turn conversation) on the largest testdata
// template, Kimi K3's.
func BenchmarkEffortProbe(b *testing.B) {
	tm := testdataTemplates(b)["Kimi-K3.jinja"]
	b.ReportAllocs()
	for b.Loop() {
		probeEfforts(tm.Template)
	}
}
