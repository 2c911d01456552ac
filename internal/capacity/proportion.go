package capacity

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// An objective such as p99<=8ms is a claim about a proportion: at most 1%
// of the operations take longer than 8 ms. A probe counts the operations
// over the bound in each second; ProportionInterval turns those counts
// into a confidence interval for the proportion, so that a probe is judged
// by what it measured with its uncertainty instead of by one p99.

// Confidence is the two-sided confidence of a probe's interval and of the
// answer's (maxRateInterval).
const Confidence = 0.95

// TailCount is one interval's operations and how many of them were over
// the bound (a dropped operation, never answered, is over any bound).
type TailCount struct{ Ops, Over int64 }

// ProportionInterval is the share of operations over the bound across
// counts, and its confidence interval at conf. Two intervals are computed
// and the wider bounds kept: Wilson's score interval for a binomial
// proportion, right when operations are independent, and the batch-means
// interval (each interval a batch; the ratio estimator's variance from the
// spread of the per-interval counts, Student's t on batches−1 degrees of
// freedom), right when they are not: a slow second makes many slow
// operations at once, so the per-second counts vary more than independent
// operations would, and the binomial interval alone would be too narrow.
func ProportionInterval(counts []TailCount, conf float64) (share, low, high float64) {
	var n, k int64
	for _, c := range counts {
		n, k = n+c.Ops, k+c.Over
	}
	if n == 0 {
		return 0, 0, 1
	}
	share = float64(k) / float64(n)
	low, high = Wilson(k, n, conf)
	if m := len(counts); m >= 2 {
		var ss float64
		mean := float64(n) / float64(m)
		for _, c := range counts {
			d := (float64(c.Over) - share*float64(c.Ops)) / mean
			ss += d * d
		}
		se := math.Sqrt(ss / float64(m*(m-1)))
		t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(m - 1)}.Quantile(1 - (1-conf)/2)
		low, high = math.Min(low, share-t*se), math.Max(high, share+t*se)
	}
	return share, math.Max(0, low), math.Min(1, high)
}

// Wilson is the Wilson score interval for k successes in n trials at
// two-sided confidence conf.
func Wilson(k, n int64, conf float64) (low, high float64) {
	if n == 0 {
		return 0, 1
	}
	z := distuv.UnitNormal.Quantile(1 - (1-conf)/2)
	p, nf := float64(k)/float64(n), float64(n)
	centre := (p + z*z/(2*nf)) / (1 + z*z/nf)
	half := z / (1 + z*z/nf) * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf))
	return math.Max(0, centre-half), math.Min(1, centre+half)
}
