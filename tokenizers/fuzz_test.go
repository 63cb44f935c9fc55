package tokenizers

import (
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
	"github.com/google/go-cmp/cmp"
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

// FuzzFromJSON checks that no input makes the loader or the loaded
// tokenizer panic.
func FuzzFromJSON(f *testing.F) {
	f.Add([]byte(`{"model":{"type":"BPE","vocab":{"a":0,"b":1,"ab":2},"merges":["a b"]},"pre_tokenizer":{"type":"ByteLevel"},"decoder":{"type":"ByteLevel"}}`))
	f.Add([]byte(`{"model":{"type":"BPE","vocab":{"▁":0,"<0x41>":1,"<unk>":2},"merges":[],"byte_fallback":true,"unk_token":"<unk>"},"normalizer":{"type":"Prepend","prepend":"▁"},"decoder":{"type":"Sequence","decoders":[{"type":"ByteFallback"},{"type":"Fuse"},{"type":"Strip","content":" ","start":1,"stop":0}]}}`))
	f.Add([]byte(`{"added_tokens":[{"id":5,"content":"<s>","special":true,"lstrip":true}],"model":{"vocab":{"a":0},"merges":[]},"post_processor":{"type":"TemplateProcessing","single":[{"SpecialToken":{"id":"<s>"}},{"Sequence":{"id":"A"}}],"special_tokens":{"<s>":{"id":"<s>","ids":[5]}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tok, err := FromJSON(data)
		if err != nil {
			return
		}
		ids, _ := tok.Encode(" a<s>AB a\u00e9", true)
		_, _ = tok.Decode(ids, false)
		_, _ = tok.Decode([]uint32{0, 1, 2, 3, 5, 1 << 20}, true)
	})
}

// FuzzScanners compares the hand-written scanners with regexp2.
func FuzzScanners(f *testing.F) {
	initClasses()
	for _, s := range []string{"Hello world", "  #x", "a\n\n  b", "'s'S 'll", "x\u0301Y", "中文abc", "١٢٣4567"} {
		f.Add(s)
	}
	res := make([]*regexp2.Regexp, len(scannerCases))
	for i, tc := range scannerCases {
		res[i] = compileCase(f, tc.pattern)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 256 || !comparable(s) {
			return
		}
		for i, tc := range scannerCases {
			want := regexpPieces(t, res[i], s)
			got := scanPieces(s, tc.scan)
			if !cmp.Equal(want, got) {
				t.Fatalf("%s split of %q: regexp2 %q, scanner %q", tc.name, s, want, got)
			}
		}
	})
}

// FuzzWordPieces checks that cutting a word into pieces no merge can cross
// (wordSep, isolated characters) and the word cache give exactly the ids of
// merging the whole word at once, on Mistral (SentencePiece-style, byte
// fallback, when the setup script has run) and the committed Metaspace and
// unk tokenizers.
func FuzzWordPieces(f *testing.F) {
	for _, s := range corpus(f) {
		if len(s) < 500 {
			f.Add(s)
		}
	}
	f.Add("▁a\n▁▁b\t\tc▁▁\n▁")
	var toks []*BPE
	for _, name := range []string{"tiny_metaspace", "tiny_unk"} {
		tok, err := LoadFile(filepath.Join("testdata", "tiny", tinyFiles[name]))
		if err != nil {
			f.Fatal(err)
		}
		toks = append(toks, tok)
	}
	if tok := tryLoadLarge("mistral/tokenizer.json"); tok != nil {
		toks = append(toks, tok)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 2048 {
			return
		}
		for _, tok := range toks {
			w := tok.normalize(text)
			var sc wordScratch
			got := tok.model.encodeWord(nil, w, &sc)
			again := tok.model.encodeWord(nil, w, &sc) // from the cache
			whole := tok.model.encodePiece(nil, w, &wordScratch{})
			if !cmp.Equal(whole, got) || !cmp.Equal(whole, again) {
				t.Fatalf("%q: pieces %v, cached %v, whole word %v", w, got, again, whole)
			}
		}
	})
}

// FuzzStopDecoder streams text in arbitrary pieces through StepText: the
// output is the text up to a stop string (through it when visible) that
// contains no other complete stop string, or the whole text when none
// occurs; in one piece it is the text up to the earliest match (the
// longest at that position).
func FuzzStopDecoder(f *testing.F) {
	f.Add("Hello world\nObservation: 42", "\nObservation:", "ld", []byte{3, 1, 4, 1, 5, 9}, false)
	f.Add("aaab", "aab", "ab", []byte{1, 1, 1, 1}, true)
	f.Add("xyz", "yzz", "zz", []byte{2}, false)
	f.Add("abcd", "abcd", "bc", []byte{2, 0}, true)
	f.Fuzz(func(t *testing.T, text, stop1, stop2 string, cuts []byte, visible bool) {
		var strs []string
		for _, s := range []string{stop1, stop2} {
			if s != "" {
				strs = append(strs, s)
			}
		}
		cfg := StopConfig{StopStrings: strs}
		if visible {
			cfg = StopConfig{VisibleStopStrings: strs}
		}
		d, err := NewStopDecoder(nil, cfg)
		if err != nil {
			t.Fatal(err)
		}
		var got []byte
		stopped := false
		for rest, i := text, 0; len(rest) > 0 && !stopped; i++ {
			n := len(rest)
			if i < len(cuts) {
				n = min(n, int(cuts[i])%8+1)
			}
			b, st, err := d.StepText([]byte(rest[:n]), 1)
			if err != nil {
				t.Fatal(err)
			}
			got, stopped, rest = append(got, b...), st, rest[n:]
		}
		if !stopped {
			b, err := d.Finish()
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, b...)
		}
		stop := d.Reason().String
		before := string(got) // the text before the matched stop string
		if visible {
			before = strings.TrimSuffix(before, stop)
		}
		switch {
		case stopped && !strings.HasPrefix(text, before+stop):
			t.Fatalf("stopped at %q after %q, not a prefix of %q", stop, got, text)
		case !stopped && string(got) != text:
			t.Fatalf("got %q, want all of %q", got, text)
		}
		for _, s := range strs {
			if strings.Contains(before, s) || !stopped && strings.Contains(text, s) {
				t.Fatalf("%q went past the stop string %q (%q)", got, s, text)
			}
		}
		if len(cuts) == 0 {
			at, want := -1, ""
			for _, s := range strs {
				if i := strings.Index(text, s); i >= 0 && (at < 0 || i < at || i == at && len(s) > len(want)) {
					at, want = i, s
				}
			}
			if stop != want || at >= 0 && len(before) != at {
				t.Fatalf("one piece: stopped at %q after %q, want %q at %d", stop, got, want, at)
			}
		}
	})
}
