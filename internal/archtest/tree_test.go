package archtest

import (
	"bytes"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/mongoload/mongoload/"

// goFile is one Go file and what it imports: this module's packages as
// directories relative to the module root ("internal/results"), the rest
// (the standard library, the driver) as written.
type goFile struct {
	path     string // relative to the root read, with slashes
	test     bool
	imports  []string
	external []string
	lines    int
}

func (f goFile) dir() string { return filepath.ToSlash(filepath.Dir(f.path)) }

// under reports whether dir is pkg or one of its subpackages.
func under(dir, pkg string) bool { return dir == pkg || strings.HasPrefix(dir, pkg+"/") }

// tree reads the imports of every Go file of the module: the one walk every
// rule of this package checks.
func tree(t *testing.T) []goFile {
	t.Helper()
	files := readTree(t, filepath.Join("..", ".."))
	if len(files) < 100 {
		t.Fatalf("only %d files read: the walk missed the tree", len(files))
	}
	return files
}

// readTree reads the imports of every Go file below root.
func readTree(t *testing.T, root string) []goFile {
	t.Helper()
	fset := token.NewFileSet()
	var files []goFile
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, path, src, parser.ImportsOnly)
		if err != nil {
			return err
		}
		g := goFile{path: filepath.ToSlash(rel), test: strings.HasSuffix(path, "_test.go"), lines: bytes.Count(src, []byte("\n"))}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if rest, ok := strings.CutPrefix(p, module); ok {
				g.imports = append(g.imports, rest)
			} else {
				g.external = append(g.external, p)
			}
		}
		files = append(files, g)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
