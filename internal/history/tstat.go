package history

import "math"

// bestSplit is the τ in [1, len(v)) of greatest t̂ and that t̂, where
// X = v[:τ], Y = v[τ:], n = |X|, m = |Y| and, with α = 1,
//
//	t̂(τ) = nm/(n+m) · ( 2/(nm)·Σ|X_i−Y_j| − 2/n²·Σ_{i<k}|X_i−X_k| − 2/m²·Σ_{j<k}|Y_j−Y_k| )
//
// the scaled sample energy distance of Székely and Rizzo ("Testing for
// equal distributions in high dimension", InterStat 2004) between the two
// sides, which Matteson and James (2014, §2) maximise over τ. This is the
// statistic signal-processing-algorithms scans: τ alone, over the whole
// segment. (Matteson and James's q̂ also searches the right end κ < len(v)
// and divides the within-sums by n(n−1); it favours short segments and
// named more false changes: docs/history.md.) The first τ wins a tie, as
// numpy's argmax does. A flat segment, or one of fewer than two values,
// has no split: τ 0, t̂ 0.
//
// One pass keeps the three sums as τ moves right: O(len(v)²).
func bestSplit(v []float64) (int, float64) {
	L := len(v)
	var cross, within, withinY float64
	for i := range L {
		for j := i + 1; j < L; j++ {
			withinY += math.Abs(v[i] - v[j])
		}
	}
	bestTau, bestT := 0, 0.0
	for tau := 1; tau < L; tau++ {
		// move v[tau-1] from Y to X
		x := v[tau-1]
		col, row := 0.0, 0.0
		for i := 0; i < tau-1; i++ {
			col += math.Abs(v[i] - x)
		}
		for j := tau; j < L; j++ {
			row += math.Abs(x - v[j])
		}
		cross += row - col
		within += col
		withinY -= row
		n, m := float64(tau), float64(L-tau)
		t := n * m / (n + m) * (2/(n*m)*cross - 2/(n*n)*within - 2/(m*m)*withinY)
		if t > bestT {
			bestTau, bestT = tau, t
		}
	}
	return bestTau, bestT
}

// scaled is xs times the power of two that brings its largest magnitude
// into [0.5, 1): every distance is then at most 2 and every sum of them at
// most 2·len², so values near ±1.8e308 do not overflow the sums ("no
// change point" on a drop from 1e308 to 0). t̂ is proportional to the
// scale and a power of two multiplies exactly, so the splits and p-values
// are those of xs itself. xs is finite.
func scaled(xs []float64) []float64 {
	peak := 0.0
	for _, x := range xs {
		peak = max(peak, math.Abs(x))
	}
	out := make([]float64, len(xs))
	if peak == 0 {
		return out
	}
	_, exp := math.Frexp(peak) // peak = frac·2^exp, frac in [0.5, 1)
	for i, x := range xs {
		out[i] = math.Ldexp(x, -exp)
	}
	return out
}
