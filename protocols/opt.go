package protocols

import "github.com/agentwire/agentwire/protocols/internal/jsonx"

type optState uint8

const (
	optAbsent optState = iota
	optNull
	optValue
)

// Opt is an optional JSON value with three states: absent (the zero Opt),
// null, and a value. Fields of type Opt carry the `omitzero` option, so an
// absent Opt is not written, a null Opt is written as null, and a value Opt
// as its value. It is used where the protocol gives null a different meaning
// from absence, and for optional scalars whose zero value is meaningful
// (`"temperature": 0`, `"store": false`), so that a decoded request encodes
// back to the same JSON.
type Opt[T any] struct {
	v     T
	state optState
}

// Some returns an Opt holding v.
func Some[T any](v T) Opt[T] { return Opt[T]{v: v, state: optValue} }

// Null returns an Opt that encodes as JSON null.
func Null[T any]() Opt[T] { return Opt[T]{state: optNull} }

// Get returns the value and whether there is one (false for absent and null).
func (o Opt[T]) Get() (T, bool) { return o.v, o.state == optValue }

// Value returns the value, or the zero T for absent and null.
func (o Opt[T]) Value() T { return o.v }

// Or returns the value, or def for absent and null.
func (o Opt[T]) Or(def T) T {
	if o.state == optValue {
		return o.v
	}
	return def
}

// IsZero reports whether o is absent. It makes `omitzero` omit absent values.
func (o Opt[T]) IsZero() bool { return o.state == optAbsent }

// IsNull reports whether o is an explicit null.
func (o Opt[T]) IsNull() bool { return o.state == optNull }

// Valid reports whether o holds a value.
func (o Opt[T]) Valid() bool { return o.state == optValue }

// MarshalJSON writes null or the value. (An absent Opt outside an omitzero
// field is written as null too.)
func (o Opt[T]) MarshalJSON() ([]byte, error) {
	if o.state != optValue {
		return []byte("null"), nil
	}
	return jsonx.Marshal(o.v)
}

// UnmarshalJSON reads null or a value.
func (o *Opt[T]) UnmarshalJSON(data []byte) error {
	if jsonx.IsNull(data) {
		var zero T
		*o = Opt[T]{v: zero, state: optNull}
		return nil
	}
	var v T
	if err := jsonx.Decode(data, &v); err != nil {
		return err
	}
	*o = Opt[T]{v: v, state: optValue}
	return nil
}
