package config

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"go.yaml.in/yaml/v3"
)

// Duration is a time.Duration written as "1m30s" in files and flags; a bare
// number means seconds.
type Duration time.Duration

// D returns d as a time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

func (d Duration) String() string { return time.Duration(d).String() }

// DurationRange is a bare number of seconds: the longest a time.Duration
// holds (about 292 years) is the edge; NaN and the infinities are not
// durations (converted, they would wrap to a negative one).
var DurationRange = Range{Min: 0, Max: math.MaxInt64 / float64(time.Second), What: "a duration in seconds"}

// ParseDuration reads "250ms", "1m30s" or a bare number of seconds.
func ParseDuration(s string) (Duration, error) {
	if f, err := strconv.ParseFloat(s, 64); err == nil || errors.Is(err, strconv.ErrRange) {
		// A negative one passes here: callers refuse it in their own words.
		if DurationRange.Check(math.Abs(f)) != nil {
			return 0, fmt.Errorf("%q is not a duration: give %s (or write it like 500ms, 30s or 2m)", s, DurationRange)
		}
		return Duration(f * float64(time.Second)), nil
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration (write it like 500ms, 30s or 2m)", s)
	}
	return Duration(v), nil
}

// UnmarshalYAML accepts a duration string or a number of seconds.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := ParseDuration(n.Value)
	if err != nil {
		return Errorf(Invalid, n.Line, "%v", err)
	}
	if v < 0 {
		return Errorf(Invalid, n.Line, "%q: a duration cannot be negative", n.Value)
	}
	*d = v
	return nil
}

// MarshalYAML writes the duration as a string.
func (d Duration) MarshalYAML() (any, error) { return d.String(), nil }

// MarshalText writes the duration as a string (used by JSON).
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }
