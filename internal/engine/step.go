package engine

import (
	"time"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/workload"
)

// The one step every load model's loop repeats: execute an operation, then
// record it. The loops (closed.go, sessions.go, open.go) differ only in
// which worker runs next and when its latency starts (intended).

// executed is one operation as it came back from the executor: what the
// recording needs, and nothing the loop has to look at.
type executed struct {
	i        int  // the operation's index in the plan
	measured bool // decided before it started: warm-up operations are never recorded
	// intended is when its latency starts: the due or ready time the loop
	// gave, else the send by the engine (start).
	intended, start, end time.Time
	reply                workload.Reply
	err                  error
}

// step runs one operation for w, intended to start at intended (zero: now),
// and records it on shard; false means the run is over. Whether an
// operation counts is decided once, before it starts: warm-up operations are
// never recorded, and exactly the recorded ones count against the operation
// limit.
func (r *run) step(w *worker, shard *metrics.Shard, intended time.Time) bool {
	measured := r.measuring.Load()
	if measured && r.o.Operations > 0 && r.remaining.Add(-1) < 0 {
		r.requestStop()
		return false
	}
	x := executed{measured: measured, intended: intended}
	r.execute(w, &x)
	return r.record(shard, &w.req, &x)
}

// execute picks and builds w's next operation, runs it and times it into
// x; the slow-operation hook sees it while its request is still built.
func (r *run) execute(w *worker, x *executed) {
	if w.fed != nil {
		r.executeFed(w, x)
		return
	}
	x.i = r.plan.Mix.Pick(w.st.Rand)
	w.req.Build(r.plan.Ops[x.i], w.st)
	r.rec.InFlight(1)
	x.start = time.Now()
	x.reply, x.err = r.execs[x.i].Do(w.ctx, &w.req)
	x.end = time.Now()
	r.rec.InFlight(-1)
	if x.intended.IsZero() {
		x.intended = x.start
	}
	if r.o.OnSlow != nil && x.measured && r.opCtx.Err() == nil {
		r.slow(x, &w.req)
	}
	w.req.Release()
}

// slow tells OnSlow of an operation whose latency reached the threshold.
func (r *run) slow(x *executed, req *workload.Request) {
	lat := x.end.Sub(x.intended)
	if lat < r.o.SlowThreshold {
		return
	}
	err := x.err
	if _, ok := workload.AbortReason(err); ok {
		err = nil // the workload's own abort: an outcome, not a failure
	}
	r.o.OnSlow(r.plan.Ops[x.i], lat, req, err)
}

// record counts an executed operation: its latency and documents, its
// error, abort or abandonment, a transaction's steps and retries, and what
// the fault and loss trackers learn from it; false means the run is over.
func (r *run) record(shard *metrics.Shard, req *workload.Request, x *executed) bool {
	i, err, measured := x.i, x.err, x.measured
	if reason, ok := workload.AbortReason(err); ok {
		// The workload's own condition rolled the transaction back: a
		// business outcome, measured like a success and counted by reason.
		err = nil
		if measured {
			shard.RecordOutcome(i, "aborted: "+reason, 1)
		}
	}
	if measured && (r.plan.Ops[i].Kind == workload.Transaction || len(req.StepRuns) > 0) {
		r.recordSteps(shard, req) // a read-modify-write's parts too
	}
	switch {
	case err != nil && r.opCtx.Err() != nil:
		// Cut short by the interrupt or the end of the grace period: not
		// the server's error, but not work done either.
		if measured {
			r.abandoned.Add(1)
			shard.RecordOutcome(i, Abandoned, 1)
		}
		return false
	case !measured:
	case err != nil:
		if r.o.IsFault(err) {
			r.faults.failed(x.end)
		}
		shard.RecordError(i, r.o.Classify(err))
	case r.service:
		sent := x.reply.Sent
		if sent.IsZero() {
			sent = x.start // not tracked: the engine's send is the closest
		}
		shard.RecordServiceDocs(i, x.end.Sub(x.intended), x.end.Sub(sent), x.reply.Docs)
		if r.o.SendLag != nil {
			r.o.SendLag(max(0, sent.Sub(x.intended)))
		}
	default:
		shard.RecordDocs(i, x.end.Sub(x.intended), x.reply.Docs)
	}
	if err == nil && measured {
		r.faults.succeeded(x.end)
		r.recordRetried(shard, i, x.reply.Failed)
	}
	if err != nil && r.o.IsLoss(err) {
		r.lastLoss.Store(&lossNote{at: x.end, err: err})
	}
	return true
}

// recordRetried counts an operation that succeeded after the driver
// retried a failed command (a retryable read or write), apart for reads and
// writes. A transaction's retries are counted by cause (recordSteps).
func (r *run) recordRetried(shard *metrics.Shard, i int, failed int64) {
	op := r.plan.Ops[i]
	if failed == 0 || op.Kind == workload.Transaction {
		return
	}
	if op.Kind.Writes() {
		shard.RecordOutcome(i, metrics.RetriedWrite, 1)
	} else {
		shard.RecordOutcome(i, metrics.RetriedRead, 1)
	}
}

// recordSteps records every step execution of a transaction (or part of a
// read-modify-write) in its own histogram, and the transaction's retries as
// outcomes.
func (r *run) recordSteps(shard *metrics.Shard, req *workload.Request) {
	// A step that failed made its transaction retry or fail: the
	// transaction counts that as a retry or an error; for the step it is a
	// failed attempt, an outcome, so its error column is not read as lost work.
	for _, sr := range req.StepRuns {
		switch {
		case sr.Err == nil:
			shard.RecordDocs(sr.Op.Index, sr.Latency, sr.Docs)
		case r.opCtx.Err() == nil:
			shard.RecordOutcome(sr.Op.Index, metrics.FailedAttempt+r.o.Classify(sr.Err), 1)
		}
	}
	for cause, n := range req.Retries {
		shard.RecordOutcome(req.Op.Index, cause, n)
	}
}
