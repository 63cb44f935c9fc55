package parsers

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestMinimaxM3Entities checks the single-pass entity decoder with the
// htmlEntities table (minimax_m3, qwen3_coder, minimax_m2) against Dynamo's
// definition (plain replacement of &lt; &gt; &amp; &quot; &#x27; &#39;, in
// that order) on random strings over an entity-heavy alphabet.
func TestMinimaxM3Entities(t *testing.T) {
	seq := func(s string) string {
		for _, r := range [][2]string{{"&lt;", "<"}, {"&gt;", ">"}, {"&amp;", "&"}, {"&quot;", "\""}, {"&#x27;", "'"}, {"&#39;", "'"}} {
			s = strings.ReplaceAll(s, r[0], r[1])
		}
		return s
	}
	parts := []string{"&", "amp;", "lt;", "gt;", "quot;", "#x27;", "#39;", "a", ";", "#", "x"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range 1 + rng.IntN(8) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		in := b.String()
		if got, want := string(appendDecoded(nil, []byte(in), &htmlEntities, false)), seq(in); got != want {
			t.Fatalf("%q: decoded %q, want %q", in, got, want)
		}
	}
}

// TestMinimaxM3FeedAllocs asserts zero allocations after warm-up, with
// schema-typed values, nested values, entities and streamed strings.
func TestMinimaxM3FeedAllocs(t *testing.T) {
	out := minimaxM3BenchOutput(2 << 10)
	tools := minimaxM3BenchTools()
	for _, cfg := range []Config{
		{ToolParser: "minimax_m3", ReasoningParser: "minimax_m3", Tools: tools},
		{ToolParser: "minimax_m3", WholeCalls: true, Tools: tools},
		{ToolParser: "minimax_m3"},
	} {
		checkFeedAllocs(t, "", cfg, out)
	}
}

// FuzzMinimaxM3 runs the MiniMax M3 grammar with and without schemas and its
// reasoning parser, in streaming and whole-call mode, with small limits.
func FuzzMinimaxM3(f *testing.F) {
	fixtureSeeds(f, "minimax_m3")
	tools := minimaxM3BenchTools()
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, sel uint8) {
		cfg := Config{ToolParser: "minimax_m3", WholeCalls: sel&1 != 0}
		if sel&2 != 0 {
			cfg.ReasoningParser = "minimax_m3"
		}
		if sel&4 != 0 {
			cfg.Tools = tools
		}
		if sel&8 != 0 {
			cfg.MaxCallBuffer = 24
		}
		fuzzInvariants(t, cfg, in, seed)
	})
}

// TestMinimaxM3SchemaTyping pins minimax_m3's values under the shared schema
// typing (schema.go) and conversion (paramValue.appendScalar): allOf is an
// intersection, escaped JSON-Pointer references and nested child/items
// lookups type the elements, numbers are read leniently.
func TestMinimaxM3SchemaTyping(t *testing.T) {
	tools, err := ToolsFromJSON([]byte(`[{"name":"f","parameters":{"type":"object","properties":{
	  "al":{"allOf":[{"type":["integer","string"]},{"type":"integer"}]},
	  "ref":{"$ref":"#/$defs/a~1b"},
	  "n":{"type":"number"},
	  "z":{"type":"integer"},
	  "obj":{"type":"object","properties":{"k":{"type":"integer"},"tags":{"type":"array","items":{"type":"boolean"}}}},
	  "list":{"type":"array","items":{"$ref":"#/$defs/a~1b"}},
	  "e":{"type":"object"}},
	  "$defs":{"a/b":{"type":"integer"}}}}]`))
	if err != nil {
		t.Fatal(err)
	}
	el := func(k, v string) string { return m3NS + "<" + k + ">" + v + m3NS + "</" + k + ">" }
	for _, c := range []struct{ name, body, want string }{
		{"allOf intersection", el("al", " 7 "), `{"al":7}`},
		{"escaped $ref", el("ref", "+5"), `{"ref":5}`},
		{"lenient number, -0 integer", el("n", ".5") + el("z", "-0"), `{"n":0.5,"z":0}`},
		{"nested children typed", el("obj", el("k", "3")+el("tags", "true")+el("tags", "0")), `{"obj":{"k":3,"tags":[true,false]}}`},
		{"items through $ref", el("list", el("item", "1")+el("item", "x")), `{"list":[1,"x"]}`},
		{"empty object element, unknown parameter verbatim", el("e", "") + el("u", " null "), `{"e":{},"u":" null "}`},
	} {
		res, err := Parse(Config{ToolParser: "minimax_m3", Tools: tools}, m3NS+`<invoke name="f">`+c.body+m3NS+"</invoke>")
		if err != nil || len(res.Calls) != 1 {
			t.Fatalf("%s: %v, %d calls", c.name, err, len(res.Calls))
		}
		if got := res.Calls[0].Arguments; got != c.want {
			t.Errorf("%s: arguments %s, want %s", c.name, got, c.want)
		}
	}
}
