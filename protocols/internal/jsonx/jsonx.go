// Package jsonx is the one place the protocols module touches a JSON library
// for whole values. Everything else calls Marshal, Unmarshal, Valid and
// NewDecoder from here, so the implementation (github.com/goccy/go-json by
// default, encoding/json with the build tag agentwire_stdjson) can be swapped
// in one place if a Go release breaks the fast one.
//
// The hand-written append encoders used on streaming hot paths live in
// append.go; they do not depend on either library.
package jsonx

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"unsafe"
)

// RawMessage is a raw encoded JSON value. It is encoding/json's type so that
// public APIs expose a standard type whichever implementation is active.
type RawMessage = json.RawMessage

// Compact appends the compact form of the JSON value src to dst (cold paths:
// re-serialising object arguments sent by clients).
func Compact(dst, src []byte) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(len(src))
	if err := json.Compact(&buf, src); err != nil {
		return dst, err
	}
	return append(dst, buf.Bytes()...), nil
}

// Unmarshal parses the JSON value data into v. It checks data first (Check
// with MaxDepth: one pass, no allocation), then decodes it with Decode.
func Unmarshal(data []byte, v any) error {
	if err := Check(data, MaxDepth); err != nil {
		return err
	}
	return Decode(data, v)
}

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// Decode parses data, which must be one valid JSON value (a slice of a
// document Check accepted, or the argument of an UnmarshalJSON method), into
// v. Values whose pointer type has UnmarshalJSON get the bytes directly, and
// so do the elements of a slice of such values: data is neither copied nor
// rescanned on the way down, which keeps decoding linear in the input and
// its memory a small multiple of it whatever the nesting of typed values.
// Anything else goes to the JSON library.
func Decode(data []byte, v any) error {
	switch t := v.(type) {
	case json.Unmarshaler:
		return t.UnmarshalJSON(data)
	case *string:
		if Kind(data) == '"' {
			s, err := decodeString(data)
			if err == nil {
				*t = s
			}
			return err
		}
	case *[]string:
		return decodeStrings(data, t)
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer && !rv.IsNil() {
		if s := rv.Elem(); s.Kind() == reflect.Slice && s.Type().Elem().Kind() != reflect.Uint8 &&
			reflect.PointerTo(s.Type().Elem()).Implements(unmarshalerType) {
			return decodeSlice(data, s)
		}
	}
	return libUnmarshal(data, v)
}

// decodeStrings decodes an array of strings into a slice of exactly its
// length (null leaves a nil slice).
func decodeStrings(data []byte, dst *[]string) error {
	switch Kind(data) {
	case 'n':
		if IsNull(data) {
			*dst = nil
			return nil
		}
	case '[':
		n := 0
		if err := Elements(data, func([]byte) error { n++; return nil }); err != nil {
			return err
		}
		out := make([]string, 0, n)
		err := Elements(data, func(elem []byte) error {
			if Kind(elem) != '"' {
				return fmt.Errorf("expected a string, got %s", KindName(elem))
			}
			s, err := decodeString(elem)
			out = append(out, s)
			return err
		})
		if err != nil {
			return err
		}
		*dst = out
		return nil
	}
	return fmt.Errorf("expected an array of strings, got %s", KindName(data))
}

func decodeSlice(data []byte, s reflect.Value) error {
	switch Kind(data) {
	case 'n':
		if IsNull(data) {
			s.SetZero()
			return nil
		}
	case '[':
		n := 0
		if err := Elements(data, func([]byte) error { n++; return nil }); err != nil {
			return err
		}
		out := reflect.MakeSlice(s.Type(), n, n)
		i := 0
		err := Elements(data, func(elem []byte) error {
			u := out.Index(i).Addr().Interface().(json.Unmarshaler)
			i++
			return u.UnmarshalJSON(elem)
		})
		if err != nil {
			return err
		}
		s.Set(out)
		return nil
	}
	return fmt.Errorf("expected an array, got %s", KindName(data))
}

// KindName describes the JSON kind of data for error messages.
func KindName(data []byte) string {
	switch Kind(data) {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	case 0:
		return "nothing"
	}
	return "a number"
}

// unescapeHTML rewrites the escapes \u003c, \u003e and \u0026 of the JSON
// text b as the characters <, > and & (in place). Other escapes are left
// alone; an escaped backslash is skipped as a pair, so `\\u003c` stays.
func unescapeHTML(b []byte) []byte {
	i := bytes.Index(b, []byte(`\u00`))
	if i < 0 {
		return b
	}
	i = bytes.IndexByte(b, '\\')
	w := i
	for i < len(b) {
		c := b[i]
		if c != '\\' || i+1 >= len(b) {
			b[w] = c
			w++
			i++
			continue
		}
		if b[i+1] == 'u' && i+6 <= len(b) && string(b[i+2:i+4]) == "00" {
			switch string(b[i+4 : i+6]) {
			case "3c", "3C":
				b[w] = '<'
				w, i = w+1, i+6
				continue
			case "3e", "3E":
				b[w] = '>'
				w, i = w+1, i+6
				continue
			case "26":
				b[w] = '&'
				w, i = w+1, i+6
				continue
			}
		}
		b[w], b[w+1] = b[i], b[i+1]
		w, i = w+2, i+2
	}
	return b[:w]
}

// decodeString decodes the JSON string data (valid JSON, surrounding space
// allowed) with one allocation of at most its length.
func decodeString(data []byte) (string, error) {
	data = bytes.TrimSpace(data)
	raw := data[1:]
	if len(raw) == 0 {
		return "", syntaxErr(0, "unterminated string")
	}
	if bytes.IndexByte(raw, '\\') < 0 && raw[len(raw)-1] == '"' {
		return string(raw[:len(raw)-1]), nil
	}
	buf := make([]byte, 0, len(raw))
	buf, n, st := AppendUnquoted(buf, raw)
	if st != UnquoteClosed || n != len(raw) {
		return "", syntaxErr(n, "invalid string")
	}
	if len(buf) == 0 {
		return "", nil
	}
	return unsafe.String(unsafe.SliceData(buf), len(buf)), nil // buf is not kept
}
