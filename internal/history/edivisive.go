package history

import (
	"math"
	"math/rand/v2"
	"slices"
)

// Method is how change points are found: E-Divisive means (Matteson and
// James, "A Nonparametric Approach for Multiple Change Point Analysis of
// Multivariate Data", 2014), the method MongoDB's performance CI uses
// (Daly et al., ICPE 2020), with its permutation test.
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

// DefaultMethod is ecp's e.divisive default test (sig.lvl 0.05, R 199),
// the reference implementation of the paper.
var DefaultMethod = Method{PValue: 0.05, Permutations: 199, Seed: 1}

// Split is one change point: Index is the first value of the segment after it.
type Split struct {
	Index  int
	QHat   float64
	PValue float64
}

// ChangePoints finds the change points of xs in index order: binary
// segmentation, each step taking the split of greatest q̂ over the
// current segments, kept while the permutation test finds it significant.
// salt varies the permutations between series under one Method.Seed.
func (m Method) ChangePoints(xs []float64, salt uint64) []Split {
	if len(xs) < 3 {
		return nil
	}
	rng := rand.New(rand.NewPCG(m.Seed, salt))
	var found []Split
	bounds := []int{0, len(xs)}
	d := newDistances(xs)
	for {
		best, ok := d.best(bounds)
		if !ok || best.QHat <= 0 {
			return found
		}
		// The test: permute the values within each current segment (the
		// null: no further change inside any of them) and count the
		// permuted series whose best split is at least as strong.
		// Once more permutations beat it than the level allows, no count
		// of the rest makes it significant: the test stops there (the
		// last test of every series, the one that fails, costs least).
		over, allowed := 0, int(math.Floor(m.PValue*float64(m.Permutations+1)+1e-9))-1
		perm := slices.Clone(xs)
		for range m.Permutations {
			if over > allowed {
				return found
			}
			for i := 0; i+1 < len(bounds); i++ {
				seg := perm[bounds[i]:bounds[i+1]]
				rng.Shuffle(len(seg), func(a, b int) { seg[a], seg[b] = seg[b], seg[a] })
			}
			// At least as strong, up to rounding: a permutation that only
			// moves a lone outlier to the other end gives the same q̂
			// summed in another order, an ulp apart.
			if pb, _ := newDistances(perm).best(bounds); pb.QHat >= best.QHat*(1-1e-9) {
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

// distances holds the 2-D prefix sums of |x_i - x_j|, so that the sum of
// distances over any rectangle of indexes is four lookups.
type distances struct {
	n   int
	sum []float64 // (n+1)×(n+1): sum[a*(n+1)+b] = Σ_{i<a, j<b} |x_i - x_j|
}

func newDistances(xs []float64) distances {
	n := len(xs)
	w := n + 1
	s := make([]float64, w*w)
	for i := range n {
		row := 0.0
		for j := range n {
			row += math.Abs(xs[i] - xs[j])
			s[(i+1)*w+j+1] = s[i*w+j+1] + row
		}
	}
	return distances{n: n, sum: s}
}

// rect is Σ_{a≤i<b, c≤j<e} |x_i - x_j|.
func (d distances) rect(a, b, c, e int) float64 {
	w := d.n + 1
	return d.sum[b*w+e] - d.sum[a*w+e] - d.sum[b*w+c] + d.sum[a*w+c]
}

// best is the split of greatest q̂ over the segments between bounds.
func (d distances) best(bounds []int) (Split, bool) {
	var best Split
	ok := false
	for i := 0; i+1 < len(bounds); i++ {
		if s, found := d.bestIn(bounds[i], bounds[i+1]); found && (!ok || s.QHat > best.QHat) {
			best, ok = s, true
		}
	}
	return best, ok
}

// bestIn maximises q̂(X, Y) over X = [s, τ) and Y = [τ, κ), s < τ < κ ≤ e,
// as Matteson and James define it with α = 1:
//
//	q̂ = 2/(n+m)·Σ|X-Y| − 2m/((n+m)(n−1))·Σ_{i<k}|X_i-X_k| − 2n/((n+m)(m−1))·Σ_{j<k}|Y_j-Y_k|
//
// (a within-term of a single value is 0).
func (d distances) bestIn(s, e int) (Split, bool) {
	var best Split
	ok := false
	for tau := s + 1; tau < e; tau++ {
		n := float64(tau - s)
		withinX := d.rect(s, tau, s, tau) / 2
		for kappa := tau + 1; kappa <= e; kappa++ {
			m := float64(kappa - tau)
			q := 2 / (n + m) * d.rect(s, tau, tau, kappa)
			if n > 1 {
				q -= 2 * m / ((n + m) * (n - 1)) * withinX
			}
			if m > 1 {
				q -= 2 * n / ((n + m) * (m - 1)) * d.rect(tau, kappa, tau, kappa) / 2
			}
			if !ok || q > best.QHat {
				best, ok = Split{Index: tau, QHat: q}, true
			}
		}
	}
	return best, ok
}
