// Command mkproxy writes a file-system Go module proxy (the GOPROXY
// protocol's layout: <module>/@v/list, <version>.info, .mod and .zip) for
// modules of a local git repository at tags, so that a consumer can fetch
// them with GOPROXY=file://DIR exactly as it would from a real proxy.
//
// Usage:
//
//	mkproxy -repo DIR -out DIR PATH=SUBDIR@TAG...
//
// Each argument names a module path, its directory in the repository ("."
// for the root) and the git tag whose tree becomes that version; the version
// is the tag without its directory prefix (parsers/v0.1.0 → v0.1.0). The
// zip is made from the tag's tree with golang.org/x/mod/zip.CreateFromVCS,
// the way the go command makes it from a repository: files of nested
// modules and vendor directories are left out, and a zip that breaks the
// module zip rules is an error.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
	modzip "golang.org/x/mod/zip"
)

func main() {
	repo := flag.String("repo", "", "git repository (a work tree, not a bare repository)")
	out := flag.String("out", "", "proxy directory to write")
	flag.Parse()
	if *repo == "" || *out == "" || flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	root, err := filepath.Abs(*repo)
	if err != nil {
		log.Fatal(err)
	}
	for _, arg := range flag.Args() {
		if err := write(root, *out, arg); err != nil {
			log.Fatalf("mkproxy: %s: %v", arg, err)
		}
	}
}

// write adds one module version, given as PATH=SUBDIR@TAG, to the proxy.
func write(repo, out, arg string) error {
	modPath, rest, ok := strings.Cut(arg, "=")
	subdir, tag, ok2 := strings.Cut(rest, "@")
	if !ok || !ok2 {
		return fmt.Errorf("want PATH=SUBDIR@TAG")
	}
	subdir = path.Clean(subdir)
	version := path.Base(tag)
	if subdir == "." {
		subdir = ""
		version = tag
	} else if tag != subdir+"/"+version {
		return fmt.Errorf("tag %s is not %s/<version>", tag, subdir)
	}
	if !semver.IsValid(version) {
		return fmt.Errorf("%s is not a semantic version", version)
	}
	m := module.Version{Path: modPath, Version: version}
	if err := module.Check(m.Path, m.Version); err != nil {
		return err
	}

	gomodPath := "go.mod"
	if subdir != "" {
		gomodPath = subdir + "/go.mod"
	}
	gomod, err := git(repo, "show", tag+":"+gomodPath)
	if err != nil {
		return err
	}
	f, err := modfile.Parse(gomodPath, gomod, nil)
	if err != nil {
		return err
	}
	if f.Module == nil || f.Module.Mod.Path != modPath {
		return fmt.Errorf("%s at %s declares another module", gomodPath, tag)
	}
	if len(f.Replace) > 0 {
		// The go command refuses `go install`/`go run pkg@version` of a
		// module whose go.mod replaces anything.
		return fmt.Errorf("%s at %s has replace directives", gomodPath, tag)
	}
	ts, err := git(repo, "log", "-1", "--format=%cI", tag)
	if err != nil {
		return err
	}
	when, err := time.Parse(time.RFC3339, strings.TrimSpace(string(ts)))
	if err != nil {
		return err
	}

	esc, err := module.EscapePath(modPath)
	if err != nil {
		return err
	}
	dir := filepath.Join(out, filepath.FromSlash(esc), "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var zip bytes.Buffer
	if err := modzip.CreateFromVCS(&zip, m, repo, tag, subdir); err != nil {
		return err
	}
	info, _ := json.Marshal(struct {
		Version string
		Time    time.Time
	}{version, when.UTC()})
	for name, data := range map[string][]byte{
		version + ".info": info,
		version + ".mod":  gomod,
		version + ".zip":  zip.Bytes(),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return addToList(filepath.Join(dir, "list"), version)
}

// addToList adds version to the proxy's version list, once.
func addToList(list, version string) error {
	data, err := os.ReadFile(list)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	for _, v := range strings.Fields(string(data)) {
		if v == version {
			return nil
		}
	}
	return os.WriteFile(list, append(data, version+"\n"...), 0o644)
}

func git(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, bytes.TrimSpace(stderr.Bytes()))
	}
	return b, nil
}
