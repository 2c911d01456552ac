package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/testserver"
)

// unindexed is an indexed lookup beside one deliberately unindexed query.
const unindexed = `
collections:
  - database: mltest
    name: flights
    template:
      flight_id: {$gen: key}
      gate: {$gen: pattern, pattern: "?##"}
      seats: {$gen: int, min: 0, max: 300}
    indexes:
      - keys: {flight_id: 1}
operations:
  - {name: by_id, type: findOne, weight: 8, filter: {flight_id: {$gen: key}}}
  - {name: book, type: updateOne, weight: 2, filter: {flight_id: {$gen: key}, seats: {$gt: 0}}, update: {$inc: {seats: -1}}}
  # No index on gate: every call scans the collection.
  - {name: by_gate, type: find, weight: 2, filter: {gate: {$gen: pattern, pattern: "?##"}, seats: {$gt: {$gen: int, min: 0, max: 200}}}, limit: 5}
`

// TestOperatorView runs a workload with one unindexed query against the
// real server and checks what the operator reads in the results: the slow
// shapes with the scan flagged by explain, the server's context, the
// collections' statistics before and after, and the client's CPU per interval.
func TestOperatorView(t *testing.T) {
	uri := testserver.URI(t)
	out := filepath.Join(t.TempDir(), "r.json")
	// --slow 1us shapes every operation, so every shape is there to explain.
	code, stdout, stderr := runCLI(t, context.Background(), nil, "run", uniqueDB(t, unindexed), "--uri", uri, "--duration", "2s",
		"--seed", "3000", "--concurrency", "2", "--slow", "1us", "--explain", "3", "--out", out, "--drop", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	res, err := results.ReadJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	s := res.Slow
	if s == nil || s.Operations == 0 || len(s.Shapes) != 3 {
		t.Fatalf("slow section: %+v", s)
	}
	scans := 0
	for _, sh := range s.Shapes {
		e := sh.Explain
		if e == nil || e.Error != "" {
			t.Fatalf("%s not explained: %+v", sh.Shape, e)
		}
		switch sh.Shape {
		case "{gate: <string>, seats: {$gt: <int32>}}":
			if !e.CollScan || e.Scan != "COLLSCAN" || e.DocsExamined == 0 {
				t.Errorf("the unindexed query is not flagged: %+v", e)
			}
			scans++
		case "{flight_id: <int64>}", "{flight_id: <int64>, seats: {$gt: <int32>}}":
			if e.CollScan || e.Scan != "IXSCAN" || e.Index != "flight_id_1" {
				t.Errorf("%s: %+v", sh.Shape, e)
			}
		default:
			t.Errorf("unexpected shape %s", sh.Shape)
		}
	}
	if scans != 1 || !strings.Contains(stdout, "COLLECTION SCAN") || !strings.Contains(strings.Join(res.Notes, "\n"), "scans the whole collection") {
		t.Errorf("the scan is not flagged in the console and the notes:\n%s", stdout)
	}
	c := res.Context
	if c == nil || c.Version == "" || c.FCV == "" || c.Topology == nil || c.Host == nil || c.Host.Cores == nil || c.CacheBytes == nil {
		t.Fatalf("context: %+v", c)
	}
	if !strings.Contains(strings.Join(c.Absent, ","), "networkCompressors") {
		t.Errorf("the test server reports no compressors: they must be listed absent, got %v", c.Absent)
	}
	if !strings.Contains(stdout, "server context: "+c.Version) {
		t.Errorf("no context in the console report:\n%s", stdout)
	}
	if len(res.Collections) != 1 || res.Collections[0].Before == nil || res.Collections[0].After == nil ||
		*res.Collections[0].Before.Count != 3000 || res.Collections[0].After.IndexSizes["flight_id_1"] == 0 {
		t.Errorf("collections: %+v", res.Collections)
	}
	withCPU := 0
	for _, iv := range res.Intervals {
		if iv.Client != nil && iv.Client.CPUSeconds > 0 {
			withCPU++
		}
	}
	if withCPU < 2 || res.Client == nil || res.Client.PeakUtilization <= 0 || !strings.Contains(stdout, "cpu:      client avg") {
		t.Errorf("client CPU per interval: %d intervals of %d, client %+v", withCPU, len(res.Intervals), res.Client)
	}
	if res.Server == nil || res.Server.CrossCheck == nil || !res.Server.CrossCheck.OK {
		t.Errorf("the operator's commands must not upset the cross-check: %+v", res.Server)
	}
}

// TestCompareShowsContextDifferences: comparing a run on another server
// version says so.
func TestCompareShowsContextDifferences(t *testing.T) {
	res := func(label, version string, cores int64) string {
		r := &results.Result{Schema: results.Schema, Label: label, Workload: results.Workload{Name: "w"}, Load: results.LoadModel{Type: results.Closed, Concurrency: 4},
			Outcome: results.Completed, DurationSeconds: 10, Totals: results.Totals{Operations: 1000, Throughput: 100}, Operations: []results.Operation{}, Intervals: []results.IntervalSummary{},
			Context: &results.ServerContext{Version: version, FCV: version[:3], Host: &results.HostFacts{Cores: &cores}, Topology: &results.Topology{Kind: results.ReplicaSet}}}
		p := filepath.Join(t.TempDir(), label+".json")
		if err := results.WriteJSON(p, r); err != nil {
			t.Fatal(err)
		}
		return p
	}
	code, stdout, stderr := runCLI(t, context.Background(), nil, "compare", res("seven", "7.0.12", 4), res("eight", "8.0.4", 4), res("same", "7.0.12", 4))
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"server context differs: version: 7.0.12 (seven) vs 8.0.4 (eight)", "featureCompatibilityVersion: 7.0 (seven) vs 8.0 (eight)"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("compare does not say %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "(same)") && strings.Contains(stdout, "vs 7.0.12 (same)") {
		t.Errorf("identical contexts must not be flagged:\n%s", stdout)
	}
}
