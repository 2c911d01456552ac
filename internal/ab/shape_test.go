package ab

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
)

// TestStudentP checks the t-test's tail against the textbook table's
// critical values: at each, the two-sided p is the table's level.
func TestStudentP(t *testing.T) {
	for _, c := range []struct{ t, df, p float64 }{
		{12.706, 1, 0.05}, // one degree of freedom, 5%
		{63.657, 1, 0.01},
		{4.303, 2, 0.05},
		{5.841, 3, 0.01},
		{2.776, 4, 0.05},
		{1.96, 1e6, 0.05}, // the normal's limit
		{0, 3, 1},
	} {
		if got := studentP(c.t, c.df); math.Abs(got-c.p) > 0.0005 {
			t.Errorf("studentP(%g, %g) = %.5f, want %g", c.t, c.df, got, c.p)
		}
	}
}

// rounds makes k rounds of n latencies per round: lognormal around med µs,
// each round's median drifted by drift[i] (the host's drift, on both
// sides alike) and scaled by scale (the candidate's difference).
func rounds(r *rand.Rand, k, n int, med float64, drift []float64, scale float64) []*hdrhistogram.Histogram {
	out := make([]*hdrhistogram.Histogram, k)
	for i := range out {
		h := metrics.NewHistogram()
		for range n {
			_ = h.RecordValue(int64(med * drift[i] * scale * math.Exp(0.3*r.NormFloat64())))
		}
		out[i] = h
	}
	return out
}

// TestJudgeShape: the same distribution on both sides is never flagged,
// even with the host drifting 20% between rounds; a 2x slower candidate is
// a regression, a 2x faster one an improvement; a real 5% shift is
// significant but within the 10% threshold.
func TestJudgeShape(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	drift := []float64{1, 1.2, 0.9, 1.1}
	o := DefaultABOptions()
	for _, c := range []struct {
		name  string
		scale float64
		flag  string
	}{
		{"same", 1, results.FlagNone},
		{"2x slower", 2, results.FlagRegression},
		{"2x faster", 0.5, results.FlagImprovement},
		{"5% slower", 1.05, results.FlagNone},
	} {
		for try := range 10 {
			a := rounds(r, 4, 2000, 500, drift, 1)
			b := rounds(r, 4, 2000, 500, drift, c.scale)
			j := JudgeShape(a, b, o)
			if j.Flag != c.flag {
				t.Errorf("%s (try %d): flag %s, want %s (%s)", c.name, try, j.Flag, c.flag, j.Why)
			}
			if math.Abs(j.Shift-c.scale) > 0.05*c.scale {
				t.Errorf("%s: shift %.3f, want about %g", c.name, j.Shift, c.scale)
			}
		}
	}
}

// TestJudgeShapeRoundsSpread: a candidate 30% slower in two rounds and 30%
// faster in two (the host, not the deployment) is not significant, though
// the rank test over every latency alone would call it so.
func TestJudgeShapeRoundsSpread(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	same := []float64{1, 1, 1, 1}
	a := rounds(r, 4, 2000, 500, same, 1)
	b := rounds(r, 4, 2000, 500, []float64{1.3, 1.35, 0.8, 1.3}, 1)
	if j := JudgeShape(a, b, DefaultABOptions()); j.Flag != results.FlagNone {
		t.Errorf("flag %s for rounds that disagree: %s (round shifts %v)", j.Flag, j.Why, j.RoundShifts)
	}
}

// TestJudgeShapeOneSideEmpty: a shape measured on one side only is not judged.
func TestJudgeShapeOneSideEmpty(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	a := rounds(r, 2, 100, 500, []float64{1, 1}, 1)
	if j := JudgeShape(a, []*hdrhistogram.Histogram{nil, nil}, DefaultABOptions()); j.Flag != results.FlagNone || j.P != 1 {
		t.Errorf("judged with nothing on B: %+v", j)
	}
}

// TestBeyond: the rounds must show the shift beyond the threshold, not
// merely away from 1.
func TestBeyond(t *testing.T) {
	for _, c := range []struct {
		name   string
		shifts []float64
		flag   bool // p < 0.01
	}{
		// An index dropped: every round far beyond 1.1x.
		{"collection scan", []float64{26.4, 31.7, 11.1, 10.1}, true},
		// A steady 1.5x on a quiet host.
		{"steady 1.5x", []float64{1.5, 1.52, 1.47, 1.55}, true},
		// Measured on a busy host beside a shape that scans: a shift in
		// every round, but spread too wide to put it beyond 1.1x.
		{"spread 1.4x", []float64{2.73, 1.64, 1.36, 1.37}, false},
		// Within the threshold however steady.
		{"steady 1.05x", []float64{1.05, 1.05, 1.06, 1.04}, false},
		// One round cannot show a spread.
		{"one round", []float64{3}, false},
	} {
		if p := beyond(c.shifts, 1.1); (p < 0.01) != c.flag {
			t.Errorf("%s: p = %.4f, want below 0.01: %v", c.name, p, c.flag)
		}
	}
}
