package resultstest

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// Golden compares got with testdata/name, or rewrites the file with
// -update, a flag the calling package's tests define (as UpdateFlag does).
func Golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (run go test -update to accept it):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// UpdateFlag defines -update for a package whose tests call Golden:
//
//	var _ = resultstest.UpdateFlag()
func UpdateFlag() *bool {
	return flag.Bool("update", false, "rewrite the golden files in testdata")
}
