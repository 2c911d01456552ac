package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/testserver"
)

// tsWorkload is a time-series collection of readings from 12 devices,
// seeded and inserted into by concurrent workers.
const tsWorkload = `
collections:
  - database: %s
    name: readings
    timeseries: {timeField: at, metaField: device, granularity: seconds}
    template:
      _id: {$gen: key}
      device: {$gen: series, count: 12, prefix: dev-}
      at: {$gen: seriesTime, start: 2024-01-01, every: 10s, jitter: 3s}
      temp: {$gen: cycle, mean: 20, amplitude: 4, noise: 0.2}
      battery: {$gen: walk, min: 0, max: 100, start: 90, step: 0.3}
operations:
  - {name: ingest, type: insertOne, weight: 1}
`

// find returns every document of database.coll sorted by sort, read with a
// plain find command (not through the code under test).
func (d db) find(database, coll string, sort bson.D) []bson.Raw {
	d.t.Helper()
	raw := d.cmd(database, bson.D{{Key: "find", Value: coll}, {Key: "sort", Value: sort}, {Key: "batchSize", Value: 100000}, {Key: "limit", Value: 100000}})
	vals, _ := raw.Lookup("cursor", "firstBatch").Array().Values()
	out := make([]bson.Raw, len(vals))
	for i, v := range vals {
		out[i] = v.Document()
	}
	return out
}

// TestTimeseriesCollection: a collection declared timeseries is a
// time-series collection on the server (listCollections says type
// timeseries, with the workload's options); it holds the documents seeded
// and inserted; and every device's readings, in key order (the order they
// were generated and loaded in), have strictly increasing times: the
// invariant a time-series collection's buckets depend on.
func TestTimeseriesCollection(t *testing.T) {
	uri := testserver.URI(t)
	name := uniqueName(t)
	out := filepath.Join(t.TempDir(), "r.json")
	code, stdout, stderr := runCLI(t, context.Background(), nil, "run", writeFile(t, "ts.yaml", fmt.Sprintf(tsWorkload, name)),
		"--uri", uri, "--seed", "600", "--operations", "900", "--concurrency", "4", "--warmup", "0", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	d := openDB(t, uri)
	raw := d.cmd(name, bson.D{{Key: "listCollections", Value: 1}, {Key: "filter", Value: bson.D{{Key: "name", Value: "readings"}}}})
	first := raw.Lookup("cursor", "firstBatch", "0").Document()
	if typ := first.Lookup("type").StringValue(); typ != "timeseries" {
		t.Fatalf("readings is of type %q on the server, not timeseries: %s", typ, first)
	}
	opts := first.Lookup("options", "timeseries").Document()
	for k, want := range map[string]string{"timeField": "at", "metaField": "device", "granularity": "seconds"} {
		if got := opts.Lookup(k).StringValue(); got != want {
			t.Errorf("timeseries %s is %q on the server, want %q", k, got, want)
		}
	}
	res, err := results.ReadJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	docs := d.find(name, "readings", bson.D{{Key: "_id", Value: 1}})
	if want := 600 + res.Totals.Docs.Inserted; int64(len(docs)) != want || res.Totals.Docs.Inserted != 900 {
		t.Fatalf("readings holds %d documents; seeded 600 and inserted %d (of 900)", len(docs), res.Totals.Docs.Inserted)
	}
	last := map[string]int64{}
	series := map[string]int{}
	for _, doc := range docs {
		dev, at := doc.Lookup("device").StringValue(), doc.Lookup("at").DateTime()
		if prev, ok := last[dev]; ok && at <= prev {
			t.Fatalf("device %s: a reading at %s after one at %s (key %v)", dev, time.UnixMilli(at).UTC(), time.UnixMilli(prev).UTC(), doc.Lookup("_id"))
		}
		last[dev] = at
		series[dev]++
	}
	if len(series) != 12 {
		t.Errorf("%d devices read back, want 12: %v", len(series), series)
	}
}

// TestModernBadInput: a timeField the template does not write is one
// line (exit 12), before any server is asked; watchers on a standalone
// server, which has no change streams, are one line before the run (exit
// 29) and nothing is created.
func TestModernBadInput(t *testing.T) {
	uri := testserver.URI(t)
	bad := strings.Replace(fmt.Sprintf(tsWorkload, "mlbad"), "timeField: at", "timeField: time", 1)
	code, _, stderr := runCLI(t, context.Background(), nil, "run", writeFile(t, "bad.yaml", bad), "--uri", uri)
	if code != ExitInvalid || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, `timeField "time" is not a field of the collection's template`) {
		t.Errorf("timeField absent from the template: exit %d, %q", code, stderr)
	}
	srv := testserver.OwnServer(t, "--standalone")
	name := uniqueName(t)
	code, _, stderr = runCLI(t, context.Background(), nil, "run", writeFile(t, "w.yaml", fmt.Sprintf(watchWorkload, name, name)),
		"--uri", srv.URI, "--operations", "10")
	if code != ExitUnsupported || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, "standalone server") {
		t.Errorf("watchers on a standalone server: exit %d (want %d, one line): %q", code, ExitUnsupported, stderr)
	}
	if names := openDB(t, srv.URI).collections(name); len(names) != 0 {
		t.Errorf("the refused run created %v", names)
	}
}

// watchWorkload inserts events into DB.events, watched by three streams
// of the collection and one of the whole database that keeps inserts
// only (a pipeline), with lag from the document's own time.
const watchWorkload = `
collections:
  - database: %s
    name: events
    template:
      at: {$gen: now}
      n: {$gen: int, min: 1, max: 100}
operations:
  - {name: add, type: insertOne, weight: 1}
watchers:
  - {name: coll, collection: events, streams: 3}
  - {name: db, database: %s, pipeline: [{$match: {operationType: insert}}], lagField: at}
`

// serverInserts is the server's opcounters.insert.
func (d db) serverInserts() int64 {
	d.t.Helper()
	n, _ := d.cmd("admin", bson.D{{Key: "serverStatus", Value: 1}}).Lookup("opcounters", "insert").AsInt64OK()
	return n
}

// TestWatchersSeeEveryWrite: every stream receives each insert of the run
// once: each watcher's events are its streams times the inserts the
// server counted (opcounters.insert on a server of this test's own, so no
// other test's writes count) and times the documents the collection
// holds; the lag histogram counts every event; the watchers are no
// operations (totals are the inserts alone).
func TestWatchersSeeEveryWrite(t *testing.T) {
	srv := testserver.OwnServer(t)
	d := openDB(t, srv.URI)
	name := uniqueName(t)
	out := filepath.Join(t.TempDir(), "r.json")
	before := d.serverInserts()
	code, stdout, stderr := runCLI(t, context.Background(), nil, "run", writeFile(t, "w.yaml", fmt.Sprintf(watchWorkload, name, name)),
		"--uri", srv.URI, "--operations", "1200", "--concurrency", "4", "--warmup", "0", "--out", out, "--slo", "watch.lag.p99<=1h")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	inserts := d.serverInserts() - before // mongoload_meta's mark is an upsert: an update
	held := d.count(name, "events")
	res, err := results.ReadJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	if held != 1200 || inserts != held {
		t.Fatalf("the server counted %d inserts and holds %d documents; the run made 1200", inserts, held)
	}
	streams := map[string]int64{"coll": 3, "db": 1}
	for _, w := range res.Watchers {
		if w.Events != streams[w.Name]*held || int64(w.Streams) != streams[w.Name] {
			t.Errorf("watcher %s: %d streams received %d events; %d streams x %d inserts make %d", w.Name, w.Streams, w.Events, streams[w.Name], held, streams[w.Name]*held)
		}
		if w.Lag.Count != w.Events || !(w.Lag.P50 <= w.Lag.P99 && w.Lag.P99 <= w.Lag.Max) {
			t.Errorf("watcher %s: lag %+v over %d events", w.Name, w.Lag, w.Events)
		}
		delete(streams, w.Name)
	}
	if len(streams) > 0 {
		t.Errorf("no results for watchers %v", streams)
	}
	if res.Totals.Operations != 1200 || len(res.Operations) != 1 {
		t.Errorf("totals %d operations over %d rows: the watchers are no operations", res.Totals.Operations, len(res.Operations))
	}
	if !strings.Contains(stdout, "watchers (change streams") || !strings.Contains(stdout, "PASS  watch.lag.p99<=1h") {
		t.Errorf("the report lacks the watchers or their objective:\n%s", stdout)
	}
}

// TestWatcherLagShowsPause: the server frozen for 500 ms while the run
// writes shows in the watchers' lag: an event committed just before the
// freeze is delivered after it. Three pauses, because a single one shows
// only if an event is committed and not yet delivered at that instant.
// The streams' connections may drop: they resume from their tokens and
// still deliver each insert once per stream.
func TestWatcherLagShowsPause(t *testing.T) {
	testserver.Timing(t)
	srv := testserver.OwnServer(t)
	name := uniqueName(t)
	out := filepath.Join(t.TempDir(), "r.json")
	wl := strings.Replace(fmt.Sprintf(watchWorkload, name, name), "  - {name: db,", "  #", 1)
	r := runInBackground(context.Background(), "run", writeFile(t, "w.yaml", wl), "--uri", srv.URI,
		"--operations", "30000", "--concurrency", "4", "--warmup", "0", "--interval", "250ms", "--out", out)
	d := openDB(t, srv.URI)
	for _, at := range []int64{2000, 8000, 14000} {
		testserver.Await(t, time.Minute, fmt.Sprintf("%d documents written", at), func() bool { return d.countAfterFault(name, "events") >= at })
		srv.Pause()
		time.Sleep(500 * time.Millisecond) // the fault itself: the server frozen this long
		srv.Resume()
	}
	code, stdout, stderr := r.wait()
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	res, err := results.ReadJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	// The test's own pooled connection may be one the pauses dropped:
	// the count is taken once the server answers it.
	var held int64
	testserver.Await(t, time.Minute, "the count of events", func() bool { held = d.countAfterFault(name, "events"); return held >= 0 })
	w := res.Watchers[0]
	if w.Events != 3*held || w.Lag.Count != w.Events {
		t.Errorf("3 streams received %d events (lag counted %d) for %d documents: want %d", w.Events, w.Lag.Count, held, 3*held)
	}
	if w.Lag.Max < 400 {
		t.Errorf("lag max %.1f ms with the server paused 3 x 500 ms", w.Lag.Max)
	}
	if w.FallingBehind { // the lag rose with each pause and fell back: a consumer that keeps up
		t.Errorf("a consumer that caught up after each pause is said to fall behind: %s", w.Verdict)
	}
	t.Logf("lag p50 %.1f p99 %.1f max %.1f ms, %d resumes", w.Lag.P50, w.Lag.P99, w.Lag.Max, w.Resumes)
}

// TestCaptureTimeseries: capture recognises a time-series collection
// (listCollections' type and options; writes the server logs on its
// buckets count as the collection's) and writes it back as one: the
// captured workload, run on another server, creates a time-series
// collection with the same definition.
func TestCaptureTimeseries(t *testing.T) {
	ctx := context.Background()
	uri, _ := testserver.Own(t)
	cl := connectTest(t, ctx, uri)
	if code, out, errs := runCLI(t, ctx, nil, "run", "iot", "--uri", uri, "--seed", "2000", "--operations", "10", "--quiet"); code != 0 {
		t.Fatalf("seed: exit %d: %s%s", code, out, errs)
	}
	profileLevel(t, ctx, cl, "iot", 2)
	if code, out, errs := runCLI(t, ctx, nil, "run", "iot", "--uri", uri, "--operations", "300", "--warmup", "0s", "--concurrency", "2", "--quiet"); code != 0 {
		t.Fatalf("run: exit %d: %s%s", code, out, errs)
	}
	if _, err := cl.Command(ctx, "iot", bson.D{{Key: "profile", Value: 0}}); err != nil { // off, the entries kept
		t.Fatal(err)
	}
	w := filepath.Join(t.TempDir(), "w.yaml")
	if code, out, errs := runCLI(t, ctx, nil, "capture", "--uri", uri, "--database", "iot", "--out", w); code != 0 {
		t.Fatalf("capture: exit %d: %s%s", code, out, errs)
	}
	cfg, err := config.Load(w)
	if err != nil {
		t.Fatal(err)
	}
	var ts *config.Timeseries
	for _, c := range cfg.Collections {
		if c.Name == "readings" {
			ts = c.Timeseries
		}
		if strings.HasPrefix(c.Name, "system.buckets.") {
			t.Errorf("the buckets collection %s is in the captured workload", c.Name)
		}
	}
	if ts == nil || ts.TimeField != "at" || ts.MetaField != "device" || ts.Granularity != "seconds" {
		t.Fatalf("captured iot.readings as timeseries %+v, want at/device/seconds", ts)
	}
	other := testserver.OwnServer(t)
	if code, out, errs := runCLI(t, ctx, nil, "run", w, "--uri", other.URI, "--operations", "50", "--quiet"); code != 0 {
		t.Fatalf("run the captured workload: exit %d: %s%s", code, out, errs)
	}
	raw := openDB(t, other.URI).cmd("iot", bson.D{{Key: "listCollections", Value: 1}, {Key: "filter", Value: bson.D{{Key: "name", Value: "readings"}}}})
	if typ := raw.Lookup("cursor", "firstBatch", "0", "type").StringValue(); typ != "timeseries" {
		t.Errorf("the captured workload made iot.readings of type %q", typ)
	}
}
