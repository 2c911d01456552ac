package engine

import (
	"fmt"
	"time"

	"github.com/mongoload/mongoload/internal/metrics"
)

// stopCh is closed when the run is told to stop, so sleepers wake at once.
func (r *run) stopCh() <-chan struct{} { return r.stopC }

// requestStop tells every runner and scheduler to finish.
func (r *run) requestStop() {
	if r.stop.CompareAndSwap(false, true) {
		close(r.stopC)
	}
}

// startMeasuring starts the measured phase: nothing was recorded before
// it (the warm-up); Reset starts the first interval's clock and the load
// counts here. Without a warm-up, Run calls it before any worker starts,
// so that the first operations count like all the others.
func (r *run) startMeasuring() {
	r.measureStart = time.Now()
	r.rec.Reset(r.measureStart)
	r.measuring.Store(true)
	close(r.measured)
	if r.o.OnMeasure != nil {
		r.o.OnMeasure()
	}
}

// collect runs the warm-up, then hands one snapshot per interval to the
// sink until the workers are done, and returns the whole-run result.
func (r *run) collect(done <-chan struct{}) *Result {
	res := &Result{Outcome: Completed}
	if r.o.Warmup > 0 && !r.wait(done, r.o.Warmup, res) {
		res.Start = time.Now()
		res.End = res.Start
		res.Totals = r.rec.NewTotals()
		return res
	}
	if r.o.Warmup > 0 {
		r.startMeasuring()
	}
	res.Start = r.measureStart
	if r.o.Model == Closed && len(r.o.Stages) > 0 {
		go r.rampWorkers(res.Start)
	}
	res.Totals = r.rec.NewTotals()
	var deadline <-chan time.Time
	if d := r.duration(); d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		deadline = t.C
	}
	tick := time.NewTicker(r.o.Interval)
	defer tick.Stop()
	lastProgress := res.Start
	interrupt := r.ctx.Done()
	var grace <-chan time.Time
	for {
		select {
		case <-done:
			// Workers end at once when the context is cancelled, so done
			// and the interrupt can be ready together: the interrupt wins.
			if interrupt != nil && r.ctx.Err() != nil {
				r.halt(res, Interrupted, ReasonSignal)
			}
			r.finish(res)
			return res
		case <-interrupt:
			interrupt = nil // once: the channel stays closed
			r.halt(res, Interrupted, ReasonSignal)
		case <-deadline:
			deadline = nil
			r.requestStop()
			// Operations in flight may finish within the grace period;
			// the run never outlasts its duration by more than that.
			if n := r.rec.InFlightNow(); n > 0 && r.o.OnGrace != nil {
				r.o.OnGrace(n, r.o.Grace, false)
			}
			t := time.NewTimer(r.o.Grace)
			defer t.Stop()
			grace = t.C
		case <-grace:
			grace = nil
			n := r.rec.InFlightNow()
			if r.o.OnGrace != nil && n > 0 {
				r.o.OnGrace(n, r.o.Grace, true)
			}
			r.halt(res, Completed, "")
			res.overran = true
		case now := <-tick.C:
			if r.interval(now, res) {
				lastProgress = now
			} else if note := r.lastLoss.Load(); note != nil && now.Sub(lastProgress) >= r.o.LostAfter && note.at.After(lastProgress) {
				res.Lost = note.err
				r.halt(res, ServerLost, "the server stopped answering: "+note.err.Error())
			}
		}
	}
}

// duration is how long the measured phase lasts: as configured, or the
// stages' total when only stages were given.
func (r *run) duration() time.Duration {
	if r.o.Duration > 0 || r.o.Operations > 0 {
		return r.o.Duration
	}
	var d time.Duration
	for _, st := range r.o.Stages {
		d += st.Duration
	}
	return d
}

// interval takes one snapshot, sets the load model's gauges, passes it on
// and releases it (sinks that read it later retained it); true means some
// operation succeeded during it.
func (r *run) interval(now time.Time, res *Result) bool {
	iv := r.rec.Interval(now)
	elapsed := now.Sub(res.Start)
	switch r.o.Model {
	case Open:
		iv.Load.TargetRate, _ = r.schedule.RateAt(elapsed)
		iv.Load.Active = iv.Load.InFlight
	case Sessions:
		iv.Load.Active = int64(r.o.Sessions)
	default:
		iv.Load.Active = r.closed.active.Load()
	}
	res.Totals.Add(iv)
	iv.RunTotals = res.Totals // the one whole-run total; sinks keep none of their own
	r.onInterval(iv, elapsed)
	ok := progressed(iv)
	iv.Release()
	return ok
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
		res.Outcome, res.Reason = Interrupted, ReasonSignal+", during the warm-up"
		r.requestStop()
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
	r.requestStop()
	r.cancel()
}

// finish takes the last, partial interval once every worker has returned.
func (r *run) finish(res *Result) {
	res.End = time.Now()
	r.interval(res.End, res)
	res.Abandoned = r.abandoned.Load()
	res.Gaps = r.faults.result(res.End)
	switch {
	case res.Abandoned == 0:
	case res.Outcome == Completed && res.overran:
		res.Outcome = DurationReached
		res.Reason = fmt.Sprintf("duration reached; %d operation(s) abandoned in flight after the %s grace period", res.Abandoned, r.o.Grace)
	case res.Reason != "":
		res.Reason += fmt.Sprintf("; %d operation(s) abandoned in flight", res.Abandoned)
	}
}

func progressed(iv *metrics.Interval) bool {
	for i := range iv.Ops {
		if iv.Ops[i].Count() > 0 {
			return true
		}
	}
	return false
}
