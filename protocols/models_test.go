package protocols_test

import (
	"net/http"
	"testing"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/anthropic"
)

func TestModelIDFromPath(t *testing.T) {
	for path, want := range map[string]string{
		"/v1/models/Qwen/Qwen3-32B":       "Qwen/Qwen3-32B",
		"/v1/models/gpt-oss-120b":         "gpt-oss-120b",
		"/v1/models/a/b/c":                "a/b/c",
		"/v1/models":                      "",
		"/v1/models/":                     "",
		"/v1/modelsX/a":                   "",
		"/v1/chat/completions/models/x/y": "",
	} {
		id, ok := protocols.ModelIDFromPath(path)
		if id != want || ok != (want != "") {
			t.Errorf("%s: %q %v", path, id, ok)
		}
	}
	h := http.Header{}
	if protocols.WantsAnthropicModels(h) {
		t.Error("no header: anthropic")
	}
	h.Set("anthropic-version", "2023-06-01")
	if !protocols.WantsAnthropicModels(h) {
		t.Error("anthropic-version: not anthropic")
	}
}

func TestAnthropicModelPages(t *testing.T) {
	cards := []protocols.ModelCard{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}}
	ids := func(l anthropic.ModelList) (s string) {
		for _, m := range l.Data {
			s += m.ID
		}
		return s + "|" + l.FirstID.Value() + l.LastID.Value() + map[bool]string{true: "+", false: ""}[l.HasMore]
	}
	for _, tc := range []struct {
		q    anthropic.ListQuery
		want string
	}{
		{anthropic.ListQuery{}, "abcd|ad"},
		{anthropic.ListQuery{Limit: 2}, "ab|ab+"},
		{anthropic.ListQuery{Limit: 2, AfterID: "b"}, "cd|cd"},
		{anthropic.ListQuery{Limit: 1, BeforeID: "c"}, "b|bb+"},
		{anthropic.ListQuery{AfterID: "d"}, "|"},
	} {
		if got := ids(anthropic.ModelsOf(cards, tc.q)); got != tc.want {
			t.Errorf("%+v: %s, want %s", tc.q, got, tc.want)
		}
	}
	if l := anthropic.ModelsOf(nil, anthropic.ListQuery{}); !l.FirstID.IsNull() || l.Data == nil {
		t.Errorf("empty list %+v", l)
	}
}
