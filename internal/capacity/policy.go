package capacity

import (
	"math"

	"github.com/mongoload/mongoload/internal/config"
)

// Stage names why a probe was run.
type Stage string

// The stages of a rate search.
const (
	Climb   Stage = "climb"   // no rate has failed yet: the last passing rate times Factor
	Descend Stage = "descend" // no rate has passed yet: the lowest failing rate over Factor
	Bisect  Stage = "bisect"  // the middle of the bracket
	Recheck Stage = "recheck" // a rate failed on latency alone once: measured again before it counts
	Confirm Stage = "confirm" // the candidate answer (the highest passing rate) once more
	Extend  Stage = "extend"  // the probe's interval straddled the objective: more seconds at the same rate
)

// Outcome is what one probe showed: the rate asked for, whether the
// service level held there and, when it did not, whether the rate was
// clearly not carried (operations dropped, or less than the rate
// achieved) rather than failed on latency or errors, which a noisy moment
// can cause.
type Outcome struct {
	Rate  float64
	Pass  bool
	Clear bool
	// Inconclusive: the window's interval straddled the objective; it was
	// judged by its point estimate (Pass says which way), and the rate
	// is near the edge (a decided search's windows only).
	Inconclusive bool
	// Segments are the runs the window pooled (a probe and its
	// extensions); it counts as that many windows, at least one.
	Segments int
}

// Policy is the rate search's rule: climb by Factor from Start until the
// service level fails, bisect the bracket between the highest passing rate
// and the lowest failing one until it is within Precision, then repeat the
// highest passing rate.
//
// One noisy moment must not decide a rate, either way. A rate fails when
// it was clearly not carried once, or failed twice; a single failure on
// latency or errors is measured again at once (Recheck), and the rate then
// passes when more of its probes passed than failed. The highest passing
// rate is the answer only once it passed twice (Confirm); a repeat that
// fails leaves it undecided, and a third probe decides.
type Policy struct {
	Start     float64 // the first rate, ops/s
	Factor    float64 // climb and descent factor, above 1
	Precision float64 // the bracket's width as a share of its lower end at which bisecting stops
	Floor     float64 // below this rate the descent gives up: no rate meets the service level
	MaxProbes int     // the search ends after this many probes, whatever it found
	// Decided: each probe's verdict is final about its window (judged
	// with its uncertainty, extended while it straddled the objective),
	// and the search decides rates from windows by nextDecided (edge.go).
	Decided bool
}

// DefaultPolicy is findmax's default rule from start.
func DefaultPolicy(start float64) Policy {
	return Policy{Start: start, Factor: 2, Precision: 0.05, Floor: 1, MaxProbes: 30}
}

// Decision is the policy's answer: the next probe, or the end of the search.
type Decision struct {
	Rate  float64 // the next probe's rate, when not Done
	Stage Stage
	Done  bool
	// Max is the highest rate that met the service level, repeat included;
	// Found is false when no rate met it (every rate down to Floor failed).
	Max   float64
	Found bool
	// Bracketed: a failing rate above Max was measured, within Precision
	// unless the probe budget ran out. Without it Max is only a lower bound.
	Bracketed bool
	// Hi is a decided search's lowest rate shown to fail above the edge
	// (0 otherwise); Unshown names the ends ("low", "high") the probe
	// budget left without the windows that show them.
	Hi      float64
	Unshown string
	// Candidate is, when no rate was shown to pass, the highest rate that
	// passed with none failing there (0: none did).
	Candidate float64
}

// Next decides from the probes so far, in the order they ran.
func (p Policy) Next(history []Outcome) Decision {
	if p.Decided {
		return p.NextWithin(history, p.MaxProbes-probesIn(history))
	}
	if len(history) == 0 {
		return Decision{Rate: p.Start, Stage: Climb}
	}
	rates := tally(history)
	lo, hi := bracket(rates)
	if len(history) >= p.MaxProbes {
		return Decision{Done: true, Max: lo, Found: lo > 0, Bracketed: lo > 0 && hi > 0}
	}
	if last := history[len(history)-1].Rate; rates[last].undecided() {
		stage := Recheck
		if rates[last].passes > 0 {
			stage = Confirm // the repeat of a passing rate failed: a third probe decides
		}
		return Decision{Rate: last, Stage: stage}
	}
	switch {
	case hi == 0: // nothing failed yet
		return Decision{Rate: p.round(lo * p.Factor), Stage: Climb}
	case lo == 0: // nothing below the lowest failing rate passed
		next := p.round(hi / p.Factor)
		if next < p.Floor || next >= hi {
			return Decision{Done: true}
		}
		return Decision{Rate: next, Stage: Descend}
	}
	if mid := p.round((lo + hi) / 2); hi > lo*(1+p.Precision) && mid > lo && mid < hi {
		return Decision{Rate: mid, Stage: Bisect}
	}
	if rates[lo].passes < 2 {
		return Decision{Rate: lo, Stage: Confirm}
	}
	return Decision{Done: true, Max: lo, Found: true, Bracketed: true}
}

// rateTally counts a rate's runs: passes, fails, windows not carried
// (clear), inconclusive windows (near, also counted as passes or failures
// by their point estimates), and failing windows whose interval lay above
// the share allowed (sure).
type rateTally struct{ passes, fails, clear, near, sure int }

func (t rateTally) failing() bool   { return t.clear > 0 || t.fails >= 2 }
func (t rateTally) passing() bool   { return !t.failing() && t.passes > t.fails }
func (t rateTally) undecided() bool { return !t.failing() && !t.passing() }

func tally(history []Outcome) map[float64]rateTally {
	out := map[float64]rateTally{}
	for _, o := range history {
		t := out[o.Rate]
		w := max(1, o.Segments)
		if o.Inconclusive {
			t.near++
		}
		switch {
		case o.Pass:
			t.passes += w
		case o.Clear:
			t.clear++
			t.fails += w
		default:
			t.fails += w
		}
		if !o.Pass && !o.Inconclusive {
			t.sure++
		}
		out[o.Rate] = t
	}
	return out
}

// bracket is the lowest failing rate hi (0 if none) and the highest
// passing rate below it lo (0 if none).
func bracket(rates map[float64]rateTally) (lo, hi float64) {
	for r, t := range rates {
		if t.failing() && (hi == 0 || r < hi) {
			hi = r
		}
	}
	for r, t := range rates {
		if t.passing() && (hi == 0 || r < hi) && r > lo {
			lo = r
		}
	}
	return lo, hi
}

// round keeps rates readable: whole operations per second from 20 ops/s,
// hundredths below.
func (p Policy) round(r float64) float64 {
	if r >= 20 {
		return math.Round(r)
	}
	return math.Round(r*100) / 100
}

// PrecisionRange bounds --precision: a share below 100%. The other
// numbers' ranges are config's (config.FlagRanges), checked by the
// command as given.
var PrecisionRange = config.Range{Min: 0, AboveMin: true, Max: 0.9999, What: "a share below 100% (5% or 0.05)"}

// Validate names the flag of a policy that cannot search.
func (p Policy) Validate() error {
	var es config.Errors
	es.Add(config.CheckNumber(config.FlagSource("start"), p.Start, config.PositiveRateRange))
	es.Add(config.CheckNumber(config.FlagSource("factor"), p.Factor, config.ClimbFactorRange))
	es.Add(config.CheckNumber(config.FlagSource("precision"), p.Precision, PrecisionRange))
	es.Add(config.CheckNumber(config.FlagSource("max-probes"), float64(p.MaxProbes), config.ProbesRange))
	return es.Err()
}
