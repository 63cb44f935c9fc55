package tokenizers

import (
	"errors"
	"math/rand"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestTiktokenLlama3MatchesHF checks the tiktoken loader against Hugging
// Face's goldens for Llama 3's tokenizer.json, which has the same ranks.
func TestTiktokenLlama3MatchesHF(t *testing.T) {
	tok := loadLarge(t, "llama3_tiktoken/tiktoken.model")
	g := loadGolden(t, "llama3")
	for _, c := range g.Encode {
		got, _ := tok.Encode(c.Text, c.AddSpecialTokens)
		if diff := cmp.Diff(c.IDs, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("Encode(%q, %v) (-hf +got):\n%s", short(c.Text), c.AddSpecialTokens, diff)
		}
	}
	for _, c := range g.Decode {
		got, _ := tok.Decode(c.IDs, c.SkipSpecialTokens)
		if got != c.Text {
			t.Errorf("Decode(%v, %v) = %q, want %q", c.IDs, c.SkipSpecialTokens, short(got), short(c.Text))
		}
	}
}

// TestTiktokenKimi checks Kimi K2 against goldens from an independent
// implementation (testdata/gen/kimi.js) and the decode round trip.
func TestTiktokenKimi(t *testing.T) {
	tok := loadLarge(t, "kimi_k2/tiktoken.model")
	g := loadGolden(t, "kimi_k2")
	for _, c := range g.Encode {
		got, _ := tok.Encode(c.Text, false)
		if diff := cmp.Diff(c.IDs, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("Encode(%q) (-oracle +got):\n%s", short(c.Text), diff)
		}
		if back, _ := tok.Decode(got, false); back != c.Text {
			t.Errorf("Decode(Encode(%q)) = %q", short(c.Text), short(back))
		}
	}
	// Specials and the reserved fill.
	for _, tc := range []struct {
		tok string
		id  uint32
	}{{"[BOS]", 163584}, {"<|im_end|>", 163586}, {"<|reserved_token_163602|>", 163602}} {
		if id, ok := tok.TokenToID(tc.tok); !ok || id != tc.id {
			t.Errorf("TokenToID(%q) = %d, %v; want %d", tc.tok, id, ok, tc.id)
		}
		if !tok.IsSpecial(tc.id) {
			t.Errorf("%q is not special", tc.tok)
		}
	}
	// Kimi adds no BOS.
	if ids, _ := tok.Encode("hi", true); len(ids) != 1 {
		t.Errorf("Encode(hi, true) = %v, want one id", ids)
	}
}

func TestFromTiktokenErrors(t *testing.T) {
	for _, tc := range []struct{ name, data string }{
		{"empty", ""},
		{"no rank", "IQ==\n"},
		{"bad base64", "!!!! 0\n"},
		{"bad rank", "IQ== x\n"},
	} {
		if _, err := FromTiktoken([]byte(tc.data), TiktokenConfig{}); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", tc.name, err)
		}
	}
}

// TestTiktokenSmall builds a tiny rank file by hand and checks merges by
// rank, whole-piece lookup, specials and the BOS option.
func TestTiktokenSmall(t *testing.T) {
	// ranks: bytes a b c, then "ab"=3, "bc"=4, "abc"=5, " "=6, " a"=7
	ranks := "YQ== 0\nYg== 1\nYw== 2\nYWI= 3\nYmM= 4\nYWJj 5\nIA== 6\nIGE= 7\n"
	tok, err := FromTiktoken([]byte(ranks), TiktokenConfig{Specials: map[string]uint32{"<s>": 8}, BOS: "<s>", AddBOS: true})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		text string
		add  bool
		want []uint32
	}{
		{"abc", false, []uint32{5}},
		{"cab", false, []uint32{2, 3}},
		{"bca", false, []uint32{4, 0}},
		{"a abc", true, []uint32{8, 0, 6, 5}}, // "ab" (rank 3) merges before " a" (7)
		{"<s>ab", false, []uint32{8, 3}},
		{"<|reserved_token_9|>", false, []uint32{9}},
	}
	for _, tc := range tests {
		got, _ := tok.Encode(tc.text, tc.add)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("Encode(%q, %v) (-want +got):\n%s", tc.text, tc.add, diff)
		}
		back, _ := tok.Decode(got, true)
		if want := strings.ReplaceAll(strings.ReplaceAll(tc.text, "<s>", ""), "<|reserved_token_9|>", ""); back != want {
			t.Errorf("Decode(%v, skip) = %q, want %q", got, back, want)
		}
	}
}

// TestTiktokenReplacementToken checks that a vocabulary token that is
// literally U+FFFD decodes as complete text and is streamed at once, while
// an incomplete character is held.
func TestTiktokenReplacementToken(t *testing.T) {
	// ranks: "a"=0, 0xEF=1, 0xBF=2, 0xBD=3, "\uFFFD"=4, 0xE4=5
	ranks := "YQ== 0\n7w== 1\nvw== 2\nvQ== 3\n77+9 4\n5A== 5\n"
	tok, err := FromTiktoken([]byte(ranks), TiktokenConfig{})
	if err != nil {
		t.Fatal(err)
	}
	s := NewDecodeStream(tok, DecodeStreamConfig{})
	if got, _ := s.Step(4); string(got) != "\uFFFD" {
		t.Errorf("Step(U+FFFD token) = %q, want it emitted", got)
	}
	if got, _ := s.Step(5); len(got) != 0 {
		t.Errorf("Step(0xE4) = %q, want held", got)
	}
	if got, _ := s.Step(0); string(got) != "\uFFFDa" {
		t.Errorf("Step(a) = %q, want \"\\uFFFDa\"", got)
	}
}

// TestKimiChunk compares kimiChunk with a direct implementation of Kimi's
// rule (no run of white-space or non-white-space characters longer than max
// inside a chunk) on runs around the bound, ASCII and not.
func TestKimiChunk(t *testing.T) {
	initClasses()
	isSp := func(r rune) bool { return unicode.IsSpace(r) || 0x1c <= r && r <= 0x1f }
	ref := func(s string, max int) int {
		run, prev := 0, false
		for i := 0; i < len(s); {
			r, n := utf8.DecodeRuneInString(s[i:])
			if sp := isSp(r); i > 0 && sp == prev {
				run++
			} else {
				run, prev = 1, sp
			}
			if run > max {
				return i
			}
			i += n
		}
		return len(s)
	}
	for _, s := range []string{
		"", "abc", "abcd", "abcde", "ab  cd", "a     b", "a\u3000\u3000\u3000\u3000b", "中文中文中", "é\u00a0\u00a0\u00a0\u00a0é",
		"ab\x1c\x1d\x1e\x1fcd", "abc   def", "x  中文中文 \t\n\ry", "\xff\xfe\xfd\xfc\xfb",
		"abc", "ab c", "abc d", "a bcde", "ab éé", "aé bc", "a    ", "    a", "a \x1c\x1c\x1c b", "é\u00a0  \u00a0x",
		"中ab", "ab中", "a中bc", "abcé", "é abc", " \u3000  x", "a\xffbc", "\xffabcd",
	} {
		if got, want := kimiChunk(s, 3), ref(s, 3); got != want {
			t.Errorf("kimiChunk(%q, 3) = %d, want %d", s, got, want)
		}
	}
	alphabet := []string{"a", "b", " ", "\t", "\n", "\x1c", "é", "中", "\u3000", "\u00a0", "\xff", "😀"}
	rng := rand.New(rand.NewSource(3))
	for range 20000 {
		var b strings.Builder
		for n := rng.Intn(16); n > 0; n-- {
			b.WriteString(alphabet[rng.Intn(len(alphabet))])
		}
		s, max := b.String(), 1+rng.Intn(5)
		if got, want := kimiChunk(s, max), ref(s, max); got != want {
			t.Fatalf("kimiChunk(%q, %d) = %d, want %d", s, max, got, want)
		}
	}
}
