package capacity

import (
	"fmt"
	"math"

	"github.com/mongoload/mongoload/internal/results"
)

// MinStall is the shortest stretch without any answer that counts as the
// server having stopped: an overloaded server still answers, slowly, at
// its capacity; one that answers nothing for a second is stopped (paused,
// killed, cut off), and such a probe measures that, not the rate.
//
// A server starved of CPU by an overload also leaves whole seconds without
// an answer, between answers that take seconds each: a stretch in the
// middle of a run counts only when it is also several times the run's
// median latency (StallOverP50), which a pause is and an overload's
// waits are not. One lasting to the run's end always counts.
const MinStall = 2.0 // seconds

// StallOverP50 is how many times the run's median latency a stretch
// without answers must last to count as a stall.
const StallOverP50 = 3.0

// Paused is the error of a probe in which the server stopped answering
// and answered again after it: the probe is kept, not judged, and run
// again (Search.Do); a pause is never taken as the limit.
type Paused struct{ What string }

func (p *Paused) Error() string { return "the server paused during the probe: " + p.What }

// Stall finds where the server stopped answering during a run: an
// availability gap of at least MinStall (no success, only failures that
// meant the server was unavailable), or a stretch of at least MinStall of
// whole intervals in which no operation completed at all while some were
// in flight. what says it for people; open means it lasted to the run's
// end (the server may be gone).
func Stall(res *results.Result) (what string, open, found bool) {
	if res == nil {
		return "", false, false
	}
	if f := res.Faults; f != nil {
		for _, g := range f.Gaps {
			if g.Seconds >= 1 || g.Open { // failures that meant the server was unavailable
				return fmt.Sprintf("no operation succeeded for %.1f s from %.1f s into the measured phase", g.Seconds, g.Start), g.Open, true
			}
		}
	}
	start, length := -1.0, 0.0
	long := math.Max(MinStall, StallOverP50*res.Totals.Latency.P50/1000)
	for i, iv := range res.Intervals {
		if iv.Load == nil || iv.Load.InFlight == 0 || answered(iv) {
			if length >= long {
				return fmt.Sprintf("no operation was answered for %.1f s from %.1f s into the measured phase, %d in flight", length, start, res.Intervals[i-1].Load.InFlight), false, true
			}
			start, length = -1, 0
			continue
		}
		if start < 0 {
			start = iv.T - iv.Dt
		}
		length += iv.Dt
	}
	if length >= 1 { // to the end: the server may be gone
		last := res.Intervals[len(res.Intervals)-1]
		return fmt.Sprintf("no operation was answered from %.1f s into the measured phase to its end, %d in flight", start, last.Load.InFlight), true, true
	}
	return "", false, false
}

// answered says whether any operation of the mix completed, as a success
// or an error, during the interval.
func answered(iv results.IntervalSummary) bool {
	for _, o := range iv.Ops {
		if o.Parent == "" && (o.Count > 0 || o.Errors > 0) {
			return true
		}
	}
	return false
}
