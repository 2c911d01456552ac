package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/testserver"
)

const shapesWorkload = `
name: shapes
collections:
  - database: mltest
    name: c
    template: {_id: {$gen: key}, g: {$gen: int, min: 0, max: 9}, x: 0}
operations:
  - {name: find_low, type: find, collection: c, weight: 1, filter: {g: {$lt: 3}}}
  - {name: find_none, type: findOne, collection: c, weight: 1, filter: {g: 42}}
  - {name: bump, type: updateMany, collection: c, weight: 1, filter: {g: 5}, update: {$inc: {x: 1}}}
  - {name: del_none, type: deleteOne, collection: c, weight: 1, filter: {g: -1}}
  - {name: add, type: insertOne, collection: c, weight: 1, document: {g: 100}}
`

// TestResultShapesMatchTheServer: the documents each operation returned,
// matched, modified, deleted and inserted, as the results file says, are
// what the server's own data says they must be: finds return every document
// their filter matches on the server, the update's modified count is the
// sum the $inc left in the documents, inserts are the documents the
// collection gained. Operations that found nothing are flagged with the
// cause the workload shows, and the others are not.
func TestResultShapesMatchTheServer(t *testing.T) {
	uri := testserver.URI(t)
	wl := uniqueDB(t, shapesWorkload)
	out := filepath.Join(t.TempDir(), "r.json")
	code, stdout, stderr := runCLI(t, context.Background(), nil, "run", wl, "--uri", uri, "--seed", "500", "--operations", "1500",
		"--duration", "0s", "--warmup", "0s", "--concurrency", "4", "--interval", "200ms", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	res, err := results.ReadJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	db := dbOf(t, wl)
	cl, err := mongodb.Connect(context.Background(), config.Connection{URI: uri})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	count := func(filter bson.D) int64 {
		t.Helper()
		raw, err := cl.Command(context.Background(), db, bson.D{{Key: "count", Value: "c"}, {Key: "query", Value: filter}})
		if err != nil {
			t.Fatal(err)
		}
		return raw.Lookup("n").AsInt64()
	}
	raw, err := cl.Command(context.Background(), db, bson.D{{Key: "aggregate", Value: "c"}, {Key: "cursor", Value: bson.D{}},
		{Key: "pipeline", Value: bson.A{bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: nil}, {Key: "x", Value: bson.D{{Key: "$sum", Value: "$x"}}}}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	incs := raw.Lookup("cursor", "firstBatch", "0", "x").AsInt64()
	low, five := count(bson.D{{Key: "g", Value: bson.D{{Key: "$lt", Value: 3}}}}), count(bson.D{{Key: "g", Value: 5}})
	added := count(bson.D{{Key: "g", Value: 100}})
	if low == 0 || five == 0 {
		t.Fatalf("seeded data has %d documents with g<3 and %d with g=5: the test needs some", low, five)
	}
	ops := map[string]results.Operation{}
	for _, op := range res.Operations {
		if op.Errors > 0 || op.Count == 0 {
			t.Fatalf("%s: %d operations, %d errors", op.Name, op.Count, op.Errors)
		}
		ops[op.Name] = op
	}
	docs := func(name string) metrics.Docs {
		if d := ops[name].Docs; d != nil {
			return *d
		}
		return metrics.Docs{}
	}
	n := func(name string) int64 { return ops[name].Count }
	tests := []struct {
		name string
		got  metrics.Docs
		want metrics.Docs
	}{
		{"find_low", docs("find_low"), metrics.Docs{Returned: n("find_low") * low, Shaped: n("find_low")}},
		{"find_none", docs("find_none"), metrics.Docs{Empty: n("find_none"), Shaped: n("find_none")}},
		{"bump", docs("bump"), metrics.Docs{Matched: n("bump") * five, Modified: incs, Shaped: n("bump")}},
		{"del_none", docs("del_none"), metrics.Docs{Empty: n("del_none"), Shaped: n("del_none")}},
		{"add", docs("add"), metrics.Docs{Inserted: added}},
	}
	var sum metrics.Docs
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s: %+v, the server says %+v", tc.name, tc.got, tc.want)
		}
		sum.Add(tc.got)
	}
	if incs != n("bump")*five {
		t.Errorf("the server holds %d increments; %d updates of %d documents each", incs, n("bump"), five)
	}
	if res.Totals.Docs == nil || *res.Totals.Docs != sum {
		t.Errorf("totals %+v, operations add up to %+v", res.Totals.Docs, sum)
	}
	// The interval series add up to the whole run.
	var series metrics.Docs
	for _, iv := range res.Intervals {
		for _, o := range iv.Ops {
			if o.Docs != nil {
				series.Add(*o.Docs)
			}
		}
	}
	if series != sum {
		t.Errorf("intervals add up to %+v, the run to %+v", series, sum)
	}
	// Misses are flagged, with their cause; the others are not.
	notes := strings.Join(res.Notes, "\n")
	for _, want := range []string{"find_none: 100% of finds returned no document", "values 42, g seeded 0-9", "del_none: 100% of deletes deleted no document"} {
		if !strings.Contains(notes, want) || !strings.Contains(stdout, want) {
			t.Errorf("notes and report lack %q:\n%s", want, notes)
		}
	}
	for _, quiet := range []string{"find_low:", "bump:", "add:"} {
		if strings.Contains(notes, quiet) {
			t.Errorf("%s flagged though it found documents:\n%s", quiet, notes)
		}
	}
	if !strings.Contains(stdout, "documents (what the server did") {
		t.Errorf("console report has no documents table:\n%s", stdout)
	}
}

// dbOf is the database uniqueDB gave the workload file.
func dbOf(t *testing.T, path string) string {
	t.Helper()
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return cfg.Collections[0].Database
}
