package testserver

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestTimingList: make test's second pass runs exactly the tests that call
// Timing (which skip under the race detector in the first pass): each of
// them, from its package, and no other test of those packages. The oracle
// is the sources, parsed; the list checked is the command make runs.
func TestTimingList(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make on this machine: nothing runs the Makefile's list")
	}
	root := repoRoot(t)
	timing, others := timingTests(t, root)
	pattern, pkgs := timingPass(t, root)
	for pkg, names := range timing {
		if !slices.Contains(pkgs, pkg) {
			t.Errorf("%s has timing tests %v, but make test's second pass does not run ./%s", pkg, names, pkg)
		}
		for _, name := range names {
			if !pattern.MatchString(name) {
				t.Errorf("%s.%s calls testserver.Timing, but make test's -run pattern %q leaves it out: it would never run", pkg, name, pattern)
			}
		}
	}
	for _, pkg := range pkgs {
		if len(timing[pkg]) == 0 {
			t.Errorf("make test's second pass runs ./%s, which has no timing test", pkg)
		}
		for _, name := range others[pkg] {
			if pattern.MatchString(name) {
				t.Errorf("%s.%s does not call testserver.Timing, but make test's second pass runs it again", pkg, name)
			}
		}
	}
}

// repoRoot is the directory holding scripts/testserver.
func repoRoot(t *testing.T) string {
	script, err := Script()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Dir(filepath.Dir(script))
}

// timingTests parses every test file under root and returns, by package
// directory, the Test functions that call testserver.Timing and those that
// do not. A call anywhere else (a helper) is an error: the list names tests.
func timingTests(t *testing.T, root string) (timing, others map[string][]string) {
	timing, others = map[string][]string{}, map[string][]string{}
	eachTestFile(t, root, func(fset *token.FileSet, rel string, f *ast.File) {
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			isTest := fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Test") && fn.Name.Name != "TestMain"
			calls := callsTiming(fn.Body, f.Name.Name == "testserver")
			switch {
			case calls && !isTest:
				t.Errorf("%s: %s calls testserver.Timing; call it in the Test function itself, so that make test's list can name it", fset.Position(fn.Pos()), fn.Name.Name)
			case calls:
				timing[rel] = append(timing[rel], fn.Name.Name)
			case isTest:
				others[rel] = append(others[rel], fn.Name.Name)
			}
		}
	})
	if len(timing) == 0 {
		t.Fatal("no test calls testserver.Timing: the parser is looking in the wrong place")
	}
	return timing, others
}

// eachTestFile parses every _test.go file under root (.git and testdata
// left out) and hands it to visit with its package directory, relative to
// root.
func eachTestFile(t *testing.T, root string, visit func(fset *token.FileSet, rel string, f *ast.File)) {
	t.Helper()
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata"):
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(path, "_test.go"):
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		visit(fset, rel, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// callsTiming reports whether body calls testserver.Timing (or Timing
// itself, inside this package).
func callsTiming(body *ast.BlockStmt, inside bool) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return !found
		}
		switch fun := call.Fun.(type) {
		case *ast.SelectorExpr:
			if x, ok := fun.X.(*ast.Ident); ok && x.Name == "testserver" && fun.Sel.Name == "Timing" {
				found = true
			}
		case *ast.Ident:
			found = found || inside && fun.Name == "Timing"
		}
		return !found
	})
	return found
}

// timingPass returns the -run pattern and the package directories of make
// test's second pass, as make expands them.
func timingPass(t *testing.T, root string) (*regexp.Regexp, []string) {
	cmd := exec.Command("make", "-n", "test")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "MONGOLOAD_SKIP_BROWSER=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("make -n test: %v", err)
	}
	m := regexp.MustCompile(`go test -count=1 (?:-timeout \S+ )?-p 1 -run "([^"]+)" ([^']+)'`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("no timing pass (go test -count=1 -p 1 -run \"...\" PKGS) in make -n test:\n%s", out)
	}
	pattern, err := regexp.Compile(string(m[1]))
	if err != nil {
		t.Fatalf("make test's -run pattern: %v", err)
	}
	var pkgs []string
	for _, p := range strings.Fields(string(m[2])) {
		pkgs = append(pkgs, filepath.Clean(p))
	}
	return pattern, pkgs
}
