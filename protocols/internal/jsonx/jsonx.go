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
