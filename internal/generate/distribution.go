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
//
// The distributions are YCSB's request distributions (CoreWorkload's
// requestdistribution): uniform, zipfian (scrambled), latest, hotspot,
// sequential and exponential; docs/ycsb.md says where they differ.
type Distribution interface {
	Next(r *rand.Rand, n int64) int64
}

// distSpec is one distribution of the key generator: the parameters it
// reads (besides the key generator's own) and its builder. Every build
// makes a new Distribution, because some (sequential, zipfian) carry state.
type distSpec struct {
	params []string
	build  func(p *params) Distribution
}

// distributions are the key distributions by name.
var distributions = map[string]distSpec{
	"uniform":     {nil, func(*params) Distribution { return Uniform{} }},
	"zipfian":     {[]string{"items", "scrambled"}, buildZipfianDist},
	"latest":      {nil, func(*params) Distribution { return NewLatest(ZipfianConstant) }},
	"sequential":  {nil, func(*params) Distribution { return &Sequential{} }},
	"hotspot":     {[]string{"hotDataFraction", "hotOpnFraction"}, buildHotspot},
	"exponential": {[]string{"percentile", "fraction"}, buildExponential},
}

// distributionNames lists the distributions, sorted.
func distributionNames() []string {
	return slices.Sorted(maps.Keys(distributions))
}

// distributionParams lists every distribution's parameters, sorted.
func distributionParams() []string {
	var all []string
	for _, d := range distributions {
		all = append(all, d.params...)
	}
	slices.Sort(all)
	return slices.Compact(all)
}

// distribution builds the distribution named name from p, and rejects the
// parameters of the other distributions.
func (p *params) distribution(name string) Distribution {
	spec, ok := distributions[name]
	if !ok {
		return nil
	}
	for _, other := range distributionNames() {
		for _, param := range distributions[other].params {
			if v, given := p.get(param); given && !slices.Contains(spec.params, param) {
				p.fail(v.Line, "%s is a parameter of distribution %s, not %s", param, other, name)
			}
		}
	}
	return spec.build(p)
}
