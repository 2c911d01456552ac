package archtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// driverCallers are the packages whose driver side internal/mongodb
// implements, behind interfaces they own (loader.Writer and loader.Meta,
// verify.Reader): the driver package must not know them, so that their
// logic stays theirs and internal/mongodb only talks to the driver.
var driverCallers = []string{"internal/loader", "internal/verify", "internal/cli"}

// TestDriverPackageKnowsNoCaller keeps internal/mongodb to driver calls:
// its non-test files import none of the packages it serves. (Its tests may:
// the integration tests of a load run loader.Load against the real server.)
func TestDriverPackageKnowsNoCaller(t *testing.T) {
	var mongodb []goFile
	for _, f := range tree(t) {
		if f.dir() == "internal/mongodb" {
			mongodb = append(mongodb, f)
		}
	}
	bad, checked := callersImported(mongodb)
	for _, b := range bad {
		t.Error(b)
	}
	if checked < 5 {
		t.Fatalf("only %d files of internal/mongodb checked: the walk missed the package", checked)
	}
}

// TestCallersImportedCatches: the check finds a forbidden import in a
// non-test file and passes over the same import in a test file, so the
// rule above can fail.
func TestCallersImportedCatches(t *testing.T) {
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
	bad, checked := callersImported(readTree(t, dir))
	if checked != 3 || len(bad) != 2 || !strings.Contains(bad[0], "store.go") || !strings.Contains(bad[1], "verify.go") {
		t.Fatalf("%d files checked, found %q; want 3 checked and store.go, verify.go", checked, bad)
	}
}

// callersImported lists the non-test files of files that import one of
// driverCallers (or a package below one), and counts the files it checked.
func callersImported(files []goFile) (bad []string, checked int) {
	for _, f := range files {
		if f.test {
			continue
		}
		checked++
		for _, imp := range f.imports {
			for _, c := range driverCallers {
				if under(imp, c) {
					bad = append(bad, f.path+" imports "+imp+": internal/mongodb implements the interfaces "+c+" owns, it does not call it")
				}
			}
		}
	}
	return bad, checked
}
