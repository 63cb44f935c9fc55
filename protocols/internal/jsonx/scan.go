package jsonx

import (
	"bytes"
	"errors"
	"fmt"
)

// ErrSyntax is returned (wrapped) by the scanners in this file for input that
// is not JSON.
var ErrSyntax = errors.New("jsonx: invalid JSON")

func syntaxErr(off int, msg string) error {
	return fmt.Errorf("%w: %s at offset %d", ErrSyntax, msg, off)
}

// Members calls fn for each member of the JSON object in data, in order,
// with the raw key (without quotes, escapes not decoded) and the raw value.
// It stops at the first error fn returns. It does not validate scalars
// fully; callers decode data with Unmarshal as well, which does. Members does
// not allocate.
func Members(data []byte, fn func(rawKey, value []byte) error) error {
	i := skipWS(data, 0)
	if i >= len(data) || data[i] != '{' {
		return syntaxErr(i, "expected object")
	}
	i = skipWS(data, i+1)
	if i < len(data) && data[i] == '}' {
		return nil
	}
	for {
		if i >= len(data) || data[i] != '"' {
			return syntaxErr(i, "expected object key")
		}
		end, err := skipString(data, i)
		if err != nil {
			return err
		}
		key := data[i+1 : end-1]
		i = skipWS(data, end)
		if i >= len(data) || data[i] != ':' {
			return syntaxErr(i, "expected ':'")
		}
		i = skipWS(data, i+1)
		vend, err := SkipValue(data, i)
		if err != nil {
			return err
		}
		if err := fn(key, data[i:vend]); err != nil {
			return err
		}
		i = skipWS(data, vend)
		if i >= len(data) {
			return syntaxErr(i, "unterminated object")
		}
		switch data[i] {
		case ',':
			i = skipWS(data, i+1)
		case '}':
			return nil
		default:
			return syntaxErr(i, "expected ',' or '}'")
		}
	}
}

// Elements calls fn for each element of the JSON array in data, in order.
// Like Members it does not allocate and does not fully validate scalars.
func Elements(data []byte, fn func(value []byte) error) error {
	i := skipWS(data, 0)
	if i >= len(data) || data[i] != '[' {
		return syntaxErr(i, "expected array")
	}
	i = skipWS(data, i+1)
	if i < len(data) && data[i] == ']' {
		return nil
	}
	for {
		vend, err := SkipValue(data, i)
		if err != nil {
			return err
		}
		if err := fn(data[i:vend]); err != nil {
			return err
		}
		i = skipWS(data, vend)
		if i >= len(data) {
			return syntaxErr(i, "unterminated array")
		}
		switch data[i] {
		case ',':
			i = skipWS(data, i+1)
		case ']':
			return nil
		default:
			return syntaxErr(i, "expected ',' or ']'")
		}
	}
}

// Kind returns the first non-space byte of data, which identifies the kind of
// JSON value ('{', '[', '"', 't', 'f', 'n', or a number's first byte), or 0
// when data is empty or blank.
func Kind(data []byte) byte {
	i := skipWS(data, 0)
	if i >= len(data) {
		return 0
	}
	return data[i]
}

// IsNull reports whether data is the JSON literal null (surrounding space
// allowed).
func IsNull(data []byte) bool {
	i := skipWS(data, 0)
	return len(data)-i >= 4 && string(data[i:i+4]) == "null" && skipWS(data, i+4) == len(data)
}

func skipWS(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString returns the offset just past the string starting at data[i]
// (which is '"'). It jumps between quotes with bytes.IndexByte and counts
// the backslashes before each one: an even count means the quote ends the
// string.
func skipString(data []byte, i int) (int, error) {
	j := i + 1
	for {
		k := bytes.IndexByte(data[j:], '"')
		if k < 0 {
			return 0, syntaxErr(i, "unterminated string")
		}
		q := j + k
		n := 0
		for p := q - 1; p > i && data[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return q + 1, nil
		}
		j = q + 1
	}
}

// SkipValue returns the offset just past the JSON value starting at data[i].
// Nesting is tracked with a counter, so deep input costs no memory.
func SkipValue(data []byte, i int) (int, error) {
	if i >= len(data) {
		return 0, syntaxErr(i, "expected value")
	}
	switch c := data[i]; c {
	case '"':
		return skipString(data, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(data); j++ {
			switch data[j] {
			case '"':
				end, err := skipString(data, j)
				if err != nil {
					return 0, err
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, nil
				}
			}
		}
		return 0, syntaxErr(i, "unterminated container")
	default:
		j := i
		for j < len(data) {
			switch data[j] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				if j == i {
					return 0, syntaxErr(i, "unexpected character")
				}
				return j, nil
			case '{', '[', '"', ':':
				return 0, syntaxErr(j, "unexpected character")
			}
			j++
		}
		if j == i {
			return 0, syntaxErr(i, "expected value")
		}
		return j, nil
	}
}

// MemberIter walks the members of a JSON object like Members, without a
// callback (so nothing escapes to the heap):
//
//	it := jsonx.Object(data)
//	for key, value, ok := it.Next(); ok; key, value, ok = it.Next() { … }
//	if err := it.Err(); err != nil { … }
type MemberIter struct {
	data  []byte
	i     int
	first bool
	done  bool
	err   error
}

// Object returns an iterator over the members of the object data.
func Object(data []byte) MemberIter {
	i := skipWS(data, 0)
	if i >= len(data) || data[i] != '{' {
		return MemberIter{done: true, err: syntaxErr(i, "expected object")}
	}
	return MemberIter{data: data, i: skipWS(data, i+1), first: true}
}

// Next returns the next member's raw key (without quotes, escapes not
// decoded) and raw value; ok is false at the end or on an error (see Err).
func (it *MemberIter) Next() (key, value []byte, ok bool) {
	if it.done {
		return nil, nil, false
	}
	data, i := it.data, it.i
	if it.first {
		it.first = false
		if i < len(data) && data[i] == '}' {
			it.done = true
			return nil, nil, false
		}
	} else {
		if i >= len(data) {
			return it.fail(syntaxErr(i, "unterminated object"))
		}
		switch data[i] {
		case ',':
			i = skipWS(data, i+1)
		case '}':
			it.done = true
			return nil, nil, false
		default:
			return it.fail(syntaxErr(i, "expected ',' or '}'"))
		}
	}
	if i >= len(data) || data[i] != '"' {
		return it.fail(syntaxErr(i, "expected object key"))
	}
	end, err := skipString(data, i)
	if err != nil {
		return it.fail(err)
	}
	key = data[i+1 : end-1]
	i = skipWS(data, end)
	if i >= len(data) || data[i] != ':' {
		return it.fail(syntaxErr(i, "expected ':'"))
	}
	i = skipWS(data, i+1)
	vend, err := SkipValue(data, i)
	if err != nil {
		return it.fail(err)
	}
	value = data[i:vend]
	it.i = skipWS(data, vend)
	return key, value, true
}

func (it *MemberIter) fail(err error) ([]byte, []byte, bool) {
	it.done, it.err = true, err
	return nil, nil, false
}

// Err returns the syntax error that stopped the iteration, if any.
func (it *MemberIter) Err() error { return it.err }
