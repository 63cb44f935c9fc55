package tokenizers

import (
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// fuzzTokenizers returns the tiny committed tokenizer plus, when the setup
// script has run, Qwen3 (byte-level) and Mistral (byte fallback).
func fuzzTokenizers(f *testing.F) []*BPE {
	toks := []*BPE{loadTiny(f)}
	for _, file := range []string{"qwen3/tokenizer.json", "mistral/tokenizer.json"} {
		if t := tryLoadLarge(file); t != nil {
			toks = append(toks, t)
		}
	}
	return toks
}

func tryLoadLarge(rel string) (t *BPE) {
	defer func() {
		if recover() != nil {
			t = nil
		}
	}()
	var tb skipTB
	return loadLargeQuiet(&tb, rel)
}

// FuzzEncodeDecode checks decode(encode(x)) == x for valid UTF-8 without
// added-token strings (NFC for normalizing tokenizers; "▁" excluded for
// SentencePiece-style ones), and that DecodeStream, fed the ids one by one,
// produces exactly the one-shot decode of the ids.
func FuzzEncodeDecode(f *testing.F) {
	for _, s := range corpus(f) {
		if len(s) < 500 {
			f.Add(s)
		}
	}
	toks := fuzzTokenizers(f)
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 4096 {
			return
		}
		valid := utf8.ValidString(text)
		for _, tok := range toks {
			ids, err := tok.Encode(text, false)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := tok.Decode(ids, false)
			pieces, err := streamAll(t, tok, nil, ids, false)
			if err != nil {
				t.Fatalf("stream %v: %v", ids, err)
			}
			if got := strings.Join(pieces, ""); got != want {
				t.Fatalf("stream of %v = %q, decode = %q", ids, got, want)
			}
			if !valid || hasAdded(tok, text) || strings.Contains(text, "▁") {
				continue // invalid UTF-8: only "no panic" and stream == decode
			}
			exp := text
			if len(tok.normalizer) > 0 && tok.normalizer[0].kind == normNFC {
				exp = norm.NFC.String(text)
			}
			if want != exp {
				t.Fatalf("Decode(Encode(%q)) = %q", text, want)
			}
		}
	})
}

// FuzzDecodeStream feeds arbitrary id sequences: the stream never panics and,
// unless it reports a rewrite, its output equals the one-shot decode.
func FuzzDecodeStream(f *testing.F) {
	f.Add([]byte{1, 2, 3, 200, 201, 0})
	f.Add([]byte{0xff, 0x00, 0x10, 0x20})
	toks := fuzzTokenizers(f)
	f.Fuzz(func(t *testing.T, raw []byte) {
		for _, tok := range toks {
			ids := make([]uint32, 0, len(raw)/2)
			for i := 0; i+1 < len(raw); i += 2 {
				ids = append(ids, (uint32(raw[i])<<8|uint32(raw[i+1]))%uint32(tok.VocabSize()+2))
			}
			for _, skip := range []bool{false, true} {
				want, _ := tok.Decode(ids, skip)
				pieces, err := streamAll(t, tok, nil, ids, skip)
				if err != nil {
					continue // ErrRewrite is the documented outcome
				}
				if got := strings.Join(pieces, ""); got != want {
					t.Fatalf("stream of %v (skip %v) = %q, decode = %q", ids, skip, got, want)
				}
			}
		}
	})
}
