package report

import (
	"fmt"
	"strconv"

	"github.com/mongoload/mongoload/internal/results"
)

// uslTable is the Universal Scalability Law fitted to a concurrency sweep:
// its coefficients in the title, then the law's throughput per
// concurrency beside what was measured, the extrapolations flagged.
func uslTable(u *results.USL) titledTable {
	t := &table{textLast: true}
	t.add("workers", "predicted ops/s", "measured ops/s", "note")
	for _, p := range u.Predictions {
		measured, note := "-", ""
		if p.Measured != nil {
			measured = results.Rate(*p.Measured)
		}
		switch {
		case p.FarBeyond:
			note = fmt.Sprintf("%gx the largest level measured: an extrapolation, measure it before relying on it", p.Beyond)
		case p.Beyond > 0:
			note = fmt.Sprintf("%gx the largest level measured", p.Beyond)
		}
		t.add(strconv.FormatFloat(p.Concurrency, 'f', -1, 64), results.Rate(p.Throughput), measured, dash(note))
	}
	peak := "no peak"
	if u.PeakConcurrency > 0 {
		peak = fmt.Sprintf("peak %s ops/s at %.1f workers", results.Rate(u.PeakThroughput), u.PeakConcurrency)
	}
	title := fmt.Sprintf("scalability (Universal Scalability Law fitted to %d levels: σ %.4g contention, κ %.4g coherency, λ %s ops/s per worker, %s, R² %.3f):",
		u.Points, u.Sigma, u.Kappa, results.Rate(u.Lambda), peak, u.R2)
	if u.Note != "" {
		title = title[:len(title)-2] + "; " + u.Note + "):"
	}
	return titledTable{title, t}
}
