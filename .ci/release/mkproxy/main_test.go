package main

import (
	"archive/zip"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// repo makes a git repository with a root module and a nested module, and
// tags the nested one sub/v0.1.0 and the root v0.1.0.
func repo(t *testing.T, rootMod string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":     rootMod,
		"a.go":       "package m\n",
		"sub/go.mod": "module example.com/m/sub\n\ngo 1.24\n",
		"sub/s.go":   "package sub\n",
	}
	for name, text := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"init", "-q"}, {"add", "."},
		{"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "x"},
		{"tag", "v0.1.0"}, {"tag", "sub/v0.1.0"},
	} {
		if _, err := git(dir, args...); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestWrite(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	r := repo(t, "module example.com/m\n\ngo 1.24\n\nrequire example.com/m/sub v0.1.0\n")
	out := t.TempDir()
	for _, arg := range []string{"example.com/m=.@v0.1.0", "example.com/m/sub=sub@sub/v0.1.0"} {
		if err := write(r, out, arg); err != nil {
			t.Fatalf("%s: %v", arg, err)
		}
	}
	for _, c := range []struct{ mod, version string }{{"example.com/m", "v0.1.0"}, {"example.com/m/sub", "v0.1.0"}} {
		dir := filepath.Join(out, filepath.FromSlash(c.mod), "@v")
		list, err := os.ReadFile(filepath.Join(dir, "list"))
		if err != nil || string(list) != c.version+"\n" {
			t.Errorf("%s list = %q, %v", c.mod, list, err)
		}
		for _, ext := range []string{".info", ".mod"} {
			if _, err := os.Stat(filepath.Join(dir, c.version+ext)); err != nil {
				t.Error(err)
			}
		}
		z, err := zip.OpenReader(filepath.Join(dir, c.version+".zip"))
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, f := range z.File {
			names = append(names, strings.TrimPrefix(f.Name, c.mod+"@"+c.version+"/"))
		}
		z.Close()
		sort.Strings(names)
		want := []string{"a.go", "go.mod"} // the nested module's files are not the root's
		if c.mod == "example.com/m/sub" {
			want = []string{"go.mod", "s.go"}
		}
		if diff := cmp.Diff(want, names); diff != "" {
			t.Errorf("%s zip (-want +got):\n%s", c.mod, diff)
		}
	}
}

func TestWriteRefusesReplace(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	r := repo(t, "module example.com/m\n\ngo 1.24\n\nrequire example.com/m/sub v0.0.0\n\nreplace example.com/m/sub => ./sub\n")
	err := write(r, t.TempDir(), "example.com/m=.@v0.1.0")
	if err == nil || !strings.Contains(err.Error(), "replace") {
		t.Errorf("err = %v, want a replace error", err)
	}
}
