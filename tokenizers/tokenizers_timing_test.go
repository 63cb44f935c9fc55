package tokenizers

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// longText is the benchmark text of github.com/daulet/tokenizers
// (test/data/long_text.txt, 92 250 bytes), placed by the setup script.
func longText(b *testing.B) string {
	data, err := os.ReadFile(filepath.Join(largeDir, "long_text.txt"))
	if err != nil {
		skipSetup(b, "long_text.txt")
	}
	return string(data)
}

var benchFiles = []struct{ name, file string }{
	{"qwen3", "qwen3/tokenizer.json"},
	{"llama3", "llama3/tokenizer.json"},
	{"gptoss", "gptoss/tokenizer.json"},
	{"deepseek_v3", "deepseek_v3/tokenizer.json"},
	{"mistral", "mistral/tokenizer.json"},
	{"llama3_tiktoken", "llama3_tiktoken/tiktoken.model"},
	{"kimi_k2", "kimi_k2/tiktoken.model"},
}

// BenchmarkEncode measures single-thread encode throughput on the long text.
func BenchmarkEncode(b *testing.B) {
	text := longText(b)
	for _, f := range benchFiles {
		b.Run(f.name, func(b *testing.B) {
			tok := loadLarge(b, f.file)
			dst := tok.AppendEncode(nil, text, false)
			b.ReportMetric(float64(len(dst)), "tokens")
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				dst = tok.AppendEncode(dst[:0], text, false)
			}
		})
	}
}

// BenchmarkEncodeMixed measures encode throughput on the test corpus joined
// (CJK and other scripts, emoji, code, markup, white-space runs: 24 KB).
func BenchmarkEncodeMixed(b *testing.B) {
	text := strings.Join(corpus(b), "\n")
	for _, f := range benchFiles {
		b.Run(f.name, func(b *testing.B) {
			tok := loadLarge(b, f.file)
			dst := tok.AppendEncode(nil, text, false)
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				dst = tok.AppendEncode(dst[:0], text, false)
			}
		})
	}
}

// BenchmarkEncodeAgent measures single-thread encode throughput on the
// agent-shaped corpus (testdata/agent, 250 KB: rendered Claude Code and
// Codex requests, code, diffs, JSON, non-Latin text). Besides MB/s (wall
// time) it reports MB/cpu-s, throughput per second of the benchmark
// thread's CPU time, which a shared, busy machine disturbs much less.
func BenchmarkEncodeAgent(b *testing.B) {
	text := agentText(b)
	for _, f := range benchFiles {
		b.Run(f.name, func(b *testing.B) {
			tok := loadLarge(b, f.file)
			dst := tok.AppendEncode(nil, text, false)
			b.ReportMetric(float64(len(dst)), "tokens")
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			cpu0, ok := threadCPU()
			n := 0
			for b.Loop() {
				dst = tok.AppendEncode(dst[:0], text, false)
				n++
			}
			if cpu1, ok1 := threadCPU(); ok && ok1 && cpu1 > cpu0 {
				b.ReportMetric(float64(n*len(text))/(cpu1-cpu0).Seconds()/1e6, "MB/cpu-s")
			}
		})
	}
}

// BenchmarkEncodePrompt measures what a server does per request: encode one
// 49 KB Claude Code request rendered by Qwen3's chat template into a fresh
// slice (Encode, not AppendEncode into a reused one). "warm" encodes the
// same prompt again and again, as a server sees the same system prompt and
// tools on every request of a session; "cold" drops the scratch pool, and
// with it the word cache, before each encode (a server's first request).
func BenchmarkEncodePrompt(b *testing.B) {
	text := agentTexts(b)["claude_code.txt"]
	for _, f := range benchFiles {
		for _, cold := range []bool{false, true} {
			name := f.name + "/warm"
			if cold {
				name = f.name + "/cold"
			}
			b.Run(name, func(b *testing.B) {
				tok := loadLarge(b, f.file)
				b.SetBytes(int64(len(text)))
				b.ReportAllocs()
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				cpu0, ok := threadCPU()
				n := 0
				for b.Loop() {
					if cold {
						tok.scratch = sync.Pool{}
					}
					if _, err := tok.Encode(text, false); err != nil {
						b.Fatal(err)
					}
					n++
				}
				if cpu1, ok1 := threadCPU(); ok && ok1 && cpu1 > cpu0 {
					b.ReportMetric(float64(n*len(text))/(cpu1-cpu0).Seconds()/1e6, "MB/cpu-s")
				}
			})
		}
	}
}

// BenchmarkEncodeBatch measures EncodeBatch on 16 agent texts at once,
// which spreads them over the available cores, against encoding them one
// after the other ("serial").
func BenchmarkEncodeBatch(b *testing.B) {
	all := agentTexts(b)
	var texts []string
	var n int64
	for len(texts) < 16 {
		for _, s := range all {
			texts = append(texts, s)
			n += int64(len(s))
		}
	}
	for _, f := range benchFiles[:1] {
		tok := loadLarge(b, f.file)
		b.Run(f.name+"/batch", func(b *testing.B) {
			b.SetBytes(n)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := tok.EncodeBatch(texts, false); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(f.name+"/serial", func(b *testing.B) {
			b.SetBytes(n)
			b.ReportAllocs()
			for b.Loop() {
				for _, s := range texts {
					if _, err := tok.Encode(s, false); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkDecodeStream measures incremental detokenization per token.
func BenchmarkDecodeStream(b *testing.B) {
	text := longText(b)
	for _, f := range benchFiles {
		b.Run(f.name, func(b *testing.B) {
			tok := loadLarge(b, f.file)
			ids := tok.AppendEncode(nil, text, false)
			s := NewDecodeStream(tok, DecodeStreamConfig{SkipSpecialTokens: true})
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := s.Step(ids[i]); err != nil {
					b.Fatal(err)
				}
				if i++; i == len(ids) {
					i = 0
					s.Reset(nil)
				}
			}
		})
	}
}

// BenchmarkDecode measures one-shot decode of the long text's ids.
func BenchmarkDecode(b *testing.B) {
	text := longText(b)
	for _, f := range benchFiles[:1] {
		b.Run(f.name, func(b *testing.B) {
			tok := loadLarge(b, f.file)
			ids := tok.AppendEncode(nil, text, false)
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				_, _ = tok.Decode(ids, false)
			}
		})
	}
}

// BenchmarkLoad measures loading tokenizer files (Qwen3's tokenizer.json is
// 11.4 MB).
func BenchmarkLoad(b *testing.B) {
	for _, f := range benchFiles {
		b.Run(f.name, func(b *testing.B) {
			path := filepath.Join(largeDir, f.file)
			if _, err := os.Stat(path); err != nil {
				skipSetup(b, path)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := LoadFile(path); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLoadNested measures rejecting a tokenizer.json whose
// post-processor nests Sequence components 4,000 deep (past maxNesting):
// the loader stops at the limit instead of walking the whole depth
// (TestNestingLimit checks the error).
func BenchmarkLoadNested(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("testdata", "tiny", "regexp.json"))
	if err != nil {
		b.Fatal(err)
	}
	var f map[string]json.RawMessage
	if err := json.Unmarshal(data, &f); err != nil {
		b.Fatal(err)
	}
	f["post_processor"] = json.RawMessage(nested("processors", `{"type":"ByteLevel","add_prefix_space":false,"trim_offsets":false,"use_regex":false}`, 4000))
	if data, err = json.Marshal(f); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := FromJSON(data); !errors.Is(err, ErrUnsupported) {
			b.Fatal(err)
		}
	}
}
