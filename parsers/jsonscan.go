package parsers

import "encoding/binary"

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

var scanStateNames = [...]string{"ssValue", "ssObjFirst", "ssObjKey", "ssColon", "ssArrFirst", "ssAfter", "ssStr", "ssStrEsc", "ssStrHex", "ssNumMinus", "ssNumZero", "ssNumInt", "ssNumDot", "ssNumFrac", "ssNumE", "ssNumESign", "ssNumExp", "ssLit", "ssDone", "ssErr"}

func (s scanState) String() string { return enumName(scanStateNames[:], s, "scanState") }

// scanResult is what scan stopped at.
type scanResult uint8

const (
	scanMore scanResult = iota // all bytes consumed, value not complete
	scanDone                   // value complete; n bytes consumed (a number ends before its delimiter)
	scanCtrl                   // b[n-1] is a raw control character inside a string
	scanErr                    // syntax error at b[n] (the offending byte, not consumed)
)

var scanResultNames = [...]string{"scanMore", "scanDone", "scanCtrl", "scanErr"}

func (r scanResult) String() string { return enumName(scanResultNames[:], r, "scanResult") }

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

// jsonSpace marks the whitespace bytes JSON allows between tokens.
var jsonSpace = [256]bool{' ': true, '\t': true, '\n': true, '\r': true}

func (s *jsonScan) reset() {
	s.st = ssValue
	s.inKey = false
	s.litN = 0
	s.hexN = 0
	s.stack = s.stack[:0]
}

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

// step is what a state method did with the byte it was given.
type step uint8

const (
	stepMore  step = iota // the byte was consumed; scanning goes on
	stepDone              // the byte was consumed and completed the value
	stepEnd               // the value (a number) ended before the byte, which is not consumed
	stepAgain             // a number ended before the byte; the byte is examined again in the new state
	stepErr               // the byte is a syntax error and is not consumed (the state is ssErr)
)

var stepNames = [...]string{"stepMore", "stepDone", "stepEnd", "stepAgain", "stepErr"}

func (s step) String() string { return enumName(stepNames[:], s, "step") }

// scan consumes bytes of the value from b. See scanResult for the outcome;
// n is the number of bytes consumed.
//
// scan only dispatches: each state has its own method that takes one byte
// and says what it did (step). Two things stay in the loop because they are
// the hot paths: whitespace between tokens (every state up to ssAfter skips
// it) and the run of ordinary bytes inside a string, whose end strEnd takes.
// The string run is also tried once before the loop: the common call while
// streaming is a piece of a long string value, and it then returns without
// entering the dispatch.
func (s *jsonScan) scan(b []byte) (n int, r scanResult) {
	i := 0
	if s.st == ssStr {
		if n := len(b); n >= 4 && n <= 8 && strStop8(uint64(binary.LittleEndian.Uint32(b))|uint64(binary.LittleEndian.Uint32(b[n-4:]))<<32) == 0 {
			return n, scanMore // a streamed piece of a string: one word test
		}
		i = strRun(b)
		if i == len(b) {
			return i, scanMore
		}
		if i++; s.strEnd(b[i-1]) {
			return i, s.strResult()
		}
	}
	for i < len(b) {
		c := b[i]
		if jsonSpace[c] && s.st <= ssAfter {
			i++
			continue
		}
		var st step
		switch s.st {
		case ssStr:
			// The fast path stays in the loop: skip ordinary string bytes.
			for i < len(b) && !strStop[b[i]] {
				i++
			}
			if i == len(b) {
				return i, scanMore
			}
			if i++; s.strEnd(b[i-1]) {
				return i, s.strResult()
			}
			continue
		case ssDone:
			return i, scanDone
		case ssErr:
			return i, scanErr
		case ssValue:
			st = s.value(c)
		case ssArrFirst:
			st = s.arrFirst(c)
		case ssObjFirst, ssObjKey:
			st = s.key(c)
		case ssColon:
			st = s.colon(c)
		case ssAfter:
			st = s.after(c)
		case ssStrEsc:
			st = s.escape(c)
		case ssStrHex:
			st = s.hex(c)
		case ssNumMinus:
			st = s.minus(c)
		case ssNumZero, ssNumInt, ssNumFrac, ssNumExp:
			st = s.number(c)
		case ssNumDot, ssNumESign:
			st = s.digit(c)
		case ssNumE:
			st = s.exponent(c)
		case ssLit:
			st = s.literal(c)
		}
		if st == stepMore {
			i++
			continue
		}
		switch st {
		case stepDone:
			return i + 1, scanDone
		case stepEnd:
			return i, scanDone
		case stepErr:
			return i, scanErr
		}
	}
	return i, scanMore
}

// fail moves to the error state.
func (s *jsonScan) fail() step {
	s.st = ssErr
	return stepErr
}

// closeValue moves to the state after a complete value: ssDone at the top
// level (stepDone), ssAfter inside a container (stepMore).
func (s *jsonScan) closeValue() step {
	if len(s.stack) == 0 {
		s.st = ssDone
		return stepDone
	}
	s.st = ssAfter
	return stepMore
}

// pop closes the innermost container with its closer consumed.
func (s *jsonScan) pop() step {
	s.stack = s.stack[:len(s.stack)-1]
	return s.closeValue()
}

// strEnd takes the byte that ended the fast path inside a string: the
// closing quote, a backslash or a raw control character. It reports
// whether scan must stop there (strResult says why).
func (s *jsonScan) strEnd(c byte) bool {
	switch c {
	case '"':
		if s.inKey {
			s.inKey = false
			s.st = ssColon
			return false
		}
		return s.closeValue() == stepDone
	case '\\':
		s.st = ssStrEsc
		return false
	}
	return true
}

// strResult is what scan reports when strEnd stopped it: the value is
// complete, or a control character was consumed.
func (s *jsonScan) strResult() scanResult {
	if s.st == ssDone {
		return scanDone
	}
	return scanCtrl
}

// arrFirst expects, after '[', a value or ']'.
func (s *jsonScan) arrFirst(c byte) step {
	if c == ']' {
		return s.pop()
	}
	return s.value(c)
}

// value expects a value. valueStart says which state its first byte leads
// to.
func (s *jsonScan) value(c byte) step {
	switch next := valueStart[c]; next {
	case ssErr:
		return s.fail()
	case ssObjFirst, ssArrFirst:
		return s.push(c, next)
	case ssLit:
		s.lit, s.litN, s.st = literals[c], 1, ssLit
	default:
		s.st = next
	}
	return stepMore
}

// push opens the container c ('{' or '['), whose first state is next.
func (s *jsonScan) push(c byte, next scanState) step {
	if len(s.stack) >= maxJSONDepth {
		return s.fail()
	}
	s.stack = append(s.stack, c)
	s.st = next
	return stepMore
}

// valueStart maps the first byte of a value to the state after it; ssErr
// marks a byte that cannot start a value.
var valueStart = func() (t [256]scanState) {
	for c := range t {
		t[c] = ssErr
	}
	t['{'], t['['], t['"'], t['-'], t['0'] = ssObjFirst, ssArrFirst, ssStr, ssNumMinus, ssNumZero
	for c := '1'; c <= '9'; c++ {
		t[c] = ssNumInt
	}
	t['t'], t['f'], t['n'] = ssLit, ssLit, ssLit
	return t
}()

// literals maps the first byte of true, false and null to the literal.
var literals = [256]string{'t': "true", 'f': "false", 'n': "null"}

// key expects an object key: after '{' a key or '}' (ssObjFirst), after
// ',' a key (ssObjKey).
func (s *jsonScan) key(c byte) step {
	switch {
	case c == '"':
		s.inKey = true
		s.st = ssStr
	case c == '}' && s.st == ssObjFirst:
		return s.pop()
	default:
		return s.fail()
	}
	return stepMore
}

// colon expects the ':' after a key.
func (s *jsonScan) colon(c byte) step {
	switch {
	case c == ':':
		s.st = ssValue
	default:
		return s.fail()
	}
	return stepMore
}

// after expects ',' or the closer of the innermost container after a value
// inside it.
func (s *jsonScan) after(c byte) step {
	switch top := s.stack[len(s.stack)-1]; c {
	case ',':
		s.st = ssValue
		if top == '{' {
			s.st = ssObjKey
		}
		return stepMore
	case top + 2: // '}' is '{'+2, ']' is '['+2
		return s.pop()
	}
	return s.fail()
}

// escape takes the byte after '\' in a string.
func (s *jsonScan) escape(c byte) step {
	switch c {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		s.st = ssStr
	case 'u':
		s.st, s.hexN = ssStrHex, 4
	default:
		return s.fail()
	}
	return stepMore
}

// hex takes one of the four hex digits of a \u escape.
func (s *jsonScan) hex(c byte) step {
	if _, ok := hexVal(c); !ok {
		return s.fail()
	}
	if s.hexN--; s.hexN == 0 {
		s.st = ssStr
	}
	return stepMore
}

// minus takes the first digit after a leading '-'.
func (s *jsonScan) minus(c byte) step {
	switch {
	case c == '0':
		s.st = ssNumZero
	case c >= '1' && c <= '9':
		s.st = ssNumInt
	default:
		return s.fail()
	}
	return stepMore
}

// number continues a number that could end here (after a leading 0, in
// integer, fraction or exponent digits). A byte that cannot continue it
// ends the number and is examined again as a delimiter.
func (s *jsonScan) number(c byte) step {
	switch {
	case c >= '0' && c <= '9' && s.st != ssNumZero:
		// stays
	case c == '.' && (s.st == ssNumZero || s.st == ssNumInt):
		s.st = ssNumDot
	case (c == 'e' || c == 'E') && s.st != ssNumExp:
		s.st = ssNumE
	default:
		if s.closeValue() == stepDone {
			return stepEnd
		}
		return stepAgain
	}
	return stepMore
}

// digit takes the digit required after '.' (ssNumDot) or after the
// exponent sign (ssNumESign).
func (s *jsonScan) digit(c byte) step {
	if c < '0' || c > '9' {
		return s.fail()
	}
	if s.st == ssNumDot {
		s.st = ssNumFrac
	} else {
		s.st = ssNumExp
	}
	return stepMore
}

// exponent takes the byte after 'e'/'E': a sign or the first digit.
func (s *jsonScan) exponent(c byte) step {
	switch {
	case c == '+' || c == '-':
		s.st = ssNumESign
	case c >= '0' && c <= '9':
		s.st = ssNumExp
	default:
		return s.fail()
	}
	return stepMore
}

// literal takes the next byte of true, false or null.
func (s *jsonScan) literal(c byte) step {
	if c != s.lit[s.litN] {
		return s.fail()
	}
	if s.litN++; int(s.litN) == len(s.lit) {
		return s.closeValue()
	}
	return stepMore
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
