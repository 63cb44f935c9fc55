package protocols_test

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentwire/agentwire/protocols"
)

type optHolder struct {
	A protocols.Opt[int]    `json:"a,omitzero"`
	B protocols.Opt[string] `json:"b,omitzero"`
	C protocols.Opt[bool]   `json:"c,omitzero"`
}

func TestOptThreeStates(t *testing.T) {
	for _, in := range []string{`{}`, `{"a":null}`, `{"a":0,"b":"","c":false}`, `{"a":7,"b":null,"c":true}`} {
		var h optHolder
		if err := json.Unmarshal([]byte(in), &h); err != nil {
			t.Fatal(err)
		}
		out, err := json.Marshal(h)
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != in {
			t.Errorf("%s → %s", in, out)
		}
	}
	var h optHolder
	_ = json.Unmarshal([]byte(`{"a":null,"b":"x"}`), &h)
	if !h.A.IsNull() || h.A.Valid() || h.A.Or(5) != 5 || h.B.Value() != "x" || !h.C.IsZero() {
		t.Errorf("states: %+v", h)
	}
	if v, ok := protocols.Some(3).Get(); !ok || v != 3 {
		t.Errorf("Some.Get = %v %v", v, ok)
	}
}

func TestStringOrArray(t *testing.T) {
	type holder struct {
		V protocols.StringOrArray[string] `json:"v"`
	}
	for _, in := range []string{`{"v":"s"}`, `{"v":""}`, `{"v":[]}`, `{"v":["a",""]}`} {
		var h holder
		if err := json.Unmarshal([]byte(in), &h); err != nil {
			t.Fatal(err)
		}
		out, _ := json.Marshal(h)
		if string(out) != in {
			t.Errorf("%s → %s", in, out)
		}
	}
	var h holder
	for _, bad := range []string{`{"v":1}`, `{"v":{}}`, `{"v":true}`, `{"v":[1]}`} {
		if err := json.Unmarshal([]byte(bad), &h); err == nil {
			t.Errorf("%s decoded", bad)
		}
	}
	if !protocols.Array[string]().IsArray() || protocols.Text[string]("x").IsArray() {
		t.Error("constructors")
	}
}

type inner struct {
	X     int             `json:"x"`
	Extra protocols.Extra `json:"-"`
}

type outer struct {
	Items []inner                        `json:"items"`
	Map   map[string]inner               `json:"map"`
	Opt   protocols.Opt[inner]           `json:"opt,omitzero"`
	Union protocols.StringOrArray[inner] `json:"union"`
	Extra protocols.Extra                `json:"-"`
}

func TestUnknownFields(t *testing.T) {
	v := outer{
		Items: []inner{{}, {Extra: protocols.Extra{"b": nil, "a": nil}}},
		Map:   map[string]inner{"k": {Extra: protocols.Extra{"m": nil}}},
		Opt:   protocols.Some(inner{Extra: protocols.Extra{"o": nil}}),
		Union: protocols.Array(inner{Extra: protocols.Extra{"u": nil}}),
		Extra: protocols.Extra{"top": nil},
	}
	got := protocols.UnknownFields(&v)
	want := []string{"items.1.a", "items.1.b", "map.k.m", "opt.o", "top", "union.0.u"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if got := protocols.UnknownFields(outer{}); got != nil {
		t.Errorf("clean value: %v", got)
	}
}

func TestIDSource(t *testing.T) {
	ids := protocols.NewIDSource()
	re := regexp.MustCompile(`^toolu_[0-9a-f]{32}$`)
	seen := map[string]bool{}
	for range 1000 {
		id := ids.New("toolu_")
		if !re.MatchString(id) || seen[id] {
			t.Fatalf("bad or repeated id %q", id)
		}
		seen[id] = true
	}
	buf := make([]byte, 0, 64)
	if n := testing.AllocsPerRun(100, func() { buf = ids.AppendHex(buf[:0], "call_") }); n != 0 {
		t.Errorf("AppendHex allocates %v", n)
	}
}

func TestParseFinishReason(t *testing.T) {
	for in, want := range map[string]protocols.FinishReason{
		"eos": protocols.FinishStop, "stop": protocols.FinishStop, "abort": protocols.FinishStop, "cancelled": protocols.FinishStop,
		"length": protocols.FinishLength, "content_filter": protocols.FinishContentFilter, "tool_calls": protocols.FinishToolCalls,
		"function_call": protocols.FinishToolCalls,
	} {
		if got, ok := protocols.ParseFinishReason(in); !ok || got != want {
			t.Errorf("%s → %v %v", in, got, ok)
		}
	}
	if _, ok := protocols.ParseFinishReason("error: boom"); ok {
		t.Error("an engine error is not a finish reason")
	}
}

// TestAppendJSONString: the escaper writes what encoding/json writes
// without HTML escaping, for strings and byte slices, appending to dst.
func TestAppendJSONString(t *testing.T) {
	for _, s := range []string{"", "plain", `q"b\s`, "<a & b>", "nl\n\r\t\b\f\x00\x1f", "é 你好 😀", "\u2028\u2029", "bad \xff\xc3 utf8"} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		w := "x" + strings.TrimSuffix(want.String(), "\n")
		if got := string(protocols.AppendJSONString([]byte("x"), s)); got != w {
			t.Errorf("string %q: %s, want %s", s, got, w)
		}
		if got := string(protocols.AppendJSONString([]byte("x"), []byte(s))); got != w {
			t.Errorf("[]byte %q: %s, want %s", s, got, w)
		}
	}
}
