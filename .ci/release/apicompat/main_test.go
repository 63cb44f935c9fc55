package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// workspace writes a workspace at dir with the module example.com/m (files
// given relative to the module) and returns dir.
func workspace(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	all := map[string]string{
		"go.work":  "go 1.24\n\nuse ./m\n",
		"m/go.mod": "module example.com/m\n\ngo 1.24\n",
	}
	for name, text := range files {
		all["m/"+name] = text
	}
	for name, text := range all {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestReport(t *testing.T) {
	old := workspace(t, map[string]string{
		"p/p.go":           "package p\n\nfunc F() {}\n\nfunc G(int) {}\n",
		"internal/i/i.go":  "package i\n\nfunc Gone() {}\n",
		"cmd/tool/main.go": "package main\n\nfunc Gone() {}\n\nfunc main() {}\n",
		"q/q.go":           "package q\n\nconst C = 1\n",
	})
	for _, tc := range []struct {
		name   string
		files  map[string]string
		broken bool
		want   []string
	}{
		{"same", map[string]string{
			"p/p.go": "package p\n\nfunc F() {}\n\nfunc G(int) {}\n",
			"q/q.go": "package q\n\nconst C = 1\n",
		}, false, []string{"0 incompatible, 0 compatible changes; next: v0.1.1"}},
		{"added", map[string]string{
			"p/p.go": "package p\n\nfunc F() {}\n\nfunc G(int) {}\n\nfunc H() {}\n",
			"q/q.go": "package q\n\nconst C = 1\n",
		}, false, []string{"0 incompatible, 1 compatible changes; next: v0.2.0", "H: added"}},
		{"changed and removed", map[string]string{
			"p/p.go": "package p\n\nfunc G(string) {}\n",
			"q/q.go": "package q\n\nconst C = 1\n",
		}, true, []string{"2 incompatible", "F: removed", "G: changed from func(int) to func(string)", "next: v0.2.0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			broken, err := report(&out, old, workspace(t, tc.files), "v0.1.0", "example.com/m/...")
			if err != nil {
				t.Fatal(err)
			}
			if broken != tc.broken {
				t.Errorf("broken = %v, want %v", broken, tc.broken)
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("report lacks %q:\n%s", w, out.String())
				}
			}
			if strings.Contains(out.String(), "Gone") {
				t.Errorf("internal packages and commands are not API:\n%s", out.String())
			}
		})
	}
}

func TestNext(t *testing.T) {
	for _, tc := range []struct {
		base        string
		inc, compat bool
		want        string
	}{
		{"v0.1.0", false, false, "v0.1.1"},
		{"v0.1.3", false, true, "v0.2.0"},
		{"v0.1.3", true, true, "v0.2.0"},
		{"v1.2.3", false, true, "v1.3.0"},
		{"v1.2.3", true, false, "v2.0.0"},
	} {
		if got := next(tc.base, tc.inc, tc.compat); !strings.Contains(got, tc.want) {
			t.Errorf("next(%s, %v, %v) = %q, want %s", tc.base, tc.inc, tc.compat, got, tc.want)
		}
	}
}
