package config

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// number.go: the one rule for every number mongoload reads, from a flag,
// the environment or a file. A number is finite and lies within the range
// where it means something; anything else is refused, exit 12 (Kind
// Invalid), in one line that names where it came from: the flag
// ("--rate"), the environment variable ("MONGOLOAD_RATE") or the file and
// key ("w.yaml:12: run.rate").
//
// strconv.ParseFloat reads "NaN", "Inf" and "1e400" (as +Inf) without
// complaint, and pflag's float flags use it, so every numeric input goes
// through Range.Check after parsing, whoever parsed it:
//
//	rate, err := config.ParseNumber(config.FlagSource("rate"), text, config.RateRange)
//	err := config.CheckNumber(config.FlagSource("start"), *start, config.PositiveRateRange)
//
// A command collects every refusal with Errors.Add and returns them all at
// once (Errors.Err), so one try lists every bad value.

// Range is where a number means something: from Min to Max, both included
// unless AboveMin excludes Min (a factor must be above 0).
type Range struct {
	Min, Max float64
	// AboveMin excludes Min itself.
	AboveMin bool
	// Whole asks for an integer (workers, probes, documents).
	Whole bool
	// What the number is, for the refusal: "a rate in operations per second".
	What string
	// Unit is written after the bounds and the value refused ("%").
	Unit string
}

// The ceilings of the ranges below: far above any real use, and low enough
// that what is computed from them (an interval in nanoseconds, a count of
// documents, a product of two of them) stays exact and finite.
const (
	// MaxRate is one operation per nanosecond: the open loop's clock
	// cannot schedule two operations closer together.
	MaxRate = 1e9
	// MaxFactor bounds a multiplier (--rate-scale, --seed-scale, findmax's
	// --factor): a million times is no longer a scale of the same thing.
	MaxFactor = 1e6
	// MaxCount bounds counts of documents, operations and users: below
	// 2^53, so a count is exact as a float64 and sums of them stay finite.
	MaxCount = 1e15
	// MaxWorkers bounds workers, sessions and connections of one process.
	MaxWorkers = 1_000_000
)

// The ranges shared by several inputs; a command with an input of its own
// declares its Range beside the flag.
var (
	// RateRange is an open-loop rate; 0 means "no rate" (closed loop).
	RateRange = Range{Min: 0, Max: MaxRate, What: "a rate in operations per second"}
	// PositiveRateRange is a rate that must be given (findmax --start).
	PositiveRateRange = Range{Min: 0, AboveMin: true, Max: MaxRate, What: "a rate in operations per second"}
	// FactorRange is a multiplier above 0.
	FactorRange = Range{Min: 0, AboveMin: true, Max: MaxFactor, What: "a factor"}
	// ShareRange is a share above 0 and at most 1 (100%).
	ShareRange = Range{Min: 0, AboveMin: true, Max: 1, What: "a share (0.05 or 5%)"}
	// CountRange is a count of documents or operations, 0 or more.
	CountRange = Range{Min: 0, Max: MaxCount, Whole: true, What: "a count"}
	// WorkersRange is a count of workers, sessions or connections, 0 or more.
	WorkersRange = Range{Min: 0, Max: MaxWorkers, Whole: true, What: "a number of workers"}
	// MoneyRange is an amount of money, 0 or more.
	MoneyRange = Range{Min: 0, Max: MaxCount, What: "an amount"}
	// ConcurrencyRange is the closed loop's workers: at least one.
	ConcurrencyRange = Range{Min: 1, Max: MaxWorkers, Whole: true, What: "a number of workers"}
	// PoolRange is a connection pool's size (0: the driver's default).
	PoolRange = Range{Min: 0, Max: MaxWorkers, Whole: true, What: "a number of connections"}
	// BatchRange is documents per insertMany: MongoDB's maxWriteBatchSize.
	BatchRange = Range{Min: 1, Max: 100_000, Whole: true, What: "a number of documents per batch"}
	// RunsRange is the runs of a battery (--repeat, --pass-quorum).
	RunsRange = Range{Min: 0, Max: 100_000, Whole: true, What: "a number of runs"}
	// ExplainRange is how many of the slowest shapes are explained.
	ExplainRange = Range{Min: 0, Max: 10_000, Whole: true, What: "a number of shapes"}
	// WeightRange is an operation's weight in the mix.
	WeightRange = Range{Min: 0, Max: MaxCount, What: "a weight"}
)

// String says what r accepts: "a rate in operations per second from 0 to 1,000,000,000".
func (r Range) String() string {
	what := r.What
	if what == "" {
		what = "a number"
	}
	if r.Whole && !strings.Contains(what, "count") && !strings.Contains(what, "number of") && !strings.Contains(what, "whole") && !strings.Contains(what, "milliseconds") {
		what = "a whole number (" + what + ")"
	}
	if r.AboveMin {
		return fmt.Sprintf("%s above %s%s and at most %s%s", what, formatBound(r.Min), r.Unit, formatBound(r.Max), r.Unit)
	}
	return fmt.Sprintf("%s from %s%s to %s%s", what, formatBound(r.Min), r.Unit, formatBound(r.Max), r.Unit)
}

// formatBound writes a bound as people read it: 1,000,000 rather than 1e+06.
func formatBound(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e16 {
		s := strconv.FormatInt(int64(math.Abs(v)), 10)
		for i := len(s) - 3; i > 0; i -= 3 {
			s = s[:i] + "," + s[i:]
		}
		if v < 0 {
			s = "-" + s
		}
		return s
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// Check returns nil when v is finite, within r and whole if r asks for it;
// otherwise an error saying what v is and what r accepts.
func (r Range) Check(v float64) error {
	switch {
	case math.IsNaN(v):
		return fmt.Errorf("NaN is not a number: give %s", r)
	case math.IsInf(v, 0):
		return fmt.Errorf("%s is not finite: give %s", formatValue(v), r)
	case v < r.Min || (r.AboveMin && v == r.Min) || v > r.Max:
		return fmt.Errorf("%s%s is out of range: give %s", formatValue(v), r.Unit, r)
	case r.Whole && v != math.Trunc(v):
		return fmt.Errorf("%s is not a whole number: give %s", formatValue(v), r)
	}
	return nil
}

func formatValue(v float64) string {
	if math.IsInf(v, 1) {
		return "+Inf"
	}
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatFloat(v, 'f', -1, 64) // 99999999, not 9.9999999e+07
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// Parse reads text as a number ("2000", "2_000", "1.5e3") and checks it
// against r. A number too large for a float64 ("1e400") is out of range,
// not infinite.
func (r Range) Parse(text string) (float64, error) {
	t := strings.ReplaceAll(strings.TrimSpace(text), "_", "")
	v, err := strconv.ParseFloat(t, 64)
	if errors.Is(err, strconv.ErrRange) && !math.IsInf(v, 0) {
		v, err = 0, nil // too close to 0 for a float64: it is 0
	}
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("%q is out of range: give %s", text, r)
		}
		return 0, fmt.Errorf("%q is not a number: give %s", text, r)
	}
	if err := r.Check(v); err != nil {
		return 0, fmt.Errorf("%q: %w", text, err)
	}
	return v, nil
}

// ParseShare reads a share as a percentage ("5%") or a fraction ("0.05")
// and checks the fraction against r (ShareRange, or a range of its own).
func (r Range) ParseShare(text string) (float64, error) {
	t := strings.TrimSpace(text)
	pct, ok := strings.CutSuffix(t, "%")
	if !ok {
		return r.Parse(t)
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(pct), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Errorf("%q is not a percentage: give %s", text, r)
	}
	if err := r.Check(v / 100); err != nil {
		return 0, fmt.Errorf("%q: %w", text, err)
	}
	return v / 100, nil
}

// ParsePercentFrom reads text from src as a percentage, its % sign
// optional ("20%" or "20": a flag whose help says it is in percent), and
// checks it in percent against r (whose Unit is "%"); a share flag whose
// bare number is a fraction ("0.2") reads with ParseShareFrom instead.
func ParsePercentFrom(src Source, text string, r Range) (float64, error) {
	t, _ := strings.CutSuffix(strings.TrimSpace(text), "%")
	v, err := strconv.ParseFloat(strings.ReplaceAll(strings.TrimSpace(t), "_", ""), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, src.Refuse(fmt.Errorf("%q is not a percentage: give %s", text, r))
	}
	if err := r.Check(v); err != nil { // 1e400 is +Inf: not finite
		return 0, src.Refuse(fmt.Errorf("%q: %w", text, err))
	}
	return v, nil
}

// Source is where a number came from, named in its refusal. Make one
// with FlagSource, EnvSource or FileSource.
type Source struct {
	File string // the file of a key, "" for flags and the environment
	Line int    // the key's line in File, 0 when unknown
	Name string // "--rate", "MONGOLOAD_RATE", "run.rate"
}

// FlagSource is a command-line flag, named with or without its dashes.
func FlagSource(flag string) Source { return Source{Name: "--" + strings.TrimLeft(flag, "-")} }

// EnvSource is an environment variable.
func EnvSource(name string) Source { return Source{Name: name} }

// FileSource is a key of a file (line 0 when unknown).
func FileSource(file string, line int, key string) Source {
	return Source{File: file, Line: line, Name: key}
}

// Refuse turns err (from Range.Check or Parse) into the one-line refusal
// of s: an *Error of Kind Invalid, which the CLI exits 12 with.
func (s Source) Refuse(err error) *Error {
	return &Error{Kind: Invalid, File: s.File, Line: s.Line, Field: s.Name, Msg: err.Error()}
}

// CheckNumber applies the rule to v from src: nil, or its refusal (an
// *Error of Kind Invalid: exit 12).
func CheckNumber(src Source, v float64, r Range) error {
	if err := r.Check(v); err != nil {
		return src.Refuse(err)
	}
	return nil
}

// ParseNumber reads text from src as a number in r: the number, or its
// refusal (an *Error of Kind Invalid: exit 12).
func ParseNumber(src Source, text string, r Range) (float64, error) {
	v, err := r.Parse(text)
	if err != nil {
		return 0, src.Refuse(err)
	}
	return v, nil
}

// ParseShareFrom reads text from src as a share ("5%" or "0.05") in r.
func ParseShareFrom(src Source, text string, r Range) (float64, error) {
	v, err := r.ParseShare(text)
	if err != nil {
		return 0, src.Refuse(err)
	}
	return v, nil
}

// Add appends the configuration problems err carries (an *Error or
// Errors) to es; any other error is added as an Invalid problem. A nil
// err adds nothing, so a command can Add every check and return es.Err().
func (es *Errors) Add(err error) {
	if err == nil {
		return
	}
	var many Errors
	if errors.As(err, &many) {
		*es = append(*es, many...)
		return
	}
	var one *Error
	if errors.As(err, &one) {
		*es = append(*es, one)
		return
	}
	*es = append(*es, &Error{Kind: Invalid, Msg: err.Error()})
}

// speedRange is a replay's --speed: a factor of the captured pace.
var speedRange = Range{Min: 0, AboveMin: true, Max: MaxFactor, What: "a factor of the captured pace (2: twice as fast), or max"}

// ParseSpeed reads a replay's speed (replay's and ab's --speed, from
// where): a factor of the captured pace, or max (0: as fast as it goes).
func ParseSpeed(from Source, text string) (float64, error) {
	if text == "max" {
		return 0, nil
	}
	return ParseNumber(from, text, speedRange)
}
