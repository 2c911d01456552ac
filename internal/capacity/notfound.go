package capacity

import (
	"fmt"
	"strings"

	"github.com/mongoload/mongoload/internal/results"
)

// notFound says why no rate is the answer: the best candidate and the
// runs it lacked when the probes ran out, or the lowest rate that did not
// pass, with the figures of the window that did not (never those of
// another window at that rate that passed).
func notFound(f *results.FindMax, slo string) string {
	if iv := f.MaxRateInterval; iv != nil && iv.Candidate > 0 {
		need, failing := NeedPass, "none failing there"
		if iv.CandidateStalls > 0 {
			need = max(NeedPass, PassesPerStall*iv.CandidateStalls)
			failing = fmt.Sprintf("%d failing there by its point estimate alone (a stall, which %d passing runs outvote)", iv.CandidateStalls, need)
		}
		return fmt.Sprintf("No rate was shown to meet %s: the probes ran out (%d, --max-probes) with %s ops/s passed in %d of the %d runs that show a rate, %s; no answer is given on fewer. Raise --max-probes.",
			slo, len(f.Probes), results.Target(iv.Candidate), iv.CandidateRuns, need, failing)
	}
	low := lowestMiss(f)
	if low == nil {
		return fmt.Sprintf("No rate was measured against %s.", slo)
	}
	t := low.Result.Totals
	verdict := "failed " + strings.Join(Failed(low.Terms), ", ")
	if low.Inconclusive {
		verdict = "failed by its point estimate (its interval straddled the objective): " + strings.Join(Failed(low.Terms), ", ")
	}
	s := fmt.Sprintf("No rate meets %s: even the lowest probe, %s ops/s, %s (p99 %.3f ms, %.1f ops/s achieved, %d dropped, %d errors)",
		slo, results.Target(low.Rate), verdict, t.Latency.P99, t.Throughput, low.Result.Dropped(), t.Errors)
	if n := repeats(f, low.Rate); n > 0 {
		s += fmt.Sprintf(", though %d other run(s) there passed: its windows disagree, and no rate below it was shown to pass", n)
	}
	return s + "; limited by " + f.Limit.Text + "."
}

// lowestMiss is the first judged probe that did not pass at the lowest
// rate where one did not.
func lowestMiss(f *results.FindMax) *results.Probe {
	var low *results.Probe
	for i := range f.Probes {
		if p := &f.Probes[i]; p.Terms != nil && !p.Pass && (low == nil || p.Rate < low.Rate) {
			low = p
		}
	}
	return low
}
