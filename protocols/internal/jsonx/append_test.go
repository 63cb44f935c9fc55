package jsonx

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	cases := []string{
		"",
		"plain ascii",
		`quotes " and \ backslash`,
		"<html> & 'apos'",
		"control \x00\x01\x1f \b\f\n\r\t",
		"é 中文 🚀",
		"line\u2028sep\u2029para",
		"invalid \xff\xfe utf8 \xc3",
		"truncated \xe4\xb8",
		"surrogate \xed\xa0\x80",
		"overlong \xc0\xaf",
		"\x7f del",
		strings.Repeat("long text with \"escapes\"\n", 100),
	}
	for _, s := range cases {
		got := AppendString(nil, s)
		gotB := AppendString(nil, []byte(s))
		if string(got) != string(gotB) {
			t.Errorf("string and []byte forms differ for %q: %s vs %s", s, got, gotB)
		}
		var back string
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatalf("AppendString(%q) = %s: invalid JSON: %v", s, got, err)
		}
		std, _ := json.Marshal(s)
		var want string
		_ = json.Unmarshal(std, &want)
		if back != want {
			t.Errorf("AppendString(%q) decodes to %q, encoding/json's to %q", s, back, want)
		}
	}
}

func FuzzAppendString(f *testing.F) {
	f.Add("hello")
	f.Add("\xff<\u2028\"")
	f.Fuzz(func(t *testing.T, s string) {
		got := AppendString(nil, s)
		var back string
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatalf("invalid JSON %s: %v", got, err)
		}
		std, _ := json.Marshal(s)
		var want string
		_ = json.Unmarshal(std, &want)
		if back != want {
			t.Fatalf("decodes to %q, encoding/json's to %q", back, want)
		}
	})
}

func TestAppendStringAllocs(t *testing.T) {
	buf := make([]byte, 0, 1024)
	text := []byte("Hello <world> \"quoted\" é\n")
	if n := testing.AllocsPerRun(100, func() { buf = AppendString(buf[:0], text) }); n != 0 {
		t.Errorf("AppendString allocates %v times", n)
	}
}

func TestAppendFloat(t *testing.T) {
	for _, f := range []float64{0, 1, -1.5, 1e-7, 1e21, 123456789.125, 3.0e-9} {
		std, _ := json.Marshal(f)
		if got := string(AppendFloat(nil, f)); got != string(std) {
			t.Errorf("AppendFloat(%v) = %s, encoding/json %s", f, got, std)
		}
	}
}

func TestMembersAndSkip(t *testing.T) {
	data := []byte(` { "a" : 1, "b\"q":{"x":[1,"]}",{}]}, "c":"s", "d":null ,"e":true} `)
	var keys []string
	var vals []string
	err := Members(data, func(k, v []byte) error {
		keys = append(keys, string(k))
		vals = append(vals, string(v))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a", `b\"q`, "c", "d", "e"}
	if strings.Join(keys, "|") != strings.Join(want, "|") {
		t.Errorf("keys %q, want %q", keys, want)
	}
	if vals[1] != `{"x":[1,"]}",{}]}` {
		t.Errorf("value of b: %s", vals[1])
	}
	for _, bad := range []string{``, `[]`, `{"a"}`, `{"a":}`, `{"a":1`, `{"a":"x`, `{"a":1 "b":2}`, `{1:2}`} {
		if err := Members([]byte(bad), func(k, v []byte) error { return nil }); err == nil {
			t.Errorf("Members(%q) succeeded", bad)
		}
	}
}

func FuzzMembers(f *testing.F) {
	f.Add([]byte(`{"a":[1,{"b":"c"}],"d":"e\"}"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		n := 0
		err := Members(data, func(k, v []byte) error { n++; return nil })
		if err == nil && json.Valid(data) {
			var m map[string]json.RawMessage
			if json.Unmarshal(data, &m) == nil && n < len(m) {
				t.Fatalf("Members saw %d members, encoding/json %d", n, len(m))
			}
		}
	})
}
