package tokenizers

import (
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/dlclark/regexp2"
	"golang.org/x/text/unicode/norm"
)

// normKind is a normalizer step.
type normKind uint8

const (
	normNFC normKind = iota
	normNFD
	normNFKC
	normNFKD
	normLowercase
	normPrepend
	normReplace
	normStrip
)

type normStep struct {
	kind        normKind
	from, to    string // Replace pattern and content; Prepend string in to
	left, right bool   // Strip sides
}

// normalize applies the normalizer steps to one piece of text between added
// tokens. It returns s itself when no step changes it.
func (t *BPE) normalize(s string) string {
	ascii := -1 // unknown
	for _, st := range t.normalizer {
		if s == "" {
			return s
		}
		if st.kind <= normNFKD {
			// ASCII text is in every normal form; checking it first
			// avoids x/text's per-call allocation.
			if ascii < 0 {
				ascii = 1
				for i := 0; i < len(s); i++ {
					if s[i] >= 0x80 {
						ascii = 0
						break
					}
				}
			}
			if ascii == 1 {
				continue
			}
		} else {
			ascii = -1
		}
		switch st.kind {
		case normNFC:
			s = normalForm(norm.NFC, s)
		case normNFD:
			s = normalForm(norm.NFD, s)
		case normNFKC:
			s = normalForm(norm.NFKC, s)
		case normNFKD:
			s = normalForm(norm.NFKD, s)
		case normLowercase:
			s = lowercase(s)
		case normPrepend:
			s = st.to + s
		case normReplace:
			s = strings.ReplaceAll(s, st.from, st.to)
		case normStrip:
			if st.left {
				s = strings.TrimLeftFunc(s, isSpaceRune)
			}
			if st.right {
				s = strings.TrimRightFunc(s, isSpaceRune)
			}
		}
	}
	return s
}

// normalForm returns s in form f. The quick check answers for most text
// without allocating (IsNormalString allocates on every call).
func normalForm(f norm.Form, s string) string {
	if f.QuickSpanString(s) == len(s) || f.IsNormalString(s) {
		return s
	}
	return f.String(s)
}

// lowercase maps each character to its full lowercase mapping, as Rust's
// char::to_lowercase does for Hugging Face's Lowercase normalizer: the simple
// mapping, except U+0130 (İ), whose unconditional special casing is "i̇".
// There is no final-sigma rule (the mapping is per character).
func lowercase(s string) string {
	if strings.IndexRune(s, 0x130) < 0 {
		return strings.ToLower(s)
	}
	var b strings.Builder
	for _, r := range s {
		if r == 0x130 {
			b.WriteString("i\u0307")
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

func isSpaceRune(r rune) bool {
	if r < 0x10000 {
		return bmpClass[r]&cSpace != 0
	}
	return false
}

// preKind is a pre-tokenizer step.
type preKind uint8

const (
	preSplit     preKind = iota // Split with a pattern
	preByteLevel                // ByteLevel: optional prefix space, optional GPT-2 split
	preMetaspace                // Metaspace: ' ' → replacement, prefix, split
	preDigits                   // Digits
	preWhitespaceSplit
)

// splitBehavior says what happens to a match of a Split pattern.
type splitBehavior uint8

const (
	splitIsolated splitBehavior = iota
	splitRemoved
	splitMergedWithPrevious
	splitMergedWithNext
	splitContiguous
)

type preStep struct {
	kind     preKind
	scan     scanFunc        // hand-written pattern scanner, or nil
	starts   *startSet       // where scan can match, or nil
	re       *regexp2.Regexp // fallback pattern engine
	literal  string          // Split with a String pattern
	behavior splitBehavior
	invert   bool

	// ByteLevel
	addPrefixSpace bool
	useRegex       bool

	// Metaspace
	replacement  string
	prepend      uint8 // 0 never, 1 always, 2 first
	splitOnSpace bool

	// Digits
	individual bool
}

// preTokenize runs pre-tokenizer steps k… on s and encodes the resulting
// words with the model. first says that s starts at offset 0 of the encoded
// text (Metaspace's prepend_scheme "first").
func (t *BPE) preTokenize(dst []uint32, k int, s string, first bool, sc *encodeScratch) []uint32 {
	if s == "" {
		return dst
	}
	if k == len(t.pre) {
		return t.model.encodeWord(dst, s, &sc.word)
	}
	st := &t.pre[k]
	switch st.kind {
	case preSplit:
		return t.split(dst, k, s, first, st, sc)
	case preByteLevel:
		if st.addPrefixSpace && s[0] != ' ' {
			s = " " + s
		}
		if st.useRegex {
			return t.splitWith(dst, k, s, first, scanGPT2, nil, splitIsolated, sc)
		}
		return t.preTokenize(dst, k+1, s, first, sc)
	case preMetaspace:
		s = strings.ReplaceAll(s, " ", st.replacement)
		if (st.prepend == 1 || st.prepend == 2 && first) && !strings.HasPrefix(s, st.replacement) {
			s = st.replacement + s
		}
		if !st.splitOnSpace {
			return t.preTokenize(dst, k+1, s, first, sc)
		}
		// MergedWithNext on the replacement character.
		start := 0
		for i := 0; i < len(s); {
			if j := strings.Index(s[i:], st.replacement); j >= 0 {
				i += j
				if i > start {
					dst = t.preTokenize(dst, k+1, s[start:i], first && start == 0, sc)
					start = i
				}
				i += len(st.replacement)
				continue
			}
			break
		}
		return t.preTokenize(dst, k+1, s[start:], first && start == 0, sc)
	case preDigits:
		if st.individual {
			return t.splitWith(dst, k, s, first, scanOneDigit, digitStarts, splitIsolated, sc)
		}
		return t.splitWith(dst, k, s, first, scanOneDigit, digitStarts, splitContiguous, sc)
	case preWhitespaceSplit:
		return t.splitWith(dst, k, s, first, scanNonSpace, nil, splitRemoved, sc)
	}
	return dst
}

// scanOneDigit matches one numeric character (Rust's char::is_numeric:
// categories Nd, Nl, No), for the Digits pre-tokenizer; runs are joined by
// the Contiguous behavior when individual_digits is off.
func scanOneDigit(s string, i int) int {
	if _, n, c := at(s, i); c&cN != 0 {
		return i + n
	}
	return -1
}

// scanNonSpace matches white space, which WhitespaceSplit removes.
func scanNonSpace(s string, i int) int {
	if _, _, c := at(s, i); c&cSpace != 0 {
		return run(s, i, cSpace)
	}
	return -1
}

// split applies a Split step.
func (t *BPE) split(dst []uint32, k int, s string, first bool, st *preStep, sc *encodeScratch) []uint32 {
	switch {
	case st.scan != nil:
		return t.splitWith(dst, k, s, first, st.scan, st.starts, st.behavior, sc)
	case st.re != nil:
		return t.splitRegexp(dst, k, s, first, st, sc)
	default:
		lit := st.literal
		return t.splitWith(dst, k, s, first, func(s string, i int) int {
			if lit != "" && strings.HasPrefix(s[i:], lit) {
				return i + len(lit)
			}
			return -1
		}, nil, st.behavior, sc)
	}
}

// splitWith splits s with a scanner: at each position the pattern is tried;
// where it does not match, the characters up to the next match form a gap.
// Matches and gaps are then combined according to behavior. Bytes outside
// starts (when set) are skipped without calling scan.
func (t *BPE) splitWith(dst []uint32, k int, s string, first bool, scan scanFunc, starts *startSet, behavior splitBehavior, sc *encodeScratch) []uint32 {
	if behavior == splitIsolated {
		return t.splitIsolated(dst, k, s, first, scan, starts, sc)
	}
	var sp splitter
	sp.init(t, dst, k, s, first, behavior, sc)
	gap := 0
	for i := 0; i < len(s); {
		if starts != nil {
			for i < len(s) && !starts[s[i]] {
				i++
			}
			if i == len(s) {
				break
			}
		}
		e := scan(s, i)
		if e <= i {
			i += runeLen(s, i)
			continue
		}
		sp.piece(gap, i, false)
		sp.piece(i, e, true)
		i, gap = e, e
	}
	sp.piece(gap, len(s), false)
	return sp.finish()
}

// splitIsolated is splitWith for the Isolated behavior (every match and
// every gap is a word), the one the large files use, without the splitter's
// bookkeeping: the hot loop of encoding.
func (t *BPE) splitIsolated(dst []uint32, k int, s string, first bool, scan scanFunc, starts *startSet, sc *encodeScratch) []uint32 {
	last := k+1 == len(t.pre)
	word := func(dst []uint32, a, b int) []uint32 {
		if last {
			return t.model.encodeWord(dst, s[a:b], &sc.word)
		}
		return t.preTokenize(dst, k+1, s[a:b], first && a == 0, sc)
	}
	gap := 0
	for i := 0; i < len(s); {
		if starts != nil {
			for i < len(s) && !starts[s[i]] {
				i++
			}
			if i == len(s) {
				break
			}
		}
		e := scan(s, i)
		if e <= i {
			i += runeLen(s, i)
			continue
		}
		if gap < i {
			dst = word(dst, gap, i)
		}
		dst = word(dst, i, e)
		i, gap = e, e
	}
	if gap < len(s) {
		dst = word(dst, gap, len(s))
	}
	return dst
}

// Bounds on the regexp fallback. Each match may take regexpMatchTimeout, and
// one call of splitRegexp regexpBaseBudget plus regexpByteBudget per byte of
// its text (0.1 MB/s; the fallback runs at about 2 MB/s on real patterns).
// Past either bound the encode fails with ErrSplitTimeout (AppendEncode,
// which cannot fail, encodes the rest of that text unsplit), and later
// regexp splits of the same encode do not run at all, so one encode spends
// at most one budget.
const (
	regexpMatchTimeout = 100 * time.Millisecond
	regexpBaseBudget   = time.Second
	regexpByteBudget   = 10 * time.Microsecond
)

// splitRegexp is splitWith for a regexp2 pattern (positions in runes).
func (t *BPE) splitRegexp(dst []uint32, k int, s string, first bool, st *preStep, sc *encodeScratch) []uint32 {
	start := time.Now()
	budget := regexpBaseBudget + time.Duration(len(s))*regexpByteBudget
	runes := []rune(s)
	// byte offset of each rune index
	offs := make([]int, len(runes)+1)
	o := 0
	for i, r := range runes {
		offs[i] = o
		if r == '\uFFFD' {
			o += runeLen(s, o)
		} else {
			o += len(string(r))
		}
	}
	offs[len(runes)] = len(s)
	var sp splitter
	sp.init(t, dst, k, s, first, st.behavior, sc)
	if sc.err != nil {
		sp.piece(0, len(s), false)
		return sp.finish()
	}
	gap := 0
	m, err := st.re.FindRunesMatch(runes)
	for err == nil && m != nil {
		if time.Since(start) > budget {
			err = fmt.Errorf("more than %v on %d bytes", budget, len(s))
			break
		}
		a, b := offs[m.Index], offs[m.Index+m.Length]
		if b > a {
			if st.invert {
				sp.piece(gap, a, true)
				sp.piece(a, b, false)
			} else {
				sp.piece(gap, a, false)
				sp.piece(a, b, true)
			}
			gap = b
		}
		m, err = st.re.FindNextMatch(m)
	}
	if err != nil {
		sc.err = fmt.Errorf("%w: pattern %q (not one of the known patterns, so it runs on a backtracking engine): %v", ErrSplitTimeout, clip(st.re.String(), 80), err)
		sp.piece(gap, len(s), false) // the rest, unsplit
		return sp.finish()
	}
	sp.piece(gap, len(s), st.invert)
	return sp.finish()
}

// splitter combines matches and gaps into words according to a Split
// behavior and feeds them to the next pre-tokenizer step.
type splitter struct {
	t        *BPE
	dst      []uint32
	k        int
	s        string
	first    bool // s starts at offset 0 of the encoded text
	behavior splitBehavior
	sc       *encodeScratch
	pend     int // start of a pending piece (merged/contiguous), -1 none
	pendEnd  int
	pendIsM  bool
}

func (sp *splitter) init(t *BPE, dst []uint32, k int, s string, first bool, b splitBehavior, sc *encodeScratch) {
	*sp = splitter{t: t, dst: dst, k: k, s: s, first: first, behavior: b, sc: sc, pend: -1}
}

func (sp *splitter) emit(a, b int) {
	if b <= a {
		return
	}
	if sp.k+1 == len(sp.t.pre) {
		// the last step: straight to the model
		sp.dst = sp.t.model.encodeWord(sp.dst, sp.s[a:b], &sp.sc.word)
		return
	}
	sp.dst = sp.t.preTokenize(sp.dst, sp.k+1, sp.s[a:b], sp.first && a == 0, sp.sc)
}

// piece receives the next match (isMatch) or gap [a, b).
func (sp *splitter) piece(a, b int, isMatch bool) {
	if b <= a {
		return
	}
	switch sp.behavior {
	case splitIsolated:
		sp.emit(a, b)
	case splitRemoved:
		if !isMatch {
			sp.emit(a, b)
		}
	case splitMergedWithPrevious:
		// a match joins the piece before it
		if isMatch && sp.pend >= 0 {
			sp.pendEnd = b
			sp.flush()
			return
		}
		sp.flush()
		if isMatch {
			sp.emit(a, b)
			return
		}
		sp.pend, sp.pendEnd = a, b
	case splitMergedWithNext:
		// a match joins the piece after it
		if isMatch {
			sp.flush()
			sp.pend, sp.pendEnd, sp.pendIsM = a, b, true
			return
		}
		if sp.pend >= 0 {
			sp.pendEnd = b
			sp.flush()
			return
		}
		sp.emit(a, b)
	case splitContiguous:
		// consecutive matches form one piece
		if isMatch {
			if sp.pend >= 0 && sp.pendIsM && sp.pendEnd == a {
				sp.pendEnd = b
				return
			}
			sp.flush()
			sp.pend, sp.pendEnd, sp.pendIsM = a, b, true
			return
		}
		sp.flush()
		sp.emit(a, b)
	}
}

func (sp *splitter) flush() {
	if sp.pend >= 0 {
		sp.emit(sp.pend, sp.pendEnd)
		sp.pend = -1
		sp.pendIsM = false
	}
}

func (sp *splitter) finish() []uint32 {
	sp.flush()
	return sp.dst
}

// postProcessor adds the post-processor's tokens around a single sequence
// when encoding with addSpecialTokens.
type postProcessor struct {
	prefix, suffix []uint32
}

// clip shortens s to about n bytes for an error message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}
