package history

import (
	"cmp"
	"math"
	"slices"
)

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
// One pass moves τ right and keeps the three sums: the distances from the
// value that crosses over to those on its left are read from a Fenwick
// tree of the left side's values by rank (Fenwick, "A new data structure
// for cumulative frequency tables", 1994), to those on its right from the
// sorted segment: O(L log L) where summing pair by pair is O(L²), which
// 999 permutations of a series of 1,000 runs would feel.
func bestSplit(v []float64) (int, float64) {
	var s splitter
	return s.best(v)
}

// splitter keeps bestSplit's buffers between the scans of one search.
type splitter struct {
	order []int     // the segment's indexes by value
	rank  []int     // rank[i]: the place of v[i] in order
	pre   []float64 // pre[k]: the sum of the k smallest values
	cnt   []int     // Fenwick tree of the left side: counts by rank
	sum   []float64 // and sums by rank
}

func (s *splitter) best(v []float64) (int, float64) {
	L := len(v)
	if L < 2 {
		return 0, 0
	}
	s.order, s.rank = resize(s.order, L), resize(s.rank, L)
	s.pre, s.cnt, s.sum = resize(s.pre, L+1), resize(s.cnt, L+1), resize(s.sum, L+1)
	for i := range s.order {
		s.order[i] = i
	}
	slices.SortFunc(s.order, func(a, b int) int { return cmp.Compare(v[a], v[b]) })
	var withinY float64 // Σ_{j<k}|Y_j−Y_k|: at first every pair, the k-th smallest value minus the k before it
	for k, i := range s.order {
		s.rank[i] = k
		s.pre[k+1] = s.pre[k] + v[i]
		withinY += v[i]*float64(k) - s.pre[k]
	}
	clear(s.cnt)
	clear(s.sum)
	total := s.pre[L]
	var cross, within, sumX float64
	bestTau, bestT := 0, 0.0
	for tau := 1; tau < L; tau++ {
		// v[tau-1] crosses from Y to X
		x, r := v[tau-1], s.rank[tau-1]
		nLess, sLess := s.below(r)
		nX := tau - 1
		col := x*float64(nLess) - sLess + (sumX - sLess) - x*float64(nX-nLess)   // to X
		all := x*float64(r) - s.pre[r] + (total - s.pre[r+1]) - x*float64(L-1-r) // to every other value
		row := all - col                                                         // to the rest of Y
		cross += row - col
		within += col
		withinY -= row
		s.insert(r, x)
		sumX += x
		n, m := float64(tau), float64(L-tau)
		t := n * m / (n + m) * (2/(n*m)*cross - 2/(n*n)*within - 2/(m*m)*withinY)
		if t > bestT {
			bestTau, bestT = tau, t
		}
	}
	return bestTau, bestT
}

// below is the count and sum of the left side's values of rank below r.
func (s *splitter) below(r int) (int, float64) {
	n, sum := 0, 0.0
	for i := r; i > 0; i -= i & -i {
		n += s.cnt[i]
		sum += s.sum[i]
	}
	return n, sum
}

func (s *splitter) insert(r int, x float64) {
	for i := r + 1; i < len(s.cnt); i += i & -i {
		s.cnt[i]++
		s.sum[i] += x
	}
}

func resize[T any](b []T, n int) []T {
	if cap(b) < n {
		return make([]T, n)
	}
	return b[:n]
}

// scaled is xs less its midrange, times the power of two that brings
// its largest magnitude into [0.5, 1): every distance is then at most 2
// and every sum of them at most 2·len², so values near ±1.8e308 do not
// overflow the sums ("no change point" on a drop from 1e308 to 0), and
// values centred on 0 keep bestSplit's differences of sums exact to the
// last digits where the noise is a small share of the level (1e9 ± 1).
// t̂ does not change with a shift and is proportional to the scale, so
// the splits and p-values are those of xs itself. xs is finite.
func scaled(xs []float64) []float64 {
	lo, hi := slices.Min(xs), slices.Max(xs)
	mid := lo/2 + hi/2 // (lo+hi)/2 overflows near ±1.8e308
	out := make([]float64, len(xs))
	peak := 0.0
	for i, x := range xs {
		out[i] = x - mid // at most (hi-lo)/2 in magnitude: finite
		peak = max(peak, math.Abs(out[i]))
	}
	if peak == 0 {
		return out
	}
	_, exp := math.Frexp(peak) // peak = frac·2^exp, frac in [0.5, 1)
	for i := range out {
		out[i] = math.Ldexp(out[i], -exp)
	}
	return out
}
