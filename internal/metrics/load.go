package metrics

import (
	"sync/atomic"
	"time"
)

// Load is what the load model itself did during an interval: in an open-loop
// run, how many operations the schedule called for and how many of them were
// dropped or sent late. These are reported beside the latencies, never hidden:
// a schedule the generator could not keep is part of the result.
type Load struct {
	Scheduled int64 // operations the schedule called for
	Dropped   int64 // not sent: every in-flight place was taken
	Late      int64 // sent later than LateAfter after their scheduled time
	// Gauges, read at the interval's end.
	InFlight   int64   // operations in flight
	Active     int64   // workers or sessions running
	TargetRate float64 // operations per second the schedule aimed at; 0 in closed loop
	// SchedulerBusy is the time the load model's one scheduling goroutine
	// (the open-loop scheduler, the sessions dispatcher) spent working
	// rather than waiting, and SchedulerLag the furthest it fell behind a
	// due time when it handed an operation on (open loop). Near the whole
	// interval busy, or a growing lag, that goroutine is the client's
	// limit, whatever the cores.
	SchedulerBusy time.Duration
	SchedulerLag  time.Duration
}

// add accumulates another interval's counters; gauges take the latest value.
func (l *Load) add(o Load) {
	l.Scheduled += o.Scheduled
	l.Dropped += o.Dropped
	l.Late += o.Late
	l.SchedulerBusy += o.SchedulerBusy
	l.SchedulerLag = max(l.SchedulerLag, o.SchedulerLag)
	l.InFlight, l.Active, l.TargetRate = o.InFlight, o.Active, o.TargetRate
}

// loadCounters are the Load counts being accumulated for the current interval.
type loadCounters struct {
	scheduled, dropped, late, inFlight atomic.Int64
	schedBusy, schedLag                atomic.Int64 // nanoseconds
}

// SchedulerBusy adds time the scheduling goroutine spent working.
func (r *Recorder) SchedulerBusy(d time.Duration) { r.load.schedBusy.Add(int64(d)) }

// SchedulerLag notes how late the scheduler handed an operation on; the
// interval keeps the largest.
func (r *Recorder) SchedulerLag(d time.Duration) {
	for {
		old := r.load.schedLag.Load()
		if int64(d) <= old || r.load.schedLag.CompareAndSwap(old, int64(d)) {
			return
		}
	}
}

// Scheduled counts n operations the schedule called for.
func (r *Recorder) Scheduled(n int64) { r.load.scheduled.Add(n) }

// Dropped counts one scheduled operation that could not be sent.
func (r *Recorder) Dropped() { r.load.dropped.Add(1) }

// Late counts one operation sent later than its schedule allowed.
func (r *Recorder) Late() { r.load.late.Add(1) }

// InFlight moves the count of operations in flight by delta.
func (r *Recorder) InFlight(delta int64) { r.load.inFlight.Add(delta) }

// takeLoad returns the counts since the last call and starts new ones.
func (r *Recorder) takeLoad() Load {
	return Load{
		Scheduled: r.load.scheduled.Swap(0),
		Dropped:   r.load.dropped.Swap(0),
		Late:      r.load.late.Swap(0),
		InFlight:  r.load.inFlight.Load(),

		SchedulerBusy: time.Duration(r.load.schedBusy.Swap(0)),
		SchedulerLag:  time.Duration(r.load.schedLag.Swap(0)),
	}
}
