package engine

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/engine/enginetest"
	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/workload"
	"github.com/mongoload/mongoload/internal/workload/workloadtest"
)

// These tests drive the engine with in-process executors: they check the
// engine's own logic (phases, limits, stop conditions). The database path is
// tested against the real server in internal/cli and internal/mongodb.

type collectSink struct {
	mu  sync.Mutex
	ivs []*metrics.Interval
}

func (s *collectSink) Interval(iv *metrics.Interval, _ time.Duration) {
	iv.Retain() // kept past the call: the engine releases its own hold
	s.mu.Lock()
	s.ivs = append(s.ivs, iv)
	s.mu.Unlock()
}

func testPlan(t testing.TB) *workload.Plan {
	t.Helper()
	_, p := workloadtest.Compile(t, []byte(`
collections:
  - {database: d, name: c, template: {k: {$gen: key}}}
operations:
  - {name: a, type: findOne, weight: 3, filter: {k: {$gen: key}}}
  - {name: b, type: insertOne, weight: 1}
`), "t.yaml")
	return p
}

func total(res *Result) (ops, errs int64) {
	for i := 0; i < res.Totals.Len(); i++ {
		ops += res.Totals.Op(i).Count()
		errs += res.Totals.Op(i).ErrorCount()
	}
	return
}

func runWith(t *testing.T, ctx context.Context, ex Executor, o Options) (*Result, *collectSink) {
	t.Helper()
	p := testPlan(t)
	sink := &collectSink{}
	rec := metrics.NewRecorder(p.OpNames(), metrics.Options{})
	if o.Interval == 0 {
		o.Interval = 50 * time.Millisecond
	}
	return Run(ctx, p, []Executor{ex, ex}, rec, sink.Interval, o), sink
}

// TestOperationsLimit: a run bounded by operations does exactly that many
// measured operations, however many workers race for the last ones.
func TestOperationsLimit(t *testing.T) {
	res, _ := runWith(t, context.Background(), &enginetest.Fake{}, Options{Concurrency: 7, Operations: 1000})
	if ops, _ := total(res); ops != 1000 || res.Outcome != Completed {
		t.Fatalf("%d operations, outcome %s; want 1000, completed", ops, res.Outcome)
	}
}

// TestWarmupExcluded: what runs during the warm-up is not in the results.
func TestWarmupExcluded(t *testing.T) {
	ex := &enginetest.Fake{Delay: time.Millisecond}
	res, _ := runWith(t, context.Background(), ex, Options{Concurrency: 2, Warmup: 200 * time.Millisecond, Duration: 200 * time.Millisecond})
	ops, _ := total(res)
	if calls := ex.Calls.Load(); ops >= calls*3/4 {
		t.Fatalf("%d measured of %d executed: the warm-up half was counted", ops, calls)
	}
	if d := res.End.Sub(res.Start); d < 200*time.Millisecond {
		t.Fatalf("measured phase lasted %s, want at least 200ms", d)
	}
}

// TestInterrupt: cancelling the context ends the run as Interrupted and
// in-flight operations cut short are not counted as server errors.
func TestInterrupt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	ex := &enginetest.Fake{Delay: 20 * time.Millisecond, After: 20, OnCall: cancel}
	res, _ := runWith(t, ctx, ex, Options{Concurrency: 4, Duration: time.Minute})
	ops, errs := total(res)
	if res.Outcome != Interrupted || ops == 0 || errs != 0 {
		t.Fatalf("outcome %s, %d ops, %d errors", res.Outcome, ops, errs)
	}
}

// TestServerLost: only connection-loss errors and no success for LostAfter
// ends the run as ServerLost; errors are counted, not dropped.
func TestServerLost(t *testing.T) {
	lost := errors.New("connection refused")
	var broken atomic.Bool
	ex := &enginetest.Fake{Delay: time.Millisecond, After: 50, OnCall: func() { broken.Store(true) }, Err: func() error {
		if broken.Load() {
			return lost
		}
		return nil
	}}
	start := time.Now()
	res, _ := runWith(t, context.Background(), ex, Options{
		Concurrency: 2, Duration: time.Minute, LostAfter: 200 * time.Millisecond,
		Classify: func(error) string { return "network" }, IsLoss: func(err error) bool { return err == lost },
	})
	ops, errs := total(res)
	if res.Outcome != ServerLost || ops == 0 || errs == 0 || !errors.Is(res.Lost, lost) {
		t.Fatalf("outcome %s, %d ops, %d errors, lost %v", res.Outcome, ops, errs, res.Lost)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Fatalf("took %s to give up", took)
	}
}

// TestErrorsWithoutLossKeepRunning: a server refusing operations is measured,
// not abandoned.
func TestErrorsWithoutLossKeepRunning(t *testing.T) {
	ex := &enginetest.Fake{Err: func() error { return errors.New("DuplicateKey") }}
	res, _ := runWith(t, context.Background(), ex, Options{Concurrency: 2, Duration: 300 * time.Millisecond, LostAfter: 50 * time.Millisecond,
		Classify: func(error) string { return "DuplicateKey(11000)" }})
	_, errs := total(res)
	if res.Outcome != Completed || errs == 0 {
		t.Fatalf("outcome %s with %d errors", res.Outcome, errs)
	}
	if got := res.Totals.Op(0).Errors["DuplicateKey(11000)"]; got == 0 {
		t.Fatalf("errors not counted by class: %v", res.Totals.Op(0).Errors)
	}
}

// TestIntervalsCoverTheRun: the intervals handed to the sink add up to the totals.
func TestIntervalsCoverTheRun(t *testing.T) {
	res, sink := runWith(t, context.Background(), &enginetest.Fake{Delay: time.Millisecond}, Options{Concurrency: 3, Duration: 300 * time.Millisecond})
	var sum int64
	for _, iv := range sink.ivs {
		for i := range iv.Ops {
			sum += iv.Ops[i].Count()
		}
	}
	if ops, _ := total(res); ops != sum || len(sink.ivs) < 2 {
		t.Fatalf("totals %d, intervals add to %d over %d intervals", ops, sum, len(sink.ivs))
	}
}

// TestMaxInFlight: no more operations run at once than the gate allows, and
// the time spent waiting for a place counts in the latency.
func TestMaxInFlight(t *testing.T) {
	var inFlight, peak atomic.Int64
	ex := &enginetest.Fake{Delay: 2 * time.Millisecond, Err: func() error {
		if n := inFlight.Load(); n > peak.Load() {
			peak.Store(n)
		}
		return nil
	}}
	wrapped := enginetest.Func(func(ctx context.Context, r *workload.Request) (workload.Reply, error) {
		inFlight.Add(1)
		defer inFlight.Add(-1)
		return ex.Do(ctx, r)
	})
	res, _ := runWith(t, context.Background(), wrapped, Options{Concurrency: 12, MaxInFlight: 3, Duration: 300 * time.Millisecond})
	if p := peak.Load(); p > 3 {
		t.Fatalf("%d operations in flight with a cap of 3", p)
	}
	// 12 workers share 3 places: each waits for about 3 operations' time.
	if p50 := res.Totals.Op(0).Latency.ValueAtQuantile(50); p50 < 5000 {
		t.Fatalf("median latency %dµs: the wait for a place was not counted", p50)
	}
}
