package usl

import (
	"math"
	"testing"

	"github.com/mongoload/mongoload/internal/results"
)

// TestFitSPECSDM91: the R usl package's own example data set (Gunther's
// SPEC SDM91 benchmark, data(specsdm91)) and its published least-squares
// fit, tests/usl-nlxb.Rout.save of the usl package 2.0+: alpha (σ)
// 0.0277285, beta (κ) 0.0001044, gamma (λ) 89.9952330, R² 0.99.
func TestFitSPECSDM91(t *testing.T) {
	m := fit(t, []float64{1, 18, 36, 72, 108, 144, 216}, []float64{64.9, 995.9, 1652.4, 1853.2, 1828.9, 1775.0, 1702.2})
	near := func(what string, got, want, rel float64) {
		if math.Abs(got-want) > rel*want {
			t.Errorf("%s %g, the R usl package's %g (within %.1f%%)", what, got, want, 100*rel)
		}
	}
	near("σ", m.Sigma, 0.0277285, 0.01)
	near("κ", m.Kappa, 0.0001044, 0.01)
	near("λ", m.Lambda, 89.9952330, 0.01)
	if math.Round(m.R2*100)/100 != 0.99 {
		t.Errorf("R² %g, the R usl package's 0.99", m.R2)
	}
	// Its peak: √((1−σ)/κ) ≈ 96.4 (usl's peak.scalability with these coefficients)
	near("peak", m.PeakConcurrency(), math.Sqrt((1-0.0277285)/0.0001044), 0.01)
}

// TestFitExact: the data of the R usl package's tests/coef.R,
// X(N) = N/(1 + 0.02(N−1) + 0.02N(N−1)) to four places, fitted back.
func TestFitExact(t *testing.T) {
	m := fit(t, []float64{1, 2, 4, 6, 8, 10}, []float64{1, 1.8868, 3.0769, 3.5294, 3.5398, 3.3557})
	if math.Abs(m.Sigma-0.02) > 0.001 || math.Abs(m.Kappa-0.02) > 0.001 || math.Abs(m.Lambda-1) > 0.01 {
		t.Errorf("fit σ %g κ %g λ %g, want 0.02, 0.02, 1", m.Sigma, m.Kappa, m.Lambda)
	}
	if m.R2 < 0.9999 {
		t.Errorf("R² %g of an exact law", m.R2)
	}
}

// TestFitRefusesTooFew: three parameters from three points say nothing.
func TestFitRefusesTooFew(t *testing.T) {
	if _, err := Fit([]Point{{1, 10}, {2, 19}, {4, 30}}); err == nil {
		t.Error("fitted three points")
	}
	if _, err := Fit([]Point{{1, 10}, {2, 19}, {4, 0}, {8, 30}}); err == nil {
		t.Error("fitted a level that completed nothing")
	}
}

// TestFitSweep: a concurrency sweep measured on a known law gets the law
// back, a prediction at every level and at 2x and 4x the largest, and the
// flag past 2.5x; a rate sweep gets none.
func TestFitSweep(t *testing.T) {
	law := Model{Sigma: 0.05, Kappa: 0.001, Lambda: 1000}
	sw := &results.Sweep{Load: results.SweepLoad{Parameter: "concurrency", Levels: []float64{1, 2, 4, 8}}}
	for _, n := range sw.Load.Levels {
		res := &results.Result{}
		res.Totals.Throughput = law.Throughput(n)
		sw.Steps = append(sw.Steps, results.SweepStep{Level: n, Complete: true, Result: res})
	}
	u := FitSweep(sw)
	if u == nil {
		t.Fatal("no fit")
	}
	if math.Abs(u.Sigma-0.05) > 0.001 || math.Abs(u.Kappa-0.001) > 0.0001 || math.Abs(u.Lambda-1000) > 5 {
		t.Errorf("σ %g κ %g λ %g, the law's 0.05, 0.001, 1000", u.Sigma, u.Kappa, u.Lambda)
	}
	wantPeak := math.Sqrt(0.95 / 0.001)
	if math.Abs(u.PeakConcurrency-wantPeak) > 0.5 || math.Abs(u.PeakThroughput-law.Throughput(wantPeak)) > 5 {
		t.Errorf("peak %g ops/s at %g, the law's %g at %g", u.PeakThroughput, u.PeakConcurrency, law.Throughput(wantPeak), wantPeak)
	}
	got := map[float64]results.USLPrediction{}
	for _, p := range u.Predictions {
		got[p.Concurrency] = p
	}
	for _, n := range []float64{1, 2, 4, 8, 16, 32} {
		p, ok := got[n]
		if !ok {
			t.Errorf("no prediction at %g", n)
			continue
		}
		if math.Abs(p.Throughput-law.Throughput(n)) > 0.01*law.Throughput(n) {
			t.Errorf("at %g: predicted %g, the law's %g", n, p.Throughput, law.Throughput(n))
		}
		if (n <= 8) != (p.Measured != nil) || p.FarBeyond != (n == 32) {
			t.Errorf("at %g: measured %v, far beyond %v", n, p.Measured, p.FarBeyond)
		}
	}
	sw.Load.Parameter = "rate"
	if FitSweep(sw) != nil {
		t.Error("a rate sweep fitted as concurrency")
	}
}

// fit fits the law to throughput tput at concurrency load.
func fit(t *testing.T, load, tput []float64) Model {
	t.Helper()
	var ps []Point
	for i := range load {
		ps = append(ps, Point{load[i], tput[i]})
	}
	m, err := Fit(ps)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
