package doccheck

import (
	"encoding/json"
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// source is one piece of text that may cite documents: a Go comment, a
// Markdown file or a fixture string, with the file it came from.
type source struct {
	file string // path relative to the repository root
	line int
	text string
}

// TestCitations checks every citation in the repository (see the package
// documentation for the form): the cited document exists, every cited
// section exists in it, and no bare section number remains.
func TestCitations(t *testing.T) {
	root := repoRoot(t)
	sources := collect(t, root)
	require.GreaterOrEqual(t, len(sources), 100, "only %d texts collected under %s: the walk is broken", len(sources), root)
	sections := map[string]map[string]bool{} // document path → normalised section names
	checked := 0
	for _, s := range sources {
		if i := strings.Index(s.text, "\u00a7"); i >= 0 {
			t.Errorf("%s:%d: bare section citation %q: cite a document and a heading instead",
				s.file, s.line, excerpt(s.text, i))
		}
		m := outside.FindString(s.text)
		require.Equal(t, "", m, "%s:%d: %q points outside the repository: write the rule down here and cite that", s.file, s.line, m)
		for _, m := range citation.FindAllStringSubmatchIndex(s.text, -1) {
			name := s.text[m[2]:m[3]]
			doc, ok := resolve(root, s.file, name)
			if !ok {
				t.Errorf("%s:%d: cites %s, which is not in the repository", s.file, s.line, name)
				continue
			}
			if m[4] < 0 {
				continue
			}
			if sections[doc] == nil {
				sections[doc] = docSections(t, filepath.Join(root, doc))
			}
			for _, q := range quoted.FindAllStringSubmatch(s.text[m[4]:m[5]], -1) {
				checked++
				require.True(t, sections[doc][normalise(q[1])], "%s:%d: cites %s, %q: no such heading or bold rule in %s", s.file, s.line, name, q[1], doc)
			}
		}
	}
	require.NotEqual(t, 0, checked, "no section citation found: the citation pattern is broken")
}

// citation matches a document name (group 1), optionally followed by
// quoted section names (group 2): `X.md, "A"`, `X.md: "A"`, `X.md's "A"`,
// `X.md ("A")`, `X.md, "A" and "B"`.
var citation = regexp.MustCompile(`([A-Za-z0-9_./-]*[A-Za-z0-9_-]\.md)\b(?:(?:'s)?[,:]?\s*\(?\s*("[^"\n]+"(?:(?:,\s*|\s+and\s+|\s+or\s+)"[^"\n]+")*))?`)

var quoted = regexp.MustCompile(`"([^"\n]+)"`)

// outside matches references to the design documents the project was built
// from, which live outside the repository.
var outside = regexp.MustCompile(`\b(?:GRAMMARS|GO-STYLE|PREPROCESS|PROTOCOLS|TOKENIZERS)\b|/work/shared|\.\./shared/`)

// resolve finds the cited document: a path relative to the citing file's
// directory or to the repository root, or a bare name found in the citing
// file's directory or one of its parents.
func resolve(root, from, name string) (string, bool) {
	name = strings.TrimPrefix(name, "./")
	dir := filepath.Dir(from)
	candidates := []string{filepath.Join(dir, name), name}
	if !strings.Contains(name, "/") {
		for d := dir; d != "." && d != "/"; d = filepath.Dir(d) {
			candidates = append(candidates, filepath.Join(d, name))
		}
	}
	for _, c := range candidates {
		if fi, err := os.Stat(filepath.Join(root, c)); err == nil && !fi.IsDir() {
			return filepath.Clean(c), true
		}
	}
	return "", false
}

var (
	heading  = regexp.MustCompile(`(?m)^#{1,6}\s+(.+?)\s*#*\s*$`)
	boldLead = regexp.MustCompile(`\*\*([^*\n]+)\*\*`)
	trailing = regexp.MustCompile(`\s*\([^()]*\)$`)
)

// docSections returns the normalised headings of a Markdown document (each
// also without a trailing parenthetical) and its bold phrases.
func docSections(t *testing.T, path string) map[string]bool {
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	set := map[string]bool{}
	for _, m := range heading.FindAllStringSubmatch(string(data), -1) {
		set[normalise(m[1])] = true
		set[normalise(trailing.ReplaceAllString(m[1], ""))] = true
	}
	for _, m := range boldLead.FindAllStringSubmatch(string(data), -1) {
		set[normalise(m[1])] = true
	}
	return set
}

// normalise makes section names comparable: no Markdown code or emphasis
// marks, no trailing punctuation, one space between words, lower case.
func normalise(s string) string {
	s = strings.NewReplacer("`", "", "*", "", "\\|", "|").Replace(s)
	s = strings.Join(strings.Fields(s), " ")
	s = strings.TrimRight(s, ".:;,")
	return strings.ToLower(s)
}

// collect gathers the texts to check: the comments of every Go file, every
// Markdown file, and the ref and description strings of the parser
// fixtures. Third-party trees (node_modules) and the fuzz corpora
// (testdata/fuzz) are skipped.
func collect(t *testing.T, root string) []source {
	var out []source
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			switch {
			case d.Name() == ".git", d.Name() == "node_modules":
				return filepath.SkipDir
			case d.Name() == "fuzz" && filepath.Base(filepath.Dir(path)) == "testdata":
				return filepath.SkipDir // fuzz corpora
			}
			if rel == filepath.Join("internal", "doccheck") {
				return filepath.SkipDir // its comments show the citation form
			}
			return nil
		}
		switch {
		case strings.HasSuffix(path, ".go"):
			out = append(out, goComments(t, path, rel)...)
		case strings.HasSuffix(path, ".md"):
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for i, line := range strings.Split(string(data), "\n") {
				out = append(out, source{rel, i + 1, line})
			}
		case strings.HasSuffix(path, ".json") && strings.HasPrefix(filepath.ToSlash(rel), "parsers/testdata/"):
			out = append(out, fixtureStrings(t, path, rel)...)
		}
		return nil
	})
	require.NoError(t, err)
	return out
}

// goComments returns each comment group of a Go file as one text, the
// comment markers removed and its lines joined, so a citation may wrap.
func goComments(t *testing.T, path, rel string) []source {
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	fset := token.NewFileSet()
	file := fset.AddFile(path, -1, len(src))
	var s scanner.Scanner
	s.Init(file, src, nil, scanner.ScanComments)
	var out []source
	var cur *source
	lastLine := -1
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok != token.COMMENT {
			lastLine = -1
			continue
		}
		line := fset.Position(pos).Line
		text := strings.TrimPrefix(strings.TrimPrefix(lit, "//"), "/*")
		text = strings.TrimSuffix(text, "*/")
		if cur != nil && line == lastLine+1 {
			cur.text += " " + strings.TrimSpace(text)
		} else {
			out = append(out, source{rel, line, strings.TrimSpace(text)})
			cur = &out[len(out)-1]
		}
		lastLine = line + strings.Count(lit, "\n")
	}
	// A bare section sign outside comments (a string literal) counts too.
	if strings.Contains(string(src), "\u00a7") {
		for i, l := range strings.Split(string(src), "\n") {
			if strings.Contains(l, "\u00a7") {
				out = append(out, source{rel, i + 1, l})
			}
		}
	}
	return out
}

// fixtureStrings returns the ref and description strings of a fixture
// file (wherever they occur in it).
func fixtureStrings(t *testing.T, path, rel string) []source {
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var v any
	require.NoError(t, json.Unmarshal(data, &v), "%s", rel)
	var out []source
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				if s, ok := e.(string); ok && (k == "ref" || k == "description") {
					out = append(out, source{rel, 0, s})
				}
				walk(e)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(v)
	return out
}

// repoRoot is the directory holding go.work, above the test's directory.
func repoRoot(t *testing.T) string {
	dir, err := os.Getwd()
	require.NoError(t, err)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("no go.work above the test directory: not run from a repository checkout")
		}
		dir = parent
	}
}

func excerpt(s string, i int) string {
	lo, hi := max(0, i-30), min(len(s), i+30)
	return s[lo:hi]
}
