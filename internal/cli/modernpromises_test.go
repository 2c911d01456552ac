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

// updateWorkload inserts and updates DB.items, watched by one stream of
// the collection: %s is the rest of the watcher's line.
const updateWorkload = `
collections:
  - database: %s
    name: items
    template: {_id: {$gen: key}, qty: {$gen: int, min: 0, max: 1000}}
operations:
  - {name: ins, type: insertOne, weight: 1}
  - {name: upd, type: updateOne, weight: 1, filter: {_id: {$gen: key}}, update: {$inc: {qty: 1}}}
watchers:
  - {name: feed, collection: items%s}
`

// TestWatcherRequiringPostImagesRefused: fullDocument: required on a
// collection that will have no post-images (mongoload creates it without,
// and never turns them on) is one line before anything is written (exit
// 29); the stream used to fail at the first update and was reopened in a
// hot loop (1,726 resumes in 2 s) while the report said it kept up. A
// collection whose owner turned post-images on is watched.
func TestWatcherRequiringPostImagesRefused(t *testing.T) {
	uri := testserver.URI(t)
	name := uniqueName(t)
	w := writeFile(t, "w.yaml", fmt.Sprintf(updateWorkload, name, ", fullDocument: required"))
	for _, extra := range [][]string{nil, {"--drop"}} {
		code, _, stderr := runCLI(t, context.Background(), nil, append([]string{"run", w, "--uri", uri, "--operations", "50", "--seed", "10"}, extra...)...)
		if code != ExitUnsupported || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, "fullDocument: required") || !strings.Contains(stderr, name+".items") {
			t.Errorf("%v: exit %d (want %d, one line naming the watcher's collection): %q", extra, code, ExitUnsupported, stderr)
		}
		if names := openDB(t, uri).collections(name); len(names) != 0 {
			t.Errorf("%v: the refused run created %v", extra, names)
		}
	}
	// A watcher of a time-series collection, which the server opens no
	// change stream on: refused before the collection is created and
	// seeded (exit 22 came after both).
	tsName := uniqueName(t) + "ts"
	tsw := writeFile(t, "tsw.yaml", fmt.Sprintf(tsWorkload, tsName)+"watchers:\n  - {name: feed, collection: readings}\n")
	code, _, stderr := runCLI(t, context.Background(), nil, "run", tsw, "--uri", uri, "--operations", "50", "--seed", "10")
	if code != ExitUnsupported || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, "is a time-series collection") {
		t.Errorf("a watcher of a time-series collection: exit %d (want %d, one line): %q", code, ExitUnsupported, stderr)
	}
	if names := openDB(t, uri).collections(tsName); len(names) != 0 {
		t.Errorf("the refused run created %v", names)
	}
	// The collection's owner turned its post-images on: watched, every event delivered.
	d := openDB(t, uri)
	d.cmd(name, bson.D{{Key: "create", Value: "items"}, {Key: "changeStreamPreAndPostImages", Value: bson.D{{Key: "enabled", Value: true}}}})
	out := filepath.Join(t.TempDir(), "r.json")
	var stdout string
	code, stdout, stderr = runCLI(t, context.Background(), nil, "run", w, "--uri", uri, "--operations", "200", "--concurrency", "2", "--allow-existing", "--out", out)
	if code != 0 {
		t.Fatalf("post-images on: exit %d\n%s\n%s", code, stdout, stderr)
	}
	res, err := results.ReadJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	// Each document the server inserted or changed is one event (an update
	// that drew a key not yet inserted changes none).
	changed := res.Totals.Docs.Inserted + res.Totals.Docs.Modified
	if ws := res.Watchers; len(ws) != 1 || ws[0].Failed != "" || ws[0].Resumes != 0 || ws[0].Events != changed || changed < 150 {
		t.Errorf("post-images on: watchers %+v: want each of the %d documents inserted or changed delivered once, no resume", ws, changed)
	}
}

// TestWatcherThatCannotResumeFailsOnce: a stream whose events carry no
// resume token (a pipeline that removes _id) meets the same error at
// every reopening: it is said once, as it happens, the watcher is
// FAILED in the report and the results file (with the error, no resume
// counted, no verdict on its pace), and the run exits 22 after writing
// what it measured; it used to be reopened in a loop and reported kept up.
func TestWatcherThatCannotResumeFailsOnce(t *testing.T) {
	uri := testserver.URI(t)
	name := uniqueName(t)
	out := filepath.Join(t.TempDir(), "r.json")
	w := writeFile(t, "w.yaml", fmt.Sprintf(updateWorkload, name, ", pipeline: [{$project: {_id: 0}}]"))
	code, stdout, stderr := runCLI(t, context.Background(), nil, "run", w, "--uri", uri, "--operations", "300", "--concurrency", "2", "--seed", "10", "--out", out)
	if code != ExitServerFailure {
		t.Fatalf("exit %d, want %d\n%s\n%s", code, ExitServerFailure, stdout, stderr)
	}
	if n := strings.Count(stderr, "no resume can get past"); n != 1 {
		t.Errorf("the stream's error is said %d times on stderr, want once:\n%s", n, stderr)
	}
	res, err := results.ReadJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	if res.Totals.Operations != 300 || len(res.Watchers) != 1 {
		t.Fatalf("results: %d operations, %d watchers: want the run's 300 and the watcher", res.Totals.Operations, len(res.Watchers))
	}
	if fw := res.Watchers[0]; !strings.Contains(fw.Failed, "watcher feed") || fw.Resumes != 0 || fw.FallingBehind || fw.Verdict != "" {
		t.Errorf("watcher %+v: want failed, with no resume and no verdict", fw)
	}
	if !strings.Contains(stdout, "FAILED") {
		t.Errorf("the report does not say the watcher failed:\n%s", stdout)
	}
}

// TestDropKeepsAnotherKindOfCollection: --drop drops the workload's
// collections, but a plain collection of the name where the workload
// declares a time-series one is not the workload's: refused in one line
// (exit 22), the collection kept with its documents, as without --drop
// (it was dropped and recreated as time-series without a word). One
// mongoload created as plain (the workload changed its kind) is dropped
// and recreated, and that is said.
func TestDropKeepsAnotherKindOfCollection(t *testing.T) {
	uri := testserver.URI(t)
	d := openDB(t, uri)
	name := uniqueName(t)
	d.cmd(name, bson.D{{Key: "insert", Value: "readings"}, {Key: "documents", Value: bson.A{bson.D{{Key: "app", Value: "theirs"}}}}})
	ts := writeFile(t, "ts.yaml", fmt.Sprintf(tsWorkload, name))
	code, _, stderr := runCLI(t, context.Background(), nil, "run", ts, "--uri", uri, "--operations", "20", "--drop")
	if code != ExitServerFailure || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, "exists as a plain collection mongoload did not create") {
		t.Errorf("--drop over someone's plain collection: exit %d (want %d, one line): %q", code, ExitServerFailure, stderr)
	}
	if n := d.count(name, "readings"); n != 1 || collectionKind(d, name, "readings") != "collection" {
		t.Errorf("their collection now holds %d documents, kind %q: want it kept as it was", n, collectionKind(d, name, "readings"))
	}

	mine := uniqueName(t) + "m"
	plain := strings.Replace(fmt.Sprintf(tsWorkload, mine), "    timeseries: {timeField: at, metaField: device, granularity: seconds}\n", "", 1)
	if code, _, stderr := runCLI(t, context.Background(), nil, "run", writeFile(t, "plain.yaml", plain), "--uri", uri, "--operations", "20"); code != 0 {
		t.Fatalf("the plain run: exit %d: %s", code, stderr)
	}
	code, _, stderr = runCLI(t, context.Background(), nil, "run", writeFile(t, "ts2.yaml", fmt.Sprintf(tsWorkload, mine)), "--uri", uri, "--operations", "20", "--drop")
	if code != 0 || !strings.Contains(stderr, "--drop: "+mine+".readings was a plain collection (created by mongoload)") || collectionKind(d, mine, "readings") != "timeseries" {
		t.Errorf("--drop over mongoload's plain collection: exit %d, kind %q, stderr %q: want it recreated as time-series, and said", code, collectionKind(d, mine, "readings"), stderr)
	}
}

// collectionKind is listCollections' type of database.coll.
func collectionKind(d db, database, coll string) string {
	raw := d.cmd(database, bson.D{{Key: "listCollections", Value: 1}, {Key: "filter", Value: bson.D{{Key: "name", Value: coll}}}})
	kind, _ := raw.Lookup("cursor", "firstBatch", "0", "type").StringValueOK()
	return kind
}

// TestObjectiveWithNothingToMeasureRefused: an objective the run has
// nothing to measure for is one line before the server is touched (exit
// 12, nothing created): a watchers' lag objective on a workload without
// watchers (it ran the whole workload, then failed), one naming a
// watcher or an operation the workload lacks (the closest name offered),
// a lag objective under --target noop, which opens no watcher.
func TestObjectiveWithNothingToMeasureRefused(t *testing.T) {
	uri := testserver.URI(t)
	name := uniqueName(t)
	plain := writeFile(t, "plain.yaml", fmt.Sprintf(updateWorkload[:strings.Index(updateWorkload, "watchers:")], name))
	watched := writeFile(t, "watched.yaml", fmt.Sprintf(updateWorkload, name, ""))
	tests := []struct {
		workload, slo, says string
		extra               []string
	}{
		{plain, "watch.lag.p99<=500ms", "the workload has no watchers", nil},
		{watched, "feeed:watch.lag.max<2s", `no watcher "feeed" (did you mean "feed"?)`, nil},
		{watched, "upd:p99<=20ms,ipd:p99<=20ms", `no operation named "ipd" (did you mean "upd"?)`, nil},
		{watched, "watch.lag.p99<=500ms", "--target noop opens no watcher", []string{"--target", "noop"}},
	}
	for _, tt := range tests {
		code, _, stderr := runCLI(t, context.Background(), nil, append([]string{"run", tt.workload, "--uri", uri, "--operations", "50", "--slo", tt.slo}, tt.extra...)...)
		if code != ExitInvalid || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, tt.says) {
			t.Errorf("--slo %s: exit %d (want %d, one line saying %q): %q", tt.slo, code, ExitInvalid, tt.says, stderr)
		}
	}
	if names := openDB(t, uri).collections(name); len(names) != 0 {
		t.Errorf("the refused runs created %v", names)
	}
	// Objectives that name what the workload has still run: a type of its mix, an operation, its watcher.
	code, stdout, stderr := runCLI(t, context.Background(), nil, "run", watched, "--uri", uri, "--operations", "100", "--seed", "10",
		"--slo", "updateOne:p99<=1h,ins:p99<=1h,feed:watch.lag.max<=1h")
	if code != 0 || !strings.Contains(stdout, "PASS  feed:watch.lag.max<=1h") {
		t.Errorf("objectives on what the workload has: exit %d\n%s\n%s", code, stdout, stderr)
	}
}
