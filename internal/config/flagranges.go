package config

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// flagranges.go: the ranges of the numbers that commands read as their
// own flags (findmax's climb, a sweep's verdict rules, replay's passes,
// ab's rounds, capture's sampling), beside the settings' own (Settings'
// Range). A flag name means one thing in every command that has it; the
// packages that take these values (capacity's Policy, analysis's sweep
// rules) check them against the same ranges.

// AnyFinite is the least rule for a number: finite.
var AnyFinite = Range{Min: -math.MaxFloat64, Max: math.MaxFloat64, What: "a finite number"}

// The capacity commands' (sweep, findmax) own numbers.
var (
	// ClimbFactorRange is findmax's --factor: the climb's multiplier.
	ClimbFactorRange = Range{Min: 1, AboveMin: true, Max: 100, What: "the climb's multiplier"}
	// ProbesRange is findmax's --max-probes.
	ProbesRange = Range{Min: 2, Max: 1000, Whole: true, What: "a number of probes"}
	// ClientCPURange is --client-cpu-limit: a share of mongoload's cores.
	ClientCPURange = Range{Min: 0, AboveMin: true, Max: 1, What: "a share of the cores (0.8)"}
	// LinearGainRange is the sweep rule --linear-gain.
	LinearGainRange = Range{Min: 0, AboveMin: true, Max: 1.5, What: "a share of the proportional gain (0.8)"}
	// KneeGainRange is the sweep rule --knee-gain.
	KneeGainRange = Range{Min: 0, AboveMin: true, Max: 1.5, What: "a share of the proportional gain (0.3)"}
	// LatencyKneeRange is the sweep rule --latency-knee.
	LatencyKneeRange = Range{Min: 1, AboveMin: true, Max: 1000, What: "a factor (3)"}
	// PlateauRange is the sweep rule --plateau.
	PlateauRange = Range{Min: 0, AboveMin: true, Max: 0.9999, What: "a share below 1 (0.1)"}
	// DegradedDropRange is the sweep rule --degraded-drop.
	DegradedDropRange = Range{Min: 0, AboveMin: true, Max: 0.9999, What: "a share below 1 (0.04)"}
	// OversaturatedRange is the sweep rule --oversaturated.
	OversaturatedRange = Range{Min: 1, AboveMin: true, Max: 1000, What: "a factor (3)"}
)

// The other commands' own numbers.
var (
	// LoopRange is replay's --loop: passes over the trace.
	LoopRange = Range{Min: 1, Max: MaxCount, Whole: true, What: "a number of passes"}
	// RoundsRange is ab's --rounds.
	RoundsRange = Range{Min: 2, Max: 1000, Whole: true, What: "a number of rounds"}
	// VerifyRange is ab's --verify: operations verified per shape.
	VerifyRange = Range{Min: 0, Max: 1e6, Whole: true, What: "a count of operations per shape"}
	// MinShareRange is capture's --min-share.
	MinShareRange = Range{Min: 0, Max: 0.9999, What: "a share below 1"}
	// SampleRange is capture's --sample: documents sampled per collection.
	SampleRange = Range{Min: 1, Max: 1_000_000, Whole: true, What: "a number of documents"}
	// SampleRateRange is capture's --sample-rate: the profiler's sampleRate.
	SampleRateRange = Range{Min: 0, AboveMin: true, Max: 1, What: "a fraction in (0, 1] (0.1: one operation in ten)"}
	// ImpactRange is capture's --max-impact: the most the profiler may
	// cost the source, in percent (ParsePercentFrom).
	ImpactRange = Range{Min: 0, AboveMin: true, Max: 1000, Unit: "%", What: "a percentage of the source's latency or throughput (20%)"}
	// SlowMSRange is capture's --slowms.
	SlowMSRange = Range{Min: -1, Max: 86_400_000, Whole: true, What: "milliseconds (-1: level 2)"}
)

// FlagRanges are the ranges of the commands' own numeric flags, by flag
// name. A numeric flag missing here is held to AnyFinite, and cli's
// TestEveryNumericFlag fails until its range is declared.
var FlagRanges = map[string]Range{
	// findmax
	"start":      PositiveRateRange, // left out: estimated from a closed-loop run
	"factor":     ClimbFactorRange,
	"max-probes": ProbesRange,
	// sweep and findmax
	"client-cpu-limit": ClientCPURange,
	"linear-gain":      LinearGainRange,
	"knee-gain":        KneeGainRange,
	"latency-knee":     LatencyKneeRange,
	"plateau":          PlateauRange,
	"degraded-drop":    DegradedDropRange,
	"oversaturated":    OversaturatedRange,
	// replay and ab
	"loop":   LoopRange,
	"rounds": RoundsRange,
	"verify": VerifyRange,
	// capture
	"rate":        RateRange,
	"scale":       FactorRange,
	"min-share":   MinShareRange,
	"sample":      SampleRange,
	"slowms":      SlowMSRange,
	"sample-rate": SampleRateRange,
}

// GivenFlag is a command's own flag as the command line gave it: its name,
// its parser's type ("float64", "int", "string", ...) and its value
// written back by the parser ("NaN", "+Inf", "1e+308").
type GivenFlag struct{ Name, Type, Value string }

// numericFlagTypes are the flag parser's types that hold a number.
var numericFlagTypes = map[string]bool{
	"float64": true, "float32": true, "int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true,
}

// CheckFlagNumbers checks every numeric flag given against its range
// (FlagRanges; AnyFinite for one without) and returns every refusal at
// once, in the order of their names, so --start Inf or --users 1e308 is
// refused before anything runs.
func CheckFlagNumbers(given []GivenFlag) Errors {
	slices.SortFunc(given, func(a, b GivenFlag) int { return strings.Compare(a.Name, b.Name) })
	var es Errors
	for _, f := range given {
		if !numericFlagTypes[f.Type] {
			continue
		}
		r, ok := FlagRanges[f.Name]
		if !ok {
			r = AnyFinite
		}
		v, err := strconv.ParseFloat(f.Value, 64)
		if err != nil {
			es.Add(FlagSource(f.Name).Refuse(fmt.Errorf("%q is not a number: give %s", f.Value, r)))
			continue
		}
		es.Add(CheckNumber(FlagSource(f.Name), v, r))
	}
	return es
}
