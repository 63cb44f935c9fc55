// Command apicompat reports, module by module, the API changes between two
// checkouts of the repository (each a workspace with a go.work), with
// golang.org/x/exp/apidiff, and the version each module's next release needs.
//
// Usage:
//
//	apicompat -old DIR -new DIR [-base VERSION] [PATTERN]
//
// PATTERN (default github.com/agentwire/agentwire/...) is loaded in both
// workspaces; packages are grouped by the module that holds them. Commands
// (package main) and internal packages are not API and are skipped. For
// each module it prints the incompatible and the compatible changes and the
// smallest next version after -base that semantic import versioning
// allows: a patch release when nothing changed, a minor release for
// additions, and for removals or changes a minor release under v1 (v0 makes
// no promise) or a new major version (a new module path) from v1 on.
//
// The exit status is 1 when some module has incompatible changes, 2 on a
// usage or load error.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/exp/apidiff"
	"golang.org/x/mod/semver"
	"golang.org/x/tools/go/packages"
)

func main() {
	oldDir := flag.String("old", "", "checkout of the previous release")
	newDir := flag.String("new", ".", "checkout to release")
	base := flag.String("base", "", "the previous release's version (for the suggested next version)")
	flag.Parse()
	pattern := "github.com/agentwire/agentwire/..."
	if flag.NArg() > 0 {
		pattern = flag.Arg(0)
	}
	if *oldDir == "" || (*base != "" && !semver.IsValid(*base)) {
		flag.Usage()
		os.Exit(2)
	}
	broken, err := report(os.Stdout, *oldDir, *newDir, *base, pattern)
	if err != nil {
		fmt.Fprintln(os.Stderr, "apicompat:", err)
		os.Exit(2)
	}
	if broken {
		os.Exit(1)
	}
}

// report writes the per-module report to w and says whether some module
// has incompatible changes.
func report(w io.Writer, oldDir, newDir, base, pattern string) (broken bool, err error) {
	oldMods, err := load(oldDir, pattern)
	if err != nil {
		return false, fmt.Errorf("old: %w", err)
	}
	newMods, err := load(newDir, pattern)
	if err != nil {
		return false, fmt.Errorf("new: %w", err)
	}
	paths := map[string]bool{}
	for p := range oldMods {
		paths[p] = true
	}
	for p := range newMods {
		paths[p] = true
	}
	sorted := make([]string, 0, len(paths))
	for p := range paths {
		sorted = append(sorted, p)
	}
	sort.Strings(sorted)

	for _, p := range sorted {
		o, n := oldMods[p], newMods[p]
		switch {
		case o == nil:
			fmt.Fprintf(w, "== %s: new module (%d packages)\n", p, len(n.Packages))
			continue
		case n == nil:
			fmt.Fprintf(w, "== %s: removed\n", p)
			broken = true
			continue
		}
		r := apidiff.ModuleChanges(o, n)
		var inc, comp []string
		for _, c := range r.Changes {
			if c.Compatible {
				comp = append(comp, c.Message)
			} else {
				inc = append(inc, c.Message)
			}
		}
		fmt.Fprintf(w, "== %s (%d packages): %d incompatible, %d compatible changes%s\n",
			p, len(n.Packages), len(inc), len(comp), next(base, len(inc) > 0, len(comp) > 0))
		for _, m := range inc {
			fmt.Fprintln(w, "   incompatible:", m)
		}
		for _, m := range comp {
			fmt.Fprintln(w, "   compatible:  ", m)
		}
		broken = broken || len(inc) > 0
	}
	return broken, nil
}

// next names the smallest version after base the changes allow.
func next(base string, incompatible, compatible bool) string {
	if base == "" {
		return ""
	}
	var major, minor, patch int
	fmt.Sscanf(semver.Canonical(base), "v%d.%d.%d", &major, &minor, &patch)
	switch {
	case incompatible && major >= 1:
		return fmt.Sprintf("; next: v%d.0.0 (a new major version: the module path gains /v%d)", major+1, major+1)
	case incompatible || compatible:
		return fmt.Sprintf("; next: v%d.%d.0", major, minor+1)
	default:
		return fmt.Sprintf("; next: v%d.%d.%d", major, minor, patch+1)
	}
}

// load type-checks the packages matching pattern in the workspace at dir and
// groups the API packages by module.
func load(dir, pattern string) (map[string]*apidiff.Module, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedTypes | packages.NeedModule,
		Dir:  abs,
		// This command runs with GOWORK=off; the checkouts are workspaces.
		Env: append(os.Environ(), "GOWORK="+filepath.Join(abs, "go.work")),
	}
	pkgs, err := packages.Load(cfg, pattern)
	if err != nil {
		return nil, err
	}
	mods := map[string]*apidiff.Module{}
	var errs []string
	for _, p := range pkgs {
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
		if p.Name == "main" || isInternal(p.PkgPath) || p.Module == nil || p.Types == nil {
			continue
		}
		m := mods[p.Module.Path]
		if m == nil {
			m = &apidiff.Module{Path: p.Module.Path}
			mods[p.Module.Path] = m
		}
		m.Packages = append(m.Packages, p.Types)
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	if len(mods) == 0 {
		return nil, fmt.Errorf("no packages match %s in %s", pattern, abs)
	}
	for _, m := range mods {
		sort.Slice(m.Packages, func(i, j int) bool { return m.Packages[i].Path() < m.Packages[j].Path() })
	}
	return mods, nil
}

func isInternal(path string) bool {
	return strings.HasSuffix(path, "/internal") || strings.Contains(path, "/internal/")
}
