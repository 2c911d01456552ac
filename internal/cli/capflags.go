package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/mongoload/mongoload/internal/config"
)

// The capacity commands' (sweep, findmax) values that are not numbers of
// a pflag type; their numeric flags' ranges are in flagRanges (numbers.go),
// checked by config's one rule for numbers.

// maxStep bounds a probe's or a step's measured length.
const maxStep = 24 * time.Hour

// stepRange is a step's or a probe's length in seconds: positive, at most
// maxStep.
var stepRange = config.Range{Min: 0, AboveMin: true, Max: maxStep.Seconds(), What: "a duration in seconds"}

// parseStepDuration reads --step-duration: a positive duration of at most
// maxStep (exit 12 naming the flag otherwise; example is its default).
func parseStepDuration(text, example string) (config.Duration, error) {
	refuse := config.FlagSource("step-duration").Refuse(fmt.Errorf("%q: write a positive duration of at most 24h, such as %s", text, example))
	d, err := config.ParseDuration(strings.TrimSpace(text))
	if err != nil || stepRange.Check(d.D().Seconds()) != nil {
		return 0, refuse
	}
	return d, nil
}

// addCalibrationFlag is --target-server-cpu, for sweep and findmax.
func addCalibrationFlag(fs *pflag.FlagSet) *string {
	return fs.String("target-server-cpu", "", "also find the load at which the server's CPU sits at this share of its cores, such as 80%, and record it")
}

// calibrationTarget reads --target-server-cpu, a share such as 80% or 0.8
// (exit 12 naming the flag otherwise); 0 when not given.
func calibrationTarget(s string) (float64, error) {
	if s == "" {
		return 0, nil
	}
	return config.ParseShareFrom(config.FlagSource("target-server-cpu"), s, config.ShareRange)
}
