package chattemplate

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentwire/agentwire/preprocess/chattemplate/internal/jinja"
	"github.com/stretchr/testify/require"
)

const testdataDir = "../../testdata/chattemplate"

// goldenNow is the clock the oracle uses (oracle.py: 2026-01-02 00:00:00).
func goldenNow() time.Time { return time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC) }

// line is one runner/oracle input line.
type line struct {
	Name                string          `json:"name"`
	Messages            json.RawMessage `json:"messages"`
	Tools               json.RawMessage `json:"tools"`
	AddGenerationPrompt bool            `json:"add_generation_prompt"`
	Kwargs              json.RawMessage `json:"kwargs"`
	BOSToken            *string         `json:"bos_token"`
	EOSToken            *string         `json:"eos_token"`
}

func (l line) input() Input {
	in := Input{Messages: l.Messages, Tools: l.Tools, AddGenerationPrompt: l.AddGenerationPrompt, Kwargs: l.Kwargs}
	if l.BOSToken != nil {
		in.BOSToken = *l.BOSToken
	}
	if l.EOSToken != nil {
		in.EOSToken = *l.EOSToken
	}
	return in
}

type goldenResult struct {
	Prompt *string `json:"prompt"`
	Error  *string `json:"error"`
	Raised bool    `json:"raised"`
}

func readJSONLines[T any](t testing.TB, path string) []T {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var out []T
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var v T
		require.NoError(t, json.Unmarshal(sc.Bytes(), &v), "%s", path)
		out = append(out, v)
	}
	return out
}

// readTSV reads tab-separated rows, skipping blank and # lines.
func readTSV(t testing.TB, path string) [][]string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var rows [][]string
	for _, l := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		rows = append(rows, strings.Split(l, "\t"))
	}
	return rows
}

// compare reports how the Go render differs from the oracle's golden, "" when
// they agree: the same prompt byte for byte, or both an error (with the same
// message when the template raised it).
func compare(got string, err error, want goldenResult) string {
	switch {
	case want.Prompt != nil && err != nil:
		return fmt.Sprintf("oracle renders, Go fails: %v", err)
	case want.Prompt != nil && got != *want.Prompt:
		return "prompt differs (-oracle +go):\n" + cmp.Diff(*want.Prompt, got)
	case want.Prompt != nil:
		return ""
	case err == nil:
		return fmt.Sprintf("oracle fails (%s), Go renders %q", *want.Error, got)
	case want.Raised:
		var te *TemplateError
		if !errors.As(err, &te) {
			return fmt.Sprintf("oracle raise_exception(%q), Go error %v", *want.Error, err)
		}
		if te.Message != *want.Error {
			return fmt.Sprintf("raise_exception message: oracle %q, Go %q", *want.Error, te.Message)
		}
	}
	return ""
}

// TestGolden renders every template of testdata/chattemplate/templates with
// every conversation of conversations.jsonl and compares with the oracle's
// golden output (oracle.py: Python jinja2 configured as transformers
// configures it). Differences listed in known_differences.tsv are expected;
// any other difference, or a listed one that no longer occurs, fails.
func TestGolden(t *testing.T) {
	convs := readJSONLines[line](t, filepath.Join(testdataDir, "conversations.jsonl"))
	family := map[string]string{}
	for _, r := range readTSV(t, filepath.Join(testdataDir, "templates", "SOURCES.tsv")) {
		family[r[0]] = r[1]
	}
	known := map[string]string{}
	for _, r := range readTSV(t, filepath.Join(testdataDir, "known_differences.tsv")) {
		known[r[0]+"/"+r[1]] = r[2]
	}
	files, err := filepath.Glob(filepath.Join(testdataDir, "templates", "*.jinja"))
	require.NoError(t, err, "no templates: %v", err)
	require.NotEmpty(t, files, "no templates: %v", err)
	type tally struct{ exact, total int }
	families := map[string]*tally{}
	seen := map[string]bool{}
	for _, f := range files {
		base := filepath.Base(f)
		fam, ok := family[base]
		if !ok {
			t.Errorf("%s: not listed in templates/SOURCES.tsv", base)
			continue
		}
		name := strings.TrimSuffix(base, ".jinja")
		want := readJSONLines[goldenResult](t, filepath.Join(testdataDir, "golden", name+".jsonl"))
		require.Len(t, want, len(convs), "%s: %d golden lines for %d conversations (regenerate with oracle.py -regen)", name, len(want), len(convs))
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		tmpl, parseErr := Parse(string(src), Options{Now: goldenNow})
		if families[fam] == nil {
			families[fam] = &tally{}
		}
		for i, c := range convs {
			got, err := "", parseErr
			if parseErr == nil {
				got, err = tmpl.Render(c.input())
			}
			diff := compare(got, err, want[i])
			key := name + "/" + c.Name
			families[fam].total++
			if diff == "" {
				families[fam].exact++
				if _, ok := known[key]; ok {
					t.Errorf("%s: listed in known_differences.tsv but now matches the oracle: remove the line", key)
				}
				continue
			}
			if _, ok := known[key]; ok {
				seen[key] = true
				continue
			}
			t.Errorf("%s: %s", key, diff)
		}
	}
	for key := range known {
		if !seen[key] && !strings.HasPrefix(key, "expressions/") {
			name := strings.SplitN(key, "/", 2)[0]
			if _, err := os.Stat(filepath.Join(testdataDir, "templates", name+".jinja")); err != nil {
				t.Errorf("known_differences.tsv names a missing template: %s", key)
			}
		}
	}
	names := make([]string, 0, len(families))
	for f := range families {
		names = append(names, f)
	}
	sort.Strings(names)
	var sum tally
	for _, f := range names {
		t.Logf("exactness %-12s %3d/%d", f, families[f].exact, families[f].total)
		sum.exact += families[f].exact
		sum.total += families[f].total
	}
	t.Logf("exactness %-12s %3d/%d", "all", sum.exact, sum.total)
}

// foldCases are the expression cases that render differently without
// jinja2's constant folding: slices Python refuses, taken on literals, are
// undefined values when folded (and print as ” or are tested as not
// defined); ~ on literals joins with str() under autoescape.
var foldCases = map[int]bool{286: true, 392: true}

type expressionGolden struct {
	goldenResult
	Template string `json:"template"`
}

// TestExpressions renders each small template of expressions.txt (value
// printing, filters, tests, loops, macros, whitespace control, sandbox
// errors) with the oracle's fixed context and compares with
// golden/expressions.jsonl. Known differences are listed in
// known_differences.tsv under the template name "expressions" and the
// case's index.
func TestExpressions(t *testing.T) {
	cases := readJSONLines[expressionGolden](t, filepath.Join(testdataDir, "golden", "expressions.jsonl"))
	known := map[string]string{}
	for _, r := range readTSV(t, filepath.Join(testdataDir, "known_differences.tsv")) {
		known[r[0]+"/"+r[1]] = r[2]
	}
	in := Input{
		Messages:            json.RawMessage(`[{"role": "user", "content": "hi"}]`),
		AddGenerationPrompt: true,
		BOSToken:            "<s>",
		EOSToken:            "</s>",
	}
	exact := 0
	for i, c := range cases {
		key := fmt.Sprintf("expressions/%d", i)
		tmpl, err := Parse(c.Template, Options{Now: goldenNow})
		var got string
		if err == nil {
			got, err = tmpl.Render(in)
		}
		diff := compare(got, err, c.goldenResult)
		// Without constant folding every case renders the same, except the
		// ones whose point is jinja2's folding (optimize.go).
		if tmpl != nil {
			nofold := *tmpl
			nofold.tmpl, _ = jinja.CompileNoFold(c.Template)
			got2, err2 := nofold.Render(in)
			require.Equal(t, foldCases[i], (got2 != got || (err2 == nil) != (err == nil)), "%s %q: folded %q (%v), unfolded %q (%v); listed in foldCases: %v", key, c.Template, got, err, got2, err2, foldCases[i])
		}
		_, isKnown := known[key]
		switch {
		case diff == "" && isKnown:
			t.Errorf("%s %q: listed in known_differences.tsv but now matches the oracle", key, c.Template)
		case diff != "" && !isKnown:
			t.Errorf("%s %q: %s", key, c.Template, diff)
		}
		if diff == "" {
			exact++
		}
	}
	t.Logf("exactness expressions %d/%d", exact, len(cases))
}

type claudeGolden struct {
	goldenResult
	Template string `json:"template"`
	Request  string `json:"request"`
	SHA256   string `json:"sha256"`
	Bytes    int    `json:"bytes"`
}

// TestClaudeCodeAllTemplates renders the recorded 49 KB Claude Code request
// (tool-call arguments as JSON strings, and as objects) with every template
// and compares with the oracle's SHA-256 of each prompt
// (claude-code/golden.jsonl, oracle.py -claude).
func TestClaudeCodeAllTemplates(t *testing.T) {
	goldens := readJSONLines[claudeGolden](t, filepath.Join(testdataDir, "claude-code", "golden.jsonl"))
	files, _ := filepath.Glob(filepath.Join(testdataDir, "templates", "*.jinja"))
	require.Len(t, goldens, 2*len(files), "%d goldens for %d templates (regenerate with oracle.py -claude)", len(goldens), len(files))
	requests := map[string]Input{}
	for _, name := range []string{"request.jsonl", "request_object_args.jsonl"} {
		requests[name] = readJSONLines[line](t, filepath.Join(testdataDir, "claude-code", name))[0].input()
	}
	exact := 0
	for _, g := range goldens {
		src, err := os.ReadFile(filepath.Join(testdataDir, "templates", g.Template+".jinja"))
		require.NoError(t, err)
		tmpl, err := Parse(string(src), Options{Now: goldenNow})
		var got string
		if err == nil {
			got, err = tmpl.Render(requests[g.Request])
		}
		if g.SHA256 != "" {
			sum := sha256.Sum256([]byte(got))
			switch {
			case err != nil:
				t.Errorf("%s %s: oracle renders, Go fails: %v", g.Template, g.Request, err)
			case hex.EncodeToString(sum[:]) != g.SHA256:
				t.Errorf("%s %s: prompt differs from the oracle's (%d bytes, oracle %d)", g.Template, g.Request, len(got), g.Bytes)
			default:
				exact++
			}
			continue
		}
		if diff := compare(got, err, g.goldenResult); diff != "" {
			t.Errorf("%s %s: %s", g.Template, g.Request, diff)
			continue
		}
		exact++
	}
	t.Logf("exactness claude-code %d/%d", exact, len(goldens))
}

// TestBuiltinsCovered checks the exactness suite's reach. The engine
// provides exactly the filters, tests and global functions of the oracle's
// environment (golden/builtins.json, written by oracle.py -builtins: jinja2's
// FILTERS and TESTS, transformers' tojson, raise_exception and
// strftime_now); each of them is exercised by at least one expression case
// (compared with the oracle in TestExpressions), and each keyword argument
// of each of them is passed by name in one; and every filter, test and
// global that a template in templates/ names is exercised by an expression
// case too — a name jinja2 lacks (DeepSeek-V4-Flash's from_json) by a case
// that shows it failing as transformers fails.
func TestBuiltinsCovered(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testdataDir, "golden", "builtins.json"))
	require.NoError(t, err)
	var want struct {
		Filters, Tests, Globals []string
		FilterKeywords          map[string][]string `json:"filter_keywords"`
		TestKeywords            map[string][]string `json:"test_keywords"`
	}
	require.NoError(t, json.Unmarshal(data, &want))
	if len(want.FilterKeywords) != len(want.Filters)-3 { // escape, e, string have no Python signature
		t.Fatalf("builtins.json: %d filter signatures for %d filters (regenerate with oracle.py -builtins)", len(want.FilterKeywords), len(want.Filters))
	}
	filters, tests, globals := jinja.Builtins()
	for _, c := range []struct {
		kind      string
		want, got []string
	}{{"filters", want.Filters, filters}, {"tests", want.Tests, tests}, {"globals", want.Globals, globals}} {
		if diff := cmp.Diff(c.want, c.got); diff != "" {
			t.Errorf("engine %s differ from the oracle's (-oracle +engine):\n%s", c.kind, diff)
		}
	}

	uses := func(src string) (map[string]bool, error) {
		tmpl, err := jinja.Compile(src)
		if err != nil {
			return nil, err
		}
		fs, ts, gs := tmpl.Uses()
		m := map[string]bool{}
		for _, k := range tmpl.KeywordsUsed() {
			m["keyword "+k] = true
		}
		for _, f := range fs {
			m["filter "+f] = true
		}
		for _, n := range ts {
			m["test "+n] = true
		}
		for _, g := range gs {
			m["global "+g] = true
		}
		return m, nil
	}
	covered := map[string]bool{}
	for _, c := range readJSONLines[expressionGolden](t, filepath.Join(testdataDir, "golden", "expressions.jsonl")) {
		m, err := uses(c.Template)
		if err != nil {
			continue // a case whose point is a syntax error
		}
		for k := range m {
			covered[k] = true
		}
	}
	for kind, names := range map[string][]string{"filter": want.Filters, "test": want.Tests, "global": want.Globals} {
		for _, n := range names {
			require.True(t, covered[kind+" "+n], "jinja2 %s %q is exercised by no case of expressions.txt", kind, n)
		}
	}
	// Every keyword argument of every filter and test, by name.
	for kind, params := range map[string]map[string][]string{"filter": want.FilterKeywords, "test": want.TestKeywords} {
		for name, kws := range params {
			for _, kw := range kws {
				require.True(t, covered["keyword "+kind+" "+name+":"+kw], "jinja2 %s %q: keyword argument %q is passed by no case of expressions.txt", kind, name, kw)
			}
		}
	}
	files, _ := filepath.Glob(filepath.Join(testdataDir, "templates", "*.jinja"))
	used := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		m, err := uses(string(src))
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
			continue
		}
		for k := range m {
			used++
			require.True(t, covered[k], "%s uses %s, which no case of expressions.txt exercises", filepath.Base(f), k)
		}
	}
	t.Logf("%d filters, %d tests, %d globals; %d uses in %d templates, all covered by %d expression names", len(filters), len(tests), len(globals), used, len(files), len(covered))
}

// TestRandomExpressions renders 2441 random small templates
// (golden/random.jsonl, oracle.py -random: every filter and test with
// random arguments and keywords, operators, subscripts, str/list/dict
// methods, loops and conditions, on literals and on variables) with the
// oracle's fixed context; every one must render exactly as the oracle
// renders it, or fail where it fails. Templates printing an object's
// address are left out by the oracle.
func TestRandomExpressions(t *testing.T) {
	cases := readJSONLines[expressionGolden](t, filepath.Join(testdataDir, "golden", "random.jsonl"))
	in := Input{
		Messages:            json.RawMessage(`[{"role": "user", "content": "hi"}]`),
		AddGenerationPrompt: true,
		BOSToken:            "<s>",
		EOSToken:            "</s>",
	}
	renders := 0
	for i, c := range cases {
		tmpl, err := Parse(c.Template, Options{Now: goldenNow})
		var got string
		if err == nil {
			got, err = tmpl.Render(in)
		}
		diff := compare(got, err, c.goldenResult)
		require.Equal(t, "", diff, "random/%d %q: %s", i, c.Template, diff)
		if c.Prompt != nil {
			renders++
		}
	}
	t.Logf("random expressions: %d exact (%d render, %d fail in both)", len(cases), renders, len(cases)-renders)
}

// TestJSONEscapeArguments renders a tool call whose arguments are a JSON
// string with escapes (\u00e9, a surrogate pair, \", \\, \n, \u0001) with
// every template (json-escapes/, oracle.py -escapes). Kimi K3's template
// parses the string itself, decoding \uXXXX with int(base=16) and
// '%c' | format: the render must say "café 🦀" as jinja2's does.
func TestJSONEscapeArguments(t *testing.T) {
	dir := filepath.Join(testdataDir, "json-escapes")
	in := readJSONLines[line](t, filepath.Join(dir, "request.jsonl"))[0].input()
	type golden struct {
		goldenResult
		Template string `json:"template"`
	}
	goldens := readJSONLines[golden](t, filepath.Join(dir, "golden.jsonl"))
	files, _ := filepath.Glob(filepath.Join(testdataDir, "templates", "*.jinja"))
	require.Len(t, goldens, len(files), "%d goldens for %d templates (regenerate with oracle.py -escapes)", len(goldens), len(files))
	for _, g := range goldens {
		src, err := os.ReadFile(filepath.Join(testdataDir, "templates", g.Template+".jinja"))
		require.NoError(t, err)
		tmpl, err := Parse(string(src), Options{Now: goldenNow})
		var got string
		if err == nil {
			got, err = tmpl.Render(in)
		}
		diff := compare(got, err, g.goldenResult)
		require.Equal(t, "", diff, "%s: %s", g.Template, diff)
		require.False(t, g.Template == "Kimi-K3" && !strings.Contains(got, ">café 🦀<"), "Kimi-K3: the decoded argument is missing:\n%s", got)
	}
}

// TestImageParts renders conversations with image parts ({"type":"image"},
// as vLLM passes them to a template) in user and tool messages with every
// template (images/, oracle.py -images): each vision template writes its
// own placeholder, byte for byte as jinja2 does.
func TestImageParts(t *testing.T) {
	dir := filepath.Join(testdataDir, "images")
	lines := readJSONLines[line](t, filepath.Join(dir, "request.jsonl"))
	type golden struct {
		goldenResult
		Template string `json:"template"`
		Case     string `json:"case"`
	}
	goldens := readJSONLines[golden](t, filepath.Join(dir, "golden.jsonl"))
	files, _ := filepath.Glob(filepath.Join(testdataDir, "templates", "*.jinja"))
	require.Len(t, goldens, len(files)*len(lines), "%d goldens for %d templates × %d cases (regenerate with oracle.py -images)", len(goldens), len(files), len(lines))
	placeholders := 0
	for i, g := range goldens {
		src, err := os.ReadFile(filepath.Join(testdataDir, "templates", g.Template+".jinja"))
		require.NoError(t, err)
		tmpl, err := Parse(string(src), Options{Now: goldenNow})
		var got string
		if err == nil {
			got, err = tmpl.Render(lines[i%len(lines)].input())
		}
		diff := compare(got, err, g.goldenResult)
		require.Equal(t, "", diff, "%s / %s: %s", g.Template, g.Case, diff)
		if strings.Contains(got, "<|image_pad|>") || strings.Contains(got, "[IMG]") || strings.Contains(got, "<|image|>") {
			placeholders++
		}
	}
	require.GreaterOrEqual(t, placeholders, 10, "only %d renders hold a Qwen, Mistral or Gemma image placeholder", placeholders)
}
