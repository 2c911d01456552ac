package usl

import (
	"fmt"
	"math"

	"github.com/mongoload/mongoload/internal/results"
)

// FarBeyond is how far past the largest measured level a prediction is
// flagged: the law fitted to a range extrapolates well to about twice or
// three times it (Gunther), and no further without a measurement.
const FarBeyond = 2.5

// FitSweep fits the law to a concurrency sweep's complete steps and
// predicts at each measured level and at two and four times the largest;
// nil for a sweep of another parameter, or with too few complete steps
// (their reason in the note of a USL with no coefficients would say
// nothing more than the levels do).
func FitSweep(sw *results.Sweep) *results.USL {
	if sw.Load.Parameter != "concurrency" {
		return nil
	}
	var ps []Point
	measured := map[float64]float64{}
	for _, st := range sw.Steps {
		if st.Complete && st.Result != nil {
			ps = append(ps, Point{N: st.Level, X: st.Result.Totals.Throughput})
			measured[st.Level] = st.Result.Totals.Throughput
		}
	}
	m, err := Fit(ps)
	if err != nil {
		return nil
	}
	return Describe(m, ps, measured)
}

// Describe is the fitted law as the file holds it, with its predictions.
func Describe(m Model, ps []Point, measured map[float64]float64) *results.USL {
	top := 0.0
	for _, p := range ps {
		top = math.Max(top, p.N)
	}
	if far := 4 * top; m.Kappa*far*(far-1) < 1e-6 {
		m.Kappa = 0 // a coherency cost below a millionth even at 4x the largest level: none the levels can show
	}
	u := &results.USL{Sigma: sig(m.Sigma), Kappa: sig(m.Kappa), Lambda: sig(m.Lambda), R2: round(m.R2, 4), Points: len(ps)}
	peak := m.PeakConcurrency()
	switch {
	case math.IsInf(peak, 1) && m.Sigma > 0:
		u.PeakThroughput = round(m.Lambda/m.Sigma, 1)
		u.Note = fmt.Sprintf("κ is 0: no peak, throughput levels off towards λ/σ = %.0f ops/s", m.Lambda/m.Sigma)
	case math.IsInf(peak, 1):
		u.Note = "σ and κ are 0: the levels measured scale linearly, and the law predicts no limit"
	default:
		u.PeakConcurrency, u.PeakThroughput = round(peak, 1), round(m.Throughput(peak), 1)
		if peak > FarBeyond*top {
			u.Note = fmt.Sprintf("the peak, at %.0f workers, is %.0f times the largest level measured: an extrapolation", peak, peak/top)
		}
	}
	levels := []float64{}
	for _, p := range ps {
		levels = append(levels, p.N)
	}
	levels = append(levels, 2*top, 4*top)
	for _, n := range levels {
		p := results.USLPrediction{Concurrency: n, Throughput: round(m.Throughput(n), 1)}
		if x, ok := measured[n]; ok {
			p.Measured = &x
		}
		if n > top {
			p.Beyond = round(n/top, 2)
			p.FarBeyond = n > FarBeyond*top
		}
		u.Predictions = append(u.Predictions, p)
	}
	return u
}

func round(x float64, places int) float64 {
	f := math.Pow(10, float64(places))
	return math.Round(x*f) / f
}

// sig rounds x to four significant figures: κ is often 1e-5 or less.
func sig(x float64) float64 {
	if x == 0 {
		return 0
	}
	return round(x, 3-int(math.Floor(math.Log10(math.Abs(x)))))
}
