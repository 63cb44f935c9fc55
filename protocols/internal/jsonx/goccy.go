//go:build !agentwire_stdjson

package jsonx

import (
	"io"

	gojson "github.com/goccy/go-json"
)

// Impl names the active implementation (for test logs and benchmarks).
const Impl = "goccy/go-json"

// Marshal returns the JSON encoding of v. HTML-sensitive characters are not
// escaped: the bytes go to API clients, not into HTML.
// (goccy escapes the output of nested MarshalJSON methods even in its
// no-escape mode, so the escapes are undone here.)
func Marshal(v any) ([]byte, error) {
	b, err := gojson.MarshalNoEscape(v)
	if err != nil {
		return nil, err
	}
	return unescapeHTML(b), nil
}

// libUnmarshal parses JSON data into v with the library.
func libUnmarshal(data []byte, v any) error { return gojson.Unmarshal(data, v) }

// Valid reports whether data is one valid JSON value.
func Valid(data []byte) bool { return gojson.Valid(data) }

// Decoder reads JSON values from a stream.
type Decoder = gojson.Decoder

// NewDecoder returns a Decoder reading from r.
func NewDecoder(r io.Reader) *Decoder { return gojson.NewDecoder(r) }
