package jinja

// The expression lexer (patch, lexer.go is new; it replaces the original
// tokenizer): jinja2's token rules for names, integers (0b, 0o, 0x,
// underscores), floats, strings (decoded as Python's unicode-escape codec
// decodes them, as jinja2 does) and operators; any other character is a
// syntax error.

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/runenames"
)

type tokKind int

const (
	tokName   tokKind = iota // identifier or keyword
	tokInt                   // integer literal
	tokFloat                 // float literal
	tokString                // string literal
	tokOp                    // operator: + - * / // ** % ~ [ ] ( ) { } == != > >= < <= = . : | , ;
	tokEOF
)

type tok struct {
	kind tokKind
	val  string // name, operator, or decoded string
	num  Value  // integer or float value
}

// TemplateSyntaxError is an error in a template's source (patch).
type TemplateSyntaxError struct{ Msg string }

func (e *TemplateSyntaxError) Error() string { return "TemplateSyntaxError: " + e.Msg }

func syntaxError(format string, args ...any) error {
	return &TemplateSyntaxError{Msg: fmt.Sprintf(format, args...)}
}

// operators, longest first.
var operators = []string{"//", "**", "==", "!=", ">=", "<=", "+", "-", "*", "/", "%", "~", "[", "]", "(", ")", "{", "}", ">", "<", "=", ".", ":", "|", ",", ";"}

// lex splits an expression into tokens.
func lex(s string) ([]tok, error) {
	var toks []tok
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if isPySpace(r) {
			i += size
			continue
		}
		// Float before integer, as jinja2's lexer tries them.
		if r >= '0' && r <= '9' {
			if n, v, ok := lexFloat(s[i:]); ok {
				toks = append(toks, tok{kind: tokFloat, num: v})
				i += n
				continue
			}
			n, v, err := lexInt(s[i:])
			if err != nil {
				return nil, err
			}
			toks = append(toks, tok{kind: tokInt, num: v})
			i += n
			continue
		}
		if r == '_' || unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) {
			j := i + size
			for j < len(s) {
				r, size := utf8.DecodeRuneInString(s[j:])
				if !(r == '_' || unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.IsDigit(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Pc)) {
					break
				}
				j += size
			}
			toks = append(toks, tok{kind: tokName, val: s[i:j]})
			i = j
			continue
		}
		if r == '\'' || r == '"' {
			j := i + 1
			for j < len(s) && s[j] != byte(r) {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(s) {
				return nil, syntaxError("unexpected char %s", appendPyStrRepr(nil, string(r)))
			}
			str, err := pyUnescape(s[i+1 : j])
			if err != nil {
				return nil, err
			}
			toks = append(toks, tok{kind: tokString, val: str})
			i = j + 1
			continue
		}
		op := ""
		for _, o := range operators {
			if strings.HasPrefix(s[i:], o) {
				op = o
				break
			}
		}
		if op == "" {
			return nil, syntaxError("unexpected char %s", appendPyStrRepr(nil, string(r)))
		}
		toks = append(toks, tok{kind: tokOp, val: op})
		i += len(op)
	}
	return append(toks, tok{kind: tokEOF}), nil
}

// digitsRun returns the end of a run of digits (of the given class) with
// single underscores between them, starting at i.
func digitsRun(s string, i int, isDigit func(byte) bool) int {
	if i >= len(s) || !isDigit(s[i]) {
		return i
	}
	i++
	for i < len(s) {
		if isDigit(s[i]) {
			i++
			continue
		}
		if s[i] == '_' && i+1 < len(s) && isDigit(s[i+1]) {
			i += 2
			continue
		}
		break
	}
	return i
}

func isDec(c byte) bool { return c >= '0' && c <= '9' }

// lexFloat matches jinja2's float_re: digits with an exponent, or digits, a
// point and digits (optionally with an exponent).
func lexFloat(s string) (int, Value, bool) {
	i := digitsRun(s, 0, isDec)
	if i == 0 {
		return 0, Value{}, false
	}
	frac := false
	if i < len(s) && s[i] == '.' {
		if j := digitsRun(s, i+1, isDec); j > i+1 {
			i, frac = j, true
		}
	}
	exp := false
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if k := digitsRun(s, j, isDec); k > j {
			i, exp = k, true
		}
	}
	if !frac && !exp {
		return 0, Value{}, false
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(s[:i], "_", ""), 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			return 0, Value{}, false
		}
	}
	return i, NewFloat(f), true
}

// lexInt matches jinja2's integer_re: 0b…, 0o…, 0x… (any case) or a decimal
// without leading zeros (0, 00… are zero), underscores between digits.
func lexInt(s string) (int, Value, error) {
	base, start := 10, 0
	if len(s) > 2 && s[0] == '0' {
		switch s[1] {
		case 'b', 'B':
			base, start = 2, 2
		case 'o', 'O':
			base, start = 8, 2
		case 'x', 'X':
			base, start = 16, 2
		}
	}
	var end int
	if base != 10 {
		isD := map[int]func(byte) bool{
			2:  func(c byte) bool { return c == '0' || c == '1' },
			8:  func(c byte) bool { return c >= '0' && c <= '7' },
			16: isHexDigit,
		}[base]
		// jinja2 allows an underscore right after the prefix: 0x_ff.
		j := start
		if j < len(s) && s[j] == '_' && j+1 < len(s) && isD(s[j+1]) {
			j++
		}
		end = digitsRun(s, j, isD)
		if end == j {
			base, start = 10, 0 // "0x" without digits: the integer 0
		}
	}
	if base == 10 {
		if s[0] == '0' {
			end = 1
			for end < len(s) && (s[end] == '0' || s[end] == '_' && end+1 < len(s) && s[end+1] == '0') {
				end++
			}
		} else {
			end = digitsRun(s, 0, isDec)
		}
	}
	digits := strings.ReplaceAll(s[start:end], "_", "")
	u, err := strconv.ParseUint(digits, base, 64)
	if err != nil || u > 1<<63-1 {
		return 0, Value{}, syntaxError("integer literal %s beyond 64 bits is not supported", s[:end])
	}
	return end, NewInt(int64(u)), nil
}

// pyUnescape decodes the body of a string literal as jinja2 does: non-ASCII
// characters kept, then Python's unicode-escape codec (\n \t \\ \' \" \a \b
// \f \v \r, octal \ooo, \xhh, \uhhhh, \Uhhhhhhhh, \N{name}, a backslash-newline
// dropped, any other backslash kept).
func pyUnescape(s string) (string, error) {
	if strings.IndexByte(s, '\\') < 0 {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(s) {
			return "", syntaxError("\\ at end of string")
		}
		i++
		c = s[i]
		switch c {
		case '\n':
		case '\\':
			b.WriteByte('\\')
		case '\'':
			b.WriteByte('\'')
		case '"':
			b.WriteByte('"')
		case 'a':
			b.WriteByte(7)
		case 'b':
			b.WriteByte(8)
		case 'f':
			b.WriteByte(12)
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte(11)
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v := 0
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				v = v*8 + int(s[j]-'0')
				j++
			}
			b.WriteRune(rune(v))
			i = j - 1
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
			if i+1+n > len(s) {
				return "", syntaxError("truncated \\%cXX escape", c)
			}
			hex := s[i+1 : i+1+n]
			v, err := strconv.ParseUint(hex, 16, 32)
			if err != nil || strings.ContainsAny(hex, "+-_") {
				return "", syntaxError("truncated \\%cXX escape", c)
			}
			if v > unicode.MaxRune {
				return "", syntaxError("illegal Unicode character")
			}
			b.WriteRune(rune(v)) // a lone surrogate becomes U+FFFD
			i += n
		case 'N':
			end := strings.IndexByte(s[i:], '}')
			if i+1 >= len(s) || s[i+1] != '{' || end < 0 {
				return "", syntaxError("malformed \\N character escape")
			}
			r, ok := lookupRuneName(s[i+2 : i+end])
			if !ok {
				return "", syntaxError("unknown Unicode character name")
			}
			b.WriteRune(r)
			i += end
		default:
			b.WriteByte('\\')
			if c >= 0x80 {
				// jinja2 backslash-replaces non-ASCII characters before
				// decoding: "\é" is a backslash and the text xe9.
				r, size := utf8.DecodeRuneInString(s[i:])
				switch {
				case r < 0x100:
					fmt.Fprintf(&b, "x%02x", r)
				case r < 0x10000:
					fmt.Fprintf(&b, "u%04x", r)
				default:
					fmt.Fprintf(&b, "U%08x", r)
				}
				i += size - 1
				continue
			}
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}

var (
	runeNamesOnce sync.Once
	runeNames     map[string]rune
)

// lookupRuneName resolves a \N{name} escape: Unicode character names, any
// case, and the algorithmic names of CJK ideographs.
func lookupRuneName(name string) (rune, bool) {
	name = strings.ToUpper(name)
	if hex, ok := strings.CutPrefix(name, "CJK UNIFIED IDEOGRAPH-"); ok {
		v, err := strconv.ParseUint(hex, 16, 32)
		return rune(v), err == nil && unicode.Is(unicode.Ideographic, rune(v))
	}
	runeNamesOnce.Do(func() {
		runeNames = make(map[string]rune, 40000)
		for r := rune(0); r <= unicode.MaxRune; r++ {
			if r >= 0xd800 && r < 0xe000 || r >= 0xf0000 {
				continue
			}
			n := runenames.Name(r)
			if n == "" || n[0] == '<' {
				continue
			}
			if _, dup := runeNames[n]; !dup {
				runeNames[n] = r
			}
		}
	})
	r, ok := runeNames[name]
	return r, ok
}
