package report

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/results/resultstest"
)

// TestWriteJSONGolden protects the results file format that compare, merge
// and HTML reports read.
func TestWriteJSONGolden(t *testing.T) {
	path := filepath.Join(t.TempDir(), "result.json")
	if err := results.WriteJSON(path, resultstest.ClosedRun().Result()); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	resultstest.Golden(t, "result.golden.json", b)
}
