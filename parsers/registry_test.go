package parsers

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// grammarMarkers returns what the grammar registered under name recognises:
// the openers and orphan closers it hands the driver for content, and, for
// a grammar that frames the whole output, its markup tokens.
func grammarMarkers(t *testing.T, name string) (openers, closers, markup []string) {
	t.Helper()
	p, err := New(Config{ToolParser: name})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range p.tool.textMarkers() {
		switch m.act {
		case actToolOpen:
			openers = append(openers, m.text)
		case actToolClose:
			closers = append(closers, m.text)
		}
	}
	if p.frame != nil {
		markup = markupOf(p.frame)
	}
	return openers, closers, markup
}

// TestToolInfoMarkers proves that the markers each registered grammar
// publishes in its ToolInfo (and PARSER_CASES.md's per-parser table renders)
// are the markers the grammar itself recognises, so the hand-written lists
// cannot drift from the machine:
//
//   - a grammar that works on marker pairs lists exactly its content-level
//     openers and orphan closers. Two spellings are normalised: an opener
//     the grammar also matches with its separator in front (DSML's "\n\n"
//     before the block opener) is one opener, and phi4 lists its opener
//     with the '[' the grammar requires after the word (optionally after
//     whitespace), which it checks itself rather than as part of the marker;
//   - a grammar that frames the whole output (no content-level markers) lists
//     markers that are its markup tokens, or a markup token followed by a
//     word and optionally another markup token (kimi_k3's
//     "<|open|>tools<|sep|>").
func TestToolInfoMarkers(t *testing.T) {
	seen := map[string]bool{}
	for _, n := range ToolParsers() {
		info, _ := ToolParser(n)
		if seen[info.Grammar] {
			continue
		}
		seen[info.Grammar] = true
		t.Run(info.Grammar, func(t *testing.T) {
			openers, closers, markup := grammarMarkers(t, info.Grammar)
			if len(openers)+len(closers) == 0 {
				if len(markup) == 0 {
					t.Fatal("the grammar has neither content-level markers nor markup tokens")
				}
				for _, m := range slices.Concat(info.Openers, info.Closers) {
					if !madeOfMarkup(m, markup) {
						t.Errorf("ToolInfo marker %q is not built from the grammar's markup tokens %q", m, markup)
					}
				}
				return
			}
			openers = slices.DeleteFunc(openers, func(o string) bool {
				for _, other := range openers {
					if o != other && strings.HasSuffix(o, other) && strings.TrimSpace(strings.TrimSuffix(o, other)) == "" {
						return true // the same opener with its separator in front
					}
				}
				return false
			})
			listed := slices.Clone(info.Openers)
			if info.Grammar == "phi4" {
				for i, o := range listed {
					listed[i] = strings.TrimSuffix(o, "[")
				}
			}
			if diff := cmp.Diff(sortedCopy(openers), sortedCopy(listed)); diff != "" {
				t.Errorf("ToolInfo.Openers differ from the grammar's openers (-grammar +ToolInfo):\n%s", diff)
			}
			if diff := cmp.Diff(sortedCopy(closers), sortedCopy(info.Closers)); diff != "" {
				t.Errorf("ToolInfo.Closers differ from the grammar's orphan closers (-grammar +ToolInfo):\n%s", diff)
			}
		})
	}
}

// madeOfMarkup reports whether m is a markup token, or a markup token, a
// word, and optionally another markup token.
func madeOfMarkup(m string, markup []string) bool {
	for _, first := range markup {
		rest, ok := strings.CutPrefix(m, first)
		if !ok {
			continue
		}
		if rest == "" {
			return true
		}
		for _, last := range markup {
			rest = strings.TrimSuffix(rest, last)
		}
		if rest != "" && strings.IndexFunc(rest, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_')
		}) < 0 {
			return true
		}
	}
	return false
}

func sortedCopy(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	if s == nil {
		s = []string{}
	}
	return s
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
// deliberate change of a grammar's public description.
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
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ToolInfo differs from testdata/toolinfo.json (-golden +registry):\n%s", diff)
	}
}
