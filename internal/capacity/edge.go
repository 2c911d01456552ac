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
//     window at or below it failed;
//   - shown to fail when a window was not carried (dropped operations,
//     the rate not achieved), or at least NeedFail windows failed there
//     and more failed than passed;
//   - between them lies the edge, rates whose windows disagreed.
//
// A window whose interval straddles the objective (inconclusive) is
// judged by its point estimate, its own percentile against the bound, as
// the independent client judges a window: the repetition above is what
// settles the noise. Counting it neither way (the rule before) left the
// high end where windows fail by their intervals, about 4,100 ops/s on
// the stalling server of TestDecidedShowsItsAnswer, and 146 of its 200
// intervals wider than 1.4.
//
// Only a rate shown to pass is an answer (decided.go spends the probes to
// show one). The answer's interval runs from the highest rate shown to
// pass to the lowest above it shown to fail, the edge inside it. Windows
// are counted in runs: a window extended while it straddled the objective
// counts its runs, each as long as a probe. The answer is a promise, so a
// pass needs more runs than a failure; the high end only says where the
// service level was seen to break, and one failing window with none
// passing there shows it (two left 29 of the 200 high ends unshown, the
// probes spent on rechecks that passed). In a simulation of the edge
// (TestDecidedEdge) a fresh window at the low end failed 43% of the time
// when one window decided a rate, 22% with three (17% with four, an
// answer too cautious for the capacity2 check's independent client, and
// with too few probes left to narrow the interval in capacity4's), and
// 16% with three once the answer was shown before the edge was explored
// (decided.go).
const (
	NeedPass = 3
	NeedFail = 1
)

// edgeView is what the windows so far show, by rate.
type edgeView struct {
	rates map[float64]rateTally
	// minFail is the lowest rate where any window failed (0: none);
	// maxPass the highest rate where any window passed (0: none).
	minFail, maxPass float64
	// lo is the highest rate below minFail where windows passed (none
	// failed there, as no window failed below minFail); hi the lowest rate
	// above lo where the windows lean to failing (more failed than
	// passed, or one was not carried). Each is 0 when there is none.
	lo, hi float64
	// shown is the highest rate shown to pass (0: none), at or below lo.
	shown float64
	top   float64 // the highest rate probed
	// below is the highest rate under hi, at or above lo, whose windows
	// do not lean to failing: the gap below the high end runs from it.
	below float64
	edge  []float64 // the rates where windows disagreed, ascending
}

func viewEdge(history []Outcome) edgeView {
	v := edgeView{rates: tally(history)}
	for r, t := range v.rates {
		missed := t.fails > 0
		v.top = math.Max(v.top, r)
		if missed && (v.minFail == 0 || r < v.minFail) {
			v.minFail = r
		}
		if t.passes > 0 {
			v.maxPass = math.Max(v.maxPass, r)
		}
		if t.passes > 0 && missed {
			v.edge = append(v.edge, r)
		}
	}
	slices.Sort(v.edge)
	for r, t := range v.rates {
		if t.passes > 0 && (v.minFail == 0 || r < v.minFail) && r > v.lo {
			v.lo = r
		}
	}
	for r, t := range v.rates {
		if t.leansFail() && r > v.lo && (v.hi == 0 || r < v.hi) {
			v.hi = r
		}
	}
	v.below = v.lo
	for r, t := range v.rates {
		if !t.leansFail() && r > v.below && (v.hi == 0 || r < v.hi) {
			v.below = r
		}
	}
	for r := range v.rates {
		if r > v.shown && v.shownToPass(r) {
			v.shown = r
		}
	}
	return v
}

// shownToPass and shownToFail: the rate's windows are enough for its
// verdict to stand.
func (v edgeView) shownToPass(r float64) bool { return r > 0 && v.needPass(r) == 0 }
func (v edgeView) shownToFail(r float64) bool { return r > 0 && v.needFail(r) == 0 }

// needPass is how many more passing runs rate r needs to be shown to pass
// (NeedPass when a window failed at or below it: then no number will do);
// needFail the same for failing: at least NeedFail, and one more than
// passed there.
func (v edgeView) needPass(r float64) int {
	if v.minFail > 0 && r >= v.minFail {
		return NeedPass
	}
	return max(0, NeedPass-v.rates[r].passes)
}

func (v edgeView) needFail(r float64) int {
	t := v.rates[r]
	if t.clear > 0 {
		return 0
	}
	return max(0, NeedFail-t.fails, t.passes+1-t.fails)
}

// leansFail: more of the rate's runs failed than passed, or one was not
// carried.
func (t rateTally) leansFail() bool { return t.clear > 0 || t.fails > t.passes }
