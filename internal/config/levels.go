package config

import (
	"fmt"
	"strings"
)

// ParseLevels reads the levels of a stepped load parameter (a sweep's
// --concurrency, --rate or --sessions list): positive, whole numbers but
// for a rate, increasing from step to step; a bad level is refused as an
// invalid value (exit 12) naming the flag.
func ParseLevels(param, text string) ([]float64, error) {
	rg := Range{Min: 0, AboveMin: true, Max: MaxWorkers, Whole: true, What: "a number of " + param}
	if param == "rate" {
		rg = PositiveRateRange
	}
	var out []float64
	for _, s := range strings.Split(text, ",") {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		v, err := rg.Parse(s)
		if err != nil {
			return nil, FlagSource(param).Refuse(fmt.Errorf("%q: %w", text, err))
		}
		if len(out) > 0 && v <= out[len(out)-1] {
			return nil, FlagSource(param).Refuse(fmt.Errorf("%q: the levels must increase from step to step", text))
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--%s: no level given", param)
	}
	return out, nil
}
