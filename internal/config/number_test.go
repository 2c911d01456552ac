package config

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestRangeParse: every number is finite and within its range; NaN, the
// infinities, values past either edge and fractions where a whole number
// is asked are refused with a message that says what is accepted.
func TestRangeParse(t *testing.T) {
	for _, tc := range []struct {
		r    Range
		in   string
		want float64
		err  string // "" when accepted
	}{
		{RateRange, "0", 0, ""},                             // the lower edge, included
		{RateRange, "1e9", 1e9, ""},                         // the upper edge, included
		{RateRange, "2_000", 2000, ""},                      // separators as in files
		{RateRange, "1000000001", 0, "out of range"},        // just past the upper edge
		{RateRange, "-1", 0, "out of range"},                // negative
		{RateRange, "-0.000001", 0, "out of range"},         // just below the lower edge
		{RateRange, "NaN", 0, "NaN is not a number"},        // NaN
		{RateRange, "Inf", 0, "+Inf is not finite"},         // +Inf
		{RateRange, "+Infinity", 0, "+Inf is not finite"},   // another spelling
		{RateRange, "-Inf", 0, "-Inf is not finite"},        // -Inf
		{RateRange, "1e300", 0, "out of range"},             // huge but finite
		{RateRange, "1e400", 0, "out of range"},             // beyond float64: not +Inf
		{RateRange, "1e-400", 0, ""},                        // below float64's smallest: 0
		{RateRange, "ten", 0, "not a number"},               // not a number at all
		{PositiveRateRange, "0", 0, "out of range"},         // above 0 only
		{PositiveRateRange, "0.001", 0.001, ""},             // just above
		{FactorRange, "1000000", 1e6, ""},                   // the upper edge
		{FactorRange, "1000000.5", 0, "out of range"},       // past it
		{WorkersRange, "2.5", 0, "not a whole number"},      // workers are whole
		{WorkersRange, "1000000", 1e6, ""},                  // the upper edge
		{CountRange, "1e15", 1e15, ""},                      // the upper edge, written as a float
		{CountRange, "1000000000000001", 0, "out of range"}, // past it
	} {
		got, err := tc.r.Parse(tc.in)
		if tc.err == "" {
			if err != nil || got != tc.want {
				t.Errorf("%s.Parse(%q) = %v, %v; want %v", tc.r.What, tc.in, got, err, tc.want)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s.Parse(%q) = %v, %v; want an error containing %q", tc.r.What, tc.in, got, err, tc.err)
		}
	}
}

// TestParseShare: percentages and fractions alike, within (0, 1].
func TestParseShare(t *testing.T) {
	for in, want := range map[string]float64{"5%": 0.05, "0.05": 0.05, "100%": 1, "1": 1} {
		if got, err := ShareRange.ParseShare(in); err != nil || got != want {
			t.Errorf("ParseShare(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"0%", "0", "150%", "1.01", "NaN%", "Inf%", "-5%", "x%", "1e400%"} {
		if got, err := ShareRange.ParseShare(in); err == nil {
			t.Errorf("ParseShare(%q) = %v; want a refusal", in, got)
		}
	}
}

// TestSourceRefusal: the refusal is one line naming where the number came
// from, of Kind Invalid (exit 12), and Errors.Add gathers several.
func TestSourceRefusal(t *testing.T) {
	var es Errors
	_, err := ParseNumber(FlagSource("rate"), "Inf", RateRange)
	es.Add(err)
	es.Add(CheckNumber(EnvSource("MONGOLOAD_RATE_SCALE"), -2, FactorRange))
	es.Add(CheckNumber(FileSource("w.yaml", 12, "run.rate"), 5, RateRange)) // accepted: adds nothing
	_, err = ParseShareFrom(FileSource("w.yaml", 0, "run.emptyThreshold"), "150%", ShareRange)
	es.Add(err)
	want := []string{
		`--rate: "Inf": +Inf is not finite: give a rate in operations per second from 0 to 1,000,000,000`,
		`MONGOLOAD_RATE_SCALE: -2 is out of range: give a factor above 0 and at most 1,000,000`,
		`w.yaml: run.emptyThreshold: "150%": 1.5 is out of range: give a share (0.05 or 5%) above 0 and at most 1`,
	}
	if got := strings.Split(es.Error(), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("refusals:\n%s\nwant:\n%s", es.Error(), strings.Join(want, "\n"))
	}
	if k, ok := KindOf(es.Err()); !ok || k != Invalid {
		t.Fatalf("kind %v, %v; want Invalid", k, ok)
	}
	es.Add(errors.New("plain")) // a plain error joins as Invalid
	if len(es) != 4 || es[3].Kind != Invalid {
		t.Fatalf("plain error: %v", es)
	}
}

// TestParseDurationRange: a bare number of seconds is finite and fits a
// time.Duration; converted, NaN or 1e300 would wrap to nonsense.
func TestParseDurationRange(t *testing.T) {
	for _, in := range []string{"NaN", "Inf", "-Inf", "1e300", "-1e300", "1e400", "9.3e9"} {
		if d, err := ParseDuration(in); err == nil {
			t.Errorf("ParseDuration(%q) = %v; want a refusal", in, d)
		}
	}
	for in, want := range map[string]Duration{"0": 0, "1.5": Duration(1500 * time.Millisecond), "-2": Duration(-2 * time.Second), "9e9": Duration(9e9 * float64(time.Second))} {
		if d, err := ParseDuration(in); err != nil || d != want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", in, d, err, want)
		}
	}
}
