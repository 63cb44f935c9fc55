package parsers

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSchemaNested checks the lookups nested values use (minimax_m3): a
// child's schema from properties, additionalProperties and branches, items,
// through references (JSON-Pointer escaped), and allOf as an intersection;
// none of them allocates.
func TestSchemaNested(t *testing.T) {
	tools, err := ToolsFromJSON([]byte(`[{"name":"t","parameters":{"$ref":"#/$defs/Root","$defs":{
	  "Root":{"type":"object","properties":{
	    "obj":{"type":"object","properties":{"n":{"type":"integer"}},"additionalProperties":{"type":"boolean"}},
	    "ref":{"$ref":"#/$defs/a~1b~0c"},
	    "arr":{"type":"array","items":{"$ref":"#/$defs/Item"}},
	    "alt":{"anyOf":[{"type":"null"},{"type":"object","properties":{"k":{"type":"number"}}}]},
	    "all":{"allOf":[{"type":["object","string"]},{"type":["object","array"]}]},
	    "anchor":{"$ref":"#Item"}}},
	  "a/b~c":{"type":"object","properties":{"x":{"type":"string"}}},
	  "Item":{"type":"integer"}}}}]`))
	if err != nil {
		t.Fatal(err)
	}
	x := newSchemaIndex(tools)
	ts, _ := x.tool([]byte("t"))
	node := func(key string) any {
		n, ok := ts.node([]byte(key))
		if !ok {
			t.Fatalf("parameter %s not indexed (a root $ref must be followed)", key)
		}
		return n
	}
	type got struct {
		Set  typeSet
		Free bool
	}
	typ := func(n any) got { pt := ts.typeOf(n); return got{pt.set, pt.free} }
	for _, c := range []struct {
		name string
		node any
		want got
	}{
		{"obj.n", ts.child(node("obj"), []byte("n")), got{Set: tInteger}},
		{"obj.other (additionalProperties)", ts.child(node("obj"), []byte("zz")), got{Set: tBoolean}},
		{"ref.x (escaped pointer)", ts.child(node("ref"), []byte("x")), got{Set: tString}},
		{"arr items (through $ref)", ts.items(node("arr")), got{Set: tInteger}},
		{"alt.k (anyOf branch)", ts.child(node("alt"), []byte("k")), got{Set: tNumber}},
		{"all (allOf intersection)", node("all"), got{Set: tObject}},
		{"anchor (not followed)", node("anchor"), got{Free: true}},
		{"no child", ts.child(node("arr"), []byte("k")), got{Free: true}},
	} {
		if diff := cmp.Diff(c.want, typ(c.node)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, diff)
		}
	}
	if ts.child(node("arr"), []byte("k")) != nil || ts.items(node("obj")) != nil {
		t.Error("a lookup the schema does not answer must be nil")
	}
	var unknown toolSchema
	if n, ok := unknown.node([]byte("a")); ok || n != nil || unknown.child(nil, []byte("a")) != nil || !unknown.typeOf(nil).free {
		t.Error("an unknown tool has no nodes and unconstrained types")
	}
	ref, arr, key := node("ref"), node("arr"), []byte("x")
	if a := testing.AllocsPerRun(100, func() {
		_ = ts.typeOf(ts.child(ref, key))
		_ = ts.items(arr)
	}); a != 0 {
		t.Errorf("nested lookups allocate %v times, want 0", a)
	}
}

func TestIntegers(t *testing.T) {
	for in, want := range map[string]string{
		"42": "42", "+42": "42", "-007": "-7", "-0": "0", "-000": "0", "+0": "0", "00": "0",
		"123456789012345678901234567890": "123456789012345678901234567890", "1.0": "!", "": "!", "-": "!", "1e3": "!",
	} {
		out, ok := appendInteger(nil, []byte(in))
		if !ok {
			out = []byte("!")
		}
		if string(out) != want {
			t.Errorf("appendInteger(%q) = %s, want %s", in, out, want)
		}
	}
	for in, want := range map[string]int64{"0": 0, "7": 7, "+12": 12, "-3": -3, "999999999999999999": 999999999999999999} {
		if v, ok := smallInt([]byte(in)); !ok || v != want {
			t.Errorf("smallInt(%q) = %d, %v; want %d", in, v, ok, want)
		}
	}
	for _, in := range []string{"", "-", "1x", "0x1", "1000000000000000000", " 1"} {
		if _, ok := smallInt([]byte(in)); ok {
			t.Errorf("smallInt(%q) accepted", in)
		}
	}
}

// TestAppendDecoded checks the whole-value entity decoder on both tables
// whose rules differ: the HTML table decodes "&amp;quot;" twice (Dynamo's
// ordered replacements), Kimi K3's attribute table once.
func TestAppendDecoded(t *testing.T) {
	for _, c := range []struct {
		ents    *matcher
		in, out string
	}{
		{&htmlEntities, "a &lt;b&gt; &amp;quot;x&amp;quot; &amp;lt; &#39; &", `a <b> "x" &lt; ' &`},
		{&htmlEntities, "&am", "&am"},
		{&xmlEntities, "&apos;&amp;apos;", "'&apos;"},
		{&xtmlAttrEntities, "say &quot;hi&quot; &amp;quot; &amp;amp; &lt;", `say "hi" &quot; &amp; &lt;`},
	} {
		if got := string(appendDecoded(nil, []byte(c.in), c.ents, false)); got != c.out {
			t.Errorf("%q: got %q, want %q", c.in, got, c.out)
		}
	}
	// Escaped for the inside of a JSON string: raw and decoded bytes alike.
	if got, want := string(appendDecoded(nil, []byte("a\\\"&quot;\n&lt;\t"), &htmlEntities, true)), `a\\\"\"\n<\t`; got != want {
		t.Errorf("escaped: got %s, want %s", got, want)
	}
}

func TestResolveType(t *testing.T) {
	tools, err := ToolsFromJSON([]byte(`[{"name":"t","parameters":{"type":"object","properties":{
	  "s":{"type":"STRING"},"arr":{"type":["integer","null"]},"opt":{"anyOf":[{"$ref":"#/$defs/I"},{"type":"null"}]},
	  "loop":{"$ref":"#/$defs/L1"},"missing":{"$ref":"#/$defs/Nope"},"remote":{"$ref":"other.json#/x"},
	  "all":{"allOf":[{"type":["number","string"]},{"type":"number"}]},"allfree":{"allOf":[{"description":"x"}]},
	  "en":{"enum":["a",1,null]},"c":{"const":true},"nb":{"type":"object","nullable":true},
	  "esc":{"$ref":"#/$defs/a~1b"},"free":{"description":"anything"},"bool":true,"odd":{"type":"Unsigned Long"}},
	  "$defs":{"I":{"type":"integer"},"L1":{"$ref":"#/$defs/L2"},"L2":{"$ref":"#/$defs/L1"},"a/b":{"type":"boolean"}}}},
	 {"name":"flat","parameters":{"city":{"type":"string"},"n":{"type":"int"}}}]`))
	if err != nil {
		t.Fatal(err)
	}
	x := newSchemaIndex(tools)
	ts, ok := x.tool([]byte("t"))
	if !ok || !x.declared {
		t.Fatal("tool t not indexed")
	}
	for key, want := range map[string]paramType{
		"s":       {set: tString},
		"arr":     {set: tInteger | tNull},
		"opt":     {set: tInteger | tNull},
		"loop":    {free: true}, // reference cycle: bounded, then unconstrained
		"missing": {free: true},
		"remote":  {free: true},
		"all":     {set: tNumber},
		"allfree": {free: true},
		"en":      {set: tString | tInteger | tNumber | tNull},
		"c":       {set: tBoolean},
		"nb":      {set: tObject | tNull},
		"esc":     {set: tBoolean},
		"free":    {free: true},
		"bool":    {free: true},
		"odd":     {set: tInteger},
		"unknown": {free: true},
	} {
		if got := ts.lookup([]byte(key)); got != want {
			t.Errorf("%s: got %+v, want %+v", key, got, want)
		}
	}
	flat, _ := x.tool([]byte("flat"))
	if got := flat.lookup([]byte("n")); got != (paramType{set: tInteger}) {
		t.Errorf("parameters without properties are the property map: n = %+v", got)
	}
	if _, ok := x.tool([]byte("nope")); ok {
		t.Error("unknown tool reported as declared")
	}
}

func TestValueConversion(t *testing.T) {
	var s jsonScan
	num := func(v string) string {
		out, ok := appendNumber(nil, []byte(v))
		if !ok {
			return "!"
		}
		return string(out)
	}
	for in, want := range map[string]string{
		"42.0": "42.0", "-0": "-0", "1e5": "1e5", "+1": "1", ".5": "0.5", "-.5e-3": "-0.5e-3", "5.": "5", "007": "7", "00.10": "0.10",
		"1E+3": "1E+3", "NaN": "!", "inf": "!", "": "!", "-": "!", ".": "!", "1e": "!", "1.2.3": "!", "0x10": "!", "1_000": "!",
	} {
		if got := num(in); got != want {
			t.Errorf("appendNumber(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"007": "7", "-0012": "-12", "+5": "5", "0": "0", "1.0": "!", "": "!", "+": "!"} {
		out, ok := appendInteger(nil, []byte(in))
		if got := string(out); !ok && want != "!" || ok && got != want {
			t.Errorf("appendInteger(%q) = %q %v, want %q", in, got, ok, want)
		}
	}
	for in, want := range map[string]string{
		` { "a" : [ 1 , 2.0 ] , "b" : "x y" } `: `{"a":[1,2.0],"b":"x y"}`,
		"[\"tab\there\"]":                       `["tab\there"]`,
		`{"a": 1,}`:                             "!",
		`{"a": 1} {"b": 2}`:                     "!",
	} {
		out, ok := appendCompactJSON(nil, trimSpace([]byte(in)), 0, &s)
		if got := string(out); !ok && want != "!" || ok && got != want {
			t.Errorf("appendCompactJSON(%q) = %q %v, want %q", in, got, ok, want)
		}
	}
	if _, ok := appendCompactJSON(nil, []byte(`[1]`), tObject, &s); ok {
		t.Error("an array accepted where an object is wanted")
	}
	var tmp []byte
	if out, ok := appendLiteralEval(nil, []byte(`{'a': True, 'b': [None, False]}`), tObject, &s, &tmp); !ok || string(out) != `{"a":true,"b":[null,false]}` {
		t.Errorf("literal_eval emulation: %q %v", out, ok)
	}
	if out := appendCommaList(nil, []byte(" a, b ,,c ")); string(out) != `["a","b","","c"]` {
		t.Errorf("comma list: %s", out)
	}
	if got := stripFraming([]byte("\r\n\n x \n\r\n")); string(got) != "\n x \n" {
		t.Errorf("stripFraming: %q", got)
	}
}
