package tokenizers

import (
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
	"github.com/google/go-cmp/cmp"
)

// scannerCases pairs every hand-written scanner with a regexp2 spelling of
// its pattern. regexp2 cannot express Kimi's class intersection, so Kimi's
// pattern is written with .NET class subtraction there.
var scannerCases = []struct {
	name    string
	scan    scanFunc
	pattern string
}{
	{"gpt2", scanGPT2, patGPT2},
	{"cl100k", scanCL100K, patCL100K},
	{"qwen2", scanQwen2, patQwen2},
	{"o200k", scanO200K, patO200K},
	{"kimi", scanKimi, strings.NewReplacer(
		`[\p{Han}]+`, `\p{Han}+`,
		`[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}&&[^\p{Han}]]`, `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}-[\p{Han}]]`,
		`[\p{Ll}\p{Lm}\p{Lo}\p{M}&&[^\p{Han}]]`, `[\p{Ll}\p{Lm}\p{Lo}\p{M}-[\p{Han}]]`,
	).Replace(patKimi)},
	{"digits3", scanDigits3, patDigits3},
	{"deepseek_cjk", scanDeepSeekCJK, patDeepSeekCJK},
	{"deepseek", scanDeepSeek, patDeepSeek},
}

// scanPieces splits s with a scanner the way splitWith does (Isolated).
func scanPieces(s string, scan scanFunc) []string {
	var out []string
	gap := 0
	for i := 0; i < len(s); {
		e := scan(s, i)
		if e <= i {
			i += runeLen(s, i)
			continue
		}
		if gap < i {
			out = append(out, s[gap:i])
		}
		out = append(out, s[i:e])
		i, gap = e, e
	}
	if gap < len(s) {
		out = append(out, s[gap:])
	}
	return out
}

// startsPieces is scanPieces with the byte skipping of a start set, as
// splitIsolated does it.
func startsPieces(s string, scan scanFunc, starts *startSet) []string {
	var out []string
	gap := 0
	for i := 0; i < len(s); {
		for i < len(s) && !starts[s[i]] {
			i++
		}
		if i == len(s) {
			break
		}
		e := scan(s, i)
		if e <= i {
			i += runeLen(s, i)
			continue
		}
		if gap < i {
			out = append(out, s[gap:i])
		}
		out = append(out, s[i:e])
		i, gap = e, e
	}
	if gap < len(s) {
		out = append(out, s[gap:])
	}
	return out
}

// regexpPieces splits s with regexp2 (Isolated).
func regexpPieces(t testing.TB, re *regexp2.Regexp, s string) []string {
	runes := []rune(s)
	var out []string
	gap := 0
	m, err := re.FindRunesMatch(runes)
	for ; err == nil && m != nil; m, err = re.FindNextMatch(m) {
		if m.Length == 0 {
			continue
		}
		if gap < m.Index {
			out = append(out, string(runes[gap:m.Index]))
		}
		out = append(out, string(runes[m.Index:m.Index+m.Length]))
		gap = m.Index + m.Length
	}
	if err != nil {
		t.Fatal(err)
	}
	if gap < len(runes) {
		out = append(out, string(runes[gap:]))
	}
	return out
}

// comparable reports whether s avoids the inputs where regexp2 and the
// reference engine legitimately differ: code points newer than Go's Unicode
// tables (classOverrides), and U+017F / U+212A, which Oniguruma's (?i) folds
// to ASCII letters and regexp2 does not.
func comparable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r == 0x17F || r == 0x212A {
			return false
		}
		if _, ok := overrideOf(r); ok {
			return false
		}
	}
	return true
}

func compileCase(t testing.TB, pattern string) *regexp2.Regexp {
	re, err := regexp2.Compile(pattern, regexp2.Unicode)
	if err != nil {
		t.Fatal(err)
	}
	return re
}

// TestScannersMatchRegexp compares every scanner with a backtracking regex
// engine on the corpus and on seeded random strings drawn from characters of
// every class the patterns distinguish.
func TestScannersMatchRegexp(t *testing.T) {
	initClasses()
	alphabet := []rune("aZé ǅʰ中日あア한\u0301\u0903٣5²Ⅻ!?'sStTrReEvVmMlLdD/\\-_.,\t\n\r \u00a0\u3000\u200d\u2028😀🏽\x00\x1f~$")
	rng := rand.New(rand.NewSource(1))
	texts := corpus(t)
	for i := 0; i < 3000; i++ {
		var b strings.Builder
		for n := rng.Intn(24); n >= 0; n-- {
			b.WriteRune(alphabet[rng.Intn(len(alphabet))])
		}
		texts = append(texts, b.String())
	}
	for _, tc := range scannerCases {
		t.Run(tc.name, func(t *testing.T) {
			re := compileCase(t, tc.pattern)
			for _, s := range texts {
				if !comparable(s) {
					continue
				}
				want := regexpPieces(t, re, s)
				got := scanPieces(s, tc.scan)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("split of %q (-regexp2 +scanner):\n%s", s, diff)
				}
				if starts := knownStarts(tc.pattern); starts != nil {
					if diff := cmp.Diff(want, startsPieces(s, tc.scan, starts)); diff != "" {
						t.Fatalf("split of %q with the start set (-regexp2 +scanner):\n%s", s, diff)
					}
				}
			}
			// Invalid UTF-8 too (regexp2 cannot judge it): the start
			// set must not change the split.
			if starts := knownStarts(tc.pattern); starts != nil {
				for _, s := range []string{"\xe4\xb8", "a\xe4\xb8\xad\xff1\x80\xe3\x81\x82", "\xe3\xe4\xb8\xad", "1\xc3\xa9\xe9\xbe\xa5\xf0\x9f\x98\x80"} {
					if diff := cmp.Diff(scanPieces(s, tc.scan), startsPieces(s, tc.scan, starts)); diff != "" {
						t.Errorf("split of %q with the start set (-without +with):\n%s", s, diff)
					}
				}
			}
		})
	}
}

// TestContractionFolding pins the case folding of (?i:'s…) against Hugging
// Face's engine: Llama 3's goldens include "'ſ" and "'K"; here the scanner
// level shows the rule.
func TestContractionFolding(t *testing.T) {
	initClasses()
	tests := []struct {
		in   string
		want []string
	}{
		{"'S", []string{"'S"}},
		{"'ſ", []string{"'ſ"}},
		{"'LL", []string{"'LL"}},
		{"'Ll", []string{"'Ll"}},
		{"'K", []string{"'K"}}, // no contraction: ' + letter
		{"'x", []string{"'x"}},
	}
	for _, tc := range tests {
		if got := scanPieces(tc.in, scanCL100K); !cmp.Equal(got, tc.want) {
			t.Errorf("cl100k %q = %q, want %q", tc.in, got, tc.want)
		}
	}
	if n := contraction("'ſ", 0, true); n != 3 {
		t.Errorf("contraction('ſ) = %d, want 3", n)
	}
	if n := contraction("'ſ", 0, false); n != 0 {
		t.Errorf("case-sensitive contraction('ſ) = %d, want 0", n)
	}
}
