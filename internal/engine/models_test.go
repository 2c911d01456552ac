package engine

import (
	"context"
	"math"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/engine/enginetest"
	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/testserver"
	"github.com/mongoload/mongoload/internal/workload"
)

func runModel(t *testing.T, ex Executor, o Options) (*Result, *collectSink) {
	t.Helper()
	p := testPlan(t)
	sink := &collectSink{}
	rec := metrics.NewRecorder(p.OpNames(), metrics.Options{Service: Service(o), Parents: p.OpParents()})
	if o.Interval == 0 {
		o.Interval = 100 * time.Millisecond
	}
	return Run(context.Background(), p, []Executor{ex, ex}, rec, sink.Interval, o), sink
}

// TestOpenLoopKeepsItsRate: the achieved rate is the target (to 1%) when the
// server keeps up, and nothing is dropped. The in-flight cap holds the
// whole second's operations: with 200 places, a busy machine that left the
// process without a core for 100ms made it drop (67 of 2,001 seen under a
// load average of 33), which is the engine right, not wrong.
func TestOpenLoopKeepsItsRate(t *testing.T) {
	testserver.Timing(t)
	res, _ := runModel(t, &enginetest.Fake{Delay: time.Millisecond}, Options{Model: Open, Rate: 2000, Duration: time.Second, MaxInFlight: 2100})
	ops, errs := total(res)
	load := res.Totals.Load()
	achieved := float64(ops) / res.End.Sub(res.Start).Seconds()
	if errs != 0 || load.Dropped != 0 || math.Abs(float64(load.Scheduled)-2000) > 20 {
		t.Fatalf("scheduled %d, dropped %d, errors %d", load.Scheduled, load.Dropped, errs)
	}
	if math.Abs(achieved-2000)/2000 > 0.02 { // the final in-flight tail stretches the end slightly
		t.Fatalf("achieved %.1f ops/s of 2000", achieved)
	}
	if res.Totals.Op(0).Service == nil || res.Totals.Op(0).Service.TotalCount() == 0 {
		t.Fatal("no service times in an open-loop run")
	}
}

// TestOpenLoopDropsWhenFull: with every in-flight place taken, due
// operations are dropped and counted, not queued: at 1000/s with 2 places
// and 20ms operations, about 100/s get through.
func TestOpenLoopDropsWhenFull(t *testing.T) {
	testserver.Timing(t)
	res, _ := runModel(t, &enginetest.Fake{Delay: 20 * time.Millisecond}, Options{Model: Open, Rate: 1000, Duration: time.Second, MaxInFlight: 2})
	ops, _ := total(res)
	load := res.Totals.Load()
	if load.Dropped < 700 || ops > 150 || load.Scheduled-load.Dropped < ops {
		t.Fatalf("%d scheduled, %d dropped, %d done", load.Scheduled, load.Dropped, ops)
	}
}

// TestOpenLoopMeasuresFromSchedule: when the server stalls, operations due
// during the stall wait, and their latency counts from when they were due:
// the stall shows in the response time.
func TestOpenLoopMeasuresFromSchedule(t *testing.T) {
	testserver.Timing(t)
	// The stall strikes on an event, the 300th operation (about 300ms into
	// the run), not at a time fixed before the run began.
	var calls, stallUntil atomic.Int64
	ex := enginetest.Docs(func(ctx context.Context, _ *workload.Request) (metrics.Docs, error) {
		if calls.Add(1) == 300 {
			stallUntil.Store(time.Now().Add(300 * time.Millisecond).UnixNano())
		}
		if d := time.Until(time.Unix(0, stallUntil.Load())); stallUntil.Load() != 0 && d > 0 {
			time.Sleep(d)
		}
		return metrics.Docs{Returned: 1, Shaped: 1}, nil
	})
	res, _ := runModel(t, ex, Options{Model: Open, Rate: 1000, Duration: time.Second, MaxInFlight: 1000})
	h := res.Totals.Op(0).Latency
	// About 30% of the operations were due during a 300ms stall, waiting
	// 0-300ms: the 85th percentile is about 150ms, far above normal.
	if p := h.ValueAtQuantile(85); p < 80_000 {
		t.Fatalf("p85 response time %dµs: the stall is hidden", p)
	}
}

// TestSessionsThink: each session waits its think time between operations,
// so M sessions with think time T do about M/T operations per second.
func TestSessionsThink(t *testing.T) {
	testserver.Timing(t)
	res, _ := runModel(t, &enginetest.Fake{}, Options{Model: Sessions, Sessions: 100, ThinkTime: 50 * time.Millisecond, Duration: time.Second})
	ops, _ := total(res)
	rate := float64(ops) / res.End.Sub(res.Start).Seconds()
	if rate < 1600 || rate > 2200 { // 100 / 50ms = 2000/s
		t.Fatalf("%.0f ops/s from 100 sessions thinking 50ms, want about 2000", rate)
	}
}

// TestClosedStages: the number of active workers follows the stages.
func TestClosedStages(t *testing.T) {
	res, sink := runModel(t, &enginetest.Fake{Delay: time.Millisecond}, Options{Model: Closed, Concurrency: 1,
		Stages: []Stage{{Duration: 300 * time.Millisecond, Target: 1}, {Duration: 300 * time.Millisecond, Target: 6}}})
	if res.Outcome != Completed {
		t.Fatal(res.Outcome)
	}
	first, last := sink.ivs[0].Load.Active, sink.ivs[len(sink.ivs)-2].Load.Active
	if first != 1 || last != 6 {
		t.Fatalf("active workers %d then %d, want 1 then 6", first, last)
	}
}
