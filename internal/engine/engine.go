// Package engine drives the load: closed-loop workers that pick operations
// by weight, build them, execute them and record their latency, plus the
// collector that turns the recorders into one snapshot per interval. It
// knows nothing of the driver: operations run through the Executor interface.
package engine

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mongoload/mongoload/internal/generate"
	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/workload"
)

// Executor runs one built request against the server.
type Executor interface {
	Do(ctx context.Context, r *workload.Request) (int64, error)
}

// Sink receives one snapshot per interval of the measured phase.
type Sink interface {
	Interval(iv *metrics.Interval, elapsed time.Duration)
}

// Options shape one run.
type Options struct {
	Concurrency int
	// MaxInFlight caps operations in flight at once (0: no cap). Set it to
	// the connection pool size: workers beyond it would only wait in the
	// driver for a connection. See runner.
	MaxInFlight int
	Duration    time.Duration // 0: until Operations are done
	Operations  int64         // 0: until Duration is over
	Warmup      time.Duration
	Interval    time.Duration
	RandomSeed  uint64
	// LostAfter ends the run as ServerLost when no operation has succeeded
	// for this long and the errors say the server cannot be reached.
	LostAfter time.Duration
	// Classify names an error for counting; IsLoss says it means the server is gone.
	Classify func(error) string
	IsLoss   func(error) bool
	// OnPhase is told when the measured phase starts (after the warm-up).
	OnPhase func(phase string)
}

// Outcome says how a run ended.
type Outcome string

// The ways a run ends.
const (
	Completed   Outcome = "completed"
	Interrupted Outcome = "interrupted"
	ServerLost  Outcome = "server-lost"
)

// Result is what the engine measured.
type Result struct {
	Outcome Outcome
	Reason  string
	Start   time.Time // start of the measured phase
	End     time.Time
	Totals  *metrics.Totals
	// Lost is the error that showed the server was gone, if it was.
	Lost error
}

// ErrNoProgress is the reason given when the server stopped answering.
var ErrNoProgress = errors.New("no operation succeeded and the server could not be reached")

// Run executes plan with closed-loop workers until the duration or operation
// count is reached, ctx is cancelled (Interrupted) or the server is lost.
func Run(ctx context.Context, plan *workload.Plan, execs []Executor, rec *metrics.Recorder, sink Sink, o Options) *Result {
	r := newRun(ctx, plan, execs, rec, sink, o)
	defer r.cancel()
	var wg sync.WaitGroup
	for i := range r.runners() {
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			r.runner(id)
		}(i)
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	return r.collect(done)
}

type run struct {
	ctx, opCtx context.Context
	cancel     context.CancelFunc
	plan       *workload.Plan
	execs      []Executor
	rec        *metrics.Recorder
	sink       Sink
	o          Options
	stop       atomic.Bool
	measuring  atomic.Bool
	remaining  atomic.Int64
	lastLoss   atomic.Pointer[lossNote]
	// ready holds the workers waiting for a runner, when there are more
	// workers than places in flight; nil when every worker has its own.
	ready chan *worker
}

type lossNote struct {
	at  time.Time
	err error
}

func newRun(ctx context.Context, plan *workload.Plan, execs []Executor, rec *metrics.Recorder, sink Sink, o Options) *run {
	if o.Classify == nil {
		o.Classify = func(error) string { return "error" }
	}
	if o.IsLoss == nil {
		o.IsLoss = func(error) bool { return false }
	}
	if o.LostAfter <= 0 {
		o.LostAfter = 10 * time.Second
	}
	opCtx, cancel := context.WithCancel(ctx)
	r := &run{ctx: ctx, opCtx: opCtx, cancel: cancel, plan: plan, execs: execs, rec: rec, sink: sink, o: o}
	r.remaining.Store(o.Operations)
	return r
}

// worker is one closed-loop worker: its random source and request buffer.
// It is a value, not a goroutine, so that thousands cost kilobytes each.
type worker struct {
	st    *generate.State
	req   workload.Request
	ready time.Time // when it became ready for its next operation (queued mode)
}

// runners returns how many goroutines execute operations. When workers
// outnumber the places in flight, the extra workers would only wait in the
// driver for a connection while holding a built request, the driver's
// buffers and a deep stack; instead MaxInFlight runners take ready workers
// in FIFO order, and a worker's latency still counts from the moment it was
// ready, as it would have when waiting in the driver.
func (r *run) runners() int {
	n := r.o.Concurrency
	if m := r.o.MaxInFlight; m <= 0 || m >= n {
		return n
	}
	r.ready = make(chan *worker, n)
	now := time.Now()
	for i := 0; i < n; i++ {
		r.ready <- &worker{st: generate.NewState(r.o.RandomSeed, uint64(i)+1), ready: now}
	}
	return r.o.MaxInFlight
}

// runner executes operations until told to stop: for its own worker, or for
// whichever worker is ready next when workers are queued.
func (r *run) runner(id int) {
	shard := r.rec.Shard(id)
	if r.ready == nil {
		w := &worker{st: generate.NewState(r.o.RandomSeed, uint64(id)+1)}
		for !r.stop.Load() && r.step(w, shard, 0) {
		}
		return
	}
	for !r.stop.Load() {
		var w *worker
		select {
		case w = <-r.ready:
		case <-r.opCtx.Done():
			return
		}
		queued := time.Since(w.ready)
		ok := r.step(w, shard, queued)
		w.ready = time.Now()
		r.ready <- w // never blocks: the channel holds every worker
		if !ok {
			return
		}
	}
}

// step runs one operation for w; false means the run is over. Whether an
// operation counts is decided once, before it starts: warm-up operations are
// never recorded, and exactly the recorded ones count against the limit.
func (r *run) step(w *worker, shard *metrics.Shard, queued time.Duration) bool {
	measured := r.measuring.Load()
	if measured && r.o.Operations > 0 && r.remaining.Add(-1) < 0 {
		r.stop.Store(true)
		return false
	}
	i := r.plan.Mix.Pick(w.st.Rand)
	w.req.Build(r.plan.Ops[i], w.st)
	start := time.Now()
	_, err := r.execs[i].Do(r.opCtx, &w.req)
	latency := time.Since(start) + queued
	w.req.Release()
	switch {
	case err != nil && r.opCtx.Err() != nil:
		return false // cut short by the interrupt: not the server's error
	case !measured:
	case err == nil:
		shard.Record(i, latency)
	default:
		shard.RecordError(i, r.o.Classify(err))
	}
	if err != nil && r.o.IsLoss(err) {
		r.lastLoss.Store(&lossNote{at: time.Now(), err: err})
	}
	return true
}
