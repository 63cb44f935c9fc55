// Package wire holds the decode/encode machinery shared by the protocol
// types: unknown-member preservation (protocols.Extra) and discriminated
// unions keyed by a "type" member.
package wire

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
)

// Fields is the set of member names a Go struct type models.
type Fields map[string]struct{}

type fieldsKey struct {
	t     reflect.Type
	extra string
}

var fieldCache sync.Map // fieldsKey → Fields

// FieldsOf returns the member names of struct type T (its json tags, or field
// names when untagged), plus names (for members handled outside the struct,
// such as a union's "type"). The result is computed once per type and names
// and shared: do not modify it.
func FieldsOf[T any](names ...string) Fields {
	key := fieldsKey{t: reflect.TypeFor[T]()}
	if len(names) > 0 {
		key.extra = strings.Join(names, "\x00")
	}
	if f, ok := fieldCache.Load(key); ok {
		return f.(Fields)
	}
	fs := Fields{}
	addFields(fs, key.t)
	for _, n := range names {
		fs[n] = struct{}{}
	}
	fieldCache.Store(key, fs)
	return fs
}

func addFields(fs Fields, t reflect.Type) {
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			addFields(fs, f.Type) // embedded struct: its members are promoted
			continue
		}
		if !f.IsExported() {
			continue
		}
		switch name {
		case "-":
			continue
		case "":
			name = f.Name
		}
		fs[name] = struct{}{}
	}
}

// Unmarshal decodes the JSON object data into plain (a pointer to a struct
// type without UnmarshalJSON, usually a local conversion of the public type)
// and returns the members that known does not list, or nil. Values in the
// returned Extra are copies; data is not retained.
func Unmarshal(data []byte, plain any, known Fields) (protocols.Extra, error) {
	if jsonx.Kind(data) != '{' {
		return nil, fmt.Errorf("protocols: expected an object, got %s", kindName(data))
	}
	if err := jsonx.Unmarshal(data, plain); err != nil {
		return nil, err
	}
	return collect(data, known)
}

// Decode is the body of UnmarshalJSON for a type T that keeps unknown members
// in an Extra field: P is T's plain shadow (type plain T, no methods), dst
// points at the value being decoded as a *P, and extra at its Extra field.
// On success *dst holds the decoded members and *extra the unknown ones; on
// error both are left unchanged.
func Decode[P any](data []byte, dst *P, extra *protocols.Extra) error {
	var v P
	x, err := Unmarshal(data, &v, FieldsOf[P]())
	if err != nil {
		return err
	}
	*dst = v // resets *extra too: it is a field of *dst
	*extra = x
	return nil
}

func collect(data []byte, known Fields) (protocols.Extra, error) {
	var extra protocols.Extra
	err := jsonx.Members(data, func(rawKey, value []byte) error {
		if bytes.IndexByte(rawKey, '\\') < 0 {
			if _, ok := known[string(rawKey)]; ok {
				return nil
			}
			if extra == nil {
				extra = protocols.Extra{}
			}
			extra[string(rawKey)] = bytes.Clone(value)
			return nil
		}
		var key string
		quoted := make([]byte, 0, len(rawKey)+2)
		quoted = append(append(append(quoted, '"'), rawKey...), '"')
		if err := jsonx.Unmarshal(quoted, &key); err != nil {
			return err
		}
		if _, ok := known[key]; ok {
			return nil
		}
		if extra == nil {
			extra = protocols.Extra{}
		}
		extra[key] = bytes.Clone(value)
		return nil
	})
	return extra, err
}

// Marshal encodes plain (a struct value without MarshalJSON) as a JSON
// object, preceded by a "type" member when typ is not empty and followed by
// the members of extra in key order.
func Marshal(typ string, plain any, extra protocols.Extra) ([]byte, error) {
	b, err := jsonx.Marshal(plain)
	if err != nil {
		return nil, err
	}
	if typ == "" && len(extra) == 0 {
		return b, nil
	}
	if len(b) < 2 || b[0] != '{' || b[len(b)-1] != '}' {
		return nil, fmt.Errorf("protocols: %T did not encode as an object", plain)
	}
	out := make([]byte, 0, len(b)+len(typ)+16+extraSize(extra))
	out = append(out, '{')
	empty := len(b) == 2
	if typ != "" {
		out = append(out, `"type":`...)
		out = jsonx.AppendString(out, typ)
		if !empty {
			out = append(out, ',')
		}
	}
	out = append(out, b[1:len(b)-1]...)
	empty = empty && typ == ""
	for _, k := range extra.Keys() {
		if !empty {
			out = append(out, ',')
		}
		empty = false
		out = jsonx.AppendString(out, k)
		out = append(out, ':')
		v := extra[k]
		if len(v) == 0 {
			v = []byte("null")
		}
		out = append(out, v...)
	}
	return append(out, '}'), nil
}

func extraSize(e protocols.Extra) int {
	n := 0
	for k, v := range e {
		n += len(k) + len(v) + 4
	}
	return n
}

// PeekType returns the value of the string member "type" of the JSON object
// data, "" when there is none, or an error when data is not an object or
// "type" is not a string.
func PeekType(data []byte) (string, error) {
	if jsonx.Kind(data) != '{' {
		return "", fmt.Errorf("protocols: expected an object, got %s", kindName(data))
	}
	var typ string
	var found bool
	err := jsonx.Members(data, func(rawKey, value []byte) error {
		if found || string(rawKey) != "type" {
			return nil
		}
		found = true
		if jsonx.Kind(value) != '"' {
			return fmt.Errorf("protocols: \"type\" must be a string, got %s", kindName(value))
		}
		return jsonx.Unmarshal(value, &typ)
	})
	return typ, err
}

// MarshalUnion encodes the one non-nil member of a "struct of pointers"
// union. members lists the candidates; raw is the union's preserved unknown
// variant. Exactly one must be set.
func MarshalUnion(union string, raw []byte, members ...any) ([]byte, error) {
	var set any
	n := 0
	for _, m := range members {
		if !reflect.ValueOf(m).IsNil() {
			set = m
			n++
		}
	}
	if len(raw) > 0 {
		if n == 0 {
			return raw, nil
		}
		n++
	}
	if n != 1 {
		return nil, fmt.Errorf("protocols: %s must have exactly one variant set, has %d", union, n)
	}
	return jsonx.Marshal(set)
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

// KindName describes the JSON kind of data for error messages.
func KindName(data []byte) string { return kindName(data) }
