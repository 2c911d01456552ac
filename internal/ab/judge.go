package ab

import (
	"fmt"
	"sort"
	"strings"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
)

// judge fills the file's operations from the rounds measured, the
// verification and both sides' explain (verdict concludes).
func judge(ab *results.AB, x *comparison, ver []verified, explainA, explainB []*results.Explain) {
	for _, r := range ab.Runs {
		if r.Result != nil && r.Result.Context != nil && r.Result.Context.Version != "" {
			if r.Side == "A" {
				ab.A.Server = r.Result.Context.Version
			} else {
				ab.B.Server = r.Result.Context.Version
			}
		}
	}
	for i, op := range x.sides[0].plan.Ops {
		o := results.ABOperation{Name: op.Name, Type: op.Type, Verified: ver[i].n, ResultDiffs: ver[i].diffs,
			CountOnly: ver[i].countOnly, Diffs: ver[i].first}
		if v := ver[i]; v.n > 0 && mayFindNothing(op) {
			o.EmptyA, o.EmptyB = results.Round3(float64(v.emptyA)/float64(v.n)), results.Round3(float64(v.emptyB)/float64(v.n))
			o.NotComparedOnData = o.EmptyA > results.ABEmptyShare && o.EmptyB > results.ABEmptyShare
			o.MatchedNothing = v.bothEmpty
		}
		if ea, eb := explainA[i], explainB[i]; ea != nil && eb != nil {
			o.ExplainA, o.ExplainB = ea, eb
			o.PlanA, o.PlanB = planText(*ea), planText(*eb)
			o.PlanChanged = ea.Error == "" && eb.Error == "" && o.PlanA != o.PlanB
		}
		ha, hb := histograms(ab.Runs, "A", op.Name), histograms(ab.Runs, "B", op.Name)
		o.ResultA, o.ResultB = sideOperation(ab.Runs, "A", op.Name, ha), sideOperation(ab.Runs, "B", op.Name, hb)
		o.ResultA.Type, o.ResultB.Type = op.Type, op.Type
		la, lb := o.ResultA.Latency, o.ResultB.Latency
		o.RatioP50, o.RatioP95, o.RatioP99 = ratio(la.P50, lb.P50), ratio(la.P95, lb.P95), ratio(la.P99, lb.P99)
		o.PerRound = perRound(ab.Runs, op.Name)
		o.Tail = tailText(&o)
		j := JudgeShape(ha, hb, x.Judge)
		o.Flag, o.Why, o.Shift, o.P, o.RoundShifts = j.Flag, j.Why, j.Shift, results.Round3(j.P), j.RoundShifts
		switch ea, eb := o.ResultA.Errors, o.ResultB.Errors; {
		case eb > 0 && ea == 0:
			o.ErrorsOnlyOn, o.Flag = "B", results.FlagRegression
			o.Why = fmt.Sprintf("%s error(s) on the candidate only (%s)", results.Thousands(eb), classes(o.ResultB.ErrorsByClass))
		case ea > 0 && eb == 0:
			o.ErrorsOnlyOn = "A"
			o.Why += fmt.Sprintf("; %s error(s) on the baseline only (%s)", results.Thousands(ea), classes(o.ResultA.ErrorsByClass))
		}
		if ra, rb := o.ResultA, o.ResultB; ra.Count == 0 && rb.Count == 0 && ra.Errors > 0 && rb.Errors > 0 {
			o.FailedOnBoth, o.Flag, o.ErrorsOnlyOn = true, results.FlagNone, ""
			o.Why = fmt.Sprintf("every operation failed on both sides: nothing compared (A: %s; B: %s)", classes(ra.ErrorsByClass), classes(rb.ErrorsByClass))
		}
		if ab.A.Failed != "" && o.Flag == results.FlagImprovement {
			o.Flag, o.Why = results.FlagNone, "not concluded: the baseline stopped answering ("+ab.A.Failed+")"
		}
		ab.Operations = append(ab.Operations, o)
	}
}

// verdict sets the verdict, the summary and one sentence per operation
// that is flagged, changed plan or returned different results.
func verdict(ab *results.AB) {
	var regressed, improved, differs, failed []string
	for i := range ab.Operations {
		o := &ab.Operations[i]
		if s := sentence(o); s != "" {
			ab.Sentences = append(ab.Sentences, s)
		}
		switch o.Flag {
		case results.FlagRegression:
			regressed = append(regressed, o.Name)
		case results.FlagImprovement:
			improved = append(improved, o.Name)
		}
		if o.ResultDiffs > 0 {
			differs = append(differs, o.Name)
		}
		if o.FailedOnBoth {
			failed = append(failed, o.Name)
		}
	}
	n := len(ab.Operations)
	agree := agreement(ab, differs)
	switch {
	case len(differs) > 0:
		ab.Verdict = results.ABDiffers
	case len(regressed) > 0 || ab.B.Failed != "":
		ab.Verdict = results.ABRegressed
	case len(failed) > 0:
		ab.Verdict = results.ABFailed
	case len(improved) > 0:
		ab.Verdict = results.ABImproved
	default:
		ab.Verdict = results.ABSame
	}
	thr := fmt.Sprintf("%.0f%%", 100*ab.Method.Threshold)
	var parts []string
	if len(regressed) > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d shapes regressed beyond %s (%s)", len(regressed), n, thr, strings.Join(regressed, ", ")))
	}
	if len(improved) > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d improved beyond %s (%s)", len(improved), n, thr, strings.Join(improved, ", ")))
	}
	if len(parts) == 0 {
		parts = append(parts, fmt.Sprintf("none of %d shapes differs beyond %s", n, thr))
	}
	if len(failed) > 0 {
		parts = append(parts, "every operation failed on both sides, so nothing of it was compared: "+strings.Join(failed, ", "))
	}
	if names := notCompared(ab); len(names) > 0 {
		parts = append(parts, "not compared on data (no documents on either side): "+strings.Join(names, ", "))
	}
	for _, s := range []results.ABSide{ab.A, ab.B} {
		if s.Failed != "" {
			parts = append(parts, s.Label+" "+s.Failed)
		}
	}
	ab.Summary = fmt.Sprintf("%s: %s; %s", ab.Verdict, strings.Join(parts, "; "), agree)
}

// sentence says what is notable about one operation, or "".
func sentence(o *results.ABOperation) string {
	var parts []string
	la, lb := o.ResultA.Latency, o.ResultB.Latency
	switch {
	case o.ErrorsOnlyOn == "B" && o.Flag == results.FlagRegression, o.FailedOnBoth:
		parts = append(parts, o.Why)
	case o.Flag != results.FlagNone:
		parts = append(parts, fmt.Sprintf("p99 %s → %s (%s), p50 %s → %s", msText(la.P99), msText(lb.P99), times(o.RatioP99), msText(la.P50), msText(lb.P50)))
	}
	if o.Collateral {
		parts = append(parts, o.Why)
	}
	if o.PlanChanged {
		p := fmt.Sprintf("plan %s → %s", o.PlanA, o.PlanB)
		if o.Flag == results.FlagNone {
			p += fmt.Sprintf(" (latency within the threshold: p50 %s → %s)", msText(la.P50), msText(lb.P50))
		}
		parts = append(parts, p)
	}
	if o.NotComparedOnData {
		parts = append(parts, emptyText(o))
	}
	if o.Tail != "" {
		parts = append(parts, o.Tail)
	}
	if o.ResultDiffs > 0 {
		d := fmt.Sprintf("%d of %d verified results differ", o.ResultDiffs, o.Verified)
		if len(o.Diffs) > 0 {
			f := o.Diffs[0]
			d += fmt.Sprintf(" (first: operation %d, filter %s", f.Seq, f.Filter)
			if f.ID != "" {
				d += ", _id " + f.ID
			}
			d += fmt.Sprintf(": A %s, B %s)", f.A, f.B)
		}
		parts = append(parts, d)
	}
	if len(parts) == 0 {
		return ""
	}
	return o.Name + ": " + strings.Join(parts, ", ")
}

// histograms are one operation's latency histograms on one side, round by
// round (nil where a round has none).
func histograms(runs []results.ABRun, side, name string) []*hdrhistogram.Histogram {
	var out []*hdrhistogram.Histogram
	for _, r := range runs {
		if r.Side != side || r.Result == nil {
			continue
		}
		var h *hdrhistogram.Histogram
		for _, o := range r.Result.Operations {
			if o.Name == name && o.Histogram != "" {
				h, _ = metrics.DecodeHistogram(o.Histogram)
			}
		}
		out = append(out, h)
	}
	return out
}

// sideOperation is one operation's figures on one side over every round.
func sideOperation(runs []results.ABRun, side, name string, hs []*hdrhistogram.Histogram) results.Operation {
	out := results.Operation{Name: name}
	var secs float64
	h := metrics.NewHistogram()
	for _, x := range hs {
		if x != nil {
			h.Merge(x)
		}
	}
	for _, r := range runs {
		if r.Side != side || r.Result == nil {
			continue
		}
		secs += r.Result.DurationSeconds
		for _, o := range r.Result.Operations {
			if o.Name != name {
				continue
			}
			out.Count += o.Count
			out.Errors += o.Errors
			out.Overflow += o.Overflow
			for c, n := range o.ErrorsByClass {
				if out.ErrorsByClass == nil {
					out.ErrorsByClass = map[string]int64{}
				}
				out.ErrorsByClass[c] += n
			}
			if o.Docs != nil {
				if out.Docs == nil {
					out.Docs = &metrics.Docs{}
				}
				out.Docs.Add(*o.Docs)
			}
		}
	}
	if secs > 0 {
		out.Throughput = results.Round3(float64(out.Count) / secs)
	}
	out.Latency = results.LatencyOf(h)
	out.Histogram, _ = metrics.EncodeHistogram(h)
	return out
}

func planText(e results.Explain) string {
	switch {
	case e.Error != "":
		return e.Failure()
	case e.Summary != "":
		return e.Summary
	}
	return e.Scan
}

func ratio(a, b float64) float64 {
	if a <= 0 || b <= 0 {
		return 0
	}
	return results.Round3(b / a)
}

func times(r float64) string {
	if r == 0 {
		return "n/a"
	}
	if r >= 10 {
		return fmt.Sprintf("%.0fx", r)
	}
	return fmt.Sprintf("%.2fx", r)
}

// msText writes a latency in milliseconds as people read it: 850 µs, 1.9 ms, 41 ms.
func msText(ms float64) string {
	switch {
	case ms < 1:
		return fmt.Sprintf("%.0f µs", ms*1000)
	case ms < 10:
		return fmt.Sprintf("%.1f ms", ms)
	}
	return fmt.Sprintf("%.0f ms", ms)
}

func classes(m map[string]int64) string {
	names := make([]string, 0, len(m))
	for c, n := range m {
		names = append(names, fmt.Sprintf("%s %d", c, n))
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
