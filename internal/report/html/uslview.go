package html

import (
	"fmt"
	"math"
	"sort"

	"github.com/mongoload/mongoload/internal/results"
)

// uslSection adds the Universal Scalability Law fitted to a concurrency
// sweep: the measured throughput as points and the law as a curve out to
// its furthest prediction, the table of predictions with the
// extrapolations flagged.
func uslSection(v *view, u *results.USL) {
	top := 0.0
	for _, p := range u.Predictions {
		top = math.Max(top, p.Concurrency)
	}
	xs := map[float64]bool{}
	for i := 0; i <= 60; i++ {
		xs[math.Max(1, math.Round(top*float64(i)/60*10)/10)] = true
	}
	for _, p := range u.Predictions {
		xs[p.Concurrency] = true
	}
	var x []float64
	for n := range xs {
		x = append(x, n)
	}
	sort.Float64s(x)
	curve, measured := newSeries("the law (ops/s)", 0, len(x)), newSeries("measured (ops/s)", 2, len(x))
	measured.Points = true
	for i, n := range x {
		curve.Values[i] = f64(math.Round(u.Throughput(n)*10) / 10)
		for _, p := range u.Predictions {
			if p.Concurrency == n && p.Measured != nil {
				measured.Values[i] = f64(*p.Measured)
			}
		}
	}
	v.Charts = append(v.Charts, chart{ID: "usl", Title: "Throughput by workers: measured, and the Universal Scalability Law fitted to it",
		Kind: "time", XLabel: "workers", YLabel: "ops/s", X: x, Series: []series{curve, measured}})
	t := &table{Head: []string{"workers", "predicted ops/s", "measured ops/s", "note"}}
	for _, p := range u.Predictions {
		got, note := "-", ""
		if p.Measured != nil {
			got = fixed1(*p.Measured)
		}
		if p.Beyond > 0 {
			note = fmt.Sprintf("%gx the largest level measured", p.Beyond)
		}
		if p.FarBeyond {
			note += ": an extrapolation, measure it before relying on it"
		}
		t.Rows = append(t.Rows, []cell{{Text: trim(p.Concurrency)}, {Text: fixed1(p.Throughput)}, {Text: got}, {Text: note, Left: true}})
	}
	peak := "no peak: throughput levels off"
	if u.PeakConcurrency > 0 {
		peak = fmt.Sprintf("peak %s ops/s at %.1f workers", fixed1(u.PeakThroughput), u.PeakConcurrency)
	}
	intro := fmt.Sprintf("X(N) = λN / (1 + σ(N−1) + κN(N−1)) fitted by least squares to %d levels: σ %.4g (contention), κ %.4g (coherency), λ %s ops/s, %s, R² %.3f. %s",
		u.Points, u.Sigma, u.Kappa, fixed1(u.Lambda), peak, u.R2, u.Note)
	v.Sections = append(v.Sections, section{Title: "Scalability model", Charts: []string{"usl"}, Intro: intro, Table: t})
}
