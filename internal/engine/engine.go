// Package engine drives the load and measures it. Three load models share
// one way of executing and recording an operation (step, step.go), each
// with its own loop deciding which worker runs next and when:
//
//   - closed loop: N workers, each sending its next operation when the last
//     returns (optionally ramped in stages);
//   - sessions: M simulated users, each thinking between operations;
//   - open loop: operations scheduled at a target rate whatever the server
//     does, with response time measured from the scheduled start (free of
//     coordinated omission) and service time from the actual send.
//
// A collector turns the recorders into one snapshot per interval. The engine
// knows nothing of the driver: operations run through the Executor interface.
package engine

import (
	"cmp"
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
	// Do replies with what the server did with documents (returned,
	// matched, inserted, ...), when the first command was sent (service
	// time starts there) and how many commands failed (a retried
	// operation), which the engine records with the latency.
	Do(ctx context.Context, r *workload.Request) (workload.Reply, error)
}

// OnInterval receives one snapshot per interval of the measured phase, on
// the engine's collecting goroutine. The engine releases each interval once
// it returns (its histograms are reused): whoever keeps it, or reads it on
// another goroutine later, must Retain it first and Release it when done.
type OnInterval func(iv *metrics.Interval, elapsed time.Duration)

// Model is a load model.
type Model string

// The load models.
const (
	Closed   Model = "closed"
	Open     Model = "open"
	Sessions Model = "sessions"
)

// Options shape one run.
type Options struct {
	Model       Model // "" means Closed
	Concurrency int   // closed loop: workers
	// MaxInFlight caps operations in flight at once. Closed loop and
	// sessions: the runners that execute for queued workers (set it to the
	// connection pool size; 0: one runner per worker). Open loop: beyond it,
	// due operations are dropped and counted (default 1000).
	MaxInFlight int
	// Open loop: the target rate, or Stages of rates; Poisson arrivals
	// instead of fixed gaps; LateAfter (default 10ms) is how far behind its
	// schedule an operation may be sent before it counts as late.
	Rate      float64
	Poisson   bool
	LateAfter time.Duration
	// Sessions: how many, and the think time between a session's operations
	// (exponentially distributed around ThinkTime if ThinkExp).
	Sessions  int
	ThinkTime time.Duration
	ThinkExp  bool
	// Stages ramp the rate (open loop) or the workers (closed loop);
	// RepeatStages plays them again once they end.
	Stages       []Stage
	RepeatStages bool

	Duration time.Duration // 0: until Operations are done (or the stages end)
	// Grace is how long operations still in flight when the duration ends
	// may take to finish; then they are abandoned and counted as such, so
	// a hanging server cannot stretch the run (0: DefaultGrace).
	Grace time.Duration
	// OnGrace, if set, is told (on the collecting goroutine) when the
	// duration ended with operations still in flight, and when those
	// left at the end of the grace period were abandoned.
	OnGrace    func(inFlight int64, grace time.Duration, abandoned bool)
	Operations int64 // 0: until Duration is over
	Warmup     time.Duration
	Interval   time.Duration
	RandomSeed uint64
	// LostAfter ends the run as ServerLost when no operation has succeeded
	// for this long and the errors say the server cannot be reached.
	LostAfter time.Duration
	// Classify names an error for counting; IsLoss says it means the server is gone.
	Classify func(error) string
	IsLoss   func(error) bool
	// IsFault says an error means the server was unavailable (not a
	// business error such as a duplicate key): such errors open the
	// availability gaps of Result.Gaps. nil: every error.
	IsFault func(error) bool
	// OnMeasure is told when the measured phase starts (after the warm-up),
	// on the goroutine that called Run.
	OnMeasure func()
	// OnSlow, if set, is called on the worker's goroutine for each measured
	// operation whose latency reached SlowThreshold, with its request still
	// built (it is reused once OnSlow returns) and its error: it must copy
	// what it keeps and return at once. Faster operations never reach it.
	OnSlow        func(op *workload.Op, latency time.Duration, req *workload.Request, err error)
	SlowThreshold time.Duration

	// Feed, if set, makes an open-loop run replay a schedule (mongoload
	// replay) instead of pacing a rate and drawing from the mix: each
	// operation is due at its own offset from the measured start, is the
	// plan's operation it names, with its own command, and the run ends
	// when the feed does (feed.go).
	Feed Feed
	// SendLag, if set, is told how late each measured open-loop operation
	// was sent (the send less its scheduled time), on the runner's
	// goroutine: it must be safe for concurrent use and return at once.
	SendLag func(time.Duration)

	// handOff, if set, is told how late each open-loop operation or session
	// reached its runner (hand-off time minus due time): the scheduling
	// lateness the benchmarks measure.
	handOff func(late time.Duration)
}

// DefaultLateAfter is how far behind its schedule an open-loop operation
// may be sent before it counts as late (Options.LateAfter).
const DefaultLateAfter = 10 * time.Millisecond

// Outcome says how a run ended.
type Outcome string

// The ways a run ends.
const (
	Completed   Outcome = "completed"
	Interrupted Outcome = "interrupted"
	ServerLost  Outcome = "server-lost"
	// DurationReached: the duration ended, and operations still in flight
	// after the grace period were abandoned (the server hung).
	DurationReached Outcome = "duration-reached"
)

// DefaultGrace is how long in-flight operations may finish after the duration.
const DefaultGrace = 5 * time.Second

// Abandoned is the outcome counted for an operation still in flight when the
// run ended (an interrupt, a lost server, or the end of the grace period):
// it neither succeeded nor failed, and its latency is unknown.
const Abandoned = "abandoned in flight"

// ReasonSignal is the reason of an Interrupted run: it completes the
// outcome ("interrupted: Ctrl-C or a signal") rather than repeat it.
const ReasonSignal = "Ctrl-C or a signal"

// Result is what the engine measured.
type Result struct {
	Outcome Outcome
	Reason  string
	// Abandoned counts the measured operations still in flight when the
	// run ended; each is also an Abandoned outcome of its operation.
	Abandoned int64
	// Gaps are the spans during which operations failed and none
	// succeeded: from the first failure to the first success after it
	// (an open gap, with no success after, ends at the run's end).
	Gaps   []Gap
	Start  time.Time // start of the measured phase
	End    time.Time
	Totals *metrics.Totals
	// Lost is the error that showed the server was gone, if it was.
	Lost error

	overran bool // the grace period ended with operations in flight
}

// ErrNoProgress is the reason given when the server stopped answering.
var ErrNoProgress = errors.New("no operation succeeded and the server could not be reached")

// Service reports whether a run with o records service time beside response
// time; make the Recorder with metrics.Options{Service: Service(o)}.
func Service(o Options) bool { return o.Model == Open || o.Model == Sessions }

// Clock says where an operation's latency starts in a run with o (one of
// metrics.FromSend, FromReady, FromDue, FromScheduled); the code that
// starts each load model's clock is startClosed, startSessions and
// startOpen. Service time, where Service(o), is always from the send.
func Clock(o Options) string {
	switch {
	case o.Model == Open:
		return metrics.FromScheduled
	case o.Model == Sessions:
		return metrics.FromDue
	case queued(o):
		return metrics.FromReady
	}
	return metrics.FromSend
}

// queued reports whether a closed loop queues its workers for fewer
// runners (MaxInFlight): see startClosed.
func queued(o Options) bool {
	return o.MaxInFlight > 0 && o.MaxInFlight < closedWorkers(o)
}

// closedWorkers is the most workers a closed loop under o has at once.
func closedWorkers(o Options) int {
	n := o.Concurrency
	for _, st := range o.Stages {
		n = max(n, int(st.Target))
	}
	return n
}

// Run executes plan until the duration, operation count or stages are done,
// ctx is cancelled (Interrupted) or the server is lost.
func Run(ctx context.Context, plan *workload.Plan, execs []Executor, rec *metrics.Recorder, onInterval OnInterval, o Options) *Result {
	r := newRun(ctx, plan, execs, rec, onInterval, o)
	defer r.cancel()
	if r.o.Warmup <= 0 {
		r.startMeasuring() // before the workers: their first operations are measured
	}
	var wg sync.WaitGroup
	switch r.o.Model {
	case Open:
		r.startOpen(&wg)
	case Sessions:
		r.startSessions(&wg)
	default:
		r.startClosed(&wg)
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	return r.collect(done)
}

type run struct {
	ctx, opCtx   context.Context
	cancel       context.CancelFunc
	plan         *workload.Plan
	execs        []Executor
	rec          *metrics.Recorder
	onInterval   OnInterval
	o            Options
	service      bool
	stop         atomic.Bool
	stopC        chan struct{} // closed with stop set
	measuring    atomic.Bool
	measured     chan struct{} // closed when the measured phase starts
	measureStart time.Time     // when it started
	remaining    atomic.Int64
	lastLoss     atomic.Pointer[lossNote]
	abandoned    atomic.Int64
	faults       faultTracker
	schedule     *Schedule // the measured phase's stages (rate or workers)
	closed       closedLoop
}

type lossNote struct {
	at  time.Time
	err error
}

func newRun(ctx context.Context, plan *workload.Plan, execs []Executor, rec *metrics.Recorder, onInterval OnInterval, o Options) *run {
	if o.Model == "" {
		o.Model = Closed
	}
	if o.Classify == nil {
		o.Classify = func(error) string { return "error" }
	}
	if o.IsFault == nil {
		o.IsFault = func(error) bool { return true }
	}
	if o.IsLoss == nil {
		o.IsLoss = func(error) bool { return false }
	}
	if o.LostAfter <= 0 {
		o.LostAfter = 10 * time.Second
	}
	if o.LateAfter <= 0 {
		o.LateAfter = DefaultLateAfter
	}
	if o.Grace <= 0 {
		o.Grace = DefaultGrace
	}
	stages := o.Stages
	if len(stages) == 0 {
		target := o.Rate
		if o.Model == Closed {
			target = float64(o.Concurrency)
		}
		stages = []Stage{{Target: target}}
	}
	opCtx, cancel := context.WithCancel(ctx)
	r := &run{ctx: ctx, opCtx: opCtx, cancel: cancel, plan: plan, execs: execs, rec: rec, onInterval: onInterval, o: o,
		service: Service(o), measured: make(chan struct{}), stopC: make(chan struct{}), schedule: NewSchedule(stages)}
	if o.RepeatStages {
		r.schedule = Repeating(stages)
	}
	r.remaining.Store(o.Operations)
	return r
}

// worker is one closed-loop worker or session: its random source and request
// buffer. It is a value, not a goroutine, so that thousands cost kilobytes.
type worker struct {
	id    int
	st    *generate.State
	req   workload.Request
	ready time.Time // when its next operation should start
	heap  int       // sessions: index in the scheduler's heap
	fed   *Fed      // a replay: the operation the scheduler handed on
	// ctx is the worker's own child of the run's operation context. Every
	// operation's context (the driver's timeout contexts, and its
	// cancellation listeners that wait on Done twice per operation) then
	// hangs on a channel and a lock of this worker's alone: on one shared
	// context, every core's workers serialize on that one lock, a cost per
	// operation that grows with the cores (docs/performance.md). It is
	// cancelled with the run's (cancel is kept for that, never needed).
	ctx    context.Context
	cancel context.CancelFunc
}

func (r *run) newWorker(id int) *worker {
	w := &worker{id: id, st: generate.NewState(r.o.RandomSeed, uint64(id)+1)}
	w.ctx, w.cancel = context.WithCancel(r.opCtx)
	return w
}

// TracksSends reports whether a run of plan under model needs the driver to
// mark each command's send (Reply.Sent): for service time (open loop,
// sessions) and, in every model, to count a transaction's
// commitTransaction commands (commit retries). The one rule: the client is
// connected with it (mongodb.ConnectOptions.TrackSends) exactly when it holds.
func TracksSends(model Model, plan *workload.Plan) bool {
	return model == Open || model == Sessions || len(plan.Steps) > 0
}

// Footprint is what a run under o keeps in memory for its load model, for
// sizing the memory policy (internal/mempolicy): the goroutines executing
// operations, and the worker states beyond them (think-time sessions, or
// closed-loop workers queued for fewer runners).
func Footprint(o Options) (runners, states int) {
	switch o.Model {
	case Open:
		return cmp.Or(o.MaxInFlight, DefaultMaxInFlight), 0
	case Sessions:
		if o.MaxInFlight > 0 {
			return o.MaxInFlight, o.Sessions
		}
		return min(o.Sessions, DefaultSessionRunners), o.Sessions
	}
	n := closedWorkers(o)
	if queued(o) {
		return o.MaxInFlight, n
	}
	return n, 0
}
