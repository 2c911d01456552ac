package archtest

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// driverClient is the MongoDB driver's client side; its data format package
// (bson) may be used anywhere, since generators write BSON.
var driverClient = []string{"go.mongodb.org/mongo-driver/v2/mongo", "go.mongodb.org/mongo-driver/v2/x/mongo"}

// allowed may import the driver client: the one driver package, and the
// floor programs that make bench measures mongoload against.
var allowed = []string{"internal/mongodb", "bench/floor/ycsb", "bench/floor/airline"}

// TestOnlyOnePackageImportsTheDriver keeps every other package testable and
// driver-agnostic (FerretDB enforces the same with depguard).
func TestOnlyOnePackageImportsTheDriver(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if isDriverClient(p) && !isAllowed(filepath.ToSlash(filepath.Dir(rel))) {
				t.Errorf("%s imports %s: only internal/mongodb talks to the driver", rel, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 20 {
		t.Fatalf("only %d files checked: the walk missed the tree", checked)
	}
}

func isDriverClient(p string) bool {
	for _, d := range driverClient {
		if p == d || strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}

func isAllowed(dir string) bool {
	for _, a := range allowed {
		if dir == a {
			return true
		}
	}
	return false
}
