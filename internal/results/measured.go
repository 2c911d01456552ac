package results

import (
	"errors"
	"fmt"
)

// ErrNothingMeasured marks an input that holds no measurement: a results
// file with only its schema line, or of a run that ended before its
// measured phase (0 operations, 0 errors); a sweep with no step that
// measured. Comparing, reporting or merging it would print figures of
// nothing ("18,262 -> 0 (-100%)", "meets every objective").
var ErrNothingMeasured = errors.New("nothing measured")

// CheckMeasured refuses a results file that measured nothing.
func (r *Result) CheckMeasured(path string) error {
	if r.Totals.Operations > 0 || r.Totals.Errors > 0 {
		return nil
	}
	why := "0 operations: the run ended before its measured phase (interrupted during setup, seeding or warm-up)"
	if len(r.Operations) == 0 && r.StartedAt.IsZero() {
		why = "it holds no run at all (no operations, no start time)"
	}
	return fmt.Errorf("%s: %w: %s; give the results file of a run that measured something", path, ErrNothingMeasured, why)
}

// CheckMeasured refuses a sweep none of whose steps measured anything.
func (s *Sweep) CheckMeasured(path string) error {
	for i := range s.Steps {
		if r := s.Steps[i].Result; r != nil && (r.Totals.Operations > 0 || r.Totals.Errors > 0) {
			return nil
		}
	}
	return fmt.Errorf("%s: %w: none of its %d step(s) measured an operation; give a sweep that ran", path, ErrNothingMeasured, len(s.Steps))
}
