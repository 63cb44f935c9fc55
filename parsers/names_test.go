package parsers

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
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
//     therefore only ever comes from a registry name or those suffixes.
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
