package parsers

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestToolParserInfoIsACopy: changing what ToolParser returns does not
// change the registry.
func TestToolParserInfoIsACopy(t *testing.T) {
	a, ok := ToolParser("hermes")
	if !ok || len(a.Openers) == 0 || len(a.Closers) == 0 {
		t.Fatalf("hermes: %+v %v", a, ok)
	}
	a.Openers[0], a.Closers[0] = "changed", "changed"
	b, _ := ToolParser("hermes")
	if b.Openers[0] == "changed" || b.Closers[0] == "changed" {
		t.Errorf("ToolParser returned the registry's own slices: %+v", b)
	}
}

// TestReasoningParserInfoIsACopy: changing what ReasoningParser returns does
// not change the registry.
func TestReasoningParserInfoIsACopy(t *testing.T) {
	a, ok := ReasoningParser("qwen3")
	if !ok || len(a.Starts) == 0 || len(a.Ends) == 0 {
		t.Fatalf("qwen3: %+v %v", a, ok)
	}
	a.Starts[0], a.Ends[0] = "changed", "changed"
	b, _ := ReasoningParser("qwen3")
	if b.Starts[0] == "changed" || b.Ends[0] == "changed" {
		t.Errorf("ReasoningParser returned the registry's own slices: %+v", b)
	}
}

// TestToolInfoMarkers: the markers each registered grammar publishes in its
// ToolInfo (and PARSER_CASES.md's per-parser table renders) follow from the
// markers of the grammar a Parser runs, by the rules ToolInfo states
// (registration derives them from a grammar built without a Config; this
// holds them to the grammar New builds).
func TestToolInfoMarkers(t *testing.T) {
	seen := map[string]bool{}
	for _, n := range ToolParsers() {
		info, _ := ToolParser(n)
		if seen[info.Grammar] {
			continue
		}
		seen[info.Grammar] = true
		t.Run(info.Grammar, func(t *testing.T) {
			p, err := New(Config{ToolParser: info.Grammar})
			if err != nil {
				t.Fatal(err)
			}
			openers, closers := contentMarkers(p.tool.textMarkers())
			if p.frame != nil {
				if len(openers)+len(closers) > 0 {
					t.Fatalf("a framing grammar with content-level markers %q %q", openers, closers)
				}
				if err := madeOfMarkup(slices.Concat(info.Openers, info.Closers), markupOf(p.frame)); err != nil {
					t.Error(err)
				}
				return
			}
			// The openers are the grammar's, or (stated) extend them.
			if !slices.Equal(info.Openers, openers) {
				if err := statedExtend(info.Openers, openers); err != nil || len(info.Openers) != len(openers) {
					t.Errorf("ToolInfo.Openers %q do not follow from the grammar's openers %q (%v)", info.Openers, openers, err)
				}
			}
			if diff := cmp.Diff(closers, info.Closers); diff != "" {
				t.Errorf("ToolInfo.Closers differ from the grammar's orphan closers (-grammar +ToolInfo):\n%s", diff)
			}
		})
	}
}

// TestToolInfoRules: each rule registration applies to a grammar's markers
// rejects a list that drifted from them.
func TestToolInfoRules(t *testing.T) {
	openers, closers := contentMarkers([]marker{
		{text: "<a>", act: actToolOpen}, {text: "\n\n<a>", act: actToolOpen}, {text: "<b", act: actToolOpen},
		{text: "</a>", act: actToolClose}, {text: "x", act: actOpen},
	})
	if !slices.Equal(openers, []string{"<a>", "<b"}) || !slices.Equal(closers, []string{"</a>"}) {
		t.Errorf("contentMarkers = %q, %q", openers, closers)
	}
	if err := statedExtend([]string{"<b["}, openers); err != nil {
		t.Error(err)
	}
	for _, stated := range [][]string{{"<c["}, {"<b"}, {"<a>", "<b["}} {
		if statedExtend(stated, openers) == nil {
			t.Errorf("stated openers %q accepted against %q", stated, openers)
		}
	}
	markup := []string{"<|open|>", "<|sep|>", "<|end|>"}
	if err := madeOfMarkup([]string{"<|open|>tools<|sep|>", "<|open|>call", "<|end|>"}, markup); err != nil {
		t.Error(err)
	}
	for _, ms := range [][]string{nil, {"<|close|>"}, {"<|open|>tools!"}, {"<|open|>tools<|other|>"}} {
		if madeOfMarkup(ms, markup) == nil {
			t.Errorf("markers %q accepted as built from %q", ms, markup)
		}
	}
}

// toolInfoGolden is testdata/toolinfo.json: every registered tool-call
// parser's full ToolInfo, one entry per grammar with the names registered
// for it (Name is the looked-up name itself).
type toolInfoGolden struct {
	Names []string `json:"names"`
	Info  ToolInfo `json:"info"`
}

// TestToolInfoGolden pins the full public ToolInfo of every name in
// ToolParsers() (markers, their order, an absent list as null) to
// testdata/toolinfo.json, so deriving the markers from the grammars cannot
// change what callers and PARSER_CASES.md see. The file changes only with a
// deliberate change of a grammar's public description (go test -run
// TestToolInfoGolden -update rewrites it).
func TestToolInfoGolden(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "toolinfo.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want []toolInfoGolden
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	var got []toolInfoGolden
	index := map[string]int{}
	for _, n := range ToolParsers() {
		info, ok := ToolParser(n)
		if !ok || info.Name != n {
			t.Fatalf("ToolParser(%q) = %+v, %v", n, info, ok)
		}
		info.Name = ""
		i, seen := index[info.Grammar]
		if !seen {
			i = len(got)
			index[info.Grammar] = i
			got = append(got, toolInfoGolden{Info: info})
		} else if diff := cmp.Diff(got[i].Info, info); diff != "" {
			t.Errorf("%s: ToolInfo differs from the other names of grammar %s (-first +%s):\n%s", n, info.Grammar, n, diff)
		}
		got[i].Names = append(got[i].Names, n)
	}
	// -update is cases_test.go's flag (one test binary holds both packages).
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		var out bytes.Buffer
		enc := json.NewEncoder(&out)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "\t")
		if err := enc.Encode(got); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("testdata", "toolinfo.json"), out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ToolInfo differs from testdata/toolinfo.json (-golden +registry; -update rewrites it):\n%s", diff)
	}
}
