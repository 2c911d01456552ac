package analysis

import (
	"fmt"
	"math"

	"github.com/mongoload/mongoload/internal/config"
)

// SweepVerdict names what one step of a sweep shows about the system under
// test. docs/sweep.md gives the rules in prose; SweepVerdicts is the code.
type SweepVerdict string

// The verdicts, in the order a well-behaved sweep meets them.
const (
	Underutilised      SweepVerdict = "Underutilised"       // the lowest step, when more load still bought throughput
	LinearScaling      SweepVerdict = "Linear scaling"      // throughput grew at least LinearGain of proportionally to the load
	EfficientScaling   SweepVerdict = "Efficient scaling"   // throughput grew, less than linearly, below the sweet spot
	SweetSpot          SweepVerdict = "Sweet spot"          // the last step whose extra load was worth it
	SaturationBegins   SweepVerdict = "Saturation begins"   // the step after the sweet spot
	MaxThroughput      SweepVerdict = "Max throughput"      // the first later step on the plateau
	DiminishingReturns SweepVerdict = "Diminishing returns" // more load, (almost) no more throughput, latency up
	Degraded           SweepVerdict = "Degraded"            // throughput fell below the best of the lower steps
	Oversaturated      SweepVerdict = "Oversaturated"       // latency a multiple of the sweet spot's: queueing dominates
)

// SweepRules are the thresholds of the verdicts; DefaultSweepRules gives the
// defaults, which the sweep command exposes as flags.
type SweepRules struct {
	// LinearGain: a step whose throughput gain is at least this share of
	// the proportional gain (load x2 -> throughput x2) scales linearly.
	LinearGain float64
	// KneeGain: extra load is worth it while it buys at least this share
	// of the proportional gain. The sweet spot is the first step from which
	// no higher step gains that much.
	KneeGain float64
	// LatencyKnee: a step after which latency jumps by at least this factor
	// is the sweet spot whatever the throughput did (queueing has begun;
	// this catches open-loop sweeps, whose throughput follows the rate
	// until the server falls behind).
	LatencyKnee float64
	// Plateau: steps within this share of the highest throughput are on
	// the plateau; the first one past saturation is "Max throughput".
	Plateau float64
	// DegradedDrop: past saturation, a step whose throughput is more than
	// this share below the best lower step is "Degraded".
	DegradedDrop float64
	// Oversaturated: past saturation, a step whose latency is at least this
	// many times the sweet spot's is "Oversaturated".
	Oversaturated float64
}

// DefaultSweepRules are the defaults of the sweep command's flags.
func DefaultSweepRules() SweepRules {
	return SweepRules{LinearGain: 0.8, KneeGain: 0.2, LatencyKnee: 3, Plateau: 0.10, DegradedDrop: 0.04, Oversaturated: 3}
}

// Validate checks each threshold in its range (config.FlagRanges, by
// the flag that sets it: the command checks the same as given), then that they make sense
// together.
func (r SweepRules) Validate() error {
	var es config.Errors
	for _, t := range []struct {
		flag string
		v    float64
	}{{"linear-gain", r.LinearGain}, {"knee-gain", r.KneeGain}, {"latency-knee", r.LatencyKnee},
		{"plateau", r.Plateau}, {"degraded-drop", r.DegradedDrop}, {"oversaturated", r.Oversaturated}} {
		es.Add(config.CheckNumber(config.FlagSource(t.flag), t.v, config.FlagRanges[t.flag]))
	}
	if len(es) > 0 {
		return es
	}
	if r.KneeGain >= r.LinearGain {
		return fmt.Errorf("--knee-gain %g must be above 0 and below --linear-gain %g", r.KneeGain, r.LinearGain)
	}
	return nil
}

// SweepPoint is what the verdicts are computed from: one step's load level
// (workers, target rate or sessions, strictly increasing from step to
// step), its throughput (successful operations per second) and its latency
// (in ms, by default the average).
type SweepPoint struct {
	Level      float64
	Throughput float64
	Latency    float64
}

// SweepJudgement is the verdict of every step and the named points.
type SweepJudgement struct {
	Verdicts []SweepVerdict
	// Gain is each step's throughput gain over the previous step as a
	// share of the proportional gain (1 = linear); NaN for the first step.
	Gain []float64
	// SweetSpot, Saturation and Plateau index the sweet spot, the step
	// where saturation begins and the "Max throughput" step; -1 when the
	// sweep did not reach them. Best indexes the highest throughput.
	SweetSpot, Saturation, Plateau, Best int
}

// Gain is the throughput gain from step a to step b as a share of the
// proportional gain: (Xb/Xa - 1) / (Lb/La - 1). 1 means throughput grew as
// much as the load, 0 not at all, below 0 that it fell. A step from zero
// throughput to some counts as linear.
func Gain(a, b SweepPoint) float64 {
	load := b.Level/a.Level - 1
	if load <= 0 || math.IsInf(load, 0) || math.IsNaN(load) {
		return math.NaN()
	}
	if a.Throughput <= 0 {
		if b.Throughput > 0 {
			return 1
		}
		return 0
	}
	return (b.Throughput/a.Throughput - 1) / load
}

// JudgeSweep gives every step of a sweep its verdict, by these rules (the
// thresholds are r's):
//
//  1. The sweet spot S is the first step from which no higher step gains at
//     least KneeGain of the proportional gain, or after which latency jumps
//     by LatencyKnee or more. If that is the highest step, the sweep did
//     not saturate and no step gets a verdict from rule 3 on.
//  2. Below S, the lowest step is Underutilised, the others Linear scaling
//     (a gain over the best lower step of at least LinearGain) or
//     Efficient scaling.
//  3. The step after S is Saturation begins.
//  4. Past it, the first step whose throughput is within Plateau of the
//     highest throughput is Max throughput, unless a step before it was
//     already Degraded or Oversaturated (throughput creeping up in a
//     collapse is no plateau).
//  5. Every other step past saturation is Degraded if its throughput is
//     more than DegradedDrop below the best lower step's, else Oversaturated
//     if its latency is at least Oversaturated times S's, else Diminishing
//     returns.
//
// A single step gets no verdict (""): there is nothing to compare it with.
func JudgeSweep(points []SweepPoint, r SweepRules) SweepJudgement {
	n := len(points)
	j := SweepJudgement{Verdicts: make([]SweepVerdict, n), Gain: make([]float64, n), SweetSpot: -1, Saturation: -1, Plateau: -1, Best: -1}
	if n == 0 {
		return j
	}
	best := 0
	for i := range points {
		if points[i].Throughput > points[best].Throughput {
			best = i
		}
		j.Gain[i] = math.NaN()
		if i > 0 {
			j.Gain[i] = Gain(points[i-1], points[i])
		}
	}
	j.Best = best
	if n == 1 {
		return j
	}
	s := sweetSpot(points, r)
	for i := 0; i < s; i++ {
		j.Verdicts[i] = scalingVerdict(points, i, r)
	}
	if s == n-1 { // still scaling at the highest step
		j.Verdicts[s] = scalingVerdict(points, s, r)
		return j
	}
	j.SweetSpot, j.Saturation = s, s+1
	j.Verdicts[s], j.Verdicts[s+1] = SweetSpot, SaturationBegins
	ceiling := points[best].Throughput * (1 - r.Plateau)
	worse := false // a step past saturation was already Degraded or Oversaturated
	for i := s + 2; i < n; i++ {
		switch {
		case j.Plateau < 0 && !worse && points[i].Throughput >= ceiling:
			j.Plateau = i
			j.Verdicts[i] = MaxThroughput
		case points[i].Throughput < (1-r.DegradedDrop)*bestBelow(points, i):
			j.Verdicts[i], worse = Degraded, true
		case points[s].Latency > 0 && points[i].Latency >= r.Oversaturated*points[s].Latency:
			j.Verdicts[i], worse = Oversaturated, true
		default:
			j.Verdicts[i] = DiminishingReturns
		}
	}
	return j
}

// sweetSpot is rule 1: the first step no higher step improves on by
// KneeGain, or after which latency jumps. The highest step always
// qualifies (no higher step improves on it).
func sweetSpot(points []SweepPoint, r SweepRules) int {
	for i := range points {
		if i+1 < len(points) && points[i].Latency > 0 && points[i+1].Latency >= r.LatencyKnee*points[i].Latency {
			return i
		}
		worth := false
		for k := i + 1; k < len(points); k++ {
			if g := Gain(points[i], points[k]); g >= r.KneeGain || math.IsNaN(g) {
				worth = true
				break
			}
		}
		if !worth {
			return i
		}
	}
	return len(points) - 1
}

// scalingVerdict is rule 2, for a step at or below the sweet spot.
func scalingVerdict(points []SweepPoint, i int, r SweepRules) SweepVerdict {
	if i == 0 {
		return Underutilised
	}
	ref := 0
	for k := 1; k < i; k++ {
		if points[k].Throughput > points[ref].Throughput {
			ref = k
		}
	}
	if Gain(points[ref], points[i]) >= r.LinearGain {
		return LinearScaling
	}
	return EfficientScaling
}

// bestBelow is the highest throughput of the steps below i.
func bestBelow(points []SweepPoint, i int) float64 {
	b := 0.0
	for k := 0; k < i; k++ {
		b = max(b, points[k].Throughput)
	}
	return b
}
