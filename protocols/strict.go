package protocols

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// UnknownFieldsError reports members that a strict decode refused. Fields are
// JSON paths in the request (`context_management`,
// `messages.2.content.0.citations`), sorted. Each API package
// turns it into the error message and body that API uses (see
// openai.DecodeChatRequest, anthropic.DecodeMessagesRequest,
// responses.DecodeRequest).
type UnknownFieldsError struct {
	Fields []string
}

func (e *UnknownFieldsError) Error() string {
	return "protocols: unknown fields: " + strings.Join(e.Fields, ", ")
}

var extraType = reflect.TypeFor[Extra]()

// UnknownFields returns the paths of every member kept in an Extra bag
// anywhere inside v (a decoded protocol value or a pointer to one), or nil
// when there are none. Strict decoding is "decode, then reject if
// UnknownFields is not empty", so preserving and strict modes share one
// decoder. It walks v by reflection and is meant for the request path, once
// per request.
func UnknownFields(v any) []string {
	var w walker
	w.walk(reflect.ValueOf(v), "")
	slices.Sort(w.paths)
	return w.paths
}

type walker struct {
	paths []string
	depth int
}

func join(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

func (w *walker) walk(v reflect.Value, path string) {
	if w.depth > 64 || !v.IsValid() {
		return
	}
	w.depth++
	defer func() { w.depth-- }()
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			w.walk(v.Elem(), path)
		}
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return // raw JSON, bytes
		}
		for i := range v.Len() {
			w.walk(v.Index(i), join(path, strconv.Itoa(i)))
		}
	case reflect.Map:
		if v.Type() == extraType {
			w.extra(v, path)
			return
		}
		if v.Type().Key().Kind() != reflect.String {
			return
		}
		iter := v.MapRange()
		for iter.Next() {
			w.walk(iter.Value(), join(path, iter.Key().String()))
		}
	case reflect.Struct:
		t := v.Type()
		var extra reflect.Value
		for i := range t.NumField() {
			f := t.Field(i)
			fv := v.Field(i)
			if f.Type == extraType {
				extra = fv
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			switch {
			case name == "-":
				// Union members (OfText, …) and Opt's value are tagged "-" or
				// untagged: they stand for the enclosing JSON value itself.
				w.walk(fv, path)
			case name == "" && (!f.IsExported() || f.Anonymous || t.PkgPath() == "" || isUnionField(f)):
				w.walk(fv, path)
			case name == "":
				w.walk(fv, join(path, f.Name))
			default:
				w.walk(fv, join(path, name))
			}
		}
		if extra.IsValid() {
			w.extra(extra, path)
		}
	}
}

// extra records the keys of an Extra map. It reads them by reflection
// (Interface would panic for values reached through unexported fields).
func (w *walker) extra(v reflect.Value, path string) {
	keys := make([]string, 0, v.Len())
	for _, k := range v.MapKeys() {
		keys = append(keys, k.String())
	}
	slices.Sort(keys)
	for _, k := range keys {
		w.paths = append(w.paths, join(path, k))
	}
}

// isUnionField reports whether f is a member of a "struct of pointers"
// union or of StringOrArray, whose value is the JSON value itself.
func isUnionField(f reflect.StructField) bool {
	return strings.HasPrefix(f.Name, "Of") || f.Name == "String" || f.Name == "Array"
}
