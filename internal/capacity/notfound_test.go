package capacity

import (
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/results"
)

// TestNotFoundQuotesTheFailure: a search with no rate shown says why with
// the figures that failed the lowest rate that did not pass, not those of
// another window there that passed (it once quoted "failed (p99 2.253
// ms, ... 0 dropped, 0 errors)", a window meeting the SLO, with no failed
// term); an inconclusive one says it failed by its point estimate; a candidate cut short by the budget
// is named with its runs (and a stall there, with the runs that outvote it).
func TestNotFoundQuotesTheFailure(t *testing.T) {
	probe := func(rate, p99 float64, pass, unsure bool) results.Probe {
		term := results.Term{Text: "p99<=8ms", Shown: "measured", Pass: pass}
		if !pass {
			term.Shown = "failing figure"
		}
		res := &results.Result{DurationSeconds: 5}
		res.Totals.Latency.P99, res.Totals.Throughput = p99, rate
		return results.Probe{Rate: rate, Pass: pass, Inconclusive: unsure, Terms: []results.Term{term}, Result: res}
	}
	f := &results.FindMax{Limit: results.Limit{Text: "the server"}, Probes: []results.Probe{
		probe(3859, 2.253, true, false), probe(7718, 90, false, false), probe(3859, 14.5, false, false)}}
	s := notFound(f, "p99<=8ms")
	if !strings.Contains(s, "even the lowest probe, 3,859 ops/s, failed p99<=8ms (measured failing figure) (p99 14.500 ms") ||
		!strings.Contains(s, "though 1 other run(s) there passed") {
		t.Errorf("summary %q", s)
	}
	f.Probes[2] = probe(3859, 9.1, false, true)
	if s := notFound(f, "p99<=8ms"); !strings.Contains(s, "3,859 ops/s, failed by its point estimate (its interval straddled the objective): p99<=8ms") {
		t.Errorf("inconclusive: summary %q", s)
	}
	f.MaxRateInterval = &results.RateInterval{Candidate: 3000, CandidateRuns: 2, Unshown: "low"}
	if s := notFound(f, "p99<=8ms"); !strings.Contains(s, "No rate was shown to meet p99<=8ms") || !strings.Contains(s, "3,000 ops/s passed in 2 of the 3 runs") {
		t.Errorf("candidate: summary %q", s)
	}
	f.MaxRateInterval.CandidateStalls = 1
	if s := notFound(f, "p99<=8ms"); !strings.Contains(s, "3,000 ops/s passed in 2 of the 3 runs that show a rate, 1 failing there by its point estimate alone (a stall, which 3 passing runs outvote)") {
		t.Errorf("candidate with a stall: summary %q", s)
	}
}
