package tokenizers

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// trickyTokenizer is the tiny tokenizer with added tokens that overlap the
// ChatML markers: one longer than <|im_end|> starting with it, one that
// starts inside <|im_start|>, and two with rstrip (never boundaries), one
// of which starts before <|im_end|> and ends inside it.
func trickyTokenizer(tb testing.TB) *BPE {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "tiny", "tokenizer.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var tok map[string]any
	if err := json.Unmarshal(b, &tok); err != nil {
		tb.Fatal(err)
	}
	added := tok["added_tokens"].([]any)
	vocab := tok["model"].(map[string]any)["vocab"].(map[string]any)
	for _, extra := range []struct {
		content string
		rstrip  bool
	}{{"<|im_end|>\n\n", false}, {">user", false}, {"<end>", true}, {"a<|im", true}} {
		id := len(vocab)
		vocab[extra.content] = id
		added = append(added, map[string]any{"id": id, "content": extra.content, "special": true, "lstrip": false, "rstrip": extra.rstrip, "single_word": false, "normalized": false})
	}
	tok["added_tokens"] = added
	out, err := json.Marshal(tok)
	if err != nil {
		tb.Fatal(err)
	}
	t, err := FromJSON(out)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// TestBoundariesWhere: which tokenizers know boundaries, and where they
// are in texts that hit every rule.
func TestBoundariesWhere(t *testing.T) {
	for _, tc := range []struct {
		file string
		want bool
	}{
		{"tokenizer.json", true},
		{"regexp.json", true},
		{"unk.json", true},
		{"words.json", true},
		{"metaspace.json", false}, // Metaspace adds a prefix at the start
		{"gpt2.json", false},      // ByteLevel add_prefix_space
		{"flags.json", false},     // every added token has a flag or is normalized under a normalizer
	} {
		tok, err := LoadFile(filepath.Join("testdata", "tiny", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		if got := tok.Boundaries() != nil; got != tc.want {
			t.Errorf("%s: Boundaries() != nil is %v, want %v", tc.file, got, tc.want)
		}
	}
	b := trickyTokenizer(t).Boundaries()
	for _, tc := range []struct {
		text string
		from int
		want []int
	}{
		{"<|im_start|>\nhi<|im_end|>\n", 0, []int{12, 25}},
		{"<|im_start|>\nhi<|im_end|>\n", 12, []int{25}},
		{"<|im_end|>\n\nx", 0, []int{12}}, // the longer token is matched
		{"<|im_start|>user", 0, nil},      // ">user" overlaps the end of <|im_start|>
		{"xa<|im_end|>", 0, nil},          // "a<|im" starts before <|im_end|>
		{"<end>x", 0, nil},                // rstrip
		{"<|im_end|><|im_start|>x", 0, []int{10, 22}},
	} {
		if got := b.Append(nil, tc.text, tc.from); !cmp.Equal(got, tc.want, cmp.Comparer(slices.Equal[[]int])) {
			t.Errorf("Append(%q, %d) = %v, want %v", tc.text, tc.from, got, tc.want)
		}
	}
	if b.Keeps("<|im_end|>\n\n", 10) || !b.Keeps("<|im_end|>\n\n", 12) || !b.Keeps("<|im_end|>x", 10) {
		t.Error("Keeps: a token covering the position")
	}
	words, err := LoadFile(filepath.Join("testdata", "tiny", "words.json"))
	if err != nil {
		t.Fatal(err)
	}
	if wb := words.Boundaries(); wb.Keeps("aⅫ", 1) || !wb.Keeps("a Ⅻ", 1) {
		t.Error("Keeps: a single_word token at the position")
	}
}

// TestBoundariesProperty cuts random texts made of pieces that hit every
// rule at their boundaries: the ids of the pieces are the ids of the whole.
func TestBoundariesProperty(t *testing.T) {
	toks := map[string]*BPE{"tricky": trickyTokenizer(t)}
	for _, f := range []string{"regexp.json", "unk.json", "words.json"} {
		tok, err := LoadFile(filepath.Join("testdata", "tiny", f))
		if err != nil {
			t.Fatal(err)
		}
		toks[f] = tok
	}
	if tok := tryLoadLarge("qwen3/tokenizer.json"); tok != nil {
		toks["qwen3"] = tok
	}
	pieces := []string{"<|im_end|>", "<|im_start|>", "<|im_end|>\n\n", "\n", "\n\n", "user", ">user", "a", " the", "ü", "u\u0308",
		"<end>", "  ", "<|endoftext|>", "<think>", "x<|im_", "!!", "ab", "bc", "zz", "Ⅻ", "<s>", "</s>", "<tool_call>"}
	rng := rand.New(rand.NewPCG(1, 2))
	for name, tok := range toks {
		b := tok.Boundaries()
		for range 2000 {
			var sb strings.Builder
			for n := 1 + rng.IntN(12); n > 0; n-- {
				sb.WriteString(pieces[rng.IntN(len(pieces))])
			}
			checkCuts(t, name, tok, b, sb.String())
		}
	}
}

// checkCuts encodes text cut at every boundary and compares it with the
// encoding of the whole.
func checkCuts(t *testing.T, name string, tok *BPE, b *Boundaries, text string) {
	t.Helper()
	want := tok.AppendEncode(nil, text, false)
	var got []uint32
	pos := 0
	for _, end := range b.Append(nil, text, 0) {
		if end <= pos || end > len(text) || !b.Keeps(text, end) {
			t.Fatalf("%s: %q: boundary %d after %d", name, text, end, pos)
		}
		got = tok.AppendEncode(got, text[pos:end], false)
		pos = end
	}
	got = tok.AppendEncode(got, text[pos:], false)
	if !slices.Equal(got, want) {
		t.Fatalf("%s: %q cut at %v: %v, want %v", name, text, b.Append(nil, text, 0), got, want)
	}
}

// FuzzBoundaries: any text cut at its boundaries encodes to the ids of
// the whole (the tricky tokenizer: added tokens that overlap, nest and
// carry flags; words.json: single_word, lstrip and rstrip tokens).
func FuzzBoundaries(f *testing.F) {
	words, err := LoadFile(filepath.Join("testdata", "tiny", "words.json"))
	if err != nil {
		f.Fatal(err)
	}
	toks := []*BPE{trickyTokenizer(f), words}
	f.Add("<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n")
	f.Add("<|im_end|>\n\n>user<end>a<|im_end|>")
	f.Add("x<|im_<|im_end|><|im_start|>user")
	f.Add("abc aⅫ zz a bc")
	f.Fuzz(func(t *testing.T, text string) {
		for _, tok := range toks {
			checkCuts(t, "fuzz", tok, tok.Boundaries(), text)
		}
	})
}
