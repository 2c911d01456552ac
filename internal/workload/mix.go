package workload

import "math/rand/v2"

// Mix picks operations by weight in O(1) with Walker's alias method
// (Vose's variant, "A Linear Algorithm for Generating Random Numbers with a
// Given Distribution", IEEE TSE 1991), so a pick costs the same for 2 or 200
// operations and never allocates.
type Mix struct {
	prob  []float64
	alias []int
}

// NewMix builds the alias table from the operations' weights.
func NewMix(ops []*Op) *Mix {
	n := len(ops)
	m := &Mix{prob: make([]float64, n), alias: make([]int, n)}
	var total float64
	for _, op := range ops {
		total += op.Weight
	}
	scaled := make([]float64, n)
	var small, large []int
	for i, op := range ops {
		scaled[i] = op.Weight * float64(n) / total
		if scaled[i] < 1 {
			small = append(small, i)
		} else {
			large = append(large, i)
		}
	}
	for len(small) > 0 && len(large) > 0 {
		s, l := small[len(small)-1], large[len(large)-1]
		small = small[:len(small)-1]
		m.prob[s], m.alias[s] = scaled[s], l
		scaled[l] -= 1 - scaled[s]
		if scaled[l] < 1 {
			large = large[:len(large)-1]
			small = append(small, l)
		}
	}
	for _, i := range append(small, large...) {
		m.prob[i], m.alias[i] = 1, i // leftovers are 1 up to rounding
	}
	return m
}

// Pick returns the index of the next operation.
func (m *Mix) Pick(r *rand.Rand) int {
	i := r.IntN(len(m.prob))
	if r.Float64() < m.prob[i] {
		return i
	}
	return m.alias[i]
}
