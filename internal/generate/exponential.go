package generate

import (
	"math"
	"math/rand/v2"
)

// Exponential is YCSB's exponential request distribution: the newest keys
// are the most popular, recency exponentially distributed so that a
// percentile share of the draws falls on the newest fraction of the keys.
// With YCSB's defaults (exponential.percentile=95, exponential.frac=1/7...
// written 0.8571428571) 95% of the draws land on the newest 85.7% of keys.
//
//	γ = -ln(1 - percentile/100) / (n · fraction)
//	x = -ln(u) / γ,  u uniform in (0, 1]
//	key = n - 1 - ⌊x⌋, drawn again while it is below 0
//
// YCSB takes n as the records loaded, fixed; here it is the key space's
// size at each draw, so the curve follows the inserts.
type Exponential struct {
	// c is -ln(1 - percentile/100); fraction scales the curve to the keys.
	c, fraction float64
}

// NewExponential returns the exponential distribution: percentile in
// (0, 100), fraction above 0.
func NewExponential(percentile, fraction float64) Exponential {
	return Exponential{c: -math.Log(1 - percentile/100), fraction: fraction}
}

// Next returns an index in [0, n), n-1 the most likely.
func (e Exponential) Next(r *rand.Rand, n int64) int64 {
	if n <= 1 {
		return 0
	}
	gamma := e.c / (float64(n) * e.fraction)
	for range maxRedraws {
		if x := -math.Log(1-r.Float64()) / gamma; x < float64(n) {
			return n - 1 - int64(x)
		}
	}
	return r.Int64N(n)
}

// buildExponential: distribution exponential {percentile (95), fraction (0.8571428571)}.
func buildExponential(p *params) Distribution {
	pct := p.float("percentile", 95)
	if !(pct > 0 && pct < 100) {
		v, _ := p.get("percentile")
		p.fail(v.Line, "percentile must be between 0 and 100 (exclusive), got %v", pct)
		pct = 95
	}
	frac := p.float("fraction", 0.8571428571)
	if !(frac > 0) {
		v, _ := p.get("fraction")
		p.fail(v.Line, "fraction must be above 0, got %v", frac)
		frac = 0.8571428571
	}
	return NewExponential(pct, frac)
}
