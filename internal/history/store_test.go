package history

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/results/resultstest"
	"github.com/mongoload/mongoload/internal/testserver"
)

var t0 = time.Date(2026, 11, 1, 2, 0, 0, 0, time.UTC)

// build is the nightly result of build i: throughput tput, latency lat.
func build(i int, tput, lat float64) *results.Result { return buildOf("nightly", i, tput, lat) }

func buildOf(workload string, i int, tput, lat float64) *results.Result {
	r := resultstest.Result(results.LoadModel{Type: results.Open, Rate: tput}, resultstest.Step{Level: tput, Throughput: tput, LatencyMs: lat},
		t0.Add(time.Duration(i)*24*time.Hour), "build-"+itoa(i))
	r.Workload.Name = workload
	r.Config = []byte(`{"name":"` + workload + `","operations":[{"name":"find_flight"}],"run":{"rate":` + itoa(int(tput)) + `,"target":"noop"}}`)
	return r
}

var itoa = strconv.Itoa

// TestDirectoryStore: each result is one gzip file holding the results
// file as run --out writes it (report and compare read it as it is),
// and the store gives back each entry's identity and metrics in time
// order, whatever the order they were kept in.
func TestDirectoryStore(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "nightly")
	for _, i := range []int{2, 1, 3} {
		if err := Keep(ctx, dir, build(i, 1000+float64(i), 2)); err != nil {
			t.Fatal(err)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json.gz"))
	if len(files) != 3 {
		t.Fatalf("%d entry files, want 3", len(files))
	}
	// The stored file is the results file, byte for byte.
	want := filepath.Join(t.TempDir(), "r.json")
	if err := results.WriteJSON(want, build(1, 1001, 2)); err != nil {
		t.Fatal(err)
	}
	wb, _ := os.ReadFile(want)
	stored, _ := filepath.Glob(filepath.Join(dir, "*build-1.json.gz"))
	got, err := results.ReadFile(stored[0])
	if err != nil || string(got) != string(wb) {
		t.Errorf("the stored entry is not the results file (err %v)", err)
	}
	if r, err := results.ReadJSON(stored[0]); err != nil || r.Label != "build-1" {
		t.Errorf("results.ReadJSON of the stored entry: %v, %v", r, err)
	}
	s, err := Open(ctx, dir, false)
	if err != nil {
		t.Fatal(err)
	}
	es, err := s.Entries(ctx, Query{})
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 3 || es[0].Label != "build-1" || es[2].Label != "build-3" {
		t.Fatalf("entries %v, want build-1..3 in time order", es)
	}
	e := es[0]
	host, _ := os.Hostname()
	if e.Workload != "nightly" || e.Host != host || e.Version != "noop" || e.Schema != results.Schema || len(e.Digest) != 12 {
		t.Errorf("entry identity %+v", e)
	}
	if es[1].Digest != e.Digest {
		t.Errorf("a build's rate changed the workload's digest: %s, %s", e.Digest, es[1].Digest)
	}
	if e.Metrics[Throughput] < 1000 || e.Metrics["p99_find_flight"] <= 0 || e.Metrics["p50_update_seats"] <= 0 {
		t.Errorf("metrics %v", e.Metrics)
	}
	if es, _ := s.Entries(ctx, Query{Label: "build-[23]", Since: t0.Add(60 * time.Hour)}); len(es) != 1 || es[0].Label != "build-3" {
		t.Errorf("--label build-[23] --since day 2.5: %v, want build-3", es)
	}
}

// TestNotAStore: a file, a directory of other files, a missing or an
// empty one, and a stored result of another schema are refused with the
// path and the reason, each its kind of error.
func TestNotAStore(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := filepath.Join(dir, "results.json")
	os.WriteFile(file, []byte("{}"), 0o644)
	other := filepath.Join(dir, "other")
	os.MkdirAll(other, 0o755)
	os.WriteFile(filepath.Join(other, "notes.txt"), []byte("x"), 0o644)
	empty := filepath.Join(dir, "empty")
	os.MkdirAll(empty, 0o755)
	for _, tt := range []struct {
		spec string
		want error
		text string
	}{
		{file, ErrNotStore, "is a file"},
		{other, ErrNotStore, "holds other files"},
		{filepath.Join(dir, "missing"), ErrNotStore, "does not exist"},
		{empty, ErrNothing, "is empty"},
	} {
		_, err := Read(ctx, tt.spec, Query{}, Options{Method: DefaultMethod})
		if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.text) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line: %v ... %q", tt.spec, err, tt.want, tt.text)
		}
	}
	if err := Keep(ctx, other, build(1, 1000, 1)); !errors.Is(err, ErrNotStore) {
		t.Errorf("kept into a directory of other files: %v", err)
	}
	// A result of another schema in a store.
	store := filepath.Join(dir, "store")
	if err := Keep(ctx, store, build(1, 1000, 1)); err != nil {
		t.Fatal(err)
	}
	b, _ := Encode(build(2, 1000, 1))
	e, _ := NewEntry([]byte(strings.Replace(string(b), results.Schema, "mongoload.results/v9", 1)), "h")
	if e.Schema != "" {
		t.Fatal("NewEntry read a result of schema v9")
	}
	raw := Entry{Workload: "nightly", Time: t0.Add(48 * time.Hour), Doc: []byte(strings.Replace(string(b), results.Schema, "mongoload.results/v9", 1))}
	if err := (&dirStore{dir: store}).Append(ctx, raw); err != nil {
		t.Fatal(err)
	}
	_, err := Read(ctx, store, Query{}, Options{Method: DefaultMethod})
	if !errors.Is(err, ErrSchema) || !strings.Contains(err.Error(), "mongoload.results/v9") || !strings.Contains(err.Error(), ".json.gz") {
		t.Errorf("a stored result of schema v9: %v", err)
	}
}

// TestTooFewResults: one result is not a series; two results neither.
func TestTooFewResults(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "s")
	for i := 1; i <= 2; i++ {
		if err := Keep(ctx, dir, build(i, 1000, 1)); err != nil {
			t.Fatal(err)
		}
		_, err := Read(ctx, dir, Query{}, Options{Method: DefaultMethod})
		if !errors.Is(err, ErrNothing) || !strings.Contains(err.Error(), "a change point needs 3") {
			t.Errorf("%d result(s): %v", i, err)
		}
	}
}

// TestMongoDBStore: the store against the real server: one document per
// result in mongoload_history.results, the metrics flattened beside the
// whole result (a query on a metric finds it), entries back in time order
// with the series' change point, and nothing written where the store was
// not named.
func TestMongoDBStore(t *testing.T) {
	ctx := context.Background()
	uri := testserver.URI(t)
	name := "nightly-" + strconv.FormatInt(time.Now().UnixNano(), 36) // the server may keep earlier runs' entries
	for i := 1; i <= 12; i++ {
		tput := 2000.0
		if i >= 8 {
			tput = 1700
		}
		if err := Keep(ctx, uri, buildOf(name, i, tput+float64(i%3), 2)); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Open(ctx, uri, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ms := s.(*mongoStore)
	docs, err := ms.c.FindJSON(ctx, []byte(`{"workload": "`+name+`", "metrics.throughput": {"$lt": 1800}}`), "time")
	if err != nil || len(docs) != 5 {
		t.Fatalf("a query on the flattened throughput found %d documents (%v), want 5", len(docs), err)
	}
	if !strings.Contains(string(docs[0]), `"result"`) || !strings.Contains(string(docs[0]), `"$date"`) || !strings.Contains(string(docs[0]), `"schema":"mongoload.results/v1"`) {
		t.Errorf("a stored document: %.300s", docs[0])
	}
	h, err := Read(ctx, uri, Query{Workload: name}, Options{Method: DefaultMethod, Metrics: []string{Throughput}, Threshold: DefaultThreshold})
	if err != nil {
		t.Fatal(err)
	}
	tp := h.Workloads[0].Series[0]
	if len(h.Workloads[0].Runs) != 12 || len(tp.ChangePoints) != 1 || tp.ChangePoints[0].Label != "build-8" || !tp.Regressed {
		t.Fatalf("MongoDB store's series: %d runs, change points %+v", len(h.Workloads[0].Runs), tp.ChangePoints)
	}
	if c := tp.ChangePoints[0].Change; c > -14 || c < -16 {
		t.Errorf("change %.1f%%, want -15%%", c)
	}
}
