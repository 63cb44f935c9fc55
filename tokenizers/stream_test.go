package tokenizers

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// streamAll feeds ids to a fresh stream after prompt and returns the pieces
// emitted by each Step and by Finish.
func streamAll(t testing.TB, tok Tokenizer, prompt, ids []uint32, skip bool) ([]string, error) {
	s := NewDecodeStream(tok, DecodeStreamConfig{Prompt: prompt, SkipSpecialTokens: skip})
	var out []string
	for _, id := range ids {
		b, err := s.Step(id)
		if err != nil {
			return out, err
		}
		out = append(out, string(b))
	}
	b, err := s.Finish()
	out = append(out, string(b))
	return out, err
}

// TestDecodeStreamMatchesDecode streams every golden id sequence token by
// token and checks that the pieces join to Decode of the whole sequence.
func TestDecodeStreamMatchesDecode(t *testing.T) {
	for _, model := range goldenModels {
		t.Run(model, func(t *testing.T) {
			tok := modelFile(t, model)
			g := loadGolden(t, model)
			for _, c := range g.Decode {
				pieces, err := streamAll(t, tok, nil, c.IDs, c.SkipSpecialTokens)
				if err != nil {
					t.Fatalf("%v: %v", c.IDs, err)
				}
				if got := strings.Join(pieces, ""); got != c.Text {
					t.Errorf("stream %v skip=%v = %q (pieces %q), want %q", c.IDs, c.SkipSpecialTokens, got, pieces, c.Text)
				}
			}
		})
	}
}

// TestDecodeStreamByteFallback is Dynamo's byte-fallback case on the
// Mistral vocabulary: a run of <0xHH> tokens is held until it ends, then
// decoded atomically (the invalid run replaced per byte).
func TestDecodeStreamByteFallback(t *testing.T) {
	tok := loadLarge(t, "mistral/tokenizer.json")
	id := func(s string) uint32 {
		v, ok := tok.TokenToID(s)
		if !ok {
			t.Fatalf("no token %q", s)
		}
		return v
	}
	prompt, _ := tok.Encode(" hello", false)
	s := NewDecodeStream(tok, DecodeStreamConfig{Prompt: prompt, SkipSpecialTokens: true})
	steps := []struct {
		tok  string
		want string
	}{
		{"!", "!"},
		{"<0x61>", ""},
		{"<0xF5>", ""},
		{"▁hell", "�� hell"},
		{"o", "o"},
		{"<0xE4>", ""},
		{"<0xBD>", ""},
		{"<0xA0>", ""},
		{"▁x", "你 x"},
	}
	for _, st := range steps {
		got, err := s.Step(id(st.tok))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != st.want {
			t.Errorf("Step(%s) = %q, want %q", st.tok, got, st.want)
		}
	}
	// A byte run cut short is flushed by Finish as U+FFFD.
	for _, tk := range []string{"<0xE4>", "<0xBD>"} {
		if got, _ := s.Step(id(tk)); len(got) != 0 {
			t.Errorf("Step(%s) = %q, want held", tk, got)
		}
	}
	got, err := s.Finish()
	if err != nil || string(got) != "��" {
		t.Errorf("Finish() = %q, %v; want \"��\"", got, err)
	}
}

// TestDecodeStreamPromptContext checks that the first generated token gets
// its leading space from the prompt context (Metaspace/Strip decoders drop
// it at the start of a sequence) and that a split multi-byte character in a
// byte-level vocabulary is held until complete.
func TestDecodeStreamPromptContext(t *testing.T) {
	tests := []struct {
		model  string
		prompt string
		gen    string
	}{
		{"mistral", "[INST] Hi [/INST]", " Hello there 你好 😀!"},
		{"qwen3", "<|im_start|>assistant\n", "Hello 你好 👨‍👩‍👧 café"},
		{"llama3", "Q: hi\nA:", " 1234 ünïcode"},
		{"deepseek_v3", "<｜Assistant｜>", "日本語 and code()"},
		{"gptoss", "<|message|>", "HelloWorld 'S test"},
	}
	for _, tc := range tests {
		t.Run(tc.model, func(t *testing.T) {
			tok := loadLarge(t, tc.model+"/tokenizer.json")
			prompt, _ := tok.Encode(tc.prompt, false)
			all, _ := tok.Encode(tc.prompt+tc.gen, false)
			if !cmp.Equal(all[:len(prompt)], prompt) {
				t.Skip("prompt does not tokenize as a prefix")
			}
			gen := all[len(prompt):]
			pieces, err := streamAll(t, tok, prompt, gen, false)
			if err != nil {
				t.Fatal(err)
			}
			full, _ := tok.Decode(all, false)
			head, _ := tok.Decode(prompt, false)
			if got, want := strings.Join(pieces, ""), strings.TrimPrefix(full, head); got != want {
				t.Errorf("streamed %q, want %q", got, want)
			}
			for _, p := range pieces {
				if strings.Contains(p, "\uFFFD") {
					t.Errorf("piece %q contains U+FFFD", p)
				}
			}
		})
	}
}

func TestDecodeStreamAllocs(t *testing.T) {
	for _, model := range []string{"qwen3", "mistral"} {
		t.Run(model, func(t *testing.T) {
			tok := loadLarge(t, model+"/tokenizer.json")
			ids, _ := tok.Encode(strings.Repeat("Streaming text, 中文 and emoji 🎉 with numbers 12345. ", 20), false)
			s := NewDecodeStream(tok, DecodeStreamConfig{SkipSpecialTokens: true})
			for _, id := range ids { // warm up
				_, _ = s.Step(id)
			}
			i := 0
			allocs := testing.AllocsPerRun(len(ids), func() {
				_, _ = s.Step(ids[i%len(ids)])
				i++
			})
			if allocs != 0 {
				t.Errorf("Step allocates %v times per token, want 0", allocs)
			}
		})
	}
}

func TestDecodeStreamRewriteIsTerminal(t *testing.T) {
	// A decoder whose output for a longer sequence changes earlier text.
	tok := &rewriting{}
	s := NewDecodeStream(tok, DecodeStreamConfig{})
	if b, err := s.Step(1); err != nil || string(b) != "a" {
		t.Fatalf("Step(1) = %q, %v", b, err)
	}
	if _, err := s.Step(2); !errors.Is(err, ErrRewrite) {
		t.Fatalf("Step(2) error = %v, want ErrRewrite", err)
	}
	if _, err := s.Step(3); !errors.Is(err, ErrRewrite) {
		t.Fatalf("Step after error = %v, want ErrRewrite", err)
	}
}

// rewriting is a Tokenizer whose decode of [1 2] does not start with the
// decode of [1].
type rewriting struct{ Tokenizer }

func (rewriting) Decode(ids []uint32, skip bool) (string, error) {
	if len(ids) >= 2 {
		return "xy", nil
	}
	if len(ids) == 1 {
		return "a", nil
	}
	return "", nil
}
