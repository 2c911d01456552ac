package capacity

import (
	"fmt"

	"github.com/mongoload/mongoload/internal/results"
)

// MinStall is the shortest stretch without any answer that counts as the
// server having stopped: an overloaded server still answers, slowly, at
// its capacity; one that answers nothing for a second is stopped (paused,
// killed, cut off), and such a probe measures that, not the rate.
const MinStall = 1.0 // seconds

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
			if g.Seconds >= MinStall || g.Open {
				return fmt.Sprintf("no operation succeeded for %.1f s from %.1f s into the measured phase", g.Seconds, g.Start), g.Open, true
			}
		}
	}
	start, length := -1.0, 0.0
	for i, iv := range res.Intervals {
		if iv.Load == nil || iv.Load.InFlight == 0 || answered(iv) {
			if length >= MinStall {
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
	if length >= MinStall {
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
