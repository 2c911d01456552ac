package testserver

import (
	"go/ast"
	"go/token"
	"path/filepath"
	"testing"
)

// startsServer are this package's calls that start the shared server of a
// test binary (Own, OwnServer, Fresh and Twins call URI first).
var startsServer = map[string]bool{"URI": true, "Own": true, "OwnServer": true, "Fresh": true, "Twins": true}

// TestEveryServerPackageStopsItsServer: a package whose tests start the
// shared server has a TestMain that runs testserver.Main, which stops it.
// Without one, each `go test` of the package left a server running: three
// packages did (history, insights, recording), found idle beside a
// capacity measurement. The oracle is the sources, parsed.
func TestEveryServerPackageStopsItsServer(t *testing.T) {
	root := repoRoot(t)
	uses, stops := map[string]string{}, map[string]bool{}
	eachTestFile(t, root, func(fset *token.FileSet, dir string, f *ast.File) {
		ast.Inspect(f, func(n ast.Node) bool {
			if name := serverCall(n); startsServer[name] && uses[dir] == "" {
				uses[dir] = filepath.Base(fset.File(f.Pos()).Name()) + ": testserver." + name
			}
			return true
		})
		for _, decl := range f.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok && fn.Name.Name == "TestMain" && fn.Recv == nil && fn.Body != nil {
				ast.Inspect(fn.Body, func(n ast.Node) bool {
					stops[dir] = stops[dir] || serverCall(n) == "Main"
					return true
				})
			}
		}
	})
	if len(uses) < 5 {
		t.Fatalf("only %d packages start a test server (%v): the walk missed them", len(uses), uses)
	}
	for dir, where := range uses {
		if !stops[dir] {
			t.Errorf("%s starts the test server (%s) but has no TestMain running testserver.Main: each go test leaves it running", dir, where)
		}
	}
}

// serverCall is X when n is testserver.X, "" otherwise.
func serverCall(n ast.Node) string {
	sel, ok := n.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	if id, ok := sel.X.(*ast.Ident); ok && id.Name == "testserver" {
		return sel.Sel.Name
	}
	return ""
}
