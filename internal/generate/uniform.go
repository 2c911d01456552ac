package generate

import "math/rand/v2"

// Uniform draws every item with the same probability.
type Uniform struct{}

// Next returns an index uniform in [0, n).
func (Uniform) Next(r *rand.Rand, n int64) int64 {
	if n <= 1 {
		return 0
	}
	return r.Int64N(n)
}
