package generate

import "math/rand/v2"

// Latest favours the newest items: it is Zipfian over recency, so the last
// item is the most popular, the one before it the next, and so on (YCSB's
// SkewedLatestGenerator, from Cooper et al., "Benchmarking Cloud Serving
// Systems with YCSB", SoCC '10). As the key space grows the hot spot moves
// with its end, which models reading what was just written.
type Latest struct {
	z *Zipfian
}

// NewLatest returns the latest distribution with Zipfian constant theta.
func NewLatest(theta float64) *Latest { return &Latest{z: NewZipfian(theta)} }

// Next returns n-1-k for k drawn from the Zipfian distribution over n.
func (l *Latest) Next(r *rand.Rand, n int64) int64 {
	if n <= 1 {
		return 0
	}
	return n - 1 - l.z.Next(r, n)
}
