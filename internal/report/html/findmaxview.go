package html

import (
	"fmt"
	"math"
	"strings"

	"github.com/mongoload/mongoload/internal/report"
	"github.com/mongoload/mongoload/internal/results"
)

// findMaxView is a rate search: each rate probed against the SLO's lines,
// coloured pass or fail, the probe table, then the sweep's views of the
// same probes (by class, CPU, over time).
func findMaxView(sw *results.Sweep) *view {
	f := sw.FindMax
	v := sweepView(sw)
	v.Title = "mongoload findmax: " + f.Workload.Name
	if f.Label != "" {
		v.Title += " (" + f.Label + ")"
	}
	v.Summary = []string{f.Summary}
	if f.ReliableWhy != "" {
		v.Summary = append(v.Summary, f.ReliableWhy)
	}
	v.Facts = append([][2]string{{"slo", strings.Join(f.SLO, ", ") + ", no drop, no error, " + fmt.Sprintf("%g%% of the rate achieved", 100*f.AchievedShare)},
		{"max rate", trim(f.MaxRate) + " ops/s"}}, v.Facts...)
	if iv := f.MaxRateInterval; iv != nil {
		v.Facts = append([][2]string{{"max rate interval", results.IntervalText(iv)}}, v.Facts...)
	}
	if r := results.ReliableText(f.Reliable); r != "" {
		v.Facts = append(v.Facts, [2]string{"reliable", r})
	}
	v.Legend = []legendItem{{Label: "meets the SLO", Color: passColor}, {Label: "fails it", Color: failColor}}
	rest := v.Sections
	if len(rest) > 0 && sw.Analysis != nil {
		rest = rest[1:] // the sweep's verdict section does not apply to a search
	}
	ch := probeChart(sw)
	v.Charts = append([]chart{ch}, v.Charts...)
	v.Sections = append([]section{{Title: "Probes against the SLO", Charts: []string{ch.ID},
		Intro: "Each rate probed (the last probe at a rate stands for it): the SLO's latency terms as measured (left axis, solid) against their bounds (dashed), and the throughput achieved (right axis). Green rates met every term, red failed one.",
		Table: probeTable(f)}}, rest...)
	return v
}

const (
	passColor = "#a1d99b"
	failColor = "#fc9272"
)

// probeChart plots every latency term and its bound by rate.
func probeChart(sw *results.Sweep) chart {
	f := sw.FindMax
	n := len(sw.Steps)
	x, ticks := make([]float64, n), make([]string, n)
	last := map[float64]results.Probe{}
	for _, p := range f.Probes {
		last[p.Rate] = p
	}
	ch := chart{ID: "findmax", Title: "Probes against the SLO", Kind: "steps", XLabel: "rate (ops/s)", YLabel: "ms", Y2Label: "ops/s achieved", X: x, XTicks: ticks}
	terms := map[string]int{} // term text -> series index of its measurement
	achieved := newSeries("achieved (ops/s)", 3, n)
	achieved.Axis = 1
	for i, st := range sw.Steps {
		x[i], ticks[i] = float64(i), trim(st.Level)
		p := last[st.Level]
		color := passColor
		if !p.Pass {
			color = failColor
		}
		ch.Bands = append(ch.Bands, band{From: float64(i) - 0.5, To: float64(i) + 0.5, Label: map[bool]string{true: "pass", false: "fail"}[p.Pass], Color: color})
		if p.Result != nil {
			achieved.Values[i] = f64(p.Result.Totals.Throughput)
		}
		for _, t := range p.Terms {
			if t.Unit != "ms" {
				continue
			}
			k, ok := terms[t.Text]
			if !ok {
				k = len(ch.Series)
				terms[t.Text] = k
				m, b := newSeries(t.Text+" measured", len(terms)-1, n), newSeries(t.Text+" bound", len(terms)-1, n)
				b.Dash = true
				ch.Series = append(ch.Series, m, b)
			}
			if !math.IsInf(t.Measured, 0) {
				ch.Series[k].Values[i] = f64(t.Measured)
			}
			ch.Series[k+1].Values[i] = f64(t.Bound)
		}
	}
	ch.Series = append(ch.Series, achieved)
	return ch
}

// probeTable is every probe in the order it ran.
func probeTable(f *results.FindMax) *table {
	t := &table{Head: []string{"#", "stage", "rate", "achieved", "p50", "p95", "p99", "p99.9", "dropped", "errors", "other cpu", "verdict"}}
	for i, p := range f.Probes {
		r := p.Result.Totals
		verdict, color := report.ProbeVerdict(p), passColor
		switch {
		case p.Terms == nil:
			color = ""
		case !p.Pass:
			color = failColor
		}
		drops := p.Result.Dropped()
		t.Rows = append(t.Rows, []cell{{Text: fmt.Sprint(i + 1)}, {Text: p.Stage, Left: true}, {Text: trim(p.Rate)}, {Text: fmt.Sprintf("%.1f", r.Throughput)},
			{Text: ms3(r.Latency.P50)}, {Text: ms3(r.Latency.P95)}, {Text: ms3(r.Latency.P99)}, {Text: ms3(r.Latency.P999)},
			{Text: fmt.Sprint(drops)}, {Text: fmt.Sprint(r.Errors)}, {Text: results.NoiseText(p.Result)}, {Text: verdict, Color: color, Left: true}})
	}
	return t
}
