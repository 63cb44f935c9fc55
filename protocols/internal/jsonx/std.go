//go:build agentwire_stdjson

package jsonx

import (
	"bytes"
	"encoding/json"
	"io"
)

// Impl names the active implementation (for test logs and benchmarks).
const Impl = "encoding/json"

// Marshal returns the JSON encoding of v. HTML-sensitive characters are not
// escaped: the bytes go to API clients, not into HTML.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	b := buf.Bytes()
	return b[:len(b)-1], nil // Encode appends a newline
}

// libUnmarshal parses JSON data into v with the library.
func libUnmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }

// Valid reports whether data is one valid JSON value.
func Valid(data []byte) bool { return json.Valid(data) }

// Decoder reads JSON values from a stream.
type Decoder = json.Decoder

// NewDecoder returns a Decoder reading from r.
func NewDecoder(r io.Reader) *Decoder { return json.NewDecoder(r) }
