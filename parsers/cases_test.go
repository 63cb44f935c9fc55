package parsers_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/agentwire/agentwire/parsers"
	"github.com/agentwire/agentwire/parsers/parserstest"
)

var update = flag.Bool("update", false, "rewrite the generated sections of ../PARSER_CASES.md")

// toolLeaves and reasoningLeaves are the case ids every tool-call and every
// reasoning parser must cover with a fixture or declare N/A with a reason
// (PARSER_CASES.md).
var toolLeaves = expand("TOOLCALLING.",
	"batch.1", "batch.2.a-d", "batch.3", "batch.4.a-e", "batch.5.a-e", "batch.6.a-c", "batch.7.a-f",
	"batch.8.a-d", "batch.9.a-c", "batch.10", "batch.13.a-d", "batch.30.a-c", "batch.31.a-b",
	"stream.1.a-b", "stream.2", "stream.3", "stream.4.a-c",
	"fmt.1", "fmt.2", "fmt.3", "fmt.4", "fmt.5", "xml.1", "xml.2", "harmony.1", "harmony.2")

var reasoningLeaves = expand("REASONING.",
	"batch.1.a-d", "batch.2.a-f", "batch.3.a-f", "batch.4", "batch.5", "batch.6.a-b",
	"stream.1.a-b", "stream.2.a-b", "stream.3.a-e", "stream.4")

// expand turns "batch.2.a-d" into batch.2.a … batch.2.d.
func expand(prefix string, ids ...string) []string {
	var out []string
	for _, id := range ids {
		if i := strings.LastIndexByte(id, '.'); i >= 0 && len(id)-i == 4 && id[i+2] == '-' {
			for c := id[i+1]; c <= id[i+3]; c++ {
				out = append(out, prefix+id[:i+1]+string(c))
			}
			continue
		}
		out = append(out, prefix+id)
	}
	return out
}

// coverage is what one fixture family says about one leaf.
type coverage struct {
	n  int    // cases
	na string // N/A reason
}

// coverageOf maps leaf → coverage for the fixture files in fs.
func coverageOf(fs []*parserstest.File, leaves []string) map[string]coverage {
	cov := map[string]coverage{}
	for _, leaf := range leaves {
		var c coverage
		for _, f := range fs {
			for _, fc := range f.Cases {
				if fc.ID == leaf || strings.HasPrefix(fc.ID, leaf+".") {
					c.n++
				}
			}
			for id, why := range f.NotApplicable {
				if id == leaf || strings.HasPrefix(leaf, id+".") {
					c.na = why
				}
			}
		}
		cov[leaf] = c
	}
	return cov
}

// familiesFor groups fixture files by family, keeping only those that run
// against a parser name of the given kind.
func familiesFor(files []*parserstest.File, tool bool) (names []string, byFamily map[string][]*parserstest.File) {
	byFamily = map[string][]*parserstest.File{}
	for _, f := range files {
		if (tool && len(f.ToolParsers) > 0 && f.Family != "compose" && f.Family != "captures") ||
			(!tool && len(f.ReasoningParsers) > 0 && len(f.ToolParsers) == 0) {
			if byFamily[f.Family] == nil {
				names = append(names, f.Family)
			}
			byFamily[f.Family] = append(byFamily[f.Family], f)
		}
	}
	slices.Sort(names)
	return names, byFamily
}

// TestCaseCoverage fails when a registered parser is not exercised by any
// fixture, or when a family leaves a required case neither covered nor
// declared N/A.
func TestCaseCoverage(t *testing.T) {
	files := libraryFixtures(t)
	used := map[string]bool{}
	for _, f := range files {
		for _, n := range f.ToolParsers {
			used["tool:"+n] = true
		}
		for _, n := range f.ReasoningParsers {
			used["reasoning:"+n] = true
		}
	}
	for _, n := range parsers.ToolParsers() {
		if !used["tool:"+n] {
			t.Errorf("tool parser %q has no fixture family", n)
		}
	}
	for _, n := range parsers.ReasoningParsers() {
		if !used["reasoning:"+n] {
			t.Errorf("reasoning parser %q has no fixture family", n)
		}
	}
	for _, kind := range []struct {
		tool   bool
		leaves []string
	}{{true, toolLeaves}, {false, reasoningLeaves}} {
		names, byFamily := familiesFor(files, kind.tool)
		for _, fam := range names {
			cov := coverageOf(byFamily[fam], kind.leaves)
			for _, leaf := range kind.leaves {
				if c := cov[leaf]; c.n == 0 && c.na == "" {
					t.Errorf("family %s: %s has no fixture and no N/A reason", fam, leaf)
				}
			}
		}
	}
}

// TestParserCasesDoc keeps the generated sections of PARSER_CASES.md equal to
// the registry and the fixtures. Run with -update to rewrite them.
func TestParserCasesDoc(t *testing.T) {
	const path = "../PARSER_CASES.md"
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (PARSER_CASES.md lives at the repository root)", err)
	}
	files := libraryFixtures(t)
	sections := map[string]string{
		"registry":  renderRegistry(),
		"names":     renderNames(),
		"tool":      renderCoverage(files, true, toolLeaves),
		"reasoning": renderCoverage(files, false, reasoningLeaves),
	}
	out := doc
	for name, body := range sections {
		begin := []byte("<!-- BEGIN GENERATED: " + name + " -->\n")
		end := []byte("<!-- END GENERATED: " + name + " -->")
		i, j := bytes.Index(out, begin), bytes.Index(out, end)
		if i < 0 || j < i {
			t.Fatalf("PARSER_CASES.md lacks the markers of section %q", name)
		}
		out = slices.Concat(out[:i+len(begin)], []byte(body), out[j:])
	}
	if bytes.Equal(out, doc) {
		return
	}
	if *update {
		if err := os.WriteFile(path, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("PARSER_CASES.md is out of date with the registry or the fixtures; run: go test ./parsers -run TestParserCasesDoc -update")
}

func renderRegistry() string {
	var b strings.Builder
	b.WriteString("| Tool-call grammar | Names | Openers | Closers | Malformed call | Truncated call |\n|---|---|---|---|---|---|\n")
	var grammars []string
	names := map[string][]string{}
	for _, n := range parsers.ToolParsers() {
		i, _ := parsers.ToolParser(n)
		if names[i.Grammar] == nil {
			grammars = append(grammars, i.Grammar)
		}
		names[i.Grammar] = append(names[i.Grammar], n)
	}
	for _, g := range grammars {
		i, _ := parsers.ToolParser(g)
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s |\n", g, codeList(names[g]), codeList(i.Openers), codeList(i.Closers), i.Malformed, i.Truncated)
	}
	b.WriteString("\n| Reasoning parser | Same machine as | Start | End | Forced | Tool-start tokens (end reasoning, stay in content) |\n|---|---|---|---|---|---|\n")
	for _, n := range parsers.ReasoningParsers() {
		i, _ := parsers.ReasoningParser(n)
		forced := "no"
		if i.Forced {
			forced = "yes"
		}
		starts := codeList(i.ToolStarts)
		if len(i.ToolOpeners) > 0 {
			starts = codeList(i.ToolOpeners) + " when the tool parser opens calls with it"
		}
		fmt.Fprintf(&b, "| `%s` | `%s` | %s | %s | %s | %s |\n", n, i.Grammar, codeList(i.Starts), codeList(i.Ends), forced, starts)
	}
	return b.String()
}

// renderNames renders parsers.Names: every accepted name and every peer's
// name, with its grammar, models and peers.
func renderNames() string {
	var b strings.Builder
	b.WriteString("| Name | Kind | Grammar | Models | Registered by | Note |\n|---|---|---|---|---|---|\n")
	for _, n := range parsers.Names() {
		grammar := "not in this build"
		if n.Grammar != "" {
			grammar = "`" + n.Grammar + "`"
		}
		peers := "—"
		if len(n.Peers) > 0 {
			peers = strings.Join(n.Peers, ", ")
		}
		note := n.Note
		if note == "" {
			note = "—"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s |\n", n.Name, n.Kind, grammar, mdText(n.Models), peers, mdText(note))
	}
	return b.String()
}

// mdText escapes text for a Markdown table cell: '|' and '<' (an HTML tag
// otherwise).
func mdText(s string) string {
	return strings.NewReplacer("|", `\|`, "<", "&lt;").Replace(s)
}

func codeList(ms []string) string {
	if len(ms) == 0 {
		return "—"
	}
	var parts []string
	for _, m := range ms {
		parts = append(parts, "`"+strings.ReplaceAll(m, "|", `\|`)+"`")
	}
	return strings.Join(parts, ", ")
}

func renderCoverage(files []*parserstest.File, tool bool, leaves []string) string {
	names, byFamily := familiesFor(files, tool)
	var b strings.Builder
	b.WriteString("| Case |")
	for _, fam := range names {
		fmt.Fprintf(&b, " %s |", fam)
	}
	b.WriteString("\n|---|")
	for range names {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	covs := map[string]map[string]coverage{}
	for _, fam := range names {
		covs[fam] = coverageOf(byFamily[fam], leaves)
	}
	type naRow struct{ fam, leaf, why string }
	var nas []naRow
	for _, leaf := range leaves {
		fmt.Fprintf(&b, "| %s |", strings.TrimPrefix(strings.TrimPrefix(leaf, "TOOLCALLING."), "REASONING."))
		for _, fam := range names {
			c := covs[fam][leaf]
			switch {
			case c.n > 0:
				fmt.Fprintf(&b, " %d |", c.n)
			case c.na != "":
				b.WriteString(" N/A |")
				nas = append(nas, naRow{fam, leaf, c.na})
			default:
				b.WriteString(" **missing** |")
			}
		}
		b.WriteString("\n")
	}
	b.WriteString("\nN/A reasons:\n\n")
	for _, n := range nas {
		fmt.Fprintf(&b, "- %s, %s: %s\n", n.fam, n.leaf, n.why)
	}
	b.WriteString("\nParser names per family:\n\n")
	for _, fam := range names {
		var ps []string
		for _, f := range byFamily[fam] {
			if tool {
				ps = append(ps, f.ToolParsers...)
			} else {
				ps = append(ps, f.ReasoningParsers...)
			}
		}
		slices.Sort(ps)
		fmt.Fprintf(&b, "- %s: %s\n", fam, codeList(slices.Compact(ps)))
	}
	return b.String()
}
