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
	"github.com/mongoload/mongoload/internal/testserver"
	"github.com/mongoload/mongoload/internal/workload"
)

// hangExec answers at once until hang is set, then never answers until
// its context ends: a frozen server.
type hangExec struct {
	hang  atomic.Bool
	calls atomic.Int64
	after int64 // set hang on this call
}

func (h *hangExec) answer(ctx context.Context, _ *workload.Request) (metrics.Docs, error) {
	if h.calls.Add(1) == h.after {
		h.hang.Store(true)
	}
	if !h.hang.Load() {
		time.Sleep(100 * time.Microsecond)
		return metrics.Docs{Returned: 1}, nil
	}
	<-ctx.Done()
	return metrics.Docs{}, ctx.Err()
}

// TestGraceAbandonsHungOperations: when the duration ends with operations
// hung on the server, they get the grace period, then are abandoned and
// counted, in every load model; the run does not wait for the server.
func TestGraceAbandonsHungOperations(t *testing.T) {
	for _, tc := range []struct {
		name     string
		o        Options
		inFlight int64 // operations hung at the end: the workers, sessions or in-flight cap
	}{
		{"closed", Options{Concurrency: 4}, 4},
		{"closed queued", Options{Concurrency: 6, MaxInFlight: 3}, 3},
		{"sessions", Options{Model: Sessions, Sessions: 5, ThinkTime: time.Millisecond}, 5},
		{"open", Options{Model: Open, Rate: 500, MaxInFlight: 7}, 7},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ex := &hangExec{after: 10}
			o := tc.o
			o.Duration, o.Grace = 300*time.Millisecond, 200*time.Millisecond
			var told []int64
			var mu sync.Mutex
			o.OnGrace = func(n int64, _ time.Duration, abandoned bool) {
				mu.Lock()
				told = append(told, n)
				mu.Unlock()
			}
			start := time.Now()
			res, _ := runWith(t, context.Background(), enginetest.Docs(ex.answer), o)
			took := time.Since(start)
			if res.Outcome != DurationReached || res.Abandoned != tc.inFlight {
				t.Fatalf("outcome %s (%s), %d abandoned; want %s, %d", res.Outcome, res.Reason, res.Abandoned, DurationReached, tc.inFlight)
			}
			var counted int64
			for i := 0; i < res.Totals.Len(); i++ {
				counted += res.Totals.Op(i).Outcomes[Abandoned]
			}
			if counted != res.Abandoned {
				t.Errorf("%d %q outcomes, %d abandoned", counted, Abandoned, res.Abandoned)
			}
			if _, errs := total(res); errs != 0 {
				t.Errorf("%d errors: abandoned operations are not the server's errors", errs)
			}
			if len(told) != 2 || told[0] != tc.inFlight || told[1] != tc.inFlight {
				t.Errorf("OnGrace told %v; want the %d in flight twice (waiting, abandoning)", told, tc.inFlight)
			}
			// Duration 300ms + grace 200ms; a generous bound (the race
			// detector) that a run waiting for the server would miss forever.
			if took > 3*time.Second {
				t.Errorf("the run took %s", took)
			}
		})
	}
}

// TestGraceLetsOperationsFinish: operations that finish within the grace
// period are measured, and the run is completed: it outlasts its duration
// by the time they took, not by the grace period.
func TestGraceLetsOperationsFinish(t *testing.T) {
	ex := &enginetest.Fake{Delay: 300 * time.Millisecond}
	res, _ := runWith(t, context.Background(), ex, Options{Concurrency: 3, Duration: 100 * time.Millisecond, Grace: 5 * time.Second})
	ops, _ := total(res)
	if res.Outcome != Completed || res.Abandoned != 0 || ops == 0 {
		t.Fatalf("outcome %s, %d abandoned, %d ops; want completed, 0, some", res.Outcome, res.Abandoned, ops)
	}
	if d := res.End.Sub(res.Start); d < 150*time.Millisecond || d > 3*time.Second {
		t.Errorf("the phase lasted %s: the operations in flight at 100ms (300ms each) were not waited for, or the grace period was", d)
	}
}

// TestInterruptCountsAbandoned: operations cut short by Ctrl-C are counted
// as abandoned, and the reason says how many.
func TestInterruptCountsAbandoned(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	ex := &hangExec{after: 20}
	go func() {
		// The 20th call and each other worker's next one hang.
		if !testserver.Poll(10*time.Second, func() bool { return ex.calls.Load() >= 20+3 }) {
			t.Errorf("only %d calls in 10s", ex.calls.Load())
		}
		cancel()
	}()
	res, _ := runWith(t, ctx, enginetest.Docs(ex.answer), Options{Concurrency: 4, Duration: time.Minute})
	if res.Outcome != Interrupted || res.Abandoned != 4 || res.Reason != ReasonSignal+"; 4 operation(s) abandoned in flight" {
		t.Fatalf("outcome %s (%s), %d abandoned", res.Outcome, res.Reason, res.Abandoned)
	}
}

// flakyExec fails with errDown from the failFrom-th to the failTo-th call
// and records when its first failure and first success after them returned.
type flakyExec struct {
	calls             atomic.Int64
	failFrom, failTo  int64
	err               error
	mu                sync.Mutex
	firstFail, backAt time.Time
}

var errDown = errors.New("server down")

func (f *flakyExec) answer(ctx context.Context, _ *workload.Request) (metrics.Docs, error) {
	n := f.calls.Add(1)
	time.Sleep(200 * time.Microsecond)
	f.mu.Lock()
	defer f.mu.Unlock()
	if n >= f.failFrom && n <= f.failTo {
		if f.firstFail.IsZero() {
			f.firstFail = time.Now()
		}
		return metrics.Docs{}, f.err
	}
	if !f.firstFail.IsZero() && f.backAt.IsZero() {
		f.backAt = time.Now()
	}
	return metrics.Docs{Returned: 1}, nil
}

// TestGapsFromFirstFailureToFirstSuccess: the availability gap runs from the
// first failure to the first success after it, as the executor itself saw
// them (one worker, so the order is the executor's), and only errors that
// mean unavailability open one.
func TestGapsFromFirstFailureToFirstSuccess(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fault bool
		gaps  int
	}{{"unavailable", true, 1}, {"business error", false, 0}} {
		t.Run(tc.name, func(t *testing.T) {
			ex := &flakyExec{failFrom: 100, failTo: 300, err: errDown}
			res, _ := runWith(t, context.Background(), enginetest.Docs(ex.answer), Options{Concurrency: 1, Operations: 600,
				IsFault: func(err error) bool { return tc.fault && errors.Is(err, errDown) }})
			if len(res.Gaps) != tc.gaps {
				t.Fatalf("%d gaps %v; want %d", len(res.Gaps), res.Gaps, tc.gaps)
			}
			if tc.gaps == 0 {
				return
			}
			g := res.Gaps[0]
			// The engine reads the clock just after Do returns: within a
			// millisecond of the executor's own reading.
			if d := g.Start.Sub(ex.firstFail); d < 0 || d > time.Millisecond {
				t.Errorf("gap starts %s after the first failure", d)
			}
			if d := g.End.Sub(ex.backAt); d < 0 || d > time.Millisecond {
				t.Errorf("gap ends %s after the first success", d)
			}
			if g.Open {
				t.Error("gap open although operations succeeded after it")
			}
		})
	}
}

// TestOpenGapAtTheEnd: a fault lasting until the end leaves an open gap
// ending with the run.
func TestOpenGapAtTheEnd(t *testing.T) {
	ex := &flakyExec{failFrom: 50, failTo: 1 << 40, err: errDown}
	res, _ := runWith(t, context.Background(), enginetest.Docs(ex.answer), Options{Concurrency: 1, Operations: 200})
	if len(res.Gaps) != 1 || !res.Gaps[0].Open || !res.Gaps[0].End.Equal(res.End) {
		t.Fatalf("gaps %+v, run end %s", res.Gaps, res.End)
	}
}
