package doccheck

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const modulePath = "github.com/agentwire/agentwire"

var (
	backticked = regexp.MustCompile("`([^`\n]+)`")
	goRun      = regexp.MustCompile("go run (\\./[^\\s@`]+)((?:\\s+-[a-z-]+(?:\\s+[^\\s-][^\\s]*)?)*)")
	cdCommand  = regexp.MustCompile(`\bcd ([A-Za-z0-9_./-]+) &&`)
	flagName   = regexp.MustCompile(`\s-([a-z][a-z-]*)`)
	releaseTag = regexp.MustCompile(`/v(\d+|X)\.(\d+|Y)\.(\d+|Z)$`)
)

// TestReadmePromises checks that README.md names only what exists: every
// repository path it puts in backticks (a path whose first element is an
// entry of the repository root, or a path of one of its modules), every
// directory a command changes into, and every `go run ./…` program with
// the flags the command passes it.
func TestReadmePromises(t *testing.T) {
	root := repoRoot(t)
	data, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	readme := string(data)
	exists := func(p string) bool {
		_, err := os.Stat(filepath.Join(root, filepath.FromSlash(p)))
		return err == nil
	}
	checked := 0
	for _, m := range backticked.FindAllStringSubmatch(readme, -1) {
		p := m[1]
		if strings.ContainsAny(p, " <>(){}|*\"'") || strings.Contains(p, "://") || !strings.Contains(p, "/") {
			continue
		}
		switch {
		case p == modulePath || strings.HasPrefix(p, modulePath+"/"):
			p = strings.TrimPrefix(strings.TrimPrefix(p, modulePath), "/")
			if p == "" {
				continue
			}
		case strings.HasPrefix(p, "/"):
			continue
		case releaseTag.MatchString(p):
			continue // a module's release tag (parsers/vX.Y.Z), not a path
		default:
			if first := strings.SplitN(p, "/", 2)[0]; first == "" || !exists(first) {
				continue // not a repository path (the standard library, an engine route)
			}
		}
		checked++
		require.True(t, exists(p), "README.md names `%s`, which is not in the repository", m[1])
	}
	for _, m := range cdCommand.FindAllStringSubmatch(readme, -1) {
		checked++
		require.True(t, exists(m[1]), "README.md: cd %s: no such directory", m[1])
	}
	for _, m := range goRun.FindAllStringSubmatch(readme, -1) {
		checked++
		dir := strings.TrimPrefix(m[1], "./")
		if !exists(dir) {
			t.Errorf("README.md: go run %s: no such program", m[1])
			continue
		}
		src := packageSource(t, filepath.Join(root, dir))
		for _, f := range flagName.FindAllStringSubmatch(m[2], -1) {
			checked++
			require.Contains(t, src, `"`+f[1]+`"`, "README.md: go run %s -%s: the program defines no such flag", m[1], f[1])
		}
	}
	t.Logf("%d promises checked", checked)
	require.GreaterOrEqual(t, checked, 10, "only %d README promises found: the patterns are broken", checked)
}

// packageSource is the text of the non-test Go files in dir.
func packageSource(t *testing.T, dir string) string {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	require.NoError(t, err)
	var b strings.Builder
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		b.Write(data)
	}
	return b.String()
}
