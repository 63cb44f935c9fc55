package jsonx

import (
	"bytes"
	"fmt"
)

// MaxDepth is the deepest nesting of arrays and objects Check accepts. Real
// requests stay far below it (Claude Code's deepest member, a tool's JSON
// Schema, nests about a dozen levels); it bounds the recursion of every
// decoder that walks a request.
const MaxDepth = 128

// ErrTooDeep is wrapped by Check's error for input nested deeper than the
// limit.
var ErrTooDeep = fmt.Errorf("%w: nesting deeper than the limit", ErrSyntax)

// Check reports whether data is exactly one JSON value (RFC 8259 grammar:
// strings with valid escapes and no control characters, numbers, literals,
// surrounding space) nested at most maxDepth levels deep. It runs in one
// pass, keeps no stack (a counter tracks the depth, a 1-bit-per-level
// record says whether each open level is an object) and does not allocate
// for depths up to 256. Invalid UTF-8 is accepted, as encoding/json accepts it.
func Check(data []byte, maxDepth int) error {
	c := checker{data: data, max: maxDepth}
	i, err := c.value(skipWS(data, 0))
	if err != nil {
		return err
	}
	if i = skipWS(data, i); i != len(data) {
		return syntaxErr(i, "data after the top-level value")
	}
	return nil
}

type checker struct {
	data  []byte
	max   int
	depth int
	stack [4]uint64 // bit per level: 1 = object (up to 256 levels)
	more  []bool    // levels beyond 256
}

func (c *checker) push(obj bool) bool {
	if c.depth >= c.max {
		return false
	}
	if c.depth < 256 {
		w, b := c.depth/64, uint(c.depth%64)
		if obj {
			c.stack[w] |= 1 << b
		} else {
			c.stack[w] &^= 1 << b
		}
	} else {
		c.more = append(c.more[:c.depth-256], obj)
	}
	c.depth++
	return true
}

func (c *checker) top() (obj bool) {
	d := c.depth - 1
	if d < 256 {
		return c.stack[d/64]&(1<<uint(d%64)) != 0
	}
	return c.more[d-256]
}

// value checks the value starting at i and returns the offset after it. It
// loops over containers instead of recursing.
func (c *checker) value(i int) (int, error) {
	data := c.data
	base := c.depth
	for {
		// a value starts at i
		if i >= len(data) {
			return 0, syntaxErr(i, "expected value")
		}
		var err error
		switch data[i] {
		case '{':
			if !c.push(true) {
				return 0, fmt.Errorf("%w (%d) at offset %d", ErrTooDeep, c.max, i)
			}
			i = skipWS(data, i+1)
			if i < len(data) && data[i] == '}' {
				c.depth--
				i++
				break
			}
			if i, err = c.key(i); err != nil {
				return 0, err
			}
			continue
		case '[':
			if !c.push(false) {
				return 0, fmt.Errorf("%w (%d) at offset %d", ErrTooDeep, c.max, i)
			}
			i = skipWS(data, i+1)
			if i < len(data) && data[i] == ']' {
				c.depth--
				i++
				break
			}
			continue
		case '"':
			if i, err = checkString(data, i); err != nil {
				return 0, err
			}
		case 't':
			if i, err = literal(data, i, "true"); err != nil {
				return 0, err
			}
		case 'f':
			if i, err = literal(data, i, "false"); err != nil {
				return 0, err
			}
		case 'n':
			if i, err = literal(data, i, "null"); err != nil {
				return 0, err
			}
		default:
			if i, err = checkNumber(data, i); err != nil {
				return 0, err
			}
		}
		// after a value: close containers or move to the next element
		for {
			if c.depth == base {
				return i, nil
			}
			i = skipWS(data, i)
			if i >= len(data) {
				return 0, syntaxErr(i, "unterminated container")
			}
			obj := c.top()
			switch {
			case data[i] == ',':
				i = skipWS(data, i+1)
				if obj {
					if i, err = c.key(i); err != nil {
						return 0, err
					}
				}
			case obj && data[i] == '}', !obj && data[i] == ']':
				c.depth--
				i++
				continue
			default:
				return 0, syntaxErr(i, "expected ',' or the end of the container")
			}
			break
		}
	}
}

// key checks `"key" :` at i and returns the offset of the value.
func (c *checker) key(i int) (int, error) {
	data := c.data
	if i >= len(data) || data[i] != '"' {
		return 0, syntaxErr(i, "expected object key")
	}
	i, err := checkString(data, i)
	if err != nil {
		return 0, err
	}
	i = skipWS(data, i)
	if i >= len(data) || data[i] != ':' {
		return 0, syntaxErr(i, "expected ':'")
	}
	return skipWS(data, i+1), nil
}

func literal(data []byte, i int, lit string) (int, error) {
	if len(data)-i < len(lit) || string(data[i:i+len(lit)]) != lit {
		return 0, syntaxErr(i, "invalid literal")
	}
	return i + len(lit), nil
}

func checkString(data []byte, i int) (int, error) {
	j := i + 1
	for {
		k := bytes.IndexAny(data[j:], "\"\\")
		if k < 0 {
			return 0, syntaxErr(i, "unterminated string")
		}
		for _, b := range data[j : j+k] {
			if b < 0x20 {
				return 0, syntaxErr(j, "control character in string")
			}
		}
		j += k
		if data[j] == '"' {
			return j + 1, nil
		}
		// escape
		if j+1 >= len(data) {
			return 0, syntaxErr(j, "unterminated string")
		}
		switch data[j+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			j += 2
		case 'u':
			if j+6 > len(data) {
				return 0, syntaxErr(j, "invalid escape")
			}
			for _, h := range data[j+2 : j+6] {
				if !isHex(h) {
					return 0, syntaxErr(j, "invalid escape")
				}
			}
			j += 6
		default:
			return 0, syntaxErr(j, "invalid escape")
		}
	}
}

func isHex(b byte) bool {
	return '0' <= b && b <= '9' || 'a' <= b && b <= 'f' || 'A' <= b && b <= 'F'
}

func checkNumber(data []byte, i int) (int, error) {
	j := i
	if j < len(data) && data[j] == '-' {
		j++
	}
	switch {
	case j < len(data) && data[j] == '0':
		j++
	case j < len(data) && '1' <= data[j] && data[j] <= '9':
		for j < len(data) && '0' <= data[j] && data[j] <= '9' {
			j++
		}
	default:
		return 0, syntaxErr(i, "invalid character")
	}
	if j < len(data) && data[j] == '.' {
		j++
		k := j
		for j < len(data) && '0' <= data[j] && data[j] <= '9' {
			j++
		}
		if j == k {
			return 0, syntaxErr(i, "invalid number")
		}
	}
	if j < len(data) && (data[j] == 'e' || data[j] == 'E') {
		j++
		if j < len(data) && (data[j] == '+' || data[j] == '-') {
			j++
		}
		k := j
		for j < len(data) && '0' <= data[j] && data[j] <= '9' {
			j++
		}
		if j == k {
			return 0, syntaxErr(i, "invalid number")
		}
	}
	return j, nil
}
