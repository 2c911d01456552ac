package generate

import (
	"math"
	"math/rand/v2"
	"testing"
)

// exactZeta is Σ_{j=1..n} j^-θ, summed from the small end up.
func exactZeta(n int64, theta float64) float64 {
	s := 0.0
	for j := n; j >= 1; j-- {
		s += math.Pow(float64(j), -theta)
	}
	return s
}

// TestZeta protects the O(1) zeta: it matches the exact sum on both sides
// of the table boundary and far beyond.
func TestZeta(t *testing.T) {
	z := NewZipfian(ZipfianConstant)
	for _, n := range []int64{1, 2, 3, 1000, 1024, 1025, 1500, 65537, 1_000_000, 10_000_000} {
		got, _ := z.zeta(n)
		want := exactZeta(n, ZipfianConstant)
		if rel := math.Abs(got-want) / want; rel > 1e-12 {
			t.Errorf("zeta(%d) = %.15g, exact %.15g (relative error %.2g)", n, got, want, rel)
		}
	}
}

// grayProb is the probability that Gray's method draws item i of n: exact
// Zipf for items 0 and 1; beyond, the width of the band of u that maps to i.
func grayProb(i, n int64, theta float64) float64 {
	zn := exactZeta(n, theta)
	if i < 2 {
		return math.Pow(float64(i+1), -theta) / zn
	}
	eta := (1 - math.Pow(2/float64(n), 1-theta)) / (1 - exactZeta(2, theta)/zn)
	u := func(i int64) float64 { return 1 + (math.Pow(float64(i)/float64(n), 1-theta)-1)/eta }
	return u(i+1) - u(i)
}

// TestZipfianFrequencies protects the implementation of Gray's method: the
// most popular items are drawn as often as the method says, both within
// the exact zeta table and beyond it.
func TestZipfianFrequencies(t *testing.T) {
	const draws = 200000
	for _, n := range []int64{50, 100000} {
		z := NewZipfian(ZipfianConstant)
		r := rand.New(rand.NewPCG(1, uint64(n)))
		counts := make(map[int64]int)
		for range draws {
			i := z.Next(r, n)
			if i < 0 || i >= n {
				t.Fatalf("n=%d: index %d out of range", n, i)
			}
			counts[i]++
		}
		for i := int64(0); i < 5; i++ {
			p := grayProb(i, n, ZipfianConstant)
			tol := 5 * math.Sqrt(p*(1-p)/draws)
			if got := float64(counts[i]) / draws; math.Abs(got-p) > tol {
				t.Errorf("n=%d item %d: frequency %.4f, want %.4f ± %.4f", n, i, got, p, tol)
			}
		}
	}
}

// TestDistributionsInRange protects every distribution's contract: indexes
// lie in [0, n), and n below 1 gives 0 instead of a panic.
func TestDistributionsInRange(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for _, name := range distributionNames() {
		d := defaultDistribution(t, name)
		for _, n := range []int64{-1, 0, 1, 2, 3, 10, 1 << 40} {
			for range 200 {
				i := d.Next(r, n)
				if n < 1 && i != 0 || n >= 1 && (i < 0 || i >= n) {
					t.Fatalf("%s: Next(n=%d) = %d", name, n, i)
				}
			}
		}
	}
}

// TestLatestFavoursNewest protects latest's direction: the last item is the
// most drawn, and it moves as the key space grows.
func TestLatestFavoursNewest(t *testing.T) {
	l := NewLatest(ZipfianConstant)
	r := rand.New(rand.NewPCG(2, 2))
	for _, n := range []int64{100, 5000} {
		last := 0
		for range 10000 {
			if l.Next(r, n) == n-1 {
				last++
			}
		}
		want := 10000 / exactZeta(n, ZipfianConstant)
		if math.Abs(float64(last)-want) > 5*math.Sqrt(want) {
			t.Errorf("n=%d: newest drawn %d times, want about %.0f", n, last, want)
		}
	}
}

// TestSequentialWraps protects sequential: in order, wrapping at n.
func TestSequentialWraps(t *testing.T) {
	s := &Sequential{}
	for i, want := range []int64{0, 1, 2, 0, 1} {
		if got := s.Next(nil, 3); got != want {
			t.Fatalf("call %d: got %d, want %d", i, got, want)
		}
	}
}

// TestNewZipfianTheta protects the constructor against thetas the method
// cannot use.
func TestNewZipfianTheta(t *testing.T) {
	for _, theta := range []float64{0, 1, -1, 2, math.NaN()} {
		if z := NewZipfian(theta); z.theta != ZipfianConstant {
			t.Errorf("theta %v kept as %v", theta, z.theta)
		}
	}
}
