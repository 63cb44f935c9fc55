package parsers

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNames holds the module's Go code (tests and the parserstest and
// internal packages included) to one naming rule:
//
//   - no identifier declared here contains an underscore, except the
//     Example functions whose form go test prescribes (ExampleT_M,
//     Example_suffix);
//   - nothing is named new (it would shadow the builtin);
//   - a file is named after what it holds, in lower case: a grammar file
//     by the canonical registry name of its grammar (kimi_k2.go,
//     llama3_json.go), any other file by its words run together as a Go
//     package name would be (jsonscan.go, tagcalls.go); tests add _test and
//     benchmarks _timing_test to that name. An underscore in a file name
//     therefore only ever comes from a registry name or those suffixes;
//   - in this directory, tests, fuzz targets and benchmarks live beside what
//     they test: <x>_test.go and <x>_timing_test.go name an existing <x>.go
//     (FuzzGLM47 in glm47_test.go), or are one of sharedTestFiles;
//     benchmarks are in _timing_test files, and tests and fuzz targets are
//     not.
func TestNames(t *testing.T) {
	registered := map[string]bool{}
	for _, n := range ToolParsers() {
		info, _ := ToolParser(n)
		registered[info.Grammar] = true
	}
	for _, n := range ReasoningParsers() {
		info, _ := ReasoningParser(n)
		registered[info.Grammar] = true
	}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		stem := strings.TrimSuffix(d.Name(), ".go")
		stem = strings.TrimSuffix(stem, "_test")
		stem = strings.TrimSuffix(stem, "_timing")
		if stem != strings.ToLower(stem) || (strings.Contains(stem, "_") && !registered[stem]) {
			t.Errorf("%s: a file name is lower case, with an underscore only inside a registered grammar name "+
				"or before the _test / _timing_test suffix", path)
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		if filepath.Dir(path) == "." && strings.HasSuffix(d.Name(), "_test.go") {
			checkTestFile(t, path, stem, f)
		}
		for _, id := range declaredIdents(f) {
			switch {
			case id.Name == "new":
				t.Errorf("%s: %q shadows the builtin", fset.Position(id.Pos()), id.Name)
			case id.Name != "_" && strings.Contains(id.Name, "_") && !strings.HasPrefix(id.Name, "Example"):
				t.Errorf("%s: identifier %s has an underscore", fset.Position(id.Pos()), id.Name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// sharedTestFiles are the test files of this directory that hold what no
// single source file owns, by the stem of their name.
var sharedTestFiles = map[string]string{
	"alloc":      "the allocation promise and the helpers every grammar's allocation test uses",
	"cases":      "fixture coverage of the case taxonomy and PARSER_CASES.md's generated tables",
	"enums":      "String() on every state enum",
	"example":    "the package's runnable examples",
	"export":     "internals handed to the external test package",
	"fuzz":       "the helpers every parser fuzz target uses",
	"invariants": "the fixture suite, through parserstest",
	"names":      "this naming rule",
	"race":       "whether the test binary runs under the race detector",
	"norace":     "whether the test binary runs under the race detector",
	"robustness": "hostile input against every tool parser",
	"parsers":    "the package's Feed and Parse benchmarks and the helpers every benchmark uses",
}

// checkTestFile holds one test file of this directory (named stem plus
// _test.go or _timing_test.go) to the rule of TestNames: it names an
// existing source file or a shared test file, and only _timing_test files
// hold benchmarks.
func checkTestFile(t *testing.T, path, stem string, f *ast.File) {
	t.Helper()
	if _, shared := sharedTestFiles[stem]; !shared {
		if _, err := os.Stat(stem + ".go"); err != nil {
			t.Errorf("%s: names no source file (%s.go) and is not a shared test file (sharedTestFiles): "+
				"tests, fuzz targets and benchmarks live beside what they test", path, stem)
		}
	}
	timing := strings.HasSuffix(path, "_timing_test.go")
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Recv != nil {
			continue
		}
		switch bench := strings.HasPrefix(fn.Name.Name, "Benchmark"); {
		case bench && !timing:
			t.Errorf("%s: %s belongs in %s_timing_test.go", path, fn.Name.Name, stem)
		case timing && (strings.HasPrefix(fn.Name.Name, "Test") || strings.HasPrefix(fn.Name.Name, "Fuzz")):
			t.Errorf("%s: %s belongs in %s_test.go", path, fn.Name.Name, stem)
		}
	}
}

// declaredIdents returns the identifiers f declares: functions, methods,
// types, constants, variables, struct fields, parameters and results,
// short variable declarations, range variables and labels.
func declaredIdents(f *ast.File) []*ast.Ident {
	var ids []*ast.Ident
	fields := func(l *ast.FieldList) {
		if l == nil {
			return
		}
		for _, fld := range l.List {
			ids = append(ids, fld.Names...)
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			ids = append(ids, n.Name)
			fields(n.Recv)
		case *ast.FuncType:
			fields(n.TypeParams)
			fields(n.Params)
			fields(n.Results)
		case *ast.TypeSpec:
			ids = append(ids, n.Name)
		case *ast.ValueSpec:
			ids = append(ids, n.Names...)
		case *ast.StructType:
			fields(n.Fields)
		case *ast.InterfaceType:
			fields(n.Methods)
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, e := range n.Lhs {
					if id, ok := e.(*ast.Ident); ok {
						ids = append(ids, id)
					}
				}
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if id, ok := e.(*ast.Ident); ok {
						ids = append(ids, id)
					}
				}
			}
		case *ast.LabeledStmt:
			ids = append(ids, n.Label)
		}
		return true
	})
	return ids
}
