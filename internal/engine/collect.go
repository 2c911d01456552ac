package engine

import (
	"time"

	"github.com/mongoload/mongoload/internal/metrics"
)

// collect runs the warm-up, then hands one snapshot per interval to the
// sink until the workers are done, and returns the whole-run result.
func (r *run) collect(done <-chan struct{}) *Result {
	res := &Result{Outcome: Completed}
	if r.o.Warmup > 0 && !r.wait(done, r.o.Warmup, res) {
		res.Start = time.Now()
		res.End = res.Start
		res.Totals = metrics.NewTotals(r.rec.Ops(), false)
		return res
	}
	// Nothing was recorded during the warm-up; Reset only starts the first
	// interval's clock here.
	res.Start = time.Now()
	r.rec.Reset(res.Start)
	r.measuring.Store(true)
	if r.o.OnPhase != nil {
		r.o.OnPhase("measure")
	}
	res.Totals = metrics.NewTotals(r.rec.Ops(), false)
	var deadline <-chan time.Time
	if r.o.Duration > 0 {
		t := time.NewTimer(r.o.Duration)
		defer t.Stop()
		deadline = t.C
	}
	tick := time.NewTicker(r.o.Interval)
	defer tick.Stop()
	lastProgress := res.Start
	interrupt := r.ctx.Done()
	for {
		select {
		case <-done:
			r.finish(res)
			return res
		case <-interrupt:
			interrupt = nil // once: the channel stays closed
			r.halt(res, Interrupted, "interrupted")
		case <-deadline:
			r.stop.Store(true)
		case now := <-tick.C:
			iv := r.rec.Interval(now)
			res.Totals.Add(iv)
			r.sink.Interval(iv, now.Sub(res.Start))
			if progressed(iv) {
				lastProgress = now
			} else if note := r.lastLoss.Load(); note != nil && now.Sub(lastProgress) >= r.o.LostAfter && note.at.After(lastProgress) {
				res.Lost = note.err
				r.halt(res, ServerLost, "the server stopped answering: "+note.err.Error())
			}
		}
	}
}

// wait lets the warm-up run; false means the run ended during it.
func (r *run) wait(done <-chan struct{}, d time.Duration, res *Result) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-done:
	case <-r.ctx.Done():
		res.Outcome, res.Reason = Interrupted, "interrupted during warm-up"
		r.stop.Store(true)
		r.cancel()
		<-done
	}
	return false
}

// halt stops the workers and abandons in-flight operations.
func (r *run) halt(res *Result, o Outcome, reason string) {
	if res.Outcome == Completed {
		res.Outcome, res.Reason = o, reason
	}
	r.stop.Store(true)
	r.cancel()
}

// finish takes the last, partial interval once every worker has returned.
func (r *run) finish(res *Result) {
	res.End = time.Now()
	iv := r.rec.Interval(res.End)
	res.Totals.Add(iv)
	r.sink.Interval(iv, res.End.Sub(res.Start))
}

func progressed(iv *metrics.Interval) bool {
	for i := range iv.Ops {
		if iv.Ops[i].Count() > 0 {
			return true
		}
	}
	return false
}
