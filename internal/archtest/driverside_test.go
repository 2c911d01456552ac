package archtest

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/mongoload/mongoload/"

// driverCallers are the packages whose driver side internal/mongodb
// implements, behind interfaces they own (loader.Writer and loader.Meta,
// verify.Reader): the driver package must not know them, so that their
// logic stays theirs and internal/mongodb only talks to the driver.
var driverCallers = []string{"internal/loader", "internal/verify", "internal/cli"}

// TestDriverPackageKnowsNoCaller keeps internal/mongodb to driver calls:
// its non-test files import none of the packages it serves. (Its tests may:
// the integration tests of a load run loader.Load against the real server.)
func TestDriverPackageKnowsNoCaller(t *testing.T) {
	bad, checked := importsOf(t, filepath.Join("..", "mongodb"), driverCallers)
	for _, b := range bad {
		t.Error(b)
	}
	if checked < 5 {
		t.Fatalf("only %d files of internal/mongodb checked: the walk missed the package", checked)
	}
}

// TestImportsOfCatches: the check finds a forbidden import in a non-test
// file and passes over the same import in a test file, so the rule above
// can fail.
func TestImportsOfCatches(t *testing.T) {
	dir := t.TempDir()
	write := func(name, imp string) {
		src := "package mongodb\n\nimport _ \"" + imp + "\"\n"
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("ok.go", module+"internal/workload")
	write("store.go", module+"internal/loader")
	write("verify.go", module+"internal/verify/sub")
	write("load_test.go", module+"internal/loader")
	bad, checked := importsOf(t, dir, driverCallers)
	if checked != 3 || len(bad) != 2 || !strings.Contains(bad[0], "store.go") || !strings.Contains(bad[1], "verify.go") {
		t.Fatalf("%d files checked, found %q; want 3 checked and store.go, verify.go", checked, bad)
	}
}

// importsOf lists the non-test .go files of dir that import one of
// forbidden (a package of this module or below it), and counts the files
// it read.
func importsOf(t *testing.T, dir string, forbidden []string) (bad []string, checked int) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			for _, fb := range forbidden {
				if p == module+fb || strings.HasPrefix(p, module+fb+"/") {
					bad = append(bad, filepath.Base(path)+" imports "+p+": internal/mongodb implements the interfaces "+fb+" owns, it does not call it")
				}
			}
		}
	}
	return bad, checked
}
