package parsers

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Schema typing, the only copy, for every grammar that types values by the
// request's tool schemas (qwen3_coder, minimax_m2, glm47, minimax_m3;
// PARSER_CASES.md, "Schema typing"): the tools' JSON schemas are read once,
// at New, into a per-tool map from parameter name to the set of JSON types
// the parameter admits, keeping the schema nodes for grammars whose values
// nest (child, items, typeOf). Feed only looks names up (a map index with a
// []byte key converted in place, which does not allocate; the nested
// lookups do not allocate either) and converts values with the
// append-style functions below into reused buffers.

// typeSet is a set of JSON types a parameter's schema admits.
type typeSet uint8

const (
	tString  typeSet = 1 << iota // string (also str, text, varchar, char, enum)
	tInteger                     // int*, uint*, long, short, unsigned*
	tNumber                      // num*, float*, double
	tBoolean                     // boolean, bool, binary
	tObject                      // object, dict*
	tArray                       // array, arr, list*
	tNull                        // null (also nullable: true)
	tOther                       // a type name outside the table: any JSON value (Python literal_eval emulation)
)

var typeSetNames = [...]string{"tString", "tInteger", "tNumber", "tBoolean", "tObject", "tArray", "tNull", "tOther"}

// String lists the set's members joined by "|" ("none" for the empty set).
func (t typeSet) String() string {
	if t == 0 {
		return "none"
	}
	var names []string
	for i, name := range typeSetNames {
		if t&(1<<i) != 0 {
			names = append(names, name)
		}
	}
	return strings.Join(names, "|")
}

// paramType is what a parameter's schema says about its values.
type paramType struct {
	set  typeSet
	free bool // no constraint at all (no schema, {} or an unresolvable one): any value, null included
}

// nullOK reports whether the schema permits JSON null (PARSER_CASES.md,
// "Schema-typed values": a type that is or includes null, nullable, a branch
// that permits it, or no constraint at all).
func (t paramType) nullOK() bool { return t.free || t.set&tNull != 0 }

// stringOK reports whether the value is a string under the "the string
// wins" rule of PARSER_CASES.md, "Schema-typed values" (no constraint counts
// as string).
func (t paramType) stringOK() bool { return t.free || t.set&tString != 0 }

// schemaIndex is the tools' parameter types, built once at New.
type schemaIndex struct {
	declared bool                  // the request declared tools
	tools    map[string]toolSchema // tool name → its parameters
}

// toolSchema is one tool's parameters (nil: an unknown tool, every
// parameter unconstrained).
type toolSchema = *toolParams

// toolParams is one tool's parameters: their types, computed at New, and
// their schema nodes, for grammars whose values nest (minimax_m3 reads the
// types of child elements and array items with child, items and typeOf).
type toolParams struct {
	root   any                  // the decoded parameters schema (for local $refs)
	params map[string]paramType // parameter name → type
	nodes  map[string]any       // parameter name → schema node
}

// lookup returns the type of parameter key (unconstrained when the tool or
// the parameter is unknown).
func (s *toolParams) lookup(key []byte) paramType {
	if s != nil {
		if t, ok := s.params[string(key)]; ok {
			return t
		}
	}
	return paramType{free: true}
}

// node returns the schema node of parameter key; false when the tool or the
// parameter is unknown.
func (s *toolParams) node(key []byte) (any, bool) {
	if s == nil {
		return nil, false
	}
	n, ok := s.nodes[string(key)]
	return n, ok
}

// tool returns the parameters of the named tool and whether it was
// declared.
func (x *schemaIndex) tool(name []byte) (toolSchema, bool) {
	if x == nil {
		return nil, false
	}
	s, ok := x.tools[string(name)]
	return s, ok
}

// Bounds of schema resolution (PARSER_CASES.md, "Schema typing": 16
// reference hops, a node budget per parameter).
const (
	maxRefHops   = 16
	schemaBudget = 4096 // schema nodes visited per parameter
)

// newSchemaIndex reads the tools' parameter schemas. Tools whose parameters
// are missing or not valid JSON have only unconstrained parameters; a
// repeated tool name keeps its first definition.
func newSchemaIndex(tools []Tool) *schemaIndex {
	x := &schemaIndex{declared: len(tools) > 0, tools: make(map[string]toolSchema, len(tools))}
	for _, t := range tools {
		if _, dup := x.tools[t.Name]; dup {
			continue
		}
		s := &toolParams{params: map[string]paramType{}, nodes: map[string]any{}}
		x.tools[t.Name] = s
		var root any
		dec := json.NewDecoder(bytes.NewReader(t.Parameters))
		dec.UseNumber()
		if len(t.Parameters) == 0 || dec.Decode(&root) != nil {
			continue
		}
		s.root = root
		// The parameters object may itself be a local $ref.
		obj, _ := deref(root, root).(map[string]any)
		// Dynamo: "if parameters has no properties, the parameters object
		// itself is used as the property map".
		props, ok := obj["properties"].(map[string]any)
		if !ok {
			props = obj
		}
		for name, node := range props {
			if _, isSchema := node.(map[string]any); !isSchema && !ok {
				continue // a keyword of the parameters object, not a parameter
			}
			s.params[name] = s.typeOf(node)
			s.nodes[name] = node
		}
	}
	return x
}

// typeOf returns the types schema node admits (resolveType with a fresh
// budget). It does not allocate.
func (s *toolParams) typeOf(node any) paramType {
	budget := schemaBudget
	return resolveType(s.rootOf(), node, 0, &budget)
}

func (s *toolParams) rootOf() any {
	if s == nil {
		return nil
	}
	return s.root
}

// child returns the schema of member key of an object node: its
// properties entry, else an object additionalProperties, else the first
// anyOf/oneOf/allOf branch that has one; nil when none does.
func (s *toolParams) child(node any, key []byte) any {
	budget := schemaBudget
	return s.find(node, &budget, func(m map[string]any) any {
		if props, ok := m["properties"].(map[string]any); ok {
			if c, ok := props[string(key)]; ok {
				return c
			}
		}
		if ap, ok := m["additionalProperties"].(map[string]any); ok {
			return ap
		}
		return nil
	})
}

// items returns the items schema of an array node (also from the first
// anyOf/oneOf/allOf branch that has one); nil when none does.
func (s *toolParams) items(node any) any {
	budget := schemaBudget
	return s.find(node, &budget, func(m map[string]any) any { return m["items"] })
}

// find returns the first non-nil get of node (references followed) or of
// its anyOf/oneOf/allOf branches, depth first, within the node budget.
func (s *toolParams) find(node any, budget *int, get func(map[string]any) any) any {
	*budget--
	m, ok := deref(s.rootOf(), node).(map[string]any)
	if !ok || *budget < 0 {
		return nil
	}
	if c := get(m); c != nil {
		return c
	}
	for _, k := range [...]string{"anyOf", "oneOf", "allOf"} {
		branches, _ := m[k].([]any)
		for _, br := range branches {
			if c := s.find(br, budget, get); c != nil {
				return c
			}
		}
	}
	return nil
}

// deref follows local $refs from node (at most maxRefHops); nil when one
// cannot be followed.
func deref(root, node any) any {
	for range maxRefHops {
		m, ok := node.(map[string]any)
		if !ok {
			return node
		}
		ref, ok := m["$ref"].(string)
		if !ok {
			return node
		}
		if node, ok = localRef(root, ref); !ok {
			return nil
		}
	}
	return nil
}

// resolveType computes the types a schema node admits: type (a string or an
// array of names), nullable, anyOf/oneOf (union), allOf (intersection),
// enum/const (the types of the listed values) and local $refs, bounded by
// maxRefHops and a node budget. Anything it cannot resolve is unconstrained.
//
// One keyword decides, in this order: type, $ref, anyOf/oneOf, allOf,
// enum/const (nullable adds null to any of them). allOf is an
// intersection because every branch constrains the same value: a value
// must satisfy all of them, so it can only have a type every constraining
// branch admits (a branch without a type, like {"description": …}, does
// not constrain).
func resolveType(root, node any, hops int, budget *int) paramType {
	*budget--
	if *budget < 0 {
		return paramType{free: true}
	}
	m, ok := node.(map[string]any)
	if !ok {
		return paramType{free: true} // true, {} spelled otherwise, or garbage
	}
	var t paramType
	switch {
	case m["type"] != nil:
		switch v := m["type"].(type) {
		case string:
			t.set = typeByName(v)
		case []any:
			for _, e := range v {
				if s, ok := e.(string); ok {
					t.set |= typeByName(s)
				}
			}
		}
		if t.set == 0 {
			t.free = true
		}
	case m["$ref"] != nil:
		ref, _ := m["$ref"].(string)
		target, found := localRef(root, ref)
		if !found || hops >= maxRefHops {
			return paramType{free: true}
		}
		t = resolveType(root, target, hops+1, budget)
	case m["anyOf"] != nil || m["oneOf"] != nil:
		branches, _ := m["anyOf"].([]any)
		if branches == nil {
			branches, _ = m["oneOf"].([]any)
		}
		if len(branches) == 0 {
			t.free = true
		}
		for _, br := range branches {
			bt := resolveType(root, br, hops, budget)
			t.set |= bt.set
			t.free = t.free || bt.free
		}
	case m["allOf"] != nil:
		branches, _ := m["allOf"].([]any)
		t.free = true
		for _, br := range branches {
			bt := resolveType(root, br, hops, budget)
			if bt.free {
				continue
			}
			if t.free {
				t = bt
			} else {
				t.set &= bt.set
			}
		}
	case m["enum"] != nil || m["const"] != nil:
		vals, isList := m["enum"].([]any)
		if !isList {
			vals = []any{m["const"]}
		}
		for _, v := range vals {
			t.set |= typeOfValue(v)
		}
	default:
		t.free = true
	}
	if nb, _ := m["nullable"].(bool); nb && !t.free {
		t.set |= tNull
	}
	if t.free {
		t.set = 0
	}
	return t
}

// typeByName maps a schema type name (PARSER_CASES.md table, lower-cased)
// to its type.
func typeByName(s string) typeSet {
	s = strings.ToLower(strings.TrimSpace(s))
	switch s {
	case "string", "str", "text", "varchar", "char", "enum":
		return tString
	case "boolean", "bool", "binary":
		return tBoolean
	case "object":
		return tObject
	case "array", "arr":
		return tArray
	case "null":
		return tNull
	case "double":
		return tNumber
	}
	for _, p := range [...]string{"int", "uint", "long", "short", "unsigned"} {
		if strings.HasPrefix(s, p) {
			return tInteger
		}
	}
	switch {
	case strings.HasPrefix(s, "num"), strings.HasPrefix(s, "float"):
		return tNumber
	case strings.HasPrefix(s, "dict"):
		return tObject
	case strings.HasPrefix(s, "list"):
		return tArray
	}
	return tOther
}

// typeOfValue is the type of a decoded enum/const value.
func typeOfValue(v any) typeSet {
	switch v := v.(type) {
	case nil:
		return tNull
	case string:
		return tString
	case bool:
		return tBoolean
	case json.Number:
		if isIntLiteral([]byte(v.String())) {
			return tInteger | tNumber
		}
		return tNumber
	case map[string]any:
		return tObject
	case []any:
		return tArray
	}
	return tOther
}

// localRef follows a local JSON Pointer reference ("#", "#/$defs/X"),
// unescaping "~1" to "/" and "~0" to "~" in each reference token (RFC 6901).
// Remote, $id-relative and anchor ("#name") references are not followed. It
// does not allocate.
func localRef(root any, ref string) (any, bool) {
	ptr, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil, false
	}
	if ptr == "" {
		return root, true
	}
	if ptr[0] != '/' {
		return nil, false
	}
	node := root
	for ptr != "" {
		ptr = ptr[1:] // the '/' before the token
		tok := ptr
		if i := strings.IndexByte(ptr, '/'); i >= 0 {
			tok, ptr = ptr[:i], ptr[i:]
		} else {
			ptr = ""
		}
		m, ok := node.(map[string]any)
		if !ok {
			return nil, false
		}
		if strings.IndexByte(tok, '~') < 0 {
			node, ok = m[tok]
		} else {
			node, ok = nil, false
			for k, v := range m {
				if pointerTokenIs(tok, k) {
					node, ok = v, true
					break
				}
			}
		}
		if !ok {
			return nil, false
		}
	}
	return node, true
}

// pointerTokenIs reports whether the escaped JSON Pointer token tok names
// key ("~0" is '~', "~1" is '/'; any other '~' matches nothing).
func pointerTokenIs(tok, key string) bool {
	i := 0
	for j := 0; j < len(tok); j++ {
		c := tok[j]
		if c == '~' {
			if j+1 == len(tok) || (tok[j+1] != '0' && tok[j+1] != '1') {
				return false
			}
			c = "~/"[tok[j+1]-'0']
			j++
		}
		if i == len(key) || key[i] != c {
			return false
		}
		i++
	}
	return i == len(key)
}

// Value conversion. Every function appends to dst and reports whether the
// value had the requested shape; on false, dst is returned unchanged.

// isIntLiteral reports whether b is an optionally signed run of digits.
func isIntLiteral(b []byte) bool {
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		b = b[1:]
	}
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// appendInteger appends the integer literal v (any length), normalised to a
// JSON number: no '+', no leading zeros, no sign on zero (PARSER_CASES.md,
// "Value conversion by type": integers keep any length; -0 is 0, as
// Python's int reads it).
func appendInteger(dst, v []byte) ([]byte, bool) {
	if !isIntLiteral(v) {
		return dst, false
	}
	neg := v[0] == '-'
	if v[0] == '+' || neg {
		v = v[1:]
	}
	for len(v) > 1 && v[0] == '0' {
		v = v[1:]
	}
	if neg && string(v) != "0" {
		dst = append(dst, '-')
	}
	return append(dst, v...), true
}

// smallInt returns the value of an integer literal (isIntLiteral) of at
// most 18 digits, without allocating.
func smallInt(b []byte) (int64, bool) {
	if !isIntLiteral(b) {
		return 0, false
	}
	neg := b[0] == '-'
	if neg || b[0] == '+' {
		b = b[1:]
	}
	if len(b) > 18 {
		return 0, false
	}
	var v int64
	for _, c := range b {
		v = v*10 + int64(c-'0')
	}
	if neg {
		v = -v
	}
	return v, true
}

// appendNumber appends the number v: the model's literal when it is a valid
// JSON number (42.0 stays 42.0), otherwise a lenient decimal form (+1, .5,
// 5., 007, 1E+3) normalised without a float round trip. NaN and infinities
// are not numbers.
func appendNumber(dst, v []byte) ([]byte, bool) {
	if isJSONNumber(v) {
		return append(dst, v...), true
	}
	i := 0
	neg := false
	if i < len(v) && (v[i] == '+' || v[i] == '-') {
		neg = v[i] == '-'
		i++
	}
	intStart := i
	for i < len(v) && v[i] >= '0' && v[i] <= '9' {
		i++
	}
	intPart := v[intStart:i]
	var frac []byte
	if i < len(v) && v[i] == '.' {
		i++
		fs := i
		for i < len(v) && v[i] >= '0' && v[i] <= '9' {
			i++
		}
		frac = v[fs:i]
	}
	if len(intPart) == 0 && len(frac) == 0 {
		return dst, false
	}
	var exp []byte
	if i < len(v) && (v[i] == 'e' || v[i] == 'E') {
		es := i + 1
		i++
		if i < len(v) && (v[i] == '+' || v[i] == '-') {
			i++
		}
		ds := i
		for i < len(v) && v[i] >= '0' && v[i] <= '9' {
			i++
		}
		if i == ds {
			return dst, false
		}
		exp = v[es:i]
	}
	if i != len(v) {
		return dst, false
	}
	if neg {
		dst = append(dst, '-')
	}
	for len(intPart) > 1 && intPart[0] == '0' {
		intPart = intPart[1:]
	}
	if len(intPart) == 0 {
		intPart = zeroDigit
	}
	dst = append(dst, intPart...)
	if len(frac) > 0 {
		dst = append(append(dst, '.'), frac...)
	}
	if len(exp) > 0 {
		dst = append(append(dst, 'e'), exp...)
	}
	return dst, true
}

var zeroDigit = []byte{'0'}

// isJSONNumber reports whether b is exactly one JSON number.
func isJSONNumber(b []byte) bool {
	var s jsonScan
	n, r := s.scan(b)
	return n == len(b) && (r == scanDone || (r == scanMore && s.numberAtEOF())) && len(b) > 0 && b[0] != '"' &&
		(b[0] == '-' || (b[0] >= '0' && b[0] <= '9'))
}

// appendBool appends true/false for the boolean spellings: true/false/1/0
// (PARSER_CASES.md; any other value is not a boolean), plus yes/no when
// glm is set. Case-insensitive.
func appendBool(dst, v []byte, glm bool) ([]byte, bool) {
	switch {
	case bytes.EqualFold(v, []byte("true")) || string(v) == "1" || (glm && bytes.EqualFold(v, []byte("yes"))):
		return append(dst, "true"...), true
	case bytes.EqualFold(v, []byte("false")) || string(v) == "0" || (glm && bytes.EqualFold(v, []byte("no"))):
		return append(dst, "false"...), true
	}
	return dst, false
}

// isNullWord reports whether v is null, case-insensitively.
func isNullWord(v []byte) bool { return bytes.EqualFold(v, []byte("null")) }

// appendCompactJSON appends v, which must be exactly one JSON value (of one
// of the container kinds in want, or any kind when want is 0), lexically
// compacted: whitespace outside strings removed, raw control characters in
// strings escaped (PARSER_CASES.md), key order, duplicates and number
// spelling kept. s is a scratch scanner.
func appendCompactJSON(dst, v []byte, want typeSet, s *jsonScan) ([]byte, bool) {
	if len(v) == 0 {
		return dst, false
	}
	switch {
	case want == 0:
	case v[0] == '{' && want&tObject != 0:
	case v[0] == '[' && want&tArray != 0:
	default:
		return dst, false
	}
	if !isJSONValue(v, s) {
		return dst, false
	}
	inStr, esc := false, false
	for _, c := range v {
		switch {
		case inStr && c < 0x20 && !esc:
			dst = append(dst, ctrlEscape(c)...)
		case inStr:
			// An unescaped quote ends the string; a backslash escapes the
			// byte after it.
			inStr = esc || c != '"'
			esc = !esc && c == '\\'
			dst = append(dst, c)
		case c == '"':
			inStr = true
			dst = append(dst, c)
		case isSpace(c):
		default:
			dst = append(dst, c)
		}
	}
	return dst, true
}

// isJSONValue reports whether b is exactly one JSON value (raw control
// characters inside strings accepted; they are escaped on output).
func isJSONValue(b []byte, s *jsonScan) bool {
	s.reset()
	n := 0
	for {
		m, r := s.scan(b[n:])
		n += m
		switch r {
		case scanCtrl:
			continue
		case scanDone:
			s.reset()
			return n == len(b)
		case scanMore:
			ok := n == len(b) && s.numberAtEOF()
			s.reset()
			return ok
		default:
			s.reset()
			return false
		}
	}
}

// appendLiteralEval emulates Python's literal_eval the way Dynamo's
// converter does (PARSER_CASES.md): replace ' with ", True/False/None with
// true/false/null everywhere, then read JSON. tmp is scratch.
func appendLiteralEval(dst, v []byte, want typeSet, s *jsonScan, tmp *[]byte) ([]byte, bool) {
	t := (*tmp)[:0]
	for i := 0; i < len(v); i++ {
		switch {
		case v[i] == '\'':
			t = append(t, '"')
		case bytes.HasPrefix(v[i:], []byte("True")):
			t = append(t, "true"...)
			i += 3
		case bytes.HasPrefix(v[i:], []byte("False")):
			t = append(t, "false"...)
			i += 4
		case bytes.HasPrefix(v[i:], []byte("None")):
			t = append(t, "null"...)
			i += 3
		default:
			t = append(t, v[i])
		}
	}
	*tmp = t
	return appendCompactJSON(dst, t, want, s)
}

// appendJSONString appends s as a JSON string literal (quotes included).
func appendJSONString(dst, s []byte) []byte {
	dst = append(dst, '"')
	dst = appendEscaped(dst, s)
	return append(dst, '"')
}

// appendEscaped appends s escaped for the inside of a JSON string.
func appendEscaped(dst, s []byte) []byte {
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && !strStop[s[j]] {
			j++
		}
		dst = append(dst, s[i:j]...)
		if j == len(s) {
			break
		}
		dst = append(dst, jsonEscape(s[j])...)
		i = j + 1
	}
	return dst
}

// jsonEscape is the escape of a byte that cannot appear raw in a JSON string.
func jsonEscape(c byte) string {
	switch c {
	case '"':
		return `\"`
	case '\\':
		return `\\`
	}
	return ctrlEscape(c)
}

// stripFraming strips one leading and one trailing newline (\n or \r\n), the
// qwen3_coder template's own framing (PARSER_CASES.md).
func stripFraming(b []byte) []byte {
	if len(b) > 0 && b[0] == '\n' {
		b = b[1:]
	} else if len(b) > 1 && b[0] == '\r' && b[1] == '\n' {
		b = b[2:]
	}
	if n := len(b); n > 1 && b[n-2] == '\r' && b[n-1] == '\n' {
		b = b[:n-2]
	} else if n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
	}
	return b
}
