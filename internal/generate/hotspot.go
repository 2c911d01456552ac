package generate

import "math/rand/v2"

// Hotspot is YCSB's HotspotIntegerGenerator: a fraction hotOpn of the
// draws goes to the hot set, the first hotData fraction of the key space,
// and the rest to the other keys, each set drawn uniformly. YCSB's
// defaults are 0.2 and 0.8: 80% of the operations on 20% of the keys.
// The sets are recomputed from n on every draw, so the hot set grows with
// the key space (YCSB fixes both at the keys loaded).
type Hotspot struct {
	data, opn float64
}

// NewHotspot returns the hotspot distribution; both fractions lie in [0, 1].
func NewHotspot(hotData, hotOpn float64) Hotspot { return Hotspot{hotData, hotOpn} }

// Next returns an index in [0, n); the hot set is [0, ⌊n·hotData⌋).
func (h Hotspot) Next(r *rand.Rand, n int64) int64 {
	if n <= 1 {
		return 0
	}
	hot := int64(float64(n) * h.data)
	cold := n - hot
	switch {
	case hot == 0 || cold == 0: // YCSB divides by zero here
		return r.Int64N(n)
	case r.Float64() < h.opn:
		return r.Int64N(hot)
	}
	return hot + r.Int64N(cold)
}

// buildHotspot: distribution hotspot {hotDataFraction (0.2), hotOpnFraction (0.8)}.
func buildHotspot(p *params) Distribution {
	return NewHotspot(p.prob("hotDataFraction", 0.2), p.prob("hotOpnFraction", 0.8))
}
