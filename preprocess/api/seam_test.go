package api_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The seam holds only if nothing outside this package decides by the API.
// These patterns find a decision on an API value (a comparison, a switch
// case, a comparison of its name, a switch on a request's API) and a type
// assertion on a concrete emitter (the emitters are used through
// protocols.Emitter only).
var (
	apiDecision = regexp.MustCompile(`[=!]=\s*api\.(Chat|Completions|Messages|Responses)\b` +
		`|\bapi\.(Chat|Completions|Messages|Responses)\s*[=!]=` +
		`|\bcase\s+api\.(Chat|Completions|Messages|Responses)\b` +
		`|\.String\(\)\s*[=!]=\s*"(chat|completions|messages|responses)"` +
		`|\bswitch\b[^{]*\bAPI\b(\(\))?\s*\{`)
	emitterAssertion = regexp.MustCompile(`\.\(\*?(\w+\.)?(Emitter|CompletionEmitter|Aggregator)\)` +
		`|\bcase\s+\*?(\w+\.)?(Emitter|CompletionEmitter|Aggregator)\b`)
)

// TestPatterns: the patterns find what they are for, and not the seam's
// ordinary uses.
func TestPatterns(t *testing.T) {
	for _, bad := range []string{
		`if prep.API == api.Messages {`, `if api.Completions != a {`, `	case api.Responses:`,
		`if a.String() == "chat" {`, `switch prep.API {`, `switch req.Body.API() {`,
	} {
		require.True(t, apiDecision.MatchString(bad), "apiDecision misses %q", bad)
	}
	for _, bad := range []string{`m, ok := c.em.(*anthropic.Emitter)`, `	case *openai.Emitter:`, `e := em.(*Aggregator)`} {
		require.True(t, emitterAssertion.MatchString(bad), "emitterAssertion misses %q", bad)
	}
	for _, good := range []string{
		`s.mux.Handle("POST /v1/messages/count_tokens", s.handle(routeCountTokens, api.Messages, s.countTokens))`,
		`x.api = api.Messages`, `if !prep.API.RawText() {`, `var _ protocols.Emitter = (*Emitter)(nil)`,
		`switch ev.Kind {`, `return p.choices[0].em.FailError(dst, protocols.ErrorOf(err))`,
	} {
		require.False(t, apiDecision.MatchString(good), "a pattern matches %q", good)
		require.False(t, emitterAssertion.MatchString(good), "a pattern matches %q", good)
	}
}

// TestOneSeam: no Go file outside this package decides by the API, and no
// Go file of any module type-asserts a concrete emitter.
func TestOneSeam(t *testing.T) {
	root := filepath.Join("..", "..")
	seam, err := filepath.Abs(".")
	require.NoError(t, err)
	files := 0
	var bad []string // every offending line, reported at once
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "testdata", "node_modules", "jinja": // jinja: the vendored template engine
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		abs, err := filepath.Abs(path)
		if err != nil {
			return err
		}
		inSeam := filepath.Dir(abs) == seam
		files++
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for n := 1; sc.Scan(); n++ {
			line := sc.Text()
			if strings.HasPrefix(strings.TrimSpace(line), "//") {
				continue
			}
			if !inSeam && apiDecision.MatchString(line) {
				bad = append(bad, fmt.Sprintf("%s:%d decides by the API outside package api: %s", path, n, strings.TrimSpace(line)))
			}
			if emitterAssertion.MatchString(line) {
				bad = append(bad, fmt.Sprintf("%s:%d type-asserts a concrete emitter: %s", path, n, strings.TrimSpace(line)))
			}
		}
		return sc.Err()
	})
	require.NoError(t, err)
	require.Empty(t, bad)
	require.GreaterOrEqual(t, files, 200, "scanned only %d files: is the repository root %s?", files, root)
}
