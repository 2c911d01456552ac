package capacity

import (
	"math"
	"testing"
)

// TestWilson: the score intervals of Newcombe (1998), "Two-sided confidence
// intervals for the single proportion: comparison of seven methods",
// Statistics in Medicine 17, Table I, method 3 (95%).
func TestWilson(t *testing.T) {
	for _, c := range []struct {
		k, n     int64
		low, hig float64
	}{
		{81, 263, 0.2553, 0.3662},
		{15, 148, 0.0624, 0.1605},
		{0, 20, 0, 0.1611},
		{1, 29, 0.0061, 0.1718},
	} {
		lo, hi := Wilson(c.k, c.n, 0.95)
		if math.Abs(lo-c.low) > 0.00005 || math.Abs(hi-c.hig) > 0.00005 {
			t.Errorf("%d/%d: [%.4f, %.4f], Newcombe's [%.4f, %.4f]", c.k, c.n, lo, hi, c.low, c.hig)
		}
	}
}

// TestBatchMeans: per-second counts that vary more than independent
// operations would widen the interval to the batch means': by hand,
// p = 8/400, the batches' deviations (−2, 2, 0, 0)/100, SE =
// √(0.0008/12) = 0.0081650, t(3, 0.975) = 3.18245 (a t table), high =
// 0.02 + 3.18245 × 0.0081650 = 0.045985; the low end stays Wilson's.
func TestBatchMeans(t *testing.T) {
	share, lo, hi := ProportionInterval([]TailCount{{100, 0}, {100, 4}, {100, 2}, {100, 2}}, 0.95)
	wlo, whi := Wilson(8, 400, 0.95)
	if share != 0.02 || math.Abs(hi-0.045985) > 0.000005 || lo != 0 {
		t.Errorf("share %g [%g, %g], want 0.02 [0, 0.045985] (Wilson's alone [%g, %g])", share, lo, hi, wlo, whi)
	}
	// Counts as even as independent operations give Wilson's interval.
	share, lo, hi = ProportionInterval([]TailCount{{100, 2}, {100, 2}, {100, 2}, {100, 2}}, 0.95)
	if share != 0.02 || lo != wlo || hi != whi {
		t.Errorf("even counts: [%g, %g], Wilson's [%g, %g]", lo, hi, wlo, whi)
	}
}
