package parsers

// jsonScan is an incremental, validating JSON value scanner. It is fed the
// bytes of one value (starting at its first byte, no leading whitespace) in
// pieces of any size and says where the value ends, without ever looking at
// earlier bytes again. It tracks string and escape state, so a marker inside
// a string is just string content, and it validates the full JSON grammar
// (RFC 8259) with one leniency: raw control characters inside strings are
// accepted and reported (scanCtrl) so that the caller can escape them.
//
// The zero value is ready to scan a value; reset prepares it for the next.
type jsonScan struct {
	st    scanState
	inKey bool   // the string being scanned is an object key
	lit   string // literal being matched (true/false/null)
	litN  uint8  // bytes of lit matched so far
	hexN  uint8  // hex digits still expected after \u
	stack []byte // open containers: '{' or '['
}

type scanState uint8

const (
	ssValue    scanState = iota // expecting a value
	ssObjFirst                  // after '{': key or '}'
	ssObjKey                    // after ',' in an object: key
	ssColon                     // after a key: ':'
	ssArrFirst                  // after '[': value or ']'
	ssAfter                     // after a value inside a container: ',' or closer
	ssStr                       // inside a string
	ssStrEsc                    // after '\' in a string
	ssStrHex                    // inside \uXXXX
	ssNumMinus                  // after '-'
	ssNumZero                   // after a leading 0
	ssNumInt                    // in integer digits
	ssNumDot                    // after '.'
	ssNumFrac                   // in fraction digits
	ssNumE                      // after 'e'/'E'
	ssNumESign                  // after the exponent sign
	ssNumExp                    // in exponent digits
	ssLit                       // inside true/false/null
	ssDone                      // the value is complete
	ssErr                       // syntax error
)

// scanResult is what scan stopped at.
type scanResult uint8

const (
	scanMore scanResult = iota // all bytes consumed, value not complete
	scanDone                   // value complete; n bytes consumed (a number ends before its delimiter)
	scanCtrl                   // b[n-1] is a raw control character inside a string
	scanErr                    // syntax error at b[n] (the offending byte, not consumed)
)

// maxJSONDepth bounds nesting (the same limit encoding/json uses), so a
// stream of '[' cannot grow the stack without bound.
const maxJSONDepth = 10000

// strStop marks the bytes that end the fast path inside a string.
var strStop = func() (t [256]bool) {
	for c := 0; c < 0x20; c++ {
		t[c] = true
	}
	t['"'] = true
	t['\\'] = true
	return t
}()

func (s *jsonScan) reset() {
	s.st = ssValue
	s.inKey = false
	s.litN = 0
	s.hexN = 0
	s.stack = s.stack[:0]
}

// done reports whether the value is complete.
func (s *jsonScan) done() bool { return s.st == ssDone }

// numberAtEOF reports whether the scanner holds a complete top-level number
// that only lacks a delimiter (end of input delimits it).
func (s *jsonScan) numberAtEOF() bool {
	if len(s.stack) != 0 {
		return false
	}
	switch s.st {
	case ssNumZero, ssNumInt, ssNumFrac, ssNumExp:
		return true
	}
	return false
}

// endValue moves to the state after a complete value.
func (s *jsonScan) endValue() {
	if len(s.stack) == 0 {
		s.st = ssDone
	} else {
		s.st = ssAfter
	}
}

// scan consumes bytes of the value from b. See scanResult for the outcome;
// n is the number of bytes consumed.
func (s *jsonScan) scan(b []byte) (n int, r scanResult) {
	i := 0
	for i < len(b) {
		c := b[i]
		switch s.st {
		case ssStr:
			// Fast path: skip ordinary string bytes.
			for i < len(b) && !strStop[b[i]] {
				i++
			}
			if i == len(b) {
				return i, scanMore
			}
			c = b[i]
			i++
			switch {
			case c == '"':
				if s.inKey {
					s.inKey = false
					s.st = ssColon
				} else {
					s.endValue()
					if s.st == ssDone {
						return i, scanDone
					}
				}
			case c == '\\':
				s.st = ssStrEsc
			default:
				return i, scanCtrl
			}
			continue
		case ssDone:
			return i, scanDone
		case ssErr:
			return i, scanErr
		}
		i++
		switch s.st {
		case ssValue, ssArrFirst:
			if isSpace(c) {
				continue
			}
			if s.st == ssArrFirst && c == ']' {
				s.stack = s.stack[:len(s.stack)-1]
				s.endValue()
				if s.st == ssDone {
					return i, scanDone
				}
				continue
			}
			switch {
			case c == '{' || c == '[':
				if len(s.stack) >= maxJSONDepth {
					s.st = ssErr
					return i - 1, scanErr
				}
				s.stack = append(s.stack, c)
				if c == '{' {
					s.st = ssObjFirst
				} else {
					s.st = ssArrFirst
				}
			case c == '"':
				s.st = ssStr
			case c == '-':
				s.st = ssNumMinus
			case c == '0':
				s.st = ssNumZero
			case c >= '1' && c <= '9':
				s.st = ssNumInt
			case c == 't':
				s.lit, s.litN, s.st = "true", 1, ssLit
			case c == 'f':
				s.lit, s.litN, s.st = "false", 1, ssLit
			case c == 'n':
				s.lit, s.litN, s.st = "null", 1, ssLit
			default:
				s.st = ssErr
				return i - 1, scanErr
			}
		case ssObjFirst, ssObjKey:
			if isSpace(c) {
				continue
			}
			if c == '"' {
				s.inKey = true
				s.st = ssStr
				continue
			}
			if c == '}' && s.st == ssObjFirst {
				s.stack = s.stack[:len(s.stack)-1]
				s.endValue()
				if s.st == ssDone {
					return i, scanDone
				}
				continue
			}
			s.st = ssErr
			return i - 1, scanErr
		case ssColon:
			if isSpace(c) {
				continue
			}
			if c == ':' {
				s.st = ssValue
				continue
			}
			s.st = ssErr
			return i - 1, scanErr
		case ssAfter:
			if isSpace(c) {
				continue
			}
			top := s.stack[len(s.stack)-1]
			switch {
			case c == ',':
				if top == '{' {
					s.st = ssObjKey
				} else {
					s.st = ssValue
				}
			case (c == '}' && top == '{') || (c == ']' && top == '['):
				s.stack = s.stack[:len(s.stack)-1]
				s.endValue()
				if s.st == ssDone {
					return i, scanDone
				}
			default:
				s.st = ssErr
				return i - 1, scanErr
			}
		case ssStrEsc:
			switch c {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.st = ssStr
			case 'u':
				s.st, s.hexN = ssStrHex, 4
			default:
				s.st = ssErr
				return i - 1, scanErr
			}
		case ssStrHex:
			if !isHex(c) {
				s.st = ssErr
				return i - 1, scanErr
			}
			if s.hexN--; s.hexN == 0 {
				s.st = ssStr
			}
		case ssNumMinus:
			switch {
			case c == '0':
				s.st = ssNumZero
			case c >= '1' && c <= '9':
				s.st = ssNumInt
			default:
				s.st = ssErr
				return i - 1, scanErr
			}
		case ssNumZero, ssNumInt, ssNumFrac, ssNumExp:
			switch {
			case c >= '0' && c <= '9' && s.st != ssNumZero:
				// stays
			case c == '.' && (s.st == ssNumZero || s.st == ssNumInt):
				s.st = ssNumDot
			case (c == 'e' || c == 'E') && s.st != ssNumExp:
				s.st = ssNumE
			default:
				// The number ended before c; c is re-examined as a delimiter.
				i--
				s.endValue()
				if s.st == ssDone {
					return i, scanDone
				}
			}
		case ssNumDot:
			if c < '0' || c > '9' {
				s.st = ssErr
				return i - 1, scanErr
			}
			s.st = ssNumFrac
		case ssNumE:
			switch {
			case c == '+' || c == '-':
				s.st = ssNumESign
			case c >= '0' && c <= '9':
				s.st = ssNumExp
			default:
				s.st = ssErr
				return i - 1, scanErr
			}
		case ssNumESign:
			if c < '0' || c > '9' {
				s.st = ssErr
				return i - 1, scanErr
			}
			s.st = ssNumExp
		case ssLit:
			if c != s.lit[s.litN] {
				s.st = ssErr
				return i - 1, scanErr
			}
			if s.litN++; int(s.litN) == len(s.lit) {
				s.endValue()
				if s.st == ssDone {
					return i, scanDone
				}
			}
		}
	}
	return i, scanMore
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// ctrlEscape returns the JSON escape for a raw control character.
func ctrlEscape(c byte) string {
	switch c {
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	case '\b':
		return `\b`
	case '\f':
		return `\f`
	}
	return ctrlEscapes[c]
}

var ctrlEscapes = func() (t [0x20]string) {
	const hex = "0123456789abcdef"
	for c := 0; c < 0x20; c++ {
		t[c] = `\u00` + string(hex[c>>4]) + string(hex[c&15])
	}
	return t
}()
