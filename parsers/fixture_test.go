package parsers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fixtureFile is one parsers/testdata/<family>/*.json file: the cases of one
// grammar family, run against every parser name in ToolParsers or
// ReasoningParsers (the family's aliases and group members).
type fixtureFile struct {
	Family           string            `json:"family"`
	Description      string            `json:"description"`
	ToolParsers      []string          `json:"tool_parsers"`      // tool parser names the cases run with
	ReasoningParsers []string          `json:"reasoning_parsers"` // reasoning parser names the cases run with
	NotApplicable    map[string]string `json:"not_applicable"`    // case id -> reason
	Cases            []fixtureCase     `json:"cases"`

	path string
}

// fixtureCase is one model output and what every parser of the family must
// make of it.
type fixtureCase struct {
	Name        string          `json:"name"`
	Case        string          `json:"case"` // case id (PARSER_CASES.md, "The taxonomy, in short"), e.g. TOOLCALLING.batch.5.d
	Ref         string          `json:"ref,omitempty"`
	Input       string          `json:"input"`
	Chunks      []string        `json:"chunks,omitempty"` // the input as captured deltas (must join to Input)
	Tools       json.RawMessage `json:"tools,omitempty"`  // OpenAI-style tool definitions
	Options     fixtureOptions  `json:"options"`
	Expected    fixtureExpected `json:"expected"`
	AllowMarkup bool            `json:"allow_markup,omitempty"` // expected text legitimately contains marker text
	// ToolParser / ReasoningParser override the file's lists for this case
	// ("-" means none).
	ToolParser      string `json:"tool_parser,omitempty"`
	ReasoningParser string `json:"reasoning_parser,omitempty"`
}

type fixtureOptions struct {
	InReasoning bool `json:"in_reasoning,omitempty"`
	WholeCalls  bool `json:"whole_calls,omitempty"`
	MaxBuffer   int  `json:"max_call_buffer,omitempty"`
}

type fixtureExpected struct {
	Content   string        `json:"content"`
	Reasoning string        `json:"reasoning"`
	Calls     []fixtureCall `json:"calls"`
	Abandoned int           `json:"abandoned,omitempty"` // calls started then abandoned (streaming mode)
}

type fixtureCall struct {
	ID   string `json:"id,omitempty"` // checked only when set (grammars that carry ids)
	Name string `json:"name"`
	// Arguments is compared as a JSON value (object key order free);
	// ArgumentsText pins the exact text (compared after json.Compact, so
	// key order, duplicate keys, escapes and number spelling must match).
	Arguments     json.RawMessage `json:"arguments,omitempty"`
	ArgumentsText string          `json:"arguments_text,omitempty"`
}

// loadFixtures reads every fixture file under testdata/.
func loadFixtures(t testing.TB) []*fixtureFile {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "*", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no fixtures under testdata/")
	}
	var files []*fixtureFile
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f := &fixtureFile{path: path}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(f); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		files = append(files, f)
	}
	return files
}

// run is one (fixture case, parser names) combination.
type run struct {
	file *fixtureFile
	c    *fixtureCase
	cfg  Config
}

func (r run) String() string {
	return fmt.Sprintf("%s/%s[tool=%s,reasoning=%s]", r.file.Family, r.c.Name, r.cfg.ToolParser, r.cfg.ReasoningParser)
}

// fixtureRuns expands every case over its family's parser names.
func fixtureRuns(t testing.TB) []run {
	t.Helper()
	var runs []run
	for _, f := range loadFixtures(t) {
		for i := range f.Cases {
			c := &f.Cases[i]
			tools := orNone(f.ToolParsers)
			if c.ToolParser != "" {
				tools = []string{c.ToolParser}
			}
			reasons := orNone(f.ReasoningParsers)
			if c.ReasoningParser != "" {
				reasons = []string{c.ReasoningParser}
			}
			toolDefs, err := toolsFromFixture(c.Tools)
			if err != nil {
				t.Fatalf("%s %s: tools: %v", f.path, c.Name, err)
			}
			for _, tp := range tools {
				for _, rp := range reasons {
					cfg := Config{
						ToolParser:      dash(tp),
						ReasoningParser: dash(rp),
						Tools:           toolDefs,
						InReasoning:     c.Options.InReasoning,
						WholeCalls:      c.Options.WholeCalls,
						MaxCallBuffer:   c.Options.MaxBuffer,
					}
					runs = append(runs, run{file: f, c: c, cfg: cfg})
				}
			}
		}
	}
	return runs
}

func orNone(names []string) []string {
	if len(names) == 0 {
		return []string{"-"}
	}
	return names
}

func dash(s string) string {
	if s == "-" {
		return ""
	}
	return s
}

// toolsFromFixture converts a fixture's OpenAI-style tool definitions.
func toolsFromFixture(raw json.RawMessage) ([]Tool, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	return ToolsFromJSON(raw)
}

// compactJSON returns the compact form of a JSON text (key order and number
// spelling kept), or the text itself prefixed with "!" if it is not JSON.
func compactJSON(b []byte) string {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return "!" + string(b)
	}
	return buf.String()
}

// jsonValue decodes a JSON text to a comparable value (numbers as their
// literal text), or returns the text prefixed with "!" if it is not JSON.
func jsonValue(b []byte) any {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return "!" + string(b)
	}
	return v
}

// markersOf lists every marker the configured parsers know (for the
// "no markup in content or reasoning" check). Start-of-output markers (a bare
// "{" or "[") are left out: once text precedes them they are ordinary
// characters.
func markersOf(p *Parser) []string {
	var ms []string
	for _, m := range p.textMs[1][1].ms {
		if !m.atStart {
			ms = append(ms, m.text)
		}
	}
	for _, m := range p.reasM.ms {
		ms = append(ms, m.text)
	}
	// A grammar that frames the output runs no text matcher: its markup is
	// its own matchers' markers (required by framingGrammar).
	if p.frame != nil {
		ms = append(ms, markupOf(p.frame)...)
	}
	slices.Sort(ms)
	return slices.Compact(ms)
}

func containsAny(s string, ms []string) string {
	for _, m := range ms {
		if strings.Contains(s, m) {
			return m
		}
	}
	return ""
}
