package jinja

// Python's textwrap (for the wordwrap filter) and jinja2's urlize (patch,
// textwrap.go is new).

import (
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

var (
	wordwrapNames    = []string{"width", "break_long_words", "wrapstring", "break_on_hyphens"}
	wordwrapDefaults = []Value{NewInt(79), NewBool(true), None(), NewBool(true)}
)

func filterWordwrap(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	var buf [4]Value
	p, err := bindInto(buf[:], "do_wordwrap", args, kw, wordwrapNames, 0, wordwrapDefaults)
	if err != nil {
		return Undefined(), err
	}
	wrapstring := "\n"
	if !p[2].IsNone() {
		if !p[2].IsString() {
			return Undefined(), pyErr("AttributeError", pyTypeName(p[2])+" object has no attribute 'join'")
		}
		wrapstring = p[2].AsString()
	}
	if !v.IsString() {
		if v.IsUndefined() {
			return Undefined(), undefinedError(v)
		}
		return Undefined(), pyErr("AttributeError", pyTypeName(v)+" object has no attribute 'splitlines'")
	}
	if !isIntLike(p[0]) {
		return Undefined(), typeError("'<=' not supported between instances of " + pyTypeName(p[0]) + " and 'int'")
	}
	width := toInt64(p[0])
	lines := pySplitlines(v.AsString(), false)
	out := make([]string, len(lines))
	for i, line := range lines {
		wrapped, err := textWrap(line, width, p[1].IsTruthy(), p[3].IsTruthy())
		if err != nil {
			return Undefined(), err
		}
		out[i] = strings.Join(wrapped, wrapstring)
	}
	return newStr(strings.Join(out, wrapstring), v.kind == KindMarkup), nil
}

func isWrapSpace(r rune) bool {
	return r == '\t' || r == '\n' || r == '\v' || r == '\f' || r == '\r' || r == ' '
}

// isWordPunct is textwrap's [\w!"'&.,?].
func isWordPunct(r rune) bool { return isPyWord(r) || strings.ContainsRune(`!"'&.,?`, r) }

// isWrapLetter is textwrap's [^\d\W]: a word character that is no digit.
func isWrapLetter(r rune) bool { return isPyWord(r) && !isPyDecimal(r) }

// wrapChunks splits text as TextWrapper._split: runs of whitespace, em-dashes
// between words, and words (with break_on_hyphens, hyphenated words split
// after each hyphen between letters).
func wrapChunks(text string, breakOnHyphens bool) []string {
	r := []rune(text)
	n := len(r)
	at := func(i int) rune {
		if i < 0 || i >= n {
			return -1
		}
		return r[i]
	}
	letter := func(i int) bool { c := at(i); return c >= 0 && isWrapLetter(c) }
	// emDashAt: -{2,} starting at i followed by a word character.
	emDashAt := func(i int) bool {
		j := i
		for j < n && r[j] == '-' {
			j++
		}
		return j-i >= 2 && j < n && isPyWord(r[j])
	}
	var chunks []string
	i := 0
	for i < n {
		if isWrapSpace(r[i]) {
			j := i
			for j < n && isWrapSpace(r[j]) {
				j++
			}
			chunks = append(chunks, string(r[i:j]))
			i = j
			continue
		}
		if !breakOnHyphens {
			j := i
			for j < n && !isWrapSpace(r[j]) {
				j++
			}
			chunks = append(chunks, string(r[i:j]))
			i = j
			continue
		}
		if i > 0 && isWordPunct(r[i-1]) && emDashAt(i) {
			j := i
			for j < n && r[j] == '-' {
				j++
			}
			chunks = append(chunks, string(r[i:j]))
			i = j
			continue
		}
		end := -1
		for e := i + 1; e <= n; e++ {
			if isWrapSpace(r[e-1]) {
				break
			}
			// hyphenated word: a hyphen after two letters, or after
			// letter-letter-, followed by letter -? letter.
			if at(e) == '-' && (letter(e-1) && letter(e-2) || letter(e-1) && at(e-2) == '-' && letter(e-3)) &&
				(letter(e+1) && (letter(e+2) || at(e+2) == '-' && letter(e+3))) {
				end = e + 1
				break
			}
			if e == n || isWrapSpace(r[e]) {
				end = e
				break
			}
			if isWordPunct(r[e-1]) && emDashAt(e) {
				end = e
				break
			}
		}
		if end < 0 { // unreachable: a word always ends at whitespace or the end
			end = n
		}
		chunks = append(chunks, string(r[i:end]))
		i = end
	}
	return chunks
}

// textWrap is textwrap.wrap(text, width, expand_tabs=False,
// replace_whitespace=False, break_long_words, break_on_hyphens).
func textWrap(text string, width int64, breakLong, breakOnHyphens bool) ([]string, error) {
	if width <= 0 {
		return nil, valueError("invalid width " + pyStr(NewInt(width)) + " (must be > 0)")
	}
	chunks := wrapChunks(text, breakOnHyphens)
	// chunks is used as a stack: the next chunk is the last element.
	for a, b := 0, len(chunks)-1; a < b; a, b = a+1, b-1 {
		chunks[a], chunks[b] = chunks[b], chunks[a]
	}
	isBlank := func(s string) bool { return strings.TrimFunc(s, isPySpace) == "" }
	var lines []string
	for len(chunks) > 0 {
		var cur []string
		curLen := int64(0)
		w := width
		if isBlank(chunks[len(chunks)-1]) && len(lines) > 0 {
			chunks = chunks[:len(chunks)-1]
		}
		for len(chunks) > 0 {
			l := int64(runeLen(chunks[len(chunks)-1]))
			if curLen+l > w {
				break
			}
			cur = append(cur, chunks[len(chunks)-1])
			chunks = chunks[:len(chunks)-1]
			curLen += l
		}
		if len(chunks) > 0 && int64(runeLen(chunks[len(chunks)-1])) > w {
			// _handle_long_word
			spaceLeft := w - curLen
			if w < 1 {
				spaceLeft = 1
			}
			if breakLong {
				end := spaceLeft
				chunk := []rune(chunks[len(chunks)-1])
				if breakOnHyphens && int64(len(chunk)) > spaceLeft {
					hyphen := -1
					for k := min(int(spaceLeft), len(chunk)) - 1; k >= 0; k-- {
						if chunk[k] == '-' {
							hyphen = k
							break
						}
					}
					if hyphen > 0 {
						for _, c := range chunk[:hyphen] {
							if c != '-' {
								end = int64(hyphen + 1)
								break
							}
						}
					}
				}
				end = min(end, int64(len(chunk)))
				cur = append(cur, string(chunk[:end]))
				chunks[len(chunks)-1] = string(chunk[end:])
			} else if len(cur) == 0 {
				cur = append(cur, chunks[len(chunks)-1])
				chunks = chunks[:len(chunks)-1]
			}
			curLen = 0
			for _, c := range cur {
				curLen += int64(runeLen(c))
			}
		}
		if len(cur) > 0 && isBlank(cur[len(cur)-1]) {
			curLen -= int64(runeLen(cur[len(cur)-1]))
			cur = cur[:len(cur)-1]
		}
		if len(cur) > 0 {
			lines = append(lines, strings.Join(cur, ""))
		}
	}
	return lines, nil
}

// =============================================================================
// urlize
// =============================================================================

const pyWordClass = `\p{L}\p{N}_`
const pyNonSpace = `[^\t\n\v\f\r \x1c-\x1f\x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}]`

// urlizeRes are urlize's regular expressions, compiled on first use (their
// Unicode classes cost milliseconds, which no program should pay at start).
var urlizeRes = sync.OnceValue(func() (r struct{ http, email, head, tail, scheme *regexp.Regexp }) {
	r.http = regexp.MustCompile(`(?i)^(` +
		`(https?://|www\.)(([` + pyWordClass + `%-]+\.)+)?([a-z]{2,63}|xn--[` + pyWordClass + `%]{2,59})` +
		`|([` + pyWordClass + `%-]{2,63}\.)+(com|net|int|edu|gov|org|info|mil)` +
		`|(https?://)(((\d{1,3})(\.\d{1,3}){3})|(\[([\da-f]{0,4}:){2}([\da-f]{0,4}:?){1,6}\]))` +
		`)(?::\d{1,5})?(?:[/?#]` + pyNonSpace + `*)?$`)
	r.email = regexp.MustCompile(`^` + pyNonSpace + `+@[` + pyWordClass + `][` + pyWordClass + `.-]*\.[` + pyWordClass + `]+$`)
	r.head = regexp.MustCompile(`^([(<]|&lt;)+`)
	r.tail = regexp.MustCompile(`([)>.,\n]|&gt;)+$`)
	r.scheme = regexp.MustCompile(`^[` + pyWordClass + `.+-]{2,}:(/){0,2}$`)
	return r
})

var (
	urlizeNames    = []string{"trim_url_limit", "nofollow", "target", "rel", "extra_schemes"}
	urlizeDefaults = []Value{None(), NewBool(false), None(), None(), None()}
)

func filterUrlize(e *evaluator, v Value, args []Value, kw kwargs) (Value, error) {
	var buf [5]Value
	p, err := bindInto(buf[:], "do_urlize", args, kw, urlizeNames, 0, urlizeDefaults)
	if err != nil {
		return Undefined(), err
	}
	relParts := map[string]bool{"noopener": true} // policies['urlize.rel']
	if p[3].IsTruthy() {
		for _, r := range pySplitWhitespace(pyStr(p[3]), -1) {
			relParts[r] = true
		}
	}
	if p[1].IsTruthy() {
		relParts["nofollow"] = true
	}
	var rels []string
	for r := range relParts {
		rels = append(rels, r)
	}
	sort.Strings(rels)
	rel := strings.Join(rels, " ")
	target := ""
	if !p[2].IsNone() {
		target = pyStr(p[2])
	}
	var schemes []string
	if !p[4].IsNone() {
		items, err := iterate(p[4])
		if err != nil {
			return Undefined(), err
		}
		for _, s := range items {
			if !s.IsString() || !urlizeRes().scheme.MatchString(s.AsString()) {
				return Undefined(), filterArgError(string(appendPyRepr(nil, s)) + " is not a valid URI scheme prefix.")
			}
			schemes = append(schemes, s.AsString())
		}
	}
	out, err := urlize(escapeValue(v).AsString(), p[0], rel, target, schemes, !p[4].IsNone())
	if err != nil {
		return Undefined(), err
	}
	return newStr(out, e.autoescape), nil
}

// urlize is jinja2.utils.urlize on already escaped text. limit (None: no
// limit) is used only when a link is shortened, as in Python.
func urlize(text string, limit Value, rel, target string, schemes []string, haveSchemes bool) (string, error) {
	var trimErr error
	trim := func(x string) string {
		if limit.IsNone() {
			return x
		}
		longer, err := pyCompare(">", NewInt(int64(runeLen(x))), limit)
		if err != nil {
			trimErr = err
			return x
		}
		if !longer {
			return x
		}
		n, err := needIntArg(limit)
		if err != nil {
			trimErr = err
			return x
		}
		cut, _ := runeSlice(x, 0, n)
		return cut + "..."
	}
	relAttr, targetAttr := "", ""
	if rel != "" {
		relAttr = ` rel="` + htmlEscape(rel) + `"`
	}
	if target != "" {
		targetAttr = ` target="` + htmlEscape(target) + `"`
	}
	res := urlizeRes()
	words := splitKeep(text)
	for i, word := range words {
		head, middle, tail := "", word, ""
		if m := res.head.FindString(middle); m != "" {
			head, middle = m, middle[len(m):]
		}
		if strings.HasSuffix(middle, ")") || strings.HasSuffix(middle, ">") || strings.HasSuffix(middle, ".") ||
			strings.HasSuffix(middle, ",") || strings.HasSuffix(middle, "\n") || strings.HasSuffix(middle, "&gt;") {
			if loc := res.tail.FindStringIndex(middle); loc != nil {
				tail, middle = middle[loc[0]:], middle[:loc[0]]
			}
		}
		for _, pair := range [][2]string{{"(", ")"}, {"<", ">"}, {"&lt;", "&gt;"}} {
			startCount := strings.Count(middle, pair[0])
			if startCount <= strings.Count(middle, pair[1]) {
				continue
			}
			for k := 0; k < min(startCount, strings.Count(tail, pair[1])); k++ {
				end := strings.Index(tail, pair[1]) + len(pair[1])
				middle += tail[:end]
				tail = tail[end:]
			}
		}
		switch {
		case res.http.MatchString(middle):
			if strings.HasPrefix(middle, "https://") || strings.HasPrefix(middle, "http://") {
				middle = `<a href="` + middle + `"` + relAttr + targetAttr + `>` + trim(middle) + `</a>`
			} else {
				middle = `<a href="https://` + middle + `"` + relAttr + targetAttr + `>` + trim(middle) + `</a>`
			}
		case strings.HasPrefix(middle, "mailto:") && res.email.MatchString(middle[7:]):
			middle = `<a href="` + middle + `">` + middle[7:] + `</a>`
		case strings.Contains(middle, "@") && !strings.HasPrefix(middle, "www.") && !strings.Contains(middle, ":") && res.email.MatchString(middle):
			middle = `<a href="mailto:` + middle + `">` + middle + `</a>`
		case haveSchemes:
			for _, scheme := range schemes {
				if middle != scheme && strings.HasPrefix(middle, scheme) {
					middle = `<a href="` + middle + `"` + relAttr + targetAttr + `>` + middle + `</a>`
				}
			}
		}
		words[i] = head + middle + tail
	}
	return strings.Join(words, ""), trimErr
}

// splitKeep is re.split(r'(\s+)', text): words and the whitespace runs
// between them (Python's whitespace).
func splitKeep(text string) []string {
	var out []string
	start := 0
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		if !isPySpace(r) {
			i += n
			continue
		}
		out = append(out, text[start:i])
		j := i
		for j < len(text) {
			r, n := utf8.DecodeRuneInString(text[j:])
			if !isPySpace(r) {
				break
			}
			j += n
		}
		out = append(out, text[i:j])
		start, i = j, j
	}
	return append(out, text[start:])
}
