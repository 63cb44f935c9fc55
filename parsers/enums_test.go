package parsers

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// enumStrings renders a value of each small enum of the package (a defined
// uint8 type whose constants are declared with iota). TestEnumNames proves
// from the package source that the table lists every such type.
var enumStrings = map[string]func(uint8) string{
	"EventKind":    func(v uint8) string { return EventKind(v).String() },
	"action":       func(v uint8) string { return action(v).String() },
	"blockStatus":  func(v uint8) string { return blockStatus(v).String() },
	"coState":      func(v uint8) string { return coState(v).String() },
	"convRule":     func(v uint8) string { return convRule(v).String() },
	"dotsState":    func(v uint8) string { return dotsState(v).String() },
	"glmState":     func(v uint8) string { return glmState(v).String() },
	"gmState":      func(v uint8) string { return gmState(v).String() },
	"harmonyState": func(v uint8) string { return harmonyState(v).String() },
	"inklingState": func(v uint8) string { return inklingState(v).String() },
	"jcResult":     func(v uint8) string { return jcResult(v).String() },
	"jcState":      func(v uint8) string { return jcState(v).String() },
	"k3State":      func(v uint8) string { return k3State(v).String() },
	"keyKind":      func(v uint8) string { return keyKind(v).String() },
	"l3State":      func(v uint8) string { return l3State(v).String() },
	"m3State":      func(v uint8) string { return m3State(v).String() },
	"mgHdr":        func(v uint8) string { return mgHdr(v).String() },
	"mgState":      func(v uint8) string { return mgState(v).String() },
	"mode":         func(v uint8) string { return mode(v).String() },
	"msState":      func(v uint8) string { return msState(v).String() },
	"phState":      func(v uint8) string { return phState(v).String() },
	"pvState":      func(v uint8) string { return pvState(v).String() },
	"pyState":      func(v uint8) string { return pyState(v).String() },
	"scState":      func(v uint8) string { return scState(v).String() },
	"scanResult":   func(v uint8) string { return scanResult(v).String() },
	"scanState":    func(v uint8) string { return scanState(v).String() },
	"soState":      func(v uint8) string { return soState(v).String() },
	"secStyle":     func(v uint8) string { return secStyle(v).String() },
	"step":         func(v uint8) string { return step(v).String() },
	"tcState":      func(v uint8) string { return tcState(v).String() },
	"NameKind":     func(v uint8) string { return NameKind(v).String() },
	"peer":         func(v uint8) string { return peer(v).String() },
	"trimRule":     func(v uint8) string { return trimRule(v).String() },
	"typeSet":      func(v uint8) string { return typeSet(v).String() },
}

// TestEnumNames checks that every declared value of every small enum has a
// name of its own: String never falls back to the "type(n)" form for a
// declared constant, and no two constants of a type share a name.
func TestEnumNames(t *testing.T) {
	enums := enumConstants(t)
	for typ := range enumStrings {
		if _, ok := enums[typ]; !ok {
			t.Errorf("enumStrings lists %s, which is not a uint8 enum of the package", typ)
		}
	}
	for typ, values := range enums {
		str, ok := enumStrings[typ]
		if !ok {
			t.Errorf("uint8 enum %s is missing from enumStrings (give it a String method and list it)", typ)
			continue
		}
		seen := map[string]string{}
		for name, v := range values {
			s := str(v)
			if s == "" || strings.HasPrefix(s, typ+"(") {
				t.Errorf("%s(%d) (%s) has no name: String() = %q", typ, v, name, s)
			}
			if other, dup := seen[s]; dup {
				t.Errorf("%s: %s and %s both print as %q", typ, other, name, s)
			}
			seen[s] = name
		}
	}
}

// enumConstants parses the package's non-test files and returns, for each
// defined uint8 type that has constants, the value of every constant by
// name. It understands the forms the package uses (iota, iota + K,
// 1 << iota, and implicit repetition) and fails on any other, so that a new
// form is noticed rather than skipped.
func enumConstants(t *testing.T) map[string]map[string]uint8 {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	uint8Types := map[string]bool{}
	var decls []*ast.GenDecl
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		file, err := parser.ParseFile(fset, f, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			switch gd.Tok {
			case token.TYPE:
				for _, s := range gd.Specs {
					ts := s.(*ast.TypeSpec)
					if id, ok := ts.Type.(*ast.Ident); ok && (id.Name == "uint8" || id.Name == "byte") {
						uint8Types[ts.Name.Name] = true
					}
				}
			case token.CONST:
				decls = append(decls, gd)
			}
		}
	}
	enums := map[string]map[string]uint8{}
	for _, gd := range decls {
		var typ string
		var expr ast.Expr
		for iota, s := range gd.Specs {
			vs := s.(*ast.ValueSpec)
			if vs.Values != nil {
				typ, expr = "", vs.Values[0]
				if id, ok := vs.Type.(*ast.Ident); ok {
					typ = id.Name
				}
			}
			if !uint8Types[typ] {
				continue
			}
			v, ok := iotaValue(expr, iota)
			if !ok {
				t.Fatalf("%s: constant %s of %s: value form not understood; extend iotaValue",
					fset.Position(vs.Pos()), vs.Names[0].Name, typ)
			}
			if enums[typ] == nil {
				enums[typ] = map[string]uint8{}
			}
			for _, n := range vs.Names {
				if n.Name != "_" {
					enums[typ][n.Name] = v
				}
			}
		}
	}
	return enums
}

// iotaValue evaluates iota, iota + K, K + iota and 1 << iota.
func iotaValue(e ast.Expr, iota int) (uint8, bool) {
	switch e := e.(type) {
	case *ast.Ident:
		if e.Name == "iota" {
			return uint8(iota), true
		}
	case *ast.BinaryExpr:
		lit, id := e.X, e.Y
		if _, isID := e.X.(*ast.Ident); isID {
			lit, id = e.Y, e.X
		}
		bl, ok1 := lit.(*ast.BasicLit)
		idn, ok2 := id.(*ast.Ident)
		if !ok1 || !ok2 || idn.Name != "iota" {
			return 0, false
		}
		k, err := strconv.Atoi(bl.Value)
		if err != nil {
			return 0, false
		}
		switch {
		case e.Op == token.ADD:
			return uint8(iota + k), true
		case e.Op == token.SHL && k == 1 && e.X == lit:
			return uint8(1 << iota), true
		}
	}
	return 0, false
}
