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

// TestSendClockStaysInTheDriverPackage: the driver's command monitor sees an
// operation only through its context, so the send clock travels there; that
// carrier is internal/mongodb's own business. Everyone else (the engine
// first) reads the send time and failed commands from the executor's Reply,
// and no one else imports internal/sendclock.
func TestSendClockStaysInTheDriverPackage(t *testing.T) {
	const sendclock = "github.com/mongoload/mongoload/internal/sendclock"
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		dir := filepath.ToSlash(filepath.Dir(rel))
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if p == sendclock && dir != "internal/mongodb" && dir != "internal/sendclock" {
				t.Errorf("%s imports internal/sendclock: the send time reaches it in the executor's Reply", rel)
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
