package tokenizers

// Hand-written scanners for the pre-tokenizer split patterns in wide use.
//
// Each scanner reports the end of the match of its pattern that starts at
// s[i], or -1 when the pattern does not match there. The split loop (see
// findFunc) turns that into leftmost-first search. The scanners reproduce the
// backtracking semantics of the Oniguruma engine Hugging Face's library uses:
// alternation is leftmost-first (not longest), quantifiers are greedy and give
// back characters when the rest of the alternative needs them, \s+(?!\S)
// leaves the last white-space character to the following word, and (?i:…)
// folds case with Unicode simple case folding ('ſ' matches 's').
//
// They are selected by the exact pattern string (after JSON decoding); any
// other pattern runs on github.com/dlclark/regexp2.

// Known split patterns, as they appear in tokenizer.json after JSON decoding.
const (
	patGPT2 = `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`

	patCL100K = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`

	patQwen2 = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`

	patO200K = `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`

	patKimi = `[\p{Han}]+|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}&&[^\p{Han}]]*[\p{Ll}\p{Lm}\p{Lo}\p{M}&&[^\p{Han}]]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}&&[^\p{Han}]]+[\p{Ll}\p{Lm}\p{Lo}\p{M}&&[^\p{Han}]]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`

	patDigits3 = `\p{N}{1,3}`

	patDeepSeekCJK = "[\u4e00-\u9fa5\u3040-\u309f\u30a0-\u30ff]+"

	patDeepSeek = "[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+(?!\\S)|\\s+"
)

// scanFunc returns the end of the match starting at s[i], or -1.
type scanFunc func(s string, i int) int

// startSet marks the bytes at which a scanner's match can start. The split
// loop skips other bytes one at a time, so a set may leave out only ASCII
// bytes and bytes that never start a character (continuation bytes) or that
// start only characters the scanner never matches.
type startSet [256]bool

func newStartSet(may func(b byte) bool) *startSet {
	var t startSet
	for b := range 256 {
		t[b] = may(byte(b))
	}
	return &t
}

var (
	// \p{N} in ASCII is 0-9; any other character may be numeric.
	digitStarts = newStartSet(func(b byte) bool { return '0' <= b && b <= '9' || b >= 0x80 })
	// U+3040…U+9FA5 are encoded with lead bytes E3…E9.
	deepSeekCJKStarts = newStartSet(func(b byte) bool { return 0xE3 <= b && b <= 0xE9 })
)

// knownStarts returns the start set of the hand-written scanner for
// pattern, or nil when a match can start anywhere.
func knownStarts(pattern string) *startSet {
	switch pattern {
	case patDigits3:
		return digitStarts
	case patDeepSeekCJK:
		return deepSeekCJKStarts
	}
	return nil
}

// knownScanner returns the hand-written scanner for pattern, or nil.
func knownScanner(pattern string) scanFunc {
	switch pattern {
	case patGPT2:
		return scanGPT2
	case patCL100K:
		return scanCL100K
	case patQwen2:
		return scanQwen2
	case patO200K:
		return scanO200K
	case patKimi:
		return scanKimi
	case patDigits3:
		return scanDigits3
	case patDeepSeekCJK:
		return scanDeepSeekCJK
	case patDeepSeek:
		return scanDeepSeek
	}
	return nil
}

// contraction returns the length of the match of 's|'t|'re|'ve|'m|'ll|'d at
// s[i] (s[i] == '\” is checked here), or 0. With fold the letters match case
// insensitively under Unicode simple case folding, as (?i:…) does.
func contraction(s string, i int, fold bool) int {
	if i >= len(s) || s[i] != '\'' {
		return 0
	}
	rest := s[i+1:]
	if len(rest) == 0 {
		return 0
	}
	lower := func(b byte) byte {
		if fold && 'A' <= b && b <= 'Z' {
			return b + 'a' - 'A'
		}
		return b
	}
	switch lower(rest[0]) {
	case 's', 't', 'm', 'd':
		return 2
	case 'r', 'v':
		if len(rest) > 1 && lower(rest[1]) == 'e' {
			return 3
		}
	case 'l':
		if len(rest) > 1 && lower(rest[1]) == 'l' {
			return 3
		}
	case 0xC5:
		// U+017F LATIN SMALL LETTER LONG S folds to 's'.
		if fold && len(rest) > 1 && rest[1] == 0xBF {
			return 3
		}
	}
	return 0
}

// run returns the end of the run of characters starting at s[i] whose class
// intersects want.
func run(s string, i int, want class) int {
	for i < len(s) {
		if b := s[i]; b < 0x80 {
			if asciiClass[b]&want == 0 {
				break
			}
			i++
			continue
		}
		_, n, c := at(s, i)
		if c&want == 0 {
			break
		}
		i += n
	}
	return i
}

// runMax is run limited to max characters.
func runMax(s string, i int, want class, max int) int {
	for k := 0; k < max && i < len(s); k++ {
		_, n, c := at(s, i)
		if c&want == 0 {
			break
		}
		i += n
	}
	return i
}

// notSpaceLetterNumber returns the end of the run [^\s\p{L}\p{N}]+ at s[i]
// (i itself when there is none).
func notSpaceLetterNumber(s string, i int) int {
	for i < len(s) {
		if b := s[i]; b < 0x80 {
			if asciiClass[b]&(cSpace|cL|cN) != 0 {
				break
			}
			i++
			continue
		}
		_, n, c := at(s, i)
		if c&(cSpace|cL|cN) != 0 {
			break
		}
		i += n
	}
	return i
}

// newlines returns the end of [\r\n]* at s[i]; with slash, of [\r\n/]*.
func newlines(s string, i int, slash bool) int {
	for i < len(s) && (s[i] == '\r' || s[i] == '\n' || slash && s[i] == '/') {
		i++
	}
	return i
}

// spaces matches `\s*[\r\n]+|\s+(?!\S)|\s+` at s[i], where s[i] is white
// space; without nl the first alternative is absent (GPT-2).
func spaces(s string, i int, nl bool) int {
	j, last, lastNL, n := i, i, -1, 0
	for j < len(s) {
		var r rune
		var sz int
		var c class
		if b := s[j]; b < 0x80 {
			r, sz, c = rune(b), 1, asciiClass[b]
		} else {
			r, sz, c = at(s, j)
		}
		if c&cSpace == 0 {
			break
		}
		if r == '\r' || r == '\n' {
			lastNL = j
		}
		last = j
		j += sz
		n++
	}
	if nl && lastNL >= 0 {
		return lastNL + 1
	}
	if j == len(s) || n == 1 {
		return j
	}
	return last
}

// scanGPT2 implements patGPT2.
func scanGPT2(s string, i int) int {
	if k := contraction(s, i, false); k > 0 {
		return i + k
	}
	_, _, c := at(s, i)
	// ` ?` before a letter, number or other run; a space before white
	// space belongs to the white-space alternatives.
	j, cj := i, c
	if s[i] == ' ' && i+1 < len(s) {
		_, _, c2 := at(s, i+1)
		if c2&cSpace == 0 {
			j, cj = i+1, c2
		}
	}
	switch {
	case cj&cL != 0:
		return run(s, j, cL)
	case cj&cN != 0:
		return run(s, j, cN)
	case cj&cSpace == 0:
		return notSpaceLetterNumber(s, j)
	}
	return spaces(s, i, false)
}

func scanCL100K(s string, i int) int { return scanCL(s, i, 3) }
func scanQwen2(s string, i int) int  { return scanCL(s, i, 1) }

// scanCL implements patCL100K (maxDigits 3) and patQwen2 (maxDigits 1).
func scanCL(s string, i int, maxDigits int) int {
	r, n, c := at(s, i)
	if r == '\'' {
		if k := contraction(s, i, true); k > 0 {
			return i + k
		}
	}
	// [^\r\n\p{L}\p{N}]?\p{L}+
	if c&cL != 0 {
		return run(s, i+n, cL)
	}
	if r != '\r' && r != '\n' && c&cN == 0 && i+n < len(s) {
		if _, n2, c2 := at(s, i+n); c2&cL != 0 {
			return run(s, i+n+n2, cL)
		}
	}
	// \p{N}{1,max}
	if c&cN != 0 {
		return runMax(s, i, cN, maxDigits)
	}
	// ` ?[^\s\p{L}\p{N}]+[\r\n]*`
	j := i
	if r == ' ' {
		j++
	}
	if e := notSpaceLetterNumber(s, j); e > j {
		return newlines(s, e, false)
	}
	if c&cSpace != 0 {
		return spaces(s, i, true)
	}
	return -1
}

// Letter classes of the o200k pattern: U = [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}],
// W = [\p{Ll}\p{Lm}\p{Lo}\p{M}].
const (
	o200kU = cLu | cLt | cLm | cLo | cM
	o200kW = cLl | cLm | cLo | cM
)

func scanO200K(s string, i int) int { return scanO200(s, i, false) }
func scanKimi(s string, i int) int  { return scanO200(s, i, true) }

// scanO200 implements patO200K and, with kimi, patKimi (a leading [\p{Han}]+
// alternative, Han excluded from the letter classes, no '/' after
// punctuation).
func scanO200(s string, i int, kimi bool) int {
	if b := s[i]; b < 0x80 {
		// ASCII fast paths, equivalent to the general path below.
		switch {
		case isASCIILetter(b):
			// a letter run
			if e := o200kASCII(s, i); e >= 0 {
				return e
			}
		case '0' <= b && b <= '9':
			// the letter alternatives cannot start at a digit
			return runMax(s, i, cN, 3)
		case b == '\r' || b == '\n' || i+1 == len(s) || s[i+1] < 0x80 && !isASCIILetter(s[i+1]):
			// no letter alternative can match: neither s[i] nor, after
			// an optional prefix character, s[i+1] is a letter
			return o200kRest(s, i, rune(b), asciiClass[b], kimi)
		default:
			// a prefix character and a letter run
			if isASCIILetter(s[i+1]) {
				if e := o200kASCII(s, i+1); e >= 0 {
					return e
				}
			}
		}
	}
	r, n, c := at(s, i)
	if kimi && c&cHan != 0 {
		return runHan(s, i)
	}
	prefix := r != '\r' && r != '\n' && c&(cL|cN) == 0 && i+n < len(s)
	if prefix {
		if e := o200kAlt1(s, i+n, kimi); e >= 0 {
			return e
		}
	}
	if e := o200kAlt1(s, i, kimi); e >= 0 {
		return e
	}
	if prefix {
		if e := o200kAlt2(s, i+n, kimi); e >= 0 {
			return e
		}
	}
	if e := o200kAlt2(s, i, kimi); e >= 0 {
		return e
	}
	if c&cN != 0 {
		return runMax(s, i, cN, 3)
	}
	return o200kRest(s, i, r, c, kimi)
}

// o200kRest matches the alternatives after the letters and digits:
// ` ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+` (Kimi: no '/').
func o200kRest(s string, i int, r rune, c class, kimi bool) int {
	j := i
	if r == ' ' {
		j++
	}
	if e := notSpaceLetterNumber(s, j); e > j {
		return newlines(s, e, !kimi)
	}
	if c&cSpace != 0 {
		return spaces(s, i, true)
	}
	return -1
}

// o200kASCII matches the letter alternatives of the o200k pattern at s[j],
// an ASCII letter, when the letters are ASCII: [A-Z]*[a-z]+ (first
// alternative) or else [A-Z]+ (second), then a contraction. ASCII capitals
// are not in W and ASCII lower-case letters not in U, so no backtracking is
// needed. It returns -1 when a non-ASCII character follows the run (it
// might extend it), leaving the case to the general path.
func o200kASCII(s string, j int) int {
	e := j
	for e < len(s) && 'A' <= s[e] && s[e] <= 'Z' {
		e++
	}
	for e < len(s) && 'a' <= s[e] && s[e] <= 'z' {
		e++
	}
	if e < len(s) && s[e] >= 0x80 {
		return -1
	}
	return e + contraction(s, e, true)
}

// runHan returns the end of the run of Han characters at s[i].
func runHan(s string, i int) int { return run(s, i, cHan) }

// inClass reports whether c is in the letter class want, which for Kimi
// excludes Han.
func inClass(c, want class, kimi bool) bool {
	return c&want != 0 && !(kimi && c&cHan != 0)
}

// o200kAlt1 matches U*W+ contraction? at s[j], or returns -1.
func o200kAlt1(s string, j int, kimi bool) int {
	// U* greedily, then give characters back until W+ can start.
	end := j
	for end < len(s) {
		_, n, c := at(s, end)
		if !inClass(c, o200kU, kimi) {
			break
		}
		end += n
	}
	q := end
	for {
		if q < len(s) {
			if _, _, c := at(s, q); inClass(c, o200kW, kimi) {
				e := q
				for e < len(s) {
					_, n, c := at(s, e)
					if !inClass(c, o200kW, kimi) {
						break
					}
					e += n
				}
				return e + contraction(s, e, true)
			}
		}
		if q == j {
			return -1
		}
		q = lastRuneStart(s, j, q)
	}
}

// o200kAlt2 matches U+W* contraction? at s[j], or returns -1.
func o200kAlt2(s string, j int, kimi bool) int {
	e := j
	for e < len(s) {
		_, n, c := at(s, e)
		if !inClass(c, o200kU, kimi) {
			break
		}
		e += n
	}
	if e == j {
		return -1
	}
	for e < len(s) {
		_, n, c := at(s, e)
		if !inClass(c, o200kW, kimi) {
			break
		}
		e += n
	}
	return e + contraction(s, e, true)
}

// lastRuneStart returns the start of the rune that ends at s[q], not going
// below lo.
func lastRuneStart(s string, lo, q int) int {
	q--
	for q > lo && s[q]&0xC0 == 0x80 {
		q--
	}
	return q
}

// scanDigits3 implements \p{N}{1,3}.
func scanDigits3(s string, i int) int {
	if _, _, c := at(s, i); c&cN == 0 {
		return -1
	}
	return runMax(s, i, cN, 3)
}

// isDeepSeekCJK reports whether r is in [一-龥぀-ゟ゠-ヿ].
func isDeepSeekCJK(r rune) bool {
	return 0x4e00 <= r && r <= 0x9fa5 || 0x3040 <= r && r <= 0x309f || 0x30a0 <= r && r <= 0x30ff
}

// scanDeepSeekCJK implements patDeepSeekCJK.
func scanDeepSeekCJK(s string, i int) int {
	e := i
	for e < len(s) {
		r, n, _ := at(s, e)
		if !isDeepSeekCJK(r) {
			break
		}
		e += n
	}
	if e == i {
		return -1
	}
	return e
}

func isASCIILetter(b byte) bool { return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' }

// isASCIIPunct reports whether b is in [!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~].
func isASCIIPunct(b byte) bool {
	return '!' <= b && b <= '/' || ':' <= b && b <= '@' || '[' <= b && b <= '`' || '{' <= b && b <= '~'
}

// scanDeepSeek implements patDeepSeek.
func scanDeepSeek(s string, i int) int {
	if isASCIIPunct(s[i]) && i+1 < len(s) && isASCIILetter(s[i+1]) {
		e := i + 2
		for e < len(s) && isASCIILetter(s[e]) {
			e++
		}
		return e
	}
	r, n, c := at(s, i)
	// [^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+
	if r != '\r' && r != '\n' && c&(cL|cP|cS) == 0 && i+n < len(s) {
		if _, _, c2 := at(s, i+n); c2&(cL|cM) != 0 {
			return run(s, i+n, cL|cM)
		}
	}
	if c&(cL|cM) != 0 {
		return run(s, i, cL|cM)
	}
	// ` ?[\p{P}\p{S}]+[\r\n]*`
	j := i
	if r == ' ' {
		j++
	}
	if e := run(s, j, cP|cS); e > j {
		return newlines(s, e, false)
	}
	if c&cSpace != 0 {
		return spaces(s, i, true)
	}
	return -1
}
