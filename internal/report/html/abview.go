package html

import (
	"fmt"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
)

// abPercentiles are where each side's latency distribution is read.
var abPercentiles = []float64{1, 10, 25, 50, 75, 90, 95, 99, 99.9}

// WriteAB writes an A/B comparison as one HTML page: the verdict, the
// table, and each operation's two latency distributions side by side.
func WriteAB(w interface{ Write([]byte) (int, error) }, ab *results.AB) error {
	return Write(w, Page{AB: ab})
}

// abView shows an A/B comparison.
func abView(ab *results.AB) *view {
	v := &view{Title: "mongoload ab: " + ab.Workload.Name, Summary: append(append([]string{"Verdict " + ab.Summary}, ab.IndexDiffs()...), ab.Sentences...), Notes: ab.Notes}
	v.Facts = [][2]string{{"A (baseline)", ab.A.URI}, {"B (candidate)", ab.B.URI},
		{"rounds", fmt.Sprintf("%d per side %v", ab.Method.Rounds, ab.Method.Order)},
		{"threshold", fmt.Sprintf("%.0f%%, alpha %g", 100*ab.Method.Threshold, ab.Method.Alpha)},
		{"verified", fmt.Sprintf("%d operations", ab.Method.Verified)}}
	t := &table{Head: []string{"operation", "flag", "p50 A", "p50 B", "p95 A", "p95 B", "p99 A", "p99 B", "shift", "p", "plan A", "plan B", "verified", "differ"}}
	var ids []string
	for i, o := range ab.Operations {
		la, lb := o.ResultA.Latency, o.ResultB.Latency
		c := cell{Text: o.Flag}
		switch o.Flag {
		case results.FlagRegression:
			c.Color = failColor
		case results.FlagImprovement:
			c.Color = passColor
		}
		t.Rows = append(t.Rows, []cell{{Text: o.Name, Left: true}, c, {Text: ms3(la.P50)}, {Text: ms3(lb.P50)}, {Text: ms3(la.P95)}, {Text: ms3(lb.P95)},
			{Text: ms3(la.P99)}, {Text: ms3(lb.P99)}, {Text: fmt.Sprintf("%.2f", o.Shift)}, {Text: fmt.Sprintf("%.2g", o.P)},
			{Text: o.PlanA, Left: true}, {Text: o.PlanB, Left: true}, {Text: fmt.Sprint(o.Verified)}, {Text: fmt.Sprint(o.ResultDiffs)}})
		ch := distribution(fmt.Sprintf("ab-%d", i), o)
		v.Charts = append(v.Charts, ch)
		ids = append(ids, ch.ID)
	}
	v.Sections = []section{{Title: "Operations", Table: t,
		Intro: "Each operation on both sides, every round together. Flagged where the stratified rank test across rounds is significant and the shift (the median of B/A over the deciles) passes the threshold."},
		{Title: "Latency distributions", Charts: ids,
			Intro: "Each operation's latency at each percentile, baseline (A) and candidate (B) side by side, every round together; a title says when one round alone makes a side's tail (its p99 several times every other round's: the file's perRound holds each round's)."}}
	return v
}

// distribution plots one operation's two latency distributions.
func distribution(id string, o results.ABOperation) chart {
	n := len(abPercentiles)
	title := o.Name
	if o.Tail != "" { // beside the drawing: one round's tail is not the side's
		title += " (" + o.Tail + ")"
	}
	ch := chart{ID: id, Title: title, Kind: "steps", XLabel: "percentile", YLabel: "ms", X: make([]float64, n), XTicks: make([]string, n)}
	for i, p := range abPercentiles {
		ch.X[i], ch.XTicks[i] = float64(i), "p"+trim(p)
	}
	for k, side := range []results.Operation{o.ResultA, o.ResultB} {
		s := newSeries([]string{"A (baseline)", "B (candidate)"}[k], k, n)
		if h, err := metrics.DecodeHistogram(side.Histogram); err == nil && h.TotalCount() > 0 {
			for i, p := range abPercentiles {
				s.Values[i] = f64(float64(h.ValueAtQuantile(p)) / 1000)
			}
		}
		ch.Series = append(ch.Series, s)
	}
	return ch
}
