package parsers

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentwire/agentwire/parsers/internal/chunking"
)

// hostileRuns are inputs that make a grammar open and fail a candidate at
// (almost) every byte.
var hostileRuns = []string{
	strings.Repeat("[", 4096),
	strings.Repeat("{", 4096),
	strings.Repeat("<", 4096),
	strings.Repeat("a[", 2048),
	strings.Repeat("[TOOL_CALLS]", 300),
	strings.Repeat("call:", 800),
	strings.Repeat("functools", 400),
	strings.Repeat("<|", 2048),
	strings.Repeat("x ", 2048),
}

// TestNoAmplification: a run that opens and fails a candidate per byte,
// fed in one chunk, returns a bounded number of events — adjacent content of
// one Feed is one event — for every tool parser.
func TestNoAmplification(t *testing.T) {
	for _, tp := range ToolParsers() {
		for _, run := range hostileRuns {
			p, err := New(Config{ToolParser: tp})
			if err != nil {
				t.Fatal(err)
			}
			for _, prefix := range []string{"", "Hi "} {
				p.Reset()
				evs := p.Feed([]byte(prefix + run))
				n := len(evs)
				n += len(p.Finish())
				if n > 6 {
					t.Errorf("%s, %q×%d after %q: %d events", tp, run[:2], len(run), prefix, n)
				}
			}
		}
	}
}

// TestArgumentsValidUTF8: invalid UTF-8 and lone surrogate escapes in the
// model's bytes reach an ended call's arguments (and its name) as U+FFFD,
// however the input is chunked; valid characters and surrogate pairs are
// kept byte for byte.
func TestArgumentsValidUTF8(t *testing.T) {
	type payload struct{ in, json, xml string } // model bytes; decoded value in a JSON family; in an XML family
	payloads := []payload{
		{"a\xffb", "a\uFFFDb", "a\uFFFDb"},
		{"\xed\xa0\x80x", "\uFFFD\uFFFD\uFFFDx", "\uFFFD\uFFFD\uFFFDx"}, // an encoded surrogate
		{"end\xe2\x82", "end\uFFFD\uFFFD", "end\uFFFD\uFFFD"},           // a character cut short
		{`\ud800`, "\uFFFD", `\ud800`},
		{`x\udc00y`, "x\uFFFDy", `x\udc00y`},
		{`\ud800\u0041`, "\uFFFDA", `\ud800\u0041`},
		{`\ud800\ud800\udc00`, "\uFFFD\U00010000", `\ud800\ud800\udc00`},
		{`\ud83c\udf89 é 世界`, "🎉 é 世界", `\ud83c\udf89 é 世界`},
		{`\\ud800`, `\ud800`, `\\ud800`}, // an escaped backslash: no escape
	}
	families := []struct {
		parser, tmpl string
		xml          bool
	}{
		{"hermes", `<tool_call>{"name": "f", "arguments": {"s": "P"}}</tool_call>`, false},
		{"mistral", `[TOOL_CALLS]f[ARGS]{"s": "P"}`, false},
		{"llama3_json", `<|python_tag|>{"name": "f", "parameters": {"s": "P"}}`, false},
		{"harmony", `<|channel|>commentary to=functions.f <|constrain|>json<|message|>{"s": "P"}<|call|>`, false},
		{"qwen3_coder", "<tool_call>\n<function=f>\n<parameter=s>\nP\n</parameter>\n</function>\n</tool_call>", true},
		{"glm47", `<tool_call>f<arg_key>s</arg_key><arg_value>P</arg_value></tool_call>`, true},
	}
	for _, f := range families {
		for _, pl := range payloads {
			in := []byte(strings.Replace(f.tmpl, "P", pl.in, 1))
			want := pl.json
			if f.xml {
				want = pl.xml
			}
			for _, whole := range []bool{false, true} {
				p, err := New(Config{ToolParser: f.parser, WholeCalls: whole})
				if err != nil {
					t.Fatal(err)
				}
				for _, chunks := range [][][]byte{{in}, chunking.Every(in, 1), chunking.Every(in, 5)} {
					p.Reset()
					var acc Accumulator
					for _, c := range chunks {
						acc.Add(p.Feed(c))
					}
					acc.Add(p.Finish())
					calls := acc.Result().Calls
					if len(calls) != 1 {
						t.Errorf("%s %q: %d calls", f.parser, pl.in, len(calls))
						continue
					}
					a := calls[0].Arguments
					if !utf8.ValidString(a) || hasLoneSurrogate(a) {
						t.Errorf("%s %q: arguments not valid UTF-8 JSON: %q", f.parser, pl.in, a)
					}
					var got map[string]string
					if err := json.Unmarshal([]byte(a), &got); err != nil || got["s"] != want {
						t.Errorf("%s %q (whole %v, %d chunks): arguments %q, want s=%q (%v)", f.parser, pl.in, whole, len(chunks), a, want, err)
					}
				}
			}
		}
	}
	// Names get the UTF-8 replacement too.
	res, err := Parse(Config{ToolParser: "hermes"}, "<tool_call>{\"name\": \"f\xff\", \"arguments\": {}}</tool_call>")
	if err != nil || len(res.Calls) != 1 || res.Calls[0].Name != "f\uFFFD" {
		t.Errorf("name with an invalid byte: %+v %v", res.Calls, err)
	}
}

// hasLoneSurrogate reports whether JSON text a holds a \uXXXX escape of a
// surrogate that is not part of a high-low pair, by the package's own
// escape reader (argDecide).
func hasLoneSurrogate(a string) bool {
	for i := 0; i < len(a); i++ {
		if a[i] != '\\' {
			continue
		}
		n, rep, _ := argDecide([]byte(a[i:]), true)
		if rep != "" {
			return true
		}
		i += n - 1 // past the escape (an escaped backslash is no escape)
	}
	return false
}

// retainedBound is the documented bound on what one stream retains, in
// units of Config.MaxCallBuffer (PARSER_CASES.md, "Limits"): the candidate
// or call held under the limit, what a grammar parsed from it, and buffers
// that once carried a limit-sized release to the caller. Per-Feed output
// (events and their copies) comes on top, proportional to the chunk.
const retainedBound = 4

// TestRetainedMemory feeds every tool grammar hostile streams of 16× the
// per-call limit in small chunks and checks the heap the parser retains
// stays under retainedBound × the limit.
func TestRetainedMemory(t *testing.T) {
	heads := []string{"[", "{", "x", `{"name": "f", "arguments": {"a": "`, `<tool_call>{"name": "f", "arguments": {"a": "`,
		`[TOOL_CALLS]f[ARGS]{"a": "`, "[f(a='", `functools[{"name": "f", "arguments": {"a": "`, `<|tool_call>call:f{a:<|"|>`,
		`call:f{a:<|"|>`, "<tool_call>f<arg_key>a</arg_key><arg_value>", "<tool_call>\n<function=f>\n<parameter=a>\n",
		` to=functions.f<|channel|>commentary json<|message|>{"a": "`}
	fills := []string{
		strings.Repeat("abcdefgh", 128),
		strings.Repeat("f(a=1), ", 128),
		strings.Repeat(" ", 1024),
		strings.Repeat(`{"name":"f","arguments":{}},`, 40)[:1024],
	}
	const limit = 16 << 10
	seen := map[string]bool{}
	var ms runtime.MemStats
	for _, tp := range ToolParsers() {
		info, _ := ToolParser(tp)
		if seen[info.Grammar] {
			continue // aliases share the machine
		}
		seen[info.Grammar] = true
		for _, h := range heads {
			for _, fill := range fills {
				p, err := New(Config{ToolParser: tp, MaxCallBuffer: limit})
				if err != nil {
					t.Fatal(err)
				}
				chunk := []byte(fill)
				runtime.GC()
				runtime.ReadMemStats(&ms)
				base := ms.HeapAlloc
				p.Feed([]byte(h))
				for range 16 * limit / len(chunk) {
					p.Feed(chunk)
				}
				p.Feed(nil)
				runtime.GC()
				runtime.ReadMemStats(&ms)
				runtime.KeepAlive(p)
				if ms.HeapAlloc > base && ms.HeapAlloc-base > retainedBound*limit {
					t.Errorf("%s after %q, then %q…: retains %d bytes, %.1f× the limit", tp, h, fill[:8], ms.HeapAlloc-base, float64(ms.HeapAlloc-base)/limit)
				}
			}
		}
	}
}
