package generate

import (
	"maps"
	"math/rand/v2"
	"slices"
)

// Distribution draws an item index in [0, n) for a key space of n items.
// n is passed on every call because key spaces grow during a run.
// Implementations take the random source as an argument (the go-ycsb
// pattern), so one Distribution serves every worker, each with its own
// State; they must be safe for concurrent use and return 0 when n < 1.
type Distribution interface {
	Next(r *rand.Rand, n int64) int64
}

// distributions are the key distributions by name; each call makes a new
// one, because some (sequential) carry state.
var distributions = map[string]func() Distribution{
	"uniform":    func() Distribution { return Uniform{} },
	"zipfian":    func() Distribution { return NewZipfian(ZipfianConstant) },
	"latest":     func() Distribution { return NewLatest(ZipfianConstant) },
	"sequential": func() Distribution { return &Sequential{} },
}

// distributionNames lists the distributions, sorted.
func distributionNames() []string {
	return slices.Sorted(maps.Keys(distributions))
}
