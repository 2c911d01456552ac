package metrics

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"
)

var t0 = time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)

// TestConcurrentRecordingExactCounts protects the central promise: with many
// workers recording while the collector cuts intervals, every sample and
// every error lands in exactly one interval. Run it with -race.
func TestConcurrentRecordingExactCounts(t *testing.T) {
	const (
		workers = 64
		perOp   = 2000
	)
	ops := []string{"find", "insert", "update"}
	r := NewRecorder(ops, Options{Shards: 4, Service: true})
	totals := NewTotals(ops, true)

	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := r.Shard(w)
			for i := range perOp {
				for op := range ops {
					d := time.Duration(i+1) * time.Microsecond
					s.RecordService(op, d, d/2)
				}
				if i%100 == 0 {
					s.RecordError(w%len(ops), "timeout")
				}
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()

	// Cut intervals while the workers record.
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
		}
		totals.Add(r.Interval(time.Now()))
	}
	totals.Add(r.Interval(time.Now())) // anything recorded after the last cut

	var errs int64
	for i := range ops {
		o := totals.Op(i)
		if got, want := o.Count(), int64(workers*perOp); got != want {
			t.Errorf("%s: count %d, want %d", o.Name, got, want)
		}
		if got, want := o.Service.TotalCount(), int64(workers*perOp); got != want {
			t.Errorf("%s: service count %d, want %d", o.Name, got, want)
		}
		errs += o.ErrorCount()
	}
	if want := int64(workers * perOp / 100); errs != want {
		t.Errorf("errors %d, want %d", errs, want)
	}
}

// TestIntervalReturnsOnlyNewSamples protects against the go-ycsb mistake of
// "interval" figures that are really cumulative.
func TestIntervalReturnsOnlyNewSamples(t *testing.T) {
	r := NewRecorder([]string{"find"}, Options{Shards: 3})
	r.Reset(t0)
	for w := range 3 {
		r.Shard(w).Record(0, 10*time.Millisecond)
	}
	r.Shard(0).RecordError(0, "network")
	first := r.Interval(t0.Add(time.Second))

	r.Shard(1).Record(0, 1*time.Millisecond)
	second := r.Interval(t0.Add(2 * time.Second))
	third := r.Interval(t0.Add(3 * time.Second))

	tests := []struct {
		name        string
		iv          *Interval
		count, errs int64
		start, end  time.Duration
	}{
		// three workers on three shards, merged
		{"first", first, 3, 1, 0, time.Second},
		// only the one new sample, and the error is not repeated
		{"second", second, 1, 0, time.Second, 2 * time.Second},
		// nothing new: empty, not a repeat of earlier samples
		{"third", third, 0, 0, 2 * time.Second, 3 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := &tt.iv.Ops[0]
			if o.Count() != tt.count || o.ErrorCount() != tt.errs {
				t.Errorf("count %d errors %d, want %d %d", o.Count(), o.ErrorCount(), tt.count, tt.errs)
			}
			if !tt.iv.Start.Equal(t0.Add(tt.start)) || !tt.iv.End.Equal(t0.Add(tt.end)) {
				t.Errorf("interval %v..%v, want %v..%v", tt.iv.Start, tt.iv.End, t0.Add(tt.start), t0.Add(tt.end))
			}
		})
	}
	if got := second.Ops[0].Latency.Max(); got > 1001 {
		t.Errorf("second interval max %dµs: an older 10ms sample leaked in", got)
	}
	if second.Ops[0].Errors != nil {
		t.Errorf("second interval errors %v, want nil", second.Ops[0].Errors)
	}
}

// TestResetDiscards protects the warm-up cut: nothing recorded before Reset
// may reach a measured interval.
func TestResetDiscards(t *testing.T) {
	r := NewRecorder([]string{"find", "insert"}, Options{Shards: 2})
	s := r.Shard(0)
	s.Record(0, time.Second)
	s.Record(1, time.Second)
	s.RecordError(1, "timeout")
	r.Reset(t0)
	s.Record(0, time.Millisecond)

	iv := r.Interval(t0.Add(time.Second))
	if !iv.Start.Equal(t0) {
		t.Errorf("start %v, want the reset time %v", iv.Start, t0)
	}
	if got := iv.Ops[0].Count(); got != 1 {
		t.Errorf("find count %d, want 1", got)
	}
	if got := iv.Ops[0].Latency.Max(); got > 1001 {
		t.Errorf("find max %dµs: a warm-up sample survived Reset", got)
	}
	if iv.Ops[1].Count() != 0 || iv.Ops[1].Errors != nil {
		t.Errorf("insert count %d errors %v, want 0 and nil", iv.Ops[1].Count(), iv.Ops[1].Errors)
	}
}

// TestOverflowClamped protects against silently dropping latencies above the
// trackable range: they are clamped to it and counted.
func TestOverflowClamped(t *testing.T) {
	tests := []struct {
		name              string
		service           bool
		record            func(s *Shard)
		count, overflow   int64
		maxMicros         int64 // lower bound of the recorded max
		svcCount, svcOver int64
	}{
		// an in-range value is not overflow
		{"in range", false, func(s *Shard) { s.Record(0, time.Minute) }, 1, 0, 59_000_000, 0, 0},
		// two hours is clamped to one hour and counted
		{"above", false, func(s *Shard) { s.Record(0, 2*time.Hour) }, 1, 1, HighestMicros, 0, 0},
		// open loop: the response time overflows, the service time does not
		{"response above", true, func(s *Shard) { s.RecordService(0, 2*time.Hour, time.Millisecond) }, 1, 1, HighestMicros, 1, 0},
		// both overflow: one sample, counted once
		{"both above", true, func(s *Shard) { s.RecordService(0, 2*time.Hour, 2*time.Hour) }, 1, 1, HighestMicros, 1, 0},
		// service disabled: a huge service time is ignored, not overflow
		{"service ignored", false, func(s *Shard) { s.RecordService(0, time.Millisecond, 2*time.Hour) }, 1, 0, 999, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewRecorder([]string{"op"}, Options{Shards: 1, Service: tt.service})
			tt.record(r.Shard(0))
			o := r.Interval(t0).Ops[0]
			if o.Count() != tt.count || o.Overflow != tt.overflow {
				t.Errorf("count %d overflow %d, want %d %d", o.Count(), o.Overflow, tt.count, tt.overflow)
			}
			if got := o.Latency.Max(); got < tt.maxMicros {
				t.Errorf("max %dµs, want at least %dµs", got, tt.maxMicros)
			}
			if (o.Service != nil) != tt.service {
				t.Errorf("service histogram present = %v, want %v", o.Service != nil, tt.service)
			}
			if tt.service && o.Service.TotalCount() != tt.svcCount {
				t.Errorf("service count %d, want %d", o.Service.TotalCount(), tt.svcCount)
			}
		})
	}
}

// TestShardMapping protects the documented worker-to-shard rule, including
// negative worker numbers, which must not panic.
func TestShardMapping(t *testing.T) {
	r := NewRecorder([]string{"op"}, Options{Shards: 4})
	tests := []struct {
		worker, same int
	}{
		{0, 4},  // wraps around
		{5, 1},  // 5 mod 4
		{-1, 3}, // negative maps into range
	}
	for _, tt := range tests {
		if r.Shard(tt.worker) != r.Shard(tt.same) {
			t.Errorf("Shard(%d) != Shard(%d)", tt.worker, tt.same)
		}
	}
	if r.Shard(0) == r.Shard(1) {
		t.Error("consecutive workers share a shard")
	}
	if d := NewRecorder(nil, Options{}).Shards(); d < 2 {
		t.Errorf("default shards %d, want 2×GOMAXPROCS", d)
	}
}

// TestIntervalIsImmutable protects sinks that read an Interval concurrently
// while recording and collecting go on: with -race, any write the recorder
// made to a returned Interval would be reported.
func TestIntervalIsImmutable(t *testing.T) {
	r := NewRecorder([]string{"op"}, Options{Shards: 2})
	r.Shard(0).Record(0, time.Millisecond)
	r.Shard(0).RecordError(0, "timeout")
	iv := r.Interval(time.Now())
	want := iv.Ops[0].Latency.ValueAtQuantile(99)

	var wg sync.WaitGroup
	wg.Add(3)
	go func() {
		defer wg.Done()
		for i := range 1000 {
			r.Shard(i).Record(0, time.Second)
			r.Shard(i).RecordError(0, "timeout")
		}
	}()
	go func() {
		defer wg.Done()
		for range 20 {
			r.Interval(time.Now())
		}
	}()
	go func() {
		defer wg.Done()
		for range 20 {
			_ = iv.Ops[0].Latency.ValueAtQuantile(99)
			_ = iv.Ops[0].ErrorCount()
		}
	}()
	wg.Wait()
	if got := iv.Ops[0].Latency.ValueAtQuantile(99); got != want || iv.Ops[0].Count() != 1 || iv.Ops[0].ErrorCount() != 1 {
		t.Errorf("interval changed after it was returned: p99 %d (want %d), count %d, errors %d",
			got, want, iv.Ops[0].Count(), iv.Ops[0].ErrorCount())
	}
}

// TestOpsIsACopy protects the recorder's op list from callers.
func TestOpsIsACopy(t *testing.T) {
	names := []string{"a", "b"}
	r := NewRecorder(names, Options{Shards: 1})
	names[0] = "changed"
	got := r.Ops()
	got[1] = "changed"
	if fmt.Sprint(r.Ops()) != "[a b]" {
		t.Errorf("Ops() = %v, want [a b]", r.Ops())
	}
}

// randomLatency draws a heavy-tailed latency, so tests cover many buckets.
func randomLatency(rng *rand.Rand) time.Duration {
	return time.Duration(rng.ExpFloat64()*2e6) + time.Duration(rng.IntN(50))*time.Microsecond
}

// TestHotPathDoesNotAllocate enforces in every test run what the benchmarks
// show: recording a latency, a service time or a known error class
// allocates nothing.
func TestHotPathDoesNotAllocate(t *testing.T) {
	r := NewRecorder([]string{"op"}, Options{Shards: 1, Service: true})
	s := r.Shard(0)
	for range 2 { // give both of the shard's sets the error class's map
		s.RecordError(0, "timeout")
		r.Interval(time.Now())
	}
	tests := []struct {
		name string
		f    func()
	}{
		{"Record", func() { s.Record(0, 3*time.Millisecond) }},                                 // closed loop
		{"RecordService", func() { s.RecordService(0, 3*time.Millisecond, time.Millisecond) }}, // open loop
		{"Record overflow", func() { s.Record(0, 2*time.Hour) }},                               // the clamping path
		{"RecordError", func() { s.RecordError(0, "timeout") }},                                // a known class
	}
	for _, tt := range tests {
		if n := testing.AllocsPerRun(1000, tt.f); n != 0 {
			t.Errorf("%s: %v allocs per call, want 0", tt.name, n)
		}
	}
}

// TestLoadCountsPerInterval: dropped, late and scheduled counts belong to the
// interval they happened in, and the totals add them up.
func TestLoadCountsPerInterval(t *testing.T) {
	r := NewRecorder([]string{"a"}, Options{})
	tot := NewTotals(r.Ops(), false)
	r.Scheduled(10)
	r.Dropped()
	r.Late()
	r.InFlight(3)
	iv := r.Interval(time.Now())
	tot.Add(iv)
	if iv.Load.Scheduled != 10 || iv.Load.Dropped != 1 || iv.Load.Late != 1 || iv.Load.InFlight != 3 {
		t.Fatalf("first interval load %+v", iv.Load)
	}
	r.Scheduled(5)
	r.InFlight(-3)
	iv = r.Interval(time.Now())
	tot.Add(iv)
	if iv.Load.Scheduled != 5 || iv.Load.Dropped != 0 || iv.Load.InFlight != 0 {
		t.Fatalf("second interval load %+v", iv.Load)
	}
	if l := tot.Load(); l.Scheduled != 15 || l.Dropped != 1 || l.Late != 1 {
		t.Fatalf("totals load %+v", l)
	}
}

// TestIntervalHistogramsReused: a released interval's histograms serve the
// next interval, emptied; one still held by a sink is not touched until
// its last holder releases it. The oracle is the samples recorded into
// each interval.
func TestIntervalHistogramsReused(t *testing.T) {
	r := NewRecorder([]string{"op"}, Options{Shards: 2})
	t0 := time.Now()
	for i := range 5 {
		r.Shard(i).Record(0, time.Millisecond)
	}
	first := r.Interval(t0.Add(time.Second))
	first.Retain() // a sink holds it
	h := first.Ops[0].Latency
	first.Release() // the caller is done; the sink is not
	r.Shard(0).Record(0, 2*time.Millisecond)
	second := r.Interval(t0.Add(2 * time.Second))
	if second.Ops[0].Latency == h {
		t.Fatal("a histogram still held by a sink was reused")
	}
	if n := first.Ops[0].Count(); n != 5 {
		t.Fatalf("the held interval counts %d, want 5", n)
	}
	first.Release() // the sink is done: its histogram goes back
	h2 := second.Ops[0].Latency
	second.Release()
	for i := range 3 {
		r.Shard(i).Record(0, 3*time.Millisecond)
	}
	third := r.Interval(t0.Add(3 * time.Second))
	got := third.Ops[0].Latency
	if got != h && got != h2 {
		t.Fatal("released histograms were not reused")
	}
	if got.TotalCount() != 3 || got.Min() != 3000 || got.EndTimeMs() != t0.Add(3*time.Second).UnixMilli() {
		t.Fatalf("reused histogram: count %d, min %d, end %d", got.TotalCount(), got.Min(), got.EndTimeMs())
	}
	if first.Ops[0].Latency != nil {
		t.Fatal("a released interval still points at a histogram now reused")
	}
}
