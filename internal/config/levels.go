package config

import (
	"errors"
	"fmt"
	"strings"
)

// ParseLevels reads the levels of a stepped load parameter (a sweep's
// --concurrency, --rate or --sessions list) as from gave them (the flag,
// or its variable): positive, whole numbers but for a rate, increasing
// from step to step, none left empty ("4,,8" is a typo, not two levels); a
// bad level is refused as an invalid value (exit 12) naming from.
func ParseLevels(from Source, param, text string) ([]float64, error) {
	rg := Range{Min: 0, AboveMin: true, Max: MaxWorkers, Whole: true, What: "a number of " + param}
	if param == "rate" {
		rg = PositiveRateRange
	}
	parts := strings.Split(text, ",")
	var out []float64
	for i, s := range parts {
		s = strings.TrimSpace(s)
		if s == "" {
			if i == len(parts)-1 && i > 0 {
				continue // "4,8," ends the list
			}
			return nil, from.Refuse(fmt.Errorf("%q: level %d is empty: give a number between the commas, such as %s", text, i+1, example(param)))
		}
		v, err := rg.Parse(s)
		if err != nil {
			return nil, from.Refuse(fmt.Errorf("%q: %w", text, err))
		}
		if len(out) > 0 && v <= out[len(out)-1] {
			return nil, from.Refuse(fmt.Errorf("%q: the levels must increase from step to step", text))
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, from.Refuse(errors.New("no level given"))
	}
	return out, nil
}

// example is a list of levels of param, for a refusal.
func example(param string) string {
	if param == "rate" {
		return "1000,2000,4000"
	}
	return "4,8,16"
}
