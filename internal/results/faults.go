package results

import (
	"sort"
	"time"

	"github.com/mongoload/mongoload/internal/metrics"
)

// Faults is what a run saw of a server that failed under it: the spans
// with no successful operation, how long throughput took to come back,
// the operations abandoned in flight, and the errors per class over time.
type Faults struct {
	// Gaps are the availability gaps: from the first failure that meant
	// the server was unavailable to the first success after it.
	Gaps []FaultGap `json:"gaps,omitempty"`
	// Abandoned counts measured operations still in flight when the run
	// ended (interrupt, lost server, end of the grace period): neither
	// successes nor errors, they are lost work of unknown latency.
	Abandoned int64 `json:"abandoned,omitempty"`
	// Lost is every operation that did not complete: the errors plus
	// the abandoned. Operations the driver retried and that then
	// succeeded are successes and are not in it: they are Retried.
	Lost int64 `json:"lost"`
	// Retried counts the operations that succeeded after the driver
	// retried a failed command (retryable reads and writes), apart for
	// reads and writes; a transaction's retries are its outcomes instead.
	Retried *Retried `json:"retried,omitempty"`
	// Timeline is the errors per class, per interval with errors.
	Timeline []FaultInterval `json:"timeline,omitempty"`
	// Injected are the actions of the fault schedule (--fault) and what
	// came of each.
	Injected []InjectedFault `json:"injected,omitempty"`
}

// Retried is the operations the driver's retries saved, reads and writes apart.
type Retried struct {
	Reads  int64 `json:"reads"`
	Writes int64 `json:"writes"`
}

// retriedOf sums the mix's operations' retried outcomes; nil if none.
func retriedOf(res *Result) *Retried {
	var r Retried
	for _, o := range res.Operations {
		r.Reads += o.Outcomes[metrics.RetriedRead]
		r.Writes += o.Outcomes[metrics.RetriedWrite]
	}
	if r.Reads == 0 && r.Writes == 0 {
		return nil
	}
	return &r
}

// InjectedFault is one action of the fault schedule.
type InjectedFault struct {
	Planned string  `json:"planned"`      // as ParseFault reads it: "at 30s: stepdown 10s"
	At      float64 `json:"at,omitempty"` // seconds since the measured phase began, when it was taken
	Action  string  `json:"action"`
	// Outcome is "done", "refused" (the server would not: Error says why),
	// "failed", or "not reached: the run ended first".
	Outcome string `json:"outcome"`
	Error   string `json:"error,omitempty"`
}

// FaultGap is one availability gap, in seconds since the measured phase
// began.
type FaultGap struct {
	Start   float64 `json:"start"`
	End     float64 `json:"end"`
	Seconds float64 `json:"seconds"`
	// Open: no operation succeeded after the gap began; End is the run's end.
	Open bool `json:"open,omitempty"`
	// Flaps counts the brief successes within the gap: spans of failures
	// less than GapMerge apart are one outage, reported as one gap.
	Flaps int `json:"flaps,omitempty"`
	// RecoverySeconds is from the end of the gap to the end of the first
	// interval whose throughput was back to 90% of the median of the
	// intervals before the gap; nil if that never happened or there was
	// nothing before the gap to compare with.
	RecoverySeconds *float64 `json:"recoverySeconds,omitempty"`
}

// FaultInterval is the errors of one interval, by class, over every operation.
type FaultInterval struct {
	T             float64          `json:"t"` // the interval's end, as in intervals[].t
	ErrorsByClass map[string]int64 `json:"errorsByClass"`
}

// Span is a gap as the engine measured it, in wall-clock time.
type Span struct {
	Start, End time.Time
	Open       bool
}

// GapMerge: failure spans closer than this are one outage (a recovering
// server often answers a few operations before it fails more).
const GapMerge = time.Second

// Recovered is the share of the earlier throughput that counts as recovered.
const Recovered = 0.9

// BuildFaults sets res.Faults from the engine's gaps and abandoned count
// and the result's interval series; it leaves it nil when there was no
// gap and nothing was abandoned.
func BuildFaults(res *Result, gaps []Span, abandoned int64, injected []InjectedFault) {
	retried := retriedOf(res)
	if len(gaps) == 0 && abandoned == 0 && len(injected) == 0 && retried == nil {
		return
	}
	f := &Faults{Abandoned: abandoned, Lost: res.Totals.Errors + abandoned, Retried: retried, Injected: injected}
	for _, iv := range res.Intervals {
		byClass := map[string]int64{}
		for _, o := range iv.Ops {
			for c, n := range o.ErrorsByClass {
				byClass[c] += n
			}
		}
		if len(byClass) > 0 {
			f.Timeline = append(f.Timeline, FaultInterval{T: iv.T, ErrorsByClass: byClass})
		}
	}
	var merged []Span
	var flaps []int
	for _, g := range gaps {
		if n := len(merged); n > 0 && g.Start.Sub(merged[n-1].End) < GapMerge {
			merged[n-1].End, merged[n-1].Open = g.End, g.Open
			flaps[n-1]++
			continue
		}
		merged, flaps = append(merged, g), append(flaps, 0)
	}
	for i, g := range merged {
		fg := FaultGap{
			Start: Round3(g.Start.Sub(res.StartedAt).Seconds()), End: Round3(g.End.Sub(res.StartedAt).Seconds()),
			Seconds: Round3(g.End.Sub(g.Start).Seconds()), Open: g.Open, Flaps: flaps[i],
		}
		if !g.Open {
			fg.RecoverySeconds = recovery(res.Intervals, fg.Start, fg.End)
		}
		f.Gaps = append(f.Gaps, fg)
	}
	res.Faults = f
}

// recovery is the time from end until an interval ending after it ran at
// Recovered of the median throughput of the intervals that ended before start.
func recovery(ivs []IntervalSummary, start, end float64) *float64 {
	var before []float64
	for _, iv := range ivs {
		if iv.T <= start && iv.Dt > 0 {
			before = append(before, rateOf(iv))
		}
	}
	if len(before) == 0 {
		return nil
	}
	sort.Float64s(before)
	base := before[len(before)/2]
	for _, iv := range ivs {
		if iv.T > end && iv.Dt > 0 && rateOf(iv) >= Recovered*base {
			d := Round3(iv.T - end)
			return &d
		}
	}
	return nil
}

// rateOf is an interval's successful operations per second, steps of
// transactions excluded as in the totals.
func rateOf(iv IntervalSummary) float64 {
	var n int64
	for _, o := range iv.Ops {
		n += o.Count
	}
	return float64(n) / iv.Dt
}
