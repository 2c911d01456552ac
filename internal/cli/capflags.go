package cli

import (
	"fmt"
	"strings"
	"time"

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
