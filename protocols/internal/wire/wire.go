// Package wire holds the decode/encode machinery shared by the protocol
// types: unknown-member preservation (protocols.Extra) and discriminated
// unions keyed by a "type" member.
package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

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
//
// Member names match exactly, as the APIs match them ("MODEL" is not
// "model": it is an unknown member). Each member is decoded from its own
// bytes: members of types with UnmarshalJSON (and slices of them) get their
// slice of data directly, scalars go to the JSON library one at a time. The
// object is scanned once, so decoding a request is linear in its size.
func Unmarshal(data []byte, plain any, known Fields) (protocols.Extra, error) {
	if jsonx.Kind(data) != '{' {
		return nil, fmt.Errorf("protocols: expected an object, got %s", kindName(data))
	}
	rv := reflect.ValueOf(plain).Elem()
	si := structOf(rv.Type())
	var extra protocols.Extra
	it := jsonx.Object(data)
	for rawKey, value, ok := it.Next(); ok; rawKey, value, ok = it.Next() {
		var key string
		f, found := si[string(rawKey)] // no allocation
		if !found {
			k, err := decodeKey(rawKey)
			if err != nil {
				return nil, err
			}
			key = k
			f, found = si[key]
		}
		if found {
			if err := decodeField(rv.FieldByIndex(f.index), value); err != nil {
				if f.typed {
					return nil, err // the type's own message
				}
				if key == "" {
					key = string(rawKey)
				}
				return nil, fmt.Errorf("%s: %w", Clip(key, 64), err)
			}
			continue
		}
		if _, ok := known[key]; ok {
			continue // handled outside the struct ("type" of a union variant)
		}
		if extra == nil {
			extra = protocols.Extra{}
		}
		if len(extra) >= MaxExtra {
			return nil, fmt.Errorf("protocols: more than %d unknown members in one object", MaxExtra)
		}
		extra[key] = bytes.Clone(value)
	}
	if err := it.Err(); err != nil {
		return nil, err
	}
	return extra, nil
}

// MaxExtra is the most unknown members one object may have. Each kept
// member costs a map entry several times its JSON size, and no real request
// has more than a handful (the APIs reject any), so a body of thousands is
// refused rather than kept.
const MaxExtra = 1000

// decodeKey returns the member name; rawKey is the key between its quotes.
func decodeKey(rawKey []byte) (string, error) {
	if bytes.IndexByte(rawKey, '\\') < 0 {
		return string(rawKey), nil
	}
	var key string
	quoted := make([]byte, 0, len(rawKey)+2)
	quoted = append(append(append(quoted, '"'), rawKey...), '"')
	err := jsonx.Decode(quoted, &key)
	return key, err
}

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// decodeField decodes value into the struct field f: null leaves a pointer
// nil and a plain value unchanged (as encoding/json does), pointers are
// allocated, and everything else goes through jsonx.Decode, which hands
// typed values their bytes without copying them.
func decodeField(f reflect.Value, value []byte) error {
	if f.Kind() == reflect.Pointer {
		if jsonx.IsNull(value) {
			f.SetZero()
			return nil
		}
		if f.IsNil() {
			f.Set(reflect.New(f.Type().Elem()))
		}
		return jsonx.Decode(value, f.Interface())
	}
	if jsonx.IsNull(value) && !reflect.PointerTo(f.Type()).Implements(unmarshalerType) {
		switch f.Kind() {
		case reflect.Slice, reflect.Map, reflect.Interface:
			f.SetZero()
		}
		return nil
	}
	return jsonx.Decode(value, f.Addr().Interface())
}

type fieldInfo struct {
	index []int
	typed bool // decoded by its own UnmarshalJSON (or a pointer/slice of such)
}

func isTyped(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer:
		return isTyped(t.Elem())
	case reflect.Slice:
		if t.Elem().Kind() != reflect.Uint8 && reflect.PointerTo(t.Elem()).Implements(unmarshalerType) {
			return true
		}
	}
	return reflect.PointerTo(t).Implements(unmarshalerType)
}

var structCache sync.Map // reflect.Type → map[string]fieldInfo

// structOf maps the member names of struct type t to its fields (embedded
// structs' members promoted).
func structOf(t reflect.Type) map[string]fieldInfo {
	if m, ok := structCache.Load(t); ok {
		return m.(map[string]fieldInfo)
	}
	m := map[string]fieldInfo{}
	addStructFields(m, t, nil)
	structCache.Store(t, m)
	return m
}

func addStructFields(m map[string]fieldInfo, t reflect.Type, prefix []int) {
	for i := range t.NumField() {
		f := t.Field(i)
		index := append(append([]int(nil), prefix...), i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			addStructFields(m, f.Type, index)
			continue
		}
		if !f.IsExported() || name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if _, dup := m[name]; !dup {
			m[name] = fieldInfo{index: index, typed: isTyped(f.Type)}
		}
	}
}

// Clip returns s, or its first n bytes (cut at a rune boundary) followed by
// "…" and the number of bytes left out: error messages quote client input,
// and must not echo megabytes of it.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…(" + strconv.Itoa(len(s)-cut) + " more bytes)"
}

// Decode is the body of UnmarshalJSON for a type T that keeps unknown members
// in an Extra field: P is T's plain shadow (type plain T, no methods), dst
// points at the value being decoded as a *P, and extra at its Extra field.
// *dst is reset and decoded in place (no temporary copy); on error it may
// hold part of the input.
func Decode[P any](data []byte, dst *P, extra *protocols.Extra) error {
	return decodeInto(data, dst, extra, FieldsOf[P]())
}

// DecodeVariant is Decode for a variant of a union keyed by "type": the
// "type" member is expected and not kept in Extra.
func DecodeVariant[P any](data []byte, dst *P, extra *protocols.Extra) error {
	return decodeInto(data, dst, extra, FieldsOf[P]("type"))
}

func decodeInto[P any](data []byte, dst *P, extra *protocols.Extra, known Fields) error {
	var zero P
	*dst = zero // resets *extra too: it is a field of *dst
	x, err := Unmarshal(data, dst, known)
	if err != nil {
		return err
	}
	*extra = x
	return nil
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
	it := jsonx.Object(data)
	for key, value, ok := it.Next(); ok; key, value, ok = it.Next() {
		if string(key) != "type" {
			continue
		}
		if jsonx.Kind(value) != '"' {
			return "", fmt.Errorf("protocols: \"type\" must be a string, got %s", kindName(value))
		}
		var typ string
		err := jsonx.Decode(value, &typ)
		return typ, err
	}
	return "", it.Err()
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

// Limits on how much client input an error message quotes.
const (
	MaxQuoted  = 256  // one quoted name or value
	MaxMessage = 1024 // a whole message
	MaxListed  = 32   // names listed in one message
)

// ClipMessage clips an error message built from client input to MaxMessage
// bytes.
func ClipMessage(s string) string { return Clip(s, MaxMessage) }

// ClipList returns names for an error message: each clipped to MaxQuoted
// bytes, at most MaxListed of them, and a last "… N more" entry when some
// were left out. names is not modified.
func ClipList(names []string) []string {
	n := min(len(names), MaxListed)
	out := make([]string, n, n+1)
	for i := range n {
		out[i] = Clip(names[i], MaxQuoted)
	}
	if len(names) > n {
		out = append(out, "… "+strconv.Itoa(len(names)-n)+" more")
	}
	return out
}

// errorFallback is the body of an error whose own body cannot be encoded
// (a Code that is not JSON): the API's generic server error.
var errorFallback = []byte(`{"error":{"message":"internal error","type":"server_error","param":null,"code":null}}`)

// ErrorBody encodes an APIError's body as encoding/json does, without HTML
// escaping ('<', '>' and '&' as they are, as the real APIs write them). A
// body that cannot be encoded is answered 500 with a generic server error.
func ErrorBody(status int, body any) (int, []byte) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(body); err != nil {
		return 500, errorFallback
	}
	return status, bytes.TrimSuffix(b.Bytes(), []byte{'\n'})
}
