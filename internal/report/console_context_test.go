package report

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/results/resultstest"
)

func p64(n int64) *int64      { return &n }
func pf64(f float64) *float64 { return &f }

// operatorResult is a run with everything the operator's view adds: the
// server's context, the collections before and after, slow shapes (one a
// collection scan, one unexplained, one refused), the client's CPU per
// interval beside the server's.
func operatorResult() *results.Result {
	res := resultstest.ClosedRun().Result()
	res.Context = &results.ServerContext{Version: "7.0.12", FCV: "7.0", StorageEngine: "wiredTiger", CacheBytes: p64(3 << 30), BlockCompressor: "snappy",
		Topology: &results.Topology{Kind: results.ReplicaSet, SetName: "rs0", Members: []results.TopologyMember{{Name: "db1:27017", State: "PRIMARY"}, {Name: "db2:27017", State: "SECONDARY"}}},
		Host:     &results.HostFacts{Hostname: "db1", Cores: p64(4), MemoryMB: p64(8192), MemLimitMB: p64(4096)},
		Absent:   []string{"networkCompressors"}}
	res.Collections = []results.CollectionStats{
		{Namespace: "airline.flights", Before: &results.CollStats{Count: p64(14591), DataSize: p64(28088508), StorageSize: p64(15900672), TotalIndexSize: p64(4943872), AvgObjSize: p64(1925)},
			After: &results.CollStats{Count: p64(15020), DataSize: p64(28914500), StorageSize: p64(16384000), TotalIndexSize: p64(5111808), AvgObjSize: p64(1925)}},
		{Namespace: "airline.gone", Unavailable: "collStats gave nothing"},
	}
	res.Slow = &results.Slow{ThresholdMs: 200, MaxShapes: 100, Operations: 57, Shapes: []results.SlowShape{
		{Namespace: "airline.flights", Type: "find", Ops: []string{"flights_by_gate"}, Shape: "{gate: <string>, duration_minutes: {$gt: <int32>}}", Count: 41,
			Latency: results.Latency{P50: 412.1, P99: 955.3, Max: 1203.2},
			Explain: &results.Explain{As: "find", Plan: "LIMIT > COLLSCAN", Scan: "COLLSCAN", DocsExamined: 14591, Returned: 2, KeysPerReturned: pf64(0), DocsPerReturned: pf64(7295.5), CollScan: true}},
		{Namespace: "airline.flights", Type: "updateOne", Ops: []string{"book_seat"}, Shape: "{flight_id: <int64>, seats_available: {$gt: <int32>}}", Count: 12, Errors: 1,
			Latency: results.Latency{P50: 230.5, P99: 301.9, Max: 301.9},
			Explain: &results.Explain{As: "find", Plan: "LIMIT > FETCH > IXSCAN", Scan: "IXSCAN", Index: "flight_id_1_equipment.plane_type_1", KeysExamined: 1, DocsExamined: 1, Returned: 1, KeysPerReturned: pf64(1), DocsPerReturned: pf64(1)}},
		{Namespace: "airline.flights", Type: "aggregate", Shape: "[{$match: {seats_available: {$lte: <int32>}}}, {$limit: <int32>}]", Count: 3,
			Latency: results.Latency{P50: 210, P99: 220, Max: 220}, Explain: &results.Explain{As: "aggregate", Error: "(Unauthorized) not authorized"}},
	}, Other: &results.SlowShape{Shape: "(other shapes)", Count: 1, Latency: results.Latency{P50: 201, P99: 201, Max: 201}}}
	for i := range res.Intervals {
		res.Intervals[i].Client = &results.IntervalClient{CPUSeconds: 0.5 + 0.5*float64(i), Utilization: []float64{0.42, 0.93, 0.61}[i%3]}
	}
	res.Client = &results.ClientUsage{CPUSeconds: 6.1, CPUPerOpMicros: 207.1, Utilization: 0.61, Cores: 8, MaxRSSBytes: 61 << 20, PeakUtilization: 0.93, SaturatedIntervals: 2}
	res.Server = &results.Server{Host: "db1:27017", Process: "mongod", Version: "7.0.12", IntervalSeconds: 1, Samples: []results.ServerSample{
		{T: 1, Dt: 1, CPU: &results.CPU{UserSeconds: pf64(2.9), SystemSeconds: pf64(0.4)}},
		{T: 2, Dt: 1, CPU: &results.CPU{UserSeconds: pf64(3.5), SystemSeconds: pf64(0.3)}},
	}}
	return res
}

// TestOperatorConsoleGolden protects the report's context, collections,
// slow-shape and CPU lines.
func TestOperatorConsoleGolden(t *testing.T) {
	var b bytes.Buffer
	if err := WriteConsole(&b, operatorResult()); err != nil {
		t.Fatal(err)
	}
	resultstest.Golden(t, "operator.golden", b.Bytes())
}

func TestCPUSummary(t *testing.T) {
	tests := []struct {
		name     string
		res      func() *results.Result
		line     string
		verdicts int
	}{
		// both sides per interval: the client saturated twice, the server once (3.8 s of 4 cores)
		{"both sides", operatorResult, "client avg 66%, busiest interval 93% of 8 cores; server avg 89%, busiest interval 95% of 4 cores", 2},
		// a server without CPU times says so
		{"server CPU absent", func() *results.Result {
			r := operatorResult()
			r.Server.Samples = []results.ServerSample{{T: 1, Dt: 1}}
			return r
		}, "client avg 66%, busiest interval 93% of 8 cores; server CPU not reported by the server (serverStatus.extra_info)", 1},
		// the console's result has no series: the client section's summary stands in
		{"from the client section", func() *results.Result {
			r := operatorResult()
			r.Intervals, r.Server = nil, nil
			r.Client.Utilization, r.Client.PeakUtilization, r.Client.SaturatedIntervals = 0.3, 0.5, 0
			return r
		}, "client avg 30%, busiest interval 50% of 8 cores", 0},
		// an older file: nothing per interval, no line
		{"nothing", func() *results.Result { return resultstest.ClosedRun().Result() }, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			line, verdicts := CPUSummary(tt.res())
			if line != tt.line || len(verdicts) != tt.verdicts {
				t.Errorf("got %q, %v", line, verdicts)
			}
		})
	}
}

func TestDiffContext(t *testing.T) {
	a := operatorResult().Context
	b := *a
	b.Version, b.FCV = "8.0.4", "8.0"
	b.Host = &results.HostFacts{Cores: p64(8), MemoryMB: p64(8192), MemLimitMB: p64(4096)}
	b.CacheBytes = nil
	want := []results.ContextDiff{{Field: "version", A: "7.0.12", B: "8.0.4"}, {Field: "featureCompatibilityVersion", A: "7.0", B: "8.0"},
		{Field: "cacheBytes", A: "3 GB", B: "absent"}, {Field: "host.cores", A: "4", B: "8"}}
	if got := results.DiffContext(a, &b); !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v", got)
	}
	if got := results.DiffContext(a, a); len(got) != 0 {
		t.Errorf("a context differs from itself: %+v", got)
	}
}
