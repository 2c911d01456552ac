package capacity

import (
	"fmt"
	"math"
)

// Stage names why a probe was run.
type Stage string

// The stages of a rate search.
const (
	Climb   Stage = "climb"   // no rate has failed yet: the last passing rate times Factor
	Descend Stage = "descend" // no rate has passed yet: the lowest failing rate over Factor
	Bisect  Stage = "bisect"  // the middle of the bracket
	Confirm Stage = "confirm" // the bracket is narrow: the highest passing rate once more
)

// Outcome is what one probe showed: the rate asked for and whether the
// service level held there.
type Outcome struct {
	Rate float64
	Pass bool
}

// Policy is the rate search's rule: climb by Factor from Start until the
// service level fails, bisect the bracket between the highest passing rate
// and the lowest failing one until it is within Precision, then repeat the
// highest passing rate; a repeat that fails makes that rate a failing one
// and the search goes on below it. A rate counts as passing only if every
// probe at it passed.
type Policy struct {
	Start     float64 // the first rate, ops/s
	Factor    float64 // climb and descent factor, above 1
	Precision float64 // the bracket's width as a share of its lower end at which bisecting stops
	Floor     float64 // below this rate the descent gives up: no rate meets the service level
	MaxProbes int     // the search ends after this many probes, whatever it found
}

// DefaultPolicy is findmax's default rule from start.
func DefaultPolicy(start float64) Policy {
	return Policy{Start: start, Factor: 2, Precision: 0.05, Floor: 1, MaxProbes: 24}
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
}

// Next decides from the probes so far, in the order they ran.
func (p Policy) Next(history []Outcome) Decision {
	if len(history) == 0 {
		return Decision{Rate: p.Start, Stage: Climb}
	}
	lo, hi, loPasses := bracket(history)
	out := len(history) >= p.MaxProbes
	switch {
	case hi == 0: // nothing failed yet
		if out {
			return Decision{Done: true, Max: lo, Found: true}
		}
		return Decision{Rate: p.round(lo * p.Factor), Stage: Climb}
	case lo == 0: // nothing below the lowest failing rate passed
		next := p.round(hi / p.Factor)
		if out || next < p.Floor || next >= hi {
			return Decision{Done: true}
		}
		return Decision{Rate: next, Stage: Descend}
	}
	if out {
		return Decision{Done: true, Max: lo, Found: true, Bracketed: true}
	}
	if mid := p.round((lo + hi) / 2); hi > lo*(1+p.Precision) && mid > lo && mid < hi {
		return Decision{Rate: mid, Stage: Bisect}
	}
	if loPasses < 2 {
		return Decision{Rate: lo, Stage: Confirm}
	}
	return Decision{Done: true, Max: lo, Found: true, Bracketed: true}
}

// bracket is the lowest failing rate hi (0 if none), the highest rate
// below it at which every probe passed lo (0 if none), and how many probes
// passed at lo.
func bracket(history []Outcome) (lo, hi float64, loPasses int) {
	failed := map[float64]bool{}
	for _, o := range history {
		if !o.Pass {
			failed[o.Rate] = true
			if hi == 0 || o.Rate < hi {
				hi = o.Rate
			}
		}
	}
	for _, o := range history {
		if o.Pass && !failed[o.Rate] && (hi == 0 || o.Rate < hi) && o.Rate > lo {
			lo = o.Rate
		}
	}
	for _, o := range history {
		if o.Rate == lo && o.Pass {
			loPasses++
		}
	}
	return lo, hi, loPasses
}

// round keeps rates readable: whole operations per second from 20 ops/s,
// hundredths below.
func (p Policy) round(r float64) float64 {
	if r >= 20 {
		return math.Round(r)
	}
	return math.Round(r*100) / 100
}

// Validate names the flag of a policy that cannot search.
func (p Policy) Validate() error {
	switch {
	case p.Start <= 0:
		return fmt.Errorf("--start %g must be a positive rate in ops/s", p.Start)
	case p.Factor <= 1:
		return fmt.Errorf("--factor %g must be above 1 (the climb's multiplier, such as 2)", p.Factor)
	case p.Precision <= 0 || p.Precision >= 1:
		return fmt.Errorf("--precision %g must be a share between 0 and 1, such as 5%% or 0.05", p.Precision)
	case p.MaxProbes < 2:
		return fmt.Errorf("--max-probes %d must be at least 2", p.MaxProbes)
	}
	return nil
}
