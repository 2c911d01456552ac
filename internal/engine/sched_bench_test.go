package engine

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/engine/enginetest"
	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/workload"
)

// schedulingLateness runs o for one second with a no-op executor and reports
// the achieved rate and the lateness of the hand-off from the scheduler (open
// loop) or dispatcher (sessions) to a runner: p50, p99 and max, in µs.
// Run it on one core: go test -run '^$' -bench Scheduling -cpu 1 ./internal/engine
func schedulingLateness(b *testing.B, o Options) {
	p := benchPlan(b)
	for b.Loop() {
		var mu sync.Mutex
		lat := metrics.NewHistogram()
		o.handOff = func(d time.Duration) {
			mu.Lock()
			_ = lat.RecordValue(d.Microseconds())
			mu.Unlock()
		}
		rec := metrics.NewRecorder(p.OpNames(), metrics.Options{Service: Service(o)})
		res := Run(context.Background(), p, []Executor{nop, nop}, rec, discard{}.Interval, o)
		load := res.Totals.Load()
		var ops int64
		for i := 0; i < res.Totals.Len(); i++ {
			ops += res.Totals.Op(i).Count()
		}
		b.ReportMetric(float64(ops)/res.End.Sub(res.Start).Seconds(), "ops/s")
		b.ReportMetric(float64(load.Dropped), "dropped")
		b.ReportMetric(float64(lat.ValueAtQuantile(50)), "p50-late-µs")
		b.ReportMetric(float64(lat.ValueAtQuantile(99)), "p99-late-µs")
		b.ReportMetric(float64(lat.Max()), "max-late-µs")
	}
}

// nop answers at once: the benchmarks measure the client alone.
var nop = enginetest.Answer{Returned: 1, Shaped: 1}

type discard struct{}

func (discard) Interval(*metrics.Interval, time.Duration) {}

// BenchmarkSchedulingOpenLoop: 50,000 scheduled operations per second.
func BenchmarkSchedulingOpenLoop(b *testing.B) {
	schedulingLateness(b, Options{Model: Open, Rate: 50000, Duration: time.Second, Interval: time.Second})
}

// BenchmarkSchedulingOpenLoopSlow: 1,000 scheduled operations per second,
// where the scheduler sleeps between operations: Go's timers alone wake it
// 0.5 ms late at the median (see wakeSpacing).
func BenchmarkSchedulingOpenLoopSlow(b *testing.B) {
	schedulingLateness(b, Options{Model: Open, Rate: 1000, Duration: time.Second, Interval: time.Second})
}

// BenchmarkSchedulingSessions: 5,000 sessions thinking 100 ms, 50,000 operations per second.
func BenchmarkSchedulingSessions(b *testing.B) {
	schedulingLateness(b, Options{Model: Sessions, Sessions: 5000, ThinkTime: 100 * time.Millisecond,
		Duration: time.Second, Interval: time.Second})
}

func benchPlan(b *testing.B) *workload.Plan {
	b.Helper()
	return testPlan(b)
}
