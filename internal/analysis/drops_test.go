package analysis

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
)

// TestDropsFailLatencyObjectives: an open-loop operation that was due and
// never sent was never answered, so it meets no latency objective: each
// drop counts as an infinite latency. The oracle is rank arithmetic on the
// 98 answered latencies 1..98 ms and the 2 drops of 100 scheduled.
func TestDropsFailLatencyObjectives(t *testing.T) {
	rec := metrics.NewRecorder([]string{"get"}, metrics.Options{Shards: 1, Service: true})
	start := time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)
	rec.Reset(start)
	for ms := 1; ms <= 98; ms++ {
		d := time.Duration(ms) * time.Millisecond
		rec.Shard(0).RecordService(0, d, d)
	}
	rec.Scheduled(100)
	rec.Dropped()
	rec.Dropped()
	tot := rec.NewTotals()
	tot.Add(rec.Interval(start.Add(time.Second)))
	res := results.Build(results.RunInfo{Load: results.LoadModel{Type: results.Open, Rate: 100}, OpTypes: map[string]string{"get": "findOne"}}, tot, nil)
	if res.Schedule == nil || res.Schedule.DroppedShare != 0.02 {
		t.Fatalf("schedule %+v: want a drop share of 0.02", res.Schedule)
	}
	inf := math.Inf(1)
	tests := []struct {
		slo  string
		want float64 // ms
		pass bool
	}{
		{"p50<=60ms", 50, true},      // rank 50 of 100 is the 50th answered: 50ms
		{"p98<=1s", 98, true},        // rank 98: the slowest answered
		{"p99<=1s", inf, false},      // rank 99 falls among the drops
		{"get:p99<=1s", inf, false},  // the scope holds every attempt, so every drop
		{"max<=1s", inf, false},      // a drop is slower than any answer
		{"avg<=1s", inf, false},      // and so is the mean
		{"min<=2ms", 1, true},        // the fastest answer stands
		{"throughput>=90", 98, true}, // not a latency: drops do not count
		{"under(1s)>=98%", 98, true}, // a share: 98 answered of 100 scheduled
		{"under(1s)>98%", 98, false}, // the drops are never under any bound
	}
	for _, tt := range tests {
		v := verdictOf(t, res, tt.slo)
		if v.Pass != tt.pass || !(v.Measured == tt.want || math.Abs(v.Measured-tt.want) <= 0.001*tt.want) {
			t.Errorf("%s: measured %g pass %v, want %g pass %v", tt.slo, v.Measured, v.Pass, tt.want, tt.pass)
		}
		if math.IsInf(tt.want, 1) && !strings.Contains(v.String(), "2 dropped") {
			t.Errorf("%s: the verdict must say the drops made it fail: %s", tt.slo, v)
		}
	}
}
