package generate

import (
	"math/rand/v2"
	"sync/atomic"
)

// Sequential walks the items in order, 0, 1, 2, ..., wrapping at n. The
// position is shared by all workers (one atomic counter), so together they
// visit each item once per pass, in an order that interleaves the workers.
type Sequential struct {
	next atomic.Uint64
}

// Next returns the next index in [0, n); r is unused.
func (s *Sequential) Next(_ *rand.Rand, n int64) int64 {
	if n <= 1 {
		return 0
	}
	return int64((s.next.Add(1) - 1) % uint64(n))
}
