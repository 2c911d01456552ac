package metrics

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// TestTotalsEqualsOneHistogram protects the rule that whole-run figures add
// histograms: totals built from intervals cut at random points, over many
// shards, must equal one histogram of every sample, bucket for bucket, so
// every percentile is the same exactly.
func TestTotalsEqualsOneHistogram(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ops := []string{"find", "update"}
	r := NewRecorder(ops, Options{Shards: 5})
	r.Reset(t0)
	totals := NewTotals(ops, false)
	ref := []*hdrhistogram.Histogram{NewHistogram(), NewHistogram()}
	want := make([]int64, len(ops))

	now := t0
	for i := range 200_000 {
		op := rng.IntN(len(ops))
		d := randomLatency(rng)
		r.Shard(i).Record(op, d)
		v, _ := micros(d)
		if err := ref[op].RecordValue(v); err != nil {
			t.Fatal(err)
		}
		want[op]++
		if rng.IntN(10_000) == 0 {
			now = now.Add(time.Second)
			totals.Add(r.Interval(now))
		}
	}
	now = now.Add(time.Second)
	totals.Add(r.Interval(now))

	if !totals.Start().Equal(t0) || !totals.End().Equal(now) || totals.Intervals() < 2 {
		t.Errorf("totals span %v..%v over %d intervals, want %v..%v over several",
			totals.Start(), totals.End(), totals.Intervals(), t0, now)
	}
	for i := range ops {
		got := totals.Op(i).Latency
		if got.TotalCount() != want[i] {
			t.Errorf("%s: count %d, want %d", ops[i], got.TotalCount(), want[i])
		}
		if !got.Equals(ref[i]) {
			t.Errorf("%s: totals histogram differs from the single histogram", ops[i])
		}
		for _, q := range []float64{50, 95, 99, 99.9, 99.99, 100} {
			if g, w := got.ValueAtQuantile(q), ref[i].ValueAtQuantile(q); g != w {
				t.Errorf("%s: p%v = %d, want %d", ops[i], q, g, w)
			}
		}
	}
}

// TestTotalsAddsErrorsAndOverflow protects the counters that travel beside
// the histograms.
func TestTotalsAddsErrorsAndOverflow(t *testing.T) {
	r := NewRecorder([]string{"insert"}, Options{Shards: 2, Service: true})
	totals := NewTotals(r.Ops(), true)
	for i := range 3 {
		s := r.Shard(i)
		s.RecordError(0, "DuplicateKey(11000)")
		s.RecordService(0, 2*time.Hour, time.Millisecond)
		totals.Add(r.Interval(t0.Add(time.Duration(i) * time.Second)))
	}
	o := totals.Op(0)
	if o.Errors["DuplicateKey(11000)"] != 3 || o.ErrorCount() != 3 {
		t.Errorf("errors %v, want 3 DuplicateKey(11000)", o.Errors)
	}
	if o.Overflow != 3 || o.Count() != 3 || o.Service.TotalCount() != 3 {
		t.Errorf("overflow %d count %d service %d, want 3 3 3", o.Overflow, o.Count(), o.Service.TotalCount())
	}
	if totals.Len() != 1 || o.Name != "insert" {
		t.Errorf("Len %d name %q", totals.Len(), o.Name)
	}
}

// TestTotalsRejectsMismatch protects against adding an interval of another
// recorder, which would attribute latencies to the wrong operations.
func TestTotalsRejectsMismatch(t *testing.T) {
	tests := []struct {
		name string
		ops  []string
	}{
		{"fewer ops", []string{"a"}},        // length differs
		{"other names", []string{"a", "c"}}, // same length, other operation
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("Add did not panic")
				}
			}()
			NewTotals([]string{"a", "b"}, false).Add(NewRecorder(tt.ops, Options{Shards: 1}).Interval(t0))
		})
	}
}
