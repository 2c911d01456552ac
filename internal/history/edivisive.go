package history

import (
	"math"
	"math/rand/v2"
	"slices"
)

// Method is how change points are found: E-Divisive means (Matteson and
// James, "A Nonparametric Approach for Multiple Change Point Analysis of
// Multivariate Data", JASA 2014) as MongoDB's performance CI runs it
// (Daly et al., "Change Point Detection in Software Performance Testing",
// ICPE 2020; its implementation is the e_divisive of the PyPI package
// signal-processing-algorithms): binary segmentation, each segment split
// at the τ of greatest t̂ (tstat.go), each split kept while a permutation
// test finds it significant.
type Method struct {
	// PValue is the significance level: a split is a change point when
	// at most this share of permuted series split as well or better.
	PValue float64
	// Permutations is how many permuted series each candidate is tested
	// against; the smallest p-value it can give is 1/(Permutations+1).
	Permutations int
	// Seed makes the permutations, and so every p-value, reproducible.
	Seed uint64
}

// DefaultMethod is the level MongoDB's CI and ecp's e.divisive use (0.05),
// with 999 permutations where they draw 199: near the level a p-value
// from 199 permutations is off by ±0.015 (one standard error), enough to
// name a change in one flat series and not in its twin; 999 make it
// ±0.007, so the verdict depends on the series rather than on the draw.
// The test stops as soon as the split cannot be significant, so the
// failing test that ends every search costs about as much as before.
var DefaultMethod = Method{PValue: 0.05, Permutations: 999, Seed: 1}

// Split is one change point: Index is the first value of the segment after
// it; T is its t̂ on the series scaled to at most 1 in magnitude (scaled).
type Split struct {
	Index  int
	T      float64
	PValue float64
}

// ChangePoints finds the change points of xs in index order. Each step
// takes, over the segments between the change points found so far, the
// split of greatest t̂ and tests it: the values are permuted within each
// segment (the null: no change inside any of them) and the permuted
// series whose best split is at least as strong are counted; the split is
// kept when their share is at most PValue. The first split that fails
// ends the search. salt varies the permutations between series under one
// Method.Seed.
//
// The p-value counts the observed series among the permutations,
// (over+1)/(R+1), as ecp's e.divisive does (Davison and Hinkley,
// "Bootstrap Methods", 1997, §4.3); signal-processing-algorithms divides
// over by R+1 alone, which names a change at most one permutation sooner.
//
// Values that are not finite have no place in a series: the caller leaves
// them out (series.go) or refuses them where they were read (csvstore.go).
func (m Method) ChangePoints(xs []float64, salt uint64) []Split {
	if len(xs) < 3 || !(m.PValue > 0 && m.PValue < 1) || m.Permutations < 1 {
		return nil // no level, no test: the flags' ranges (read.go) keep such a Method out
	}
	ys := scaled(xs)
	rng := rand.New(rand.NewPCG(m.Seed, salt))
	bounds := []int{0, len(ys)}
	memo := map[[2]int]Split{} // a segment's best split: it stays until the segment is split
	var found []Split
	perm := make([]float64, len(ys))
	var sp splitter // its buffers serve every scan of the search
	for {
		best := Split{Index: -1}
		for i := 0; i+1 < len(bounds); i++ {
			seg := [2]int{bounds[i], bounds[i+1]}
			s, ok := memo[seg]
			if !ok {
				tau, t := sp.best(ys[seg[0]:seg[1]])
				s = Split{Index: seg[0] + tau, T: t}
				memo[seg] = s
			}
			if s.T > best.T {
				best = s
			}
		}
		if best.Index < 0 {
			return found // every segment is flat: nothing to split
		}
		// Once more permutations beat it than the level allows, no count
		// of the rest makes it significant: the test stops there (the
		// last test of every series, the one that fails, costs least).
		over, allowed := 0, int(math.Floor(m.PValue*float64(m.Permutations+1)+1e-9))-1
		copy(perm, ys)
		for range m.Permutations {
			if over > allowed {
				return found
			}
			strongest := 0.0
			for i := 0; i+1 < len(bounds); i++ {
				seg := perm[bounds[i]:bounds[i+1]]
				rng.Shuffle(len(seg), func(a, b int) { seg[a], seg[b] = seg[b], seg[a] })
				_, t := sp.best(seg)
				strongest = max(strongest, t)
			}
			// At least as strong, up to rounding: a permutation that only
			// moves a lone outlier to the other end gives the same t̂
			// summed in another order, an ulp apart.
			if strongest >= best.T*(1-1e-9) {
				over++
			}
		}
		best.PValue = float64(over+1) / float64(m.Permutations+1)
		if best.PValue > m.PValue {
			return found
		}
		found = append(found, best)
		bounds = append(bounds, best.Index)
		slices.Sort(bounds)
		slices.SortFunc(found, func(a, b Split) int { return a.Index - b.Index })
	}
}
