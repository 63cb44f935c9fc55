package parserstest

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentwire/agentwire/parsers"
)

// TestWellFormedRejects feeds the event checker streams no parser should
// produce.
func TestWellFormedRejects(t *testing.T) {
	start := func(i int) parsers.Event {
		return parsers.Event{Kind: parsers.EventToolCallStart, Index: i, ID: []byte("id"), Name: []byte("f")}
	}
	args := func(i int, s string) parsers.Event {
		return parsers.Event{Kind: parsers.EventToolCallArgs, Index: i, Text: []byte(s)}
	}
	end := parsers.Event{Kind: parsers.EventToolCallEnd}
	tests := []struct {
		name string
		evs  []parsers.Event
		want string
	}{
		{"empty content", []parsers.Event{{Kind: parsers.EventContent}}, "empty content"},
		{"split character", []parsers.Event{{Kind: parsers.EventReasoning, Text: []byte("\xc3")}}, "inside a character"},
		{"index skips", []parsers.Event{start(1)}, "call index 1, want 0"},
		{"start while open", []parsers.Event{start(0), start(1)}, "while call 0 is open"},
		{"no name", []parsers.Event{{Kind: parsers.EventToolCallStart, ID: []byte("id")}}, "without name"},
		{"args without call", []parsers.Event{args(0, "{}")}, "open call is none"},
		{"args for another call", []parsers.Event{start(0), args(1, "{}")}, "fragment for call 1"},
		{"empty fragment", []parsers.Event{start(0), args(0, "")}, "empty argument fragment"},
		{"invalid JSON at end", []parsers.Event{start(0), args(0, `{"a":`), end}, "not one valid UTF-8 JSON object"},
		{"array at end", []parsers.Event{start(0), args(0, `[1]`), end}, "not one valid UTF-8 JSON object"},
		{"space before the object", []parsers.Event{start(0), args(0, ` {}`), end}, "not one valid UTF-8 JSON object"},
		{"lone surrogate at end", []parsers.Event{start(0), args(0, `{"a":"\ud800"}`), end}, "lone surrogate"},
		{"abandon without call", []parsers.Event{{Kind: parsers.EventToolCallAbandoned}}, "abandon of call 0"},
		{"unknown kind", []parsers.Event{{Kind: 99}}, "unknown event kind"},
	}
	for _, tt := range tests {
		w := wellFormed{validUTF8: true}
		var err error
		for _, e := range tt.evs {
			if err = w.check(e); err != nil {
				break
			}
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
	w := wellFormed{validUTF8: true}
	for _, e := range []parsers.Event{start(0), args(0, `{"a"`), args(0, `: 1}`), end, start(1), {Kind: parsers.EventToolCallAbandoned, Index: 1}} {
		if err := w.check(e); err != nil {
			t.Errorf("well-formed stream rejected at %v: %v", e, err)
		}
	}
}

// TestLostBytesDetects: the lost-bytes comparison sees a dropped word and
// ignores markers and spaces.
func TestLostBytesDetects(t *testing.T) {
	cfg := parsers.Config{ReasoningParser: "qwen3"}
	ms := allMarkersOf(cfg)
	in := "<think>a b</think>\n\nc d"
	if visible(in, ms) != visible("a bc d", ms) {
		t.Errorf("markers and spaces not ignored: %q vs %q", visible(in, ms), visible("a bc d", ms))
	}
	if visible(in, ms) == visible("a bc", ms) {
		t.Error("a lost byte went unnoticed")
	}
	text := []normEvent{{Kind: parsers.EventContent, Text: "x"}}
	if !lostBytesCheckable(cfg, in, text) {
		t.Error("plain reasoning output not checkable")
	}
	if lostBytesCheckable(parsers.Config{ToolParser: "hermes"}, "a <tool_call> b", text) {
		t.Error("input with a call opener is checkable")
	}
	if lostBytesCheckable(cfg, in, []normEvent{{Kind: parsers.EventToolCallStart}}) {
		t.Error("stream with a call is checkable")
	}
}

// TestChunkingsCover: every two-way split of a short input, the captured
// deltas and the empty-chunk feed are among the chunkings, and each joins
// to the input.
func TestChunkingsCover(t *testing.T) {
	in := []byte("ab€d")
	seen := map[string]bool{}
	err := chunkings(AllChunkings, in, []string{"a", "b€d"}, func(how string, chunks [][]byte) error {
		var b strings.Builder
		for _, c := range chunks {
			b.Write(c)
		}
		if b.String() != string(in) {
			t.Errorf("%s: chunks join to %q", how, b.String())
		}
		seen[how] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(in); i++ {
		if !seen["split@"+string(rune('0'+i))] {
			t.Errorf("split@%d not fed", i)
		}
	}
	for _, how := range []string{"bytes", "runes", "captured", "with-empty", "random(seed=1)"} {
		if !seen[how] {
			t.Errorf("%s not fed", how)
		}
	}
	long := make([]byte, everySplitMax+500)
	if n := len(splitPoints(long)); n != 2*edgeSplits+sampledSplits {
		t.Errorf("%d split points for a long input, want %d", n, 2*edgeSplits+sampledSplits)
	}
	var fed []string
	count := func(how string, chunks [][]byte) error { fed = append(fed, how); return nil }
	if err := chunkings(CapturedChunkings, in, []string{"a", "b€d"}, count); err != nil || len(fed) != 1 || fed[0] != "captured" {
		t.Errorf("CapturedChunkings fed %v, %v; want the captured deltas alone", fed, err)
	}
	fed = nil
	if err := chunkings(CapturedChunkings, in, nil, count); err != nil || len(fed) != 0 {
		t.Errorf("CapturedChunkings without deltas fed %v, %v; want nothing", fed, err)
	}
	fed = nil
	if err := chunkings(QuickChunkings, long, []string{string(long)}, count); err != nil {
		t.Fatal(err)
	}
	want := []string{"bytes", "runes", "random(seed=1)", "random(seed=2)", "random(seed=3)", "random(seed=4)", "captured", "with-empty"}
	if !slices.Equal(fed, want) {
		t.Errorf("QuickChunkings fed %v, want %v", fed, want)
	}
}

func TestHasLoneSurrogate(t *testing.T) {
	for in, want := range map[string]bool{
		`{"a":"\ud800"}`:             true,
		`{"a":"x\udc00y"}`:           true,
		`{"a":"\ud800\u0041"}`:       true,
		`{"a":"\ud800\ud800\udc00"}`: true,
		`{"a":"\uD83C\uDF89 é"}`:     false,
		`{"a":"\\ud800"}`:            false, // an escaped backslash, then text
		`{"a":"\n\u00e9\"\ufffd"}`:   false,
		`{"a":"\ud83c\udf89\udf89"}`: true,
	} {
		if got := hasLoneSurrogate([]byte(in)); got != want {
			t.Errorf("hasLoneSurrogate(%s) = %v, want %v", in, got, want)
		}
	}
}

func TestFirstDiff(t *testing.T) {
	a := []normEvent{{Kind: parsers.EventContent, Text: "ab"}, {Kind: parsers.EventToolCallStart, Name: "f"}}
	if _, ok := firstDiff(a, a); !ok {
		t.Error("equal streams differ")
	}
	b := []normEvent{{Kind: parsers.EventContent, Text: "a"}, {Kind: parsers.EventToolCallStart, Name: "f"}}
	if i, ok := firstDiff(a, b); ok || i != 0 {
		t.Errorf("firstDiff = %d, %v; want 0, false", i, ok)
	}
	if i, ok := firstDiff(a, a[:1]); ok || i != 1 {
		t.Errorf("firstDiff of a prefix = %d, %v; want 1, false", i, ok)
	}
}
