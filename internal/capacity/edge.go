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
//     window at or below it failed or stayed inconclusive (its interval
//     straddling the objective: not shown to meet it);
//   - shown to fail when a window was not carried (dropped operations, the
//     rate not achieved), or NeedFail windows failed there and none passed
//     at or above it; an inconclusive window is no failure;
//   - between them lies the edge, rates whose windows disagreed.
//
// Only a rate shown to pass is an answer (decided.go spends the probes to
// show one). The answer's interval runs from the highest rate shown to
// pass to the lowest shown to fail, the edge inside it. Windows are
// counted in runs: a window extended while it straddled the objective
// counts its runs, each as long as a probe. A pass needs more runs than
// a failure because a failing window is the rare event near the lower end: in a simulation of
// that edge (TestDecidedEdge) a fresh window at the low end failed 43% of
// the time when one window decided a rate, 22% with three (17% with four,
// an answer too cautious for the capacity2 check's independent client),
// and 16% with three once the answer was shown before the edge was
// explored (decided.go).
const (
	NeedPass = 3
	NeedFail = 2
)

// edgeView is what the windows so far show, by rate.
type edgeView struct {
	rates map[float64]rateTally
	// minFail is the lowest rate where any window did not pass: failed,
	// or stayed inconclusive (0: none); maxPass the highest rate where
	// any window passed (0: none).
	minFail, maxPass float64
	// lo is the highest rate below minFail where windows passed (none
	// failed there, as no window failed below minFail); hi the lowest
	// rate above maxPass where windows failed (none passed there). Each
	// is 0 when there is none.
	lo, hi float64
	// shown is the highest rate shown to pass (0: none), at or below lo.
	shown float64
	top   float64 // the highest rate probed
	// above is the lowest rate over maxPass where windows missed, failed
	// or inconclusive (0: none), at or below hi.
	above float64
	edge  []float64 // the rates where windows disagreed, ascending
}

func viewEdge(history []Outcome) edgeView {
	v := edgeView{rates: tally(history)}
	for r, t := range v.rates {
		missed := t.fails+t.unsure > 0
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
		if t.fails+t.unsure > 0 && r > v.maxPass && (v.above == 0 || r < v.above) {
			v.above = r
		}
		if t.fails > 0 && t.passes == 0 && r > v.maxPass && (v.hi == 0 || r < v.hi) {
			v.hi = r
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
// needFail the same for failing.
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
	if v.maxPass >= r {
		return NeedFail
	}
	return max(0, NeedFail-t.fails)
}
