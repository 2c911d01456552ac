package config

import (
	"fmt"
	"strconv"
	"strings"
)

// maxLevel bounds a level: a rate (true) far above what one process
// sends, workers or sessions (false) far above what one process holds.
var maxLevel = map[bool]float64{true: 1e9, false: 1e6}

// ParseLevels reads the levels of a stepped load parameter (a sweep's
// --concurrency, --rate or --sessions list): positive, whole numbers but
// for a rate, increasing from step to step.
func ParseLevels(param, text string) ([]float64, error) {
	var out []float64
	for _, s := range strings.Split(text, ",") {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		v, err := strconv.ParseFloat(strings.ReplaceAll(s, "_", ""), 64)
		top := maxLevel[param == "rate"]
		// Stated as what is accepted: NaN fails every comparison.
		if err != nil || !(v > 0 && v <= top) || (param != "rate" && v != float64(int64(v))) {
			return nil, fmt.Errorf("--%s %q: %q is not a positive %s of at most %g", param, text, s, map[bool]string{true: "rate", false: "whole number"}[param == "rate"], top)
		}
		if len(out) > 0 && v <= out[len(out)-1] {
			return nil, fmt.Errorf("--%s %q: the levels must increase from step to step", param, text)
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--%s: no level given", param)
	}
	return out, nil
}
