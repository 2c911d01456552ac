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
	for i := 0; i < o.Concurrency; i++ {
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			r.worker(id)
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

// worker runs operations until told to stop. Whether an operation counts is
// decided once, before it starts: warm-up operations are never recorded, and
// exactly the recorded ones count against the operation limit.
func (r *run) worker(id int) {
	st := generate.NewState(r.o.RandomSeed, uint64(id)+1)
	shard := r.rec.Shard(id)
	var req workload.Request
	limited := r.o.Operations > 0
	for !r.stop.Load() {
		measured := r.measuring.Load()
		if measured && limited && r.remaining.Add(-1) < 0 {
			r.stop.Store(true)
			return
		}
		i := r.plan.Mix.Pick(st.Rand)
		req.Build(r.plan.Ops[i], st)
		start := time.Now()
		_, err := r.execs[i].Do(r.opCtx, &req)
		latency := time.Since(start)
		switch {
		case err != nil && r.opCtx.Err() != nil:
			return // cut short by the interrupt: not the server's error
		case !measured:
		case err == nil:
			shard.Record(i, latency)
		default:
			shard.RecordError(i, r.o.Classify(err))
		}
		if err != nil && r.o.IsLoss(err) {
			r.lastLoss.Store(&lossNote{at: time.Now(), err: err})
		}
	}
}
