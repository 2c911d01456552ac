package generate

import (
	"math"
	"math/rand/v2"
)

// ZipfianConstant is YCSB's skew: item i (from 0) is drawn with
// probability proportional to 1/(i+1)^0.99.
const ZipfianConstant = 0.99

// zetaExact is the largest n whose zeta is summed exactly (a table of
// zetaExact+1 sums); beyond it zeta comes from the Euler–Maclaurin formula.
const zetaExact = 1024

// Zipfian draws item i of n with probability (1/(i+1)^θ) / ζ(n, θ), where
// ζ(n, θ) = Σ_{j=1..n} 1/j^θ, so item 0 is the most popular. It follows the
// rejection-free method of Gray et al., "Quickly Generating Billion-Record
// Synthetic Databases", SIGMOD '94, as YCSB's ZipfianGenerator does:
//
//	α = 1/(1-θ),  η = (1 - (2/n)^(1-θ)) / (1 - ζ(2,θ)/ζ(n,θ))
//	u uniform in [0,1);  uz = u·ζ(n,θ)
//	uz < 1            → 0
//	uz < 1 + 0.5^θ    → 1
//	otherwise         → ⌊n · (η·u - η + 1)^α⌋
//
// As in YCSB, items 0 and 1 get exactly their Zipf probability and later
// items an approximation: at n = 100000, item 2 is drawn 3.1% of the time
// against the law's 2.6%, and the gap narrows further down the tail.
//
// Key spaces grow during a run, so n changes between calls. YCSB keeps the
// last ζ(n) and adds the new terms when n grows; that is shared mutable
// state, which here would need a lock. Instead ζ(n) is computed in O(1)
// per call with no state: exactly from a table for n <= 1024, and beyond
// by the Euler–Maclaurin formula from a = 1024,
//
//	Σ_{j=a..n} f(j) ≈ ∫_a^n f + (f(a)+f(n))/2 + (f'(n)-f'(a))/12 - (f'''(n)-f'''(a))/720
//
// with f(x) = x^-θ, whose next term is below 1e-20: the result matches the
// exact sum to about 1e-15 relative, for one math.Pow per call (n^(1-θ),
// which η needs anyway). A Zipfian is immutable and safe for concurrent
// use.
type Zipfian struct {
	theta, alpha float64
	zeta2        float64 // ζ(2, θ)
	half         float64 // 0.5^θ
	pow2         float64 // 2^(1-θ)
	prefix       []float64
	tail         float64 // the parts of the Euler–Maclaurin sum that depend on a only
}

// NewZipfian returns the Zipfian distribution with constant theta, which
// must lie in (0, 1); other values are replaced by ZipfianConstant, since
// the method above needs 1/(1-θ).
func NewZipfian(theta float64) *Zipfian {
	if !(theta > 0 && theta < 1) {
		theta = ZipfianConstant
	}
	z := &Zipfian{theta: theta, alpha: 1 / (1 - theta), half: math.Pow(0.5, theta), pow2: math.Pow(2, 1-theta)}
	z.prefix = make([]float64, zetaExact+1)
	for j := 1; j <= zetaExact; j++ {
		z.prefix[j] = z.prefix[j-1] + math.Pow(float64(j), -theta)
	}
	z.zeta2 = z.prefix[2]
	a := float64(zetaExact)
	fa := math.Pow(a, -theta)
	z.tail = z.prefix[zetaExact-1] - math.Pow(a, 1-theta)/(1-theta) + fa/2 - z.d1(fa, a)/12 + z.d3(fa, a)/720
	return z
}

// d1 is the derivative of f, -θ x^(-θ-1), given fx = x^-θ.
func (z *Zipfian) d1(fx, x float64) float64 { return -z.theta * fx / x }

// d3 is the third derivative of f, -θ(θ+1)(θ+2) x^(-θ-3), given fx = x^-θ.
func (z *Zipfian) d3(fx, x float64) float64 {
	return -z.theta * (z.theta + 1) * (z.theta + 2) * fx / (x * x * x)
}

// zeta returns ζ(n, θ) and n^(1-θ).
func (z *Zipfian) zeta(n int64) (zn, x float64) {
	fn := float64(n)
	x = math.Pow(fn, 1-z.theta)
	if n <= zetaExact {
		return z.prefix[n], x
	}
	f := x / fn // n^-θ
	return z.tail + x/(1-z.theta) + f/2 + z.d1(f, fn)/12 - z.d3(f, fn)/720, x
}

// Next returns an index in [0, n), 0 the most likely.
func (z *Zipfian) Next(r *rand.Rand, n int64) int64 {
	if n <= 1 {
		return 0
	}
	zn, x := z.zeta(n)
	return z.draw(r.Float64(), n, zn, (1-z.pow2/x)/(1-z.zeta2/zn))
}

// draw maps u, uniform in [0,1), to an index in [0, n) by Gray's method,
// given ζ(n, θ) and η.
func (z *Zipfian) draw(u float64, n int64, zn, eta float64) int64 {
	uz := u * zn
	if uz < 1 {
		return 0
	}
	if uz < 1+z.half {
		return 1
	}
	i := int64(float64(n) * math.Pow(eta*u-eta+1, z.alpha))
	return min(max(i, 0), n-1) // rounding can land one past the end
}

// zipfOver is a Zipfian over a fixed number of items, with ζ(n, θ) and η
// computed once: what YCSB's ZipfianGenerator is when its item count does
// not change.
type zipfOver struct {
	z       *Zipfian
	n       int64
	zn, eta float64
}

// over returns z over n items (n >= 2).
func (z *Zipfian) over(n int64) zipfOver {
	zn, _ := z.zeta(n)
	return z.overZeta(n, zn)
}

// overZeta returns z over n items with ζ(n, θ) given as zn.
func (z *Zipfian) overZeta(n int64, zn float64) zipfOver {
	x := math.Pow(float64(n), 1-z.theta)
	return zipfOver{z: z, n: n, zn: zn, eta: (1 - z.pow2/x) / (1 - z.zeta2/zn)}
}

// next draws an index in [0, n), 0 the most likely.
func (f *zipfOver) next(r *rand.Rand) int64 {
	return f.z.draw(r.Float64(), f.n, f.zn, f.eta)
}

// buildZipfianDist: distribution zipfian {items, scrambled}. Scrambled (the
// default) is YCSB's ScrambledZipfianGenerator; scrambled: false is the
// plain Zipfian, whose first keys are the most popular.
func buildZipfianDist(p *params) Distribution {
	items := p.intIn("items", 0, 0, 1<<62)
	if !p.boolean("scrambled", true) {
		if _, ok := p.get("items"); ok {
			p.fail(0, "items applies to the scrambled zipfian only: the plain one follows the key space")
		}
		return NewZipfian(ZipfianConstant)
	}
	return NewScrambledZipfian(items)
}
