package protocols

import (
	"fmt"

	"github.com/agentwire/agentwire/protocols/internal/jsonx"
)

// StringOrArray is a JSON value that is either a string or an array of T —
// the shape of chat message content (string or parts), Anthropic `system`
// and message content (string or blocks), Responses `input`, and
// `reasoning_content` (string or segments).
//
// It is an array when Array is non-nil (an empty non-nil slice encodes as
// []), and the string String otherwise.
type StringOrArray[T any] struct {
	String string
	Array  []T
}

// Text returns a StringOrArray holding the string s.
func Text[T any](s string) StringOrArray[T] { return StringOrArray[T]{String: s} }

// Array returns a StringOrArray holding the array items (never nil, so it
// encodes as an array even when empty).
func Array[T any](items ...T) StringOrArray[T] {
	if items == nil {
		items = []T{}
	}
	return StringOrArray[T]{Array: items}
}

// IsArray reports whether v holds the array form.
func (v StringOrArray[T]) IsArray() bool { return v.Array != nil }

// MarshalJSON writes the string or the array.
func (v StringOrArray[T]) MarshalJSON() ([]byte, error) {
	if v.Array != nil {
		return jsonx.Marshal(v.Array)
	}
	return jsonx.AppendString(nil, v.String), nil
}

// UnmarshalJSON reads a string or an array of T; anything else is an error.
func (v *StringOrArray[T]) UnmarshalJSON(data []byte) error {
	switch jsonx.Kind(data) {
	case '"':
		*v = StringOrArray[T]{}
		return jsonx.Decode(data, &v.String)
	case '[':
		items := []T{}
		if err := jsonx.Decode(data, &items); err != nil {
			return err
		}
		*v = StringOrArray[T]{Array: items}
		return nil
	}
	return fmt.Errorf("protocols: expected a string or an array, got %s", kindName(data))
}

func kindName(data []byte) string {
	switch jsonx.Kind(data) {
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
