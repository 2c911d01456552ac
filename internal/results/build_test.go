package results_test

import (
	"strings"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/results/resultstest"
)

// TestBuild protects the arithmetic readers rely on: throughput is count
// over the measured time, totals add up, and the whole-run latency comes
// from the histograms.
func TestBuild(t *testing.T) {
	r := resultstest.ClosedRun()
	res := r.Result()
	if res.DurationSeconds != 5 || res.WarmupSeconds != 10 {
		t.Errorf("duration %v warm-up %v, want 5 and 10", res.DurationSeconds, res.WarmupSeconds)
	}
	if !res.StartedAt.Equal(resultstest.T0.Add(resultstest.Warmup)) || !res.EndedAt.Equal(resultstest.T0.Add(resultstest.Warmup+5*time.Second)) {
		t.Errorf("measured %v..%v", res.StartedAt, res.EndedAt)
	}
	var count, errs int64
	for i, o := range res.Operations {
		ot := r.Totals.Op(i)
		if o.Count != ot.Count() || o.Throughput != results.Round3(float64(ot.Count())/5) {
			t.Errorf("%s: count %d throughput %v", o.Name, o.Count, o.Throughput)
		}
		if o.Count > 0 && o.Latency.P99 != float64(ot.Latency.ValueAtQuantile(99))/1000 {
			t.Errorf("%s: p99 %v, want %v", o.Name, o.Latency.P99, ot.Latency.ValueAtQuantile(99))
		}
		count += o.Count
		errs += o.Errors
	}
	tt := res.Totals
	if tt.Operations != count || tt.Errors != errs || tt.Errors != 15 || tt.ErrorsByClass["DuplicateKey(11000)"] != 12 {
		t.Errorf("totals %+v, want %d operations, 15 errors", tt, count)
	}
	if tt.Overflow != 1 || !strings.Contains(strings.Join(res.Notes, "\n"), "update_seats: 1 latency exceeded") {
		t.Errorf("overflow %d, notes %q", tt.Overflow, res.Notes)
	}
	if res.Operations[1].Type != "updateOne" || res.Schema != results.Schema {
		t.Errorf("type %q schema %q", res.Operations[1].Type, res.Schema)
	}
}

// TestBuildNothingMeasured protects results of runs that ended during the
// warm-up: valid, with the run's own times and a note saying why it is empty.
func TestBuildNothingMeasured(t *testing.T) {
	tests := []struct {
		name   string
		totals *metrics.Totals
		ops    int
	}{
		{"nil totals", nil, 0}, // the run never got as far as a recorder
		{"no intervals", metrics.NewTotals([]string{"a", "b"}, false), 2}, // operations listed with zero counts
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			info := resultstest.BaseInfo(results.LoadModel{Type: results.Closed})
			res := results.Build(info, tt.totals, nil)
			if len(res.Operations) != tt.ops || res.Intervals == nil || res.Totals.Throughput != 0 {
				t.Errorf("operations %d intervals %v throughput %v", len(res.Operations), res.Intervals, res.Totals.Throughput)
			}
			if !res.StartedAt.Equal(info.StartedAt) || !strings.Contains(strings.Join(res.Notes, ""), "nothing was measured") {
				t.Errorf("startedAt %v notes %q", res.StartedAt, res.Notes)
			}
		})
	}
}

// TestSummarize protects interval rates: per second of that interval, not
// of the run.
func TestSummarize(t *testing.T) {
	r := metrics.NewRecorder([]string{"a"}, metrics.Options{Shards: 1})
	r.Reset(resultstest.T0)
	for range 300 {
		r.Shard(0).Record(0, 2*time.Millisecond)
	}
	r.Shard(0).RecordError(0, "timeout")
	s := results.Summarize(r.Interval(resultstest.T0.Add(1500*time.Millisecond)), 31500*time.Millisecond)
	o := s.Ops[0]
	if s.T != 31.5 || s.Dt != 1.5 || o.Rate != 200 || o.P99 != 2 || o.Max != 2 || o.Errors != 1 || o.ErrorsByClass["timeout"] != 1 {
		t.Errorf("summary %+v %+v", s, o)
	}
}
