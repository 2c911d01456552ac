package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/testserver"
)

// TestNoFieldNoteAsksTheCollection: documents mongoload did not make from
// this template (here inserted by the test, each with v) have a field the
// template lacks; a run whose filter on v finds nothing must not say the
// documents have no field v. The test's own inserts are the oracle.
func TestNoFieldNoteAsksTheCollection(t *testing.T) {
	uri := testserver.URI(t)
	d := openDB(t, uri)
	name := uniqueName(t)
	var docs bson.A
	for i := range 50 {
		docs = append(docs, bson.D{{Key: "k", Value: i}, {Key: "v", Value: i}})
	}
	d.cmd(name, bson.D{{Key: "insert", Value: "c"}, {Key: "documents", Value: docs}})
	w := writeFile(t, "w.yaml", fmt.Sprintf(`
collections:
  - {database: %s, name: c, template: {k: {$gen: key}}}
operations:
  - {name: probe, type: findOne, weight: 1, filter: {v: 12345}}
  - {name: gone, type: findOne, weight: 1, filter: {nope: 1}}
`, name))
	out := filepath.Join(t.TempDir(), "r.json")
	if code, _, stderr := runCLI(t, context.Background(), nil, "run", w, "--uri", uri, "--operations", "200", "--duration", "0", "--quiet", "--out", out); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	res, err := results.ReadJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(res.Notes, "\n")
	if strings.Contains(notes, "no field v") {
		t.Errorf("the note says the documents have no field v; every one has it:\n%s", notes)
	}
	if !strings.Contains(notes, "gone:") || !strings.Contains(notes, "no field nope") {
		t.Errorf("no note that no document has nope:\n%s", notes)
	}
}
