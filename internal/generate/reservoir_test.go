package generate

import (
	"math/rand/v2"
	"testing"
)

// TestReservoirUniform protects the reservoir's fairness: over many picks
// every choice comes up about equally often (chi-square far below what a
// biased picker would give).
func TestReservoirUniform(t *testing.T) {
	tests := []struct {
		name string
		set  string
		max  float64 // chi-square bound, about the 99.99% quantile for len(set)-1 degrees of freedom
	}{
		// digits, 4 bits a pick
		{"digits", charsets["numeric"], 34},
		// 62 letters and digits, 6 bits a pick
		{"alphanumeric", charsets["alphanumeric"], 112},
		// a set of 3, not a power of two
		{"three", "abc", 19},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(11, 13))
			counts := map[byte]int{}
			const n = 200000
			var rv reservoir
			for range n {
				counts[rv.pickByte(r, tt.set)]++
			}
			want := float64(n) / float64(len(tt.set))
			chi := 0.0
			for i := range len(tt.set) {
				d := float64(counts[tt.set[i]]) - want
				chi += d * d / want
			}
			if chi > tt.max || len(counts) != len(tt.set) {
				t.Errorf("chi-square %.1f over %d choices (bound %.0f)", chi, len(counts), tt.max)
			}
		})
	}
}
