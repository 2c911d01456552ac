package config

import (
	"fmt"
	"strconv"
	"strings"
)

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
		if err != nil || v <= 0 || (param != "rate" && v != float64(int(v))) {
			return nil, fmt.Errorf("--%s %q: %q is not a positive %s", param, text, s, map[bool]string{true: "rate", false: "whole number"}[param == "rate"])
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
