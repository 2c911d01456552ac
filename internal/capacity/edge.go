package capacity

import (
	"math"
	"slices"
)

// Near its limit a server's throughput holds but its hiccups (a background
// task, a flush, a burst of scheduling) do not: a 5-second window at one
// rate meets a p99 and the next one at the same rate misses it, each verdict
// right about its own window. On the test server pinned to one core an
// independent open-loop client met p99<=8ms in every 5-second window at
// 5,200 ops/s, in 4 of 6 at 5,600, in 1 of 6 at 6,400 and in 2 of 6 at
// 7,000. Those rates are the edge: not noise to withhold an answer for,
// and not a capacity either. A search judged with its uncertainty
// (Policy.Decided) therefore decides rates, not windows:
//
//   - a rate is shown to pass when NeedPass windows passed there and no
//     window failed at or below it;
//   - shown to fail when a window was not carried (dropped operations, the
//     rate not achieved), or NeedFail windows failed there and none passed
//     at or above it;
//   - between them lies the edge, rates whose windows disagreed.
//
// The answer's interval runs from the highest rate shown to pass to the
// lowest shown to fail, the edge inside it. Windows are counted in runs: a
// window extended while it straddled the objective counts its runs, each
// as long as a probe. A pass needs more runs than a failure because a
// failing window is the rare event near the lower end: in a simulation of
// that edge (TestDecidedEdge) a fresh window at the low end failed 43% of
// the time when one window decided a rate, 22% with three (17% with four,
// an answer too cautious for the capacity2 check's independent client).
const (
	NeedPass = 3
	NeedFail = 2
)

// edgeView is what the windows so far show, by rate.
type edgeView struct {
	rates map[float64]rateTally
	// minFail is the lowest rate where any window failed (0: none);
	// maxPass the highest rate where any window passed (0: none).
	minFail, maxPass float64
	// lo is the highest rate below minFail where windows passed (none
	// failed there, as no window failed below minFail); hi the lowest
	// rate above maxPass where windows failed (none passed there). Each
	// is 0 when there is none.
	lo, hi float64
	edge   []float64 // the rates where windows disagreed, ascending
}

func viewEdge(history []Outcome) edgeView {
	v := edgeView{rates: tally(history)}
	for r, t := range v.rates {
		if t.fails > 0 && (v.minFail == 0 || r < v.minFail) {
			v.minFail = r
		}
		if t.passes > 0 {
			v.maxPass = math.Max(v.maxPass, r)
		}
		if t.passes > 0 && t.fails > 0 {
			v.edge = append(v.edge, r)
		}
	}
	slices.Sort(v.edge)
	for r, t := range v.rates {
		if t.passes > 0 && t.fails == 0 && (v.minFail == 0 || r < v.minFail) && r > v.lo {
			v.lo = r
		}
		if t.fails > 0 && t.passes == 0 && r > v.maxPass && (v.hi == 0 || r < v.hi) {
			v.hi = r
		}
	}
	return v
}

// shownToPass and shownToFail: the rate's windows are enough for its
// verdict to stand.
func (v edgeView) shownToPass(r float64) bool { return r > 0 && v.rates[r].passes >= NeedPass }
func (v edgeView) shownToFail(r float64) bool {
	t := v.rates[r]
	return r > 0 && (t.clear > 0 || t.fails >= NeedFail)
}

// nextDecided is Next for a decided search: climb until a window fails,
// bisect the gap below the lowest failing window and the gap above the
// highest passing one to the precision, then measure the ends again until
// each is shown.
func (p Policy) nextDecided(history []Outcome) Decision {
	if len(history) == 0 {
		return Decision{Rate: p.Start, Stage: Climb}
	}
	v := viewEdge(history)
	if len(history) >= p.MaxProbes {
		return p.budgetDecided(v)
	}
	switch {
	case v.minFail == 0: // nothing failed yet
		return Decision{Rate: p.round(v.maxPass * p.Factor), Stage: Climb}
	case v.lo == 0: // nothing below the lowest failure passed
		next := p.round(v.minFail / p.Factor)
		if next < p.Floor || next >= v.minFail {
			return Decision{Done: true}
		}
		return Decision{Rate: next, Stage: Descend}
	case v.hi == 0: // a window passed above every failure: the edge goes on up
		return Decision{Rate: p.round(v.maxPass * p.Factor), Stage: Climb}
	}
	if mid, ok := p.between(v.lo, v.minFail); ok {
		return Decision{Rate: mid, Stage: Bisect}
	}
	if mid, ok := p.between(v.maxPass, v.hi); ok {
		return Decision{Rate: mid, Stage: Bisect}
	}
	if !v.shownToPass(v.lo) {
		return Decision{Rate: v.lo, Stage: Confirm}
	}
	if !v.shownToFail(v.hi) {
		return Decision{Rate: v.hi, Stage: Recheck}
	}
	return Decision{Done: true, Max: v.lo, Found: true, Bracketed: true, Hi: v.hi}
}

// between is the middle of the gap from lo to hi when the gap is wider
// than the precision and a rate fits inside it.
func (p Policy) between(lo, hi float64) (float64, bool) {
	mid := p.round((lo + hi) / 2)
	return mid, hi > lo*(1+p.Precision) && mid > lo && mid < hi
}

// budgetDecided ends a decided search whose probes ran out: the best
// bracket so far, its ends shown or not (Decision.Unshown says which).
func (p Policy) budgetDecided(v edgeView) Decision {
	d := Decision{Done: true, Max: v.lo, Found: v.lo > 0, Bracketed: v.lo > 0 && v.hi > 0, Hi: v.hi}
	if d.Found && !v.shownToPass(v.lo) {
		d.Unshown = "low"
	}
	if d.Bracketed && !v.shownToFail(v.hi) {
		d.Unshown += map[bool]string{true: ",", false: ""}[d.Unshown != ""] + "high"
	}
	return d
}
