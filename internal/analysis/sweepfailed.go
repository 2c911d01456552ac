package analysis

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mongoload/mongoload/internal/results"
)

// sweepfailed.go: a sweep whose every operation failed has no throughput
// to judge: every step's is 0 ops/s, and the rules would name its lowest
// step the sweet spot "at 0 ops/s", and the scalability law has nothing
// to fit. It gets no verdict, and the one sentence says why, with the
// errors.

// ErrorsLimitKind is the limit of a sweep whose every operation failed.
const ErrorsLimitKind = "errors"

// allFailed says, when no complete step of sw did one operation
// successfully and some failed, why nothing can be judged: the count of
// errors and their classes, most frequent first ("" otherwise).
func allFailed(sw *results.Sweep, steps []results.StepFigures) string {
	var errs int64
	classes := map[string]int64{}
	for i, f := range steps {
		if !f.Complete {
			continue
		}
		if f.Operations > 0 {
			return ""
		}
		errs += f.Errors
		for c, n := range sw.Steps[i].Result.Totals.ErrorsByClass {
			classes[c] += n
		}
	}
	if errs == 0 {
		return ""
	}
	names := slices.SortedFunc(maps.Keys(classes), func(a, b string) int {
		return cmp.Or(cmp.Compare(classes[b], classes[a]), strings.Compare(a, b))
	})
	var by []string
	for _, c := range names {
		by = append(by, fmt.Sprintf("%s %s", c, whole(float64(classes[c]))))
	}
	why := fmt.Sprintf("every operation failed: %s errors", whole(float64(errs)))
	if len(by) > 0 {
		why += " (" + strings.Join(by, ", ") + ")"
	}
	return why
}

// failedAnalysis is the analysis of such a sweep: figures, no verdict, no
// sweet spot, and the reason in the limit and the summary.
func failedAnalysis(sw *results.Sweep, a *results.SweepAnalysis, why string) *results.SweepAnalysis {
	a.Limit = results.Limit{Kind: ErrorsLimitKind, Text: why}
	fit := ""
	if sw.Load.Parameter == "concurrency" {
		fit = ", no scalability law fitted"
	}
	a.Summary = []string{fmt.Sprintf("No sweet spot, no saturation and no maximum throughput%s: %s, so every step measured 0 ops/s. Fix what failed (mongoload run at one level shows each operation's errors) and sweep again.", fit, why)}
	return a
}
