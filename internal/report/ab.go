package report

import (
	"fmt"
	"io"

	"github.com/mongoload/mongoload/internal/results"
)

// WriteABConsole prints an A/B comparison: the two sides, one row per
// operation (both sides' percentiles, the ratio, the test, the plans, the
// verified results), one sentence per notable operation, and the verdict.
func WriteABConsole(w io.Writer, ab *results.AB) error {
	e := &errWriter{w: w}
	e.printf("A/B %s\n", ab.Workload.Name)
	for _, s := range []results.ABSide{ab.A, ab.B} {
		line := fmt.Sprintf("  %-14s %s", s.Label, s.URI)
		if s.Server != "" {
			line += " (server " + s.Server + ")"
		}
		if s.Failed != "" {
			line += "; " + s.Failed
		}
		e.printf("%s\n", line)
	}
	m := ab.Method
	how := fmt.Sprintf("%d rounds per side, order %v", m.Rounds, m.Order)
	if m.Parallel {
		how = fmt.Sprintf("%d rounds, both sides at once", m.Rounds)
	}
	e.printf("  %s; operation seed %d; threshold %.0f%%, alpha %g; %d operations verified\n", how, m.OperationSeed, 100*m.Threshold, m.Alpha, m.Verified)
	for _, s := range ab.IndexDiffs() { // first: the change that moves plans
		e.printf("  %s\n", s)
	}
	e.printf("\n")
	t := &table{left: 1, textLast: true}
	t.add("operation", "p50 A", "p50 B", "p95 A", "p95 B", "p99 A", "p99 B", "p99 B/A", "shift", "p", "errors A/B", "docs/ret A/B", "verified", "diffs", "flag", "plan A → B")
	for _, o := range ab.Operations {
		la, lb := o.ResultA.Latency, o.ResultB.Latency
		diffs := fmt.Sprint(o.ResultDiffs)
		if o.CountOnly {
			diffs += " (count only)"
		}
		plan := o.PlanA
		if o.PlanChanged {
			plan += " → " + o.PlanB
		}
		t.add(o.Name, msFixed(la.P50), msFixed(lb.P50), msFixed(la.P95), msFixed(lb.P95), msFixed(la.P99), msFixed(lb.P99),
			ratioText(o.RatioP99), fmt.Sprintf("%.2f", o.Shift), fmt.Sprintf("%.2g", o.P),
			fmt.Sprintf("%d/%d", o.ResultA.Errors, o.ResultB.Errors), perReturned(o.ExplainA)+"/"+perReturned(o.ExplainB),
			fmt.Sprint(o.Verified), diffs, o.Flag, plan)
	}
	t.write(e, "  ")
	if tr := ab.Traffic; tr != nil {
		e.printf("\n  traffic: %s (%s): %d of %d entries sent in each round, at speed %s; writes %s\n", tr.File, tr.Format, tr.Sent, tr.Entries, tr.Speed, tr.Writes)
	}
	if len(ab.Sentences) > 0 {
		e.printf("\n")
		for _, s := range ab.Sentences {
			e.printf("  %s\n", s)
		}
	}
	for _, n := range ab.Notes {
		e.printf("  note: %s\n", n)
	}
	e.printf("\nverdict %s\n", ab.Summary)
	return e.err
}

func ratioText(r float64) string {
	if r == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2fx", r)
}

func perReturned(e *results.Explain) string {
	if e == nil || e.DocsPerReturned == nil {
		return "-"
	}
	return fmt.Sprintf("%.1f", *e.DocsPerReturned)
}
