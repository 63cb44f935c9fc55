package jsonx

import (
	"encoding/json"
	"testing"
)

type inner struct{ S string }

func (v inner) MarshalJSON() ([]byte, error) { return Marshal(struct{ S string }{v.S}) }

// Re-encoded JSON does not HTML-escape <, > and &, also inside values
// written by nested MarshalJSON methods, and escaped backslashes survive.
func TestMarshalNoHTMLEscape(t *testing.T) {
	v := map[string]any{"a": "<b> & \\u003c", "n": inner{S: "x<y>&z \\u0026"}, "list": []inner{{S: "<"}}}
	b, err := Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"a":"<b> & \\u003c","list":[{"S":"<"}],"n":{"S":"x<y>&z \\u0026"}}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
	var back map[string]any
	if err := json.Unmarshal(b, &back); err != nil || back["a"] != "<b> & \\u003c" {
		t.Fatalf("%v %v", back, err)
	}
}

func FuzzUnescapeHTML(f *testing.F) {
	f.Add("<a>&\\u003c\"\\\\u003e")
	f.Fuzz(func(t *testing.T, s string) {
		b, err := json.Marshal(s) // escapes HTML
		if err != nil {
			return
		}
		var a, c string
		_ = json.Unmarshal(b, &a)
		if err := json.Unmarshal(unescapeHTML(b), &c); err != nil || a != c {
			t.Fatalf("%q: %q != %q (%v)", s, a, c, err)
		}
	})
}
