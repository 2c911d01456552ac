package analysis

import (
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/results"
)

// A lag objective reads the watchers, never the operations: the worst
// watcher without a scope, the named one with; a watcher that received
// nothing meets no lag objective; bad metrics and bounds are refused.
func TestWatchLagObjectives(t *testing.T) {
	res := &results.Result{
		Operations: []results.Operation{{Name: "add", Type: "insertOne", Count: 10}},
		Watchers: []results.Watcher{
			{Name: "fast", Events: 100, Lag: results.WatchLag{Count: 100, P50: 2, P99: 40, Max: 90}},
			{Name: "slow", Events: 100, Lag: results.WatchLag{Count: 100, P50: 300, P99: 700, Max: 900}},
			{Name: "idle"},
		},
	}
	tests := []struct {
		slo      string
		pass     bool
		measured float64
		missing  bool
	}{
		{"fast:watch.lag.p99<=500ms", true, 40, false},   // one watcher by name
		{"slow:watch.lag.p99<=500ms", false, 700, false}, // the other misses it
		{"idle:watch.lag.max<=1s", false, 0, false},      // no event: no lag to meet it with (∞)
		{"fast:watch.lag.max<0.1s", true, 90, false},     // units as for operations
		{"nope:watch.lag.p50<=1s", false, 0, true},       // no such watcher
	}
	for _, tt := range tests {
		os, err := ParseObjectives(tt.slo)
		if err != nil {
			t.Fatalf("%s: %v", tt.slo, err)
		}
		vs, err := Check(res, os)
		if err != nil {
			t.Fatal(err)
		}
		v := vs[0]
		if v.Pass != tt.pass || v.Missing != tt.missing || (tt.measured > 0 && v.Measured != tt.measured) {
			t.Errorf("%s: pass %v missing %v measured %v; want %v %v %v", tt.slo, v.Pass, v.Missing, v.Measured, tt.pass, tt.missing, tt.measured)
		}
	}
	// Without a scope, the worst of the watchers that received events and
	// the one that did not: infinite, so it fails.
	os, _ := ParseObjectives("watch.lag.p99<=800ms")
	vs, _ := Check(res, os)
	if vs[0].Pass || !strings.Contains(vs[0].String(), "∞") {
		t.Errorf("watch.lag.p99 over all watchers: %s", vs[0])
	}
	for _, bad := range []string{"watch.lag.p42x<=1s", "watch.lag.throughput>=5", "watch.lag.p99<=-1ms", "watch.lag.p99<=soon"} {
		if _, err := ParseObjectives(bad); err == nil {
			t.Errorf("%s was accepted", bad)
		}
	}
}
