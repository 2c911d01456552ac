package generate

import (
	"math"
	"math/rand/v2"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// intGen draws integers from [min, max], written as int32 or int64.
type intGen struct {
	intDraw
	long bool
}

// intDraw draws integers from the span values starting at min: uniformly,
// or, with zipf set, by YCSB's ZipfianGenerator(min, max), min the most
// likely (what YCSB uses for zipfian field and scan lengths).
type intDraw struct {
	min  int64
	span uint64 // max-min+1; 0 stands for all 2^64 values
	zipf *zipfOver
}

// next draws one integer.
func (d *intDraw) next(r *rand.Rand) int64 {
	if d.zipf != nil {
		return d.min + d.zipf.next(r)
	}
	return uniformInt(r, d.min, d.span)
}

// maxZipfSpan is the widest range a Zipfian integer may take.
const maxZipfSpan = 1 << 62

// intDraw reads the distribution parameter key (uniform or zipfian) of
// integers in [mn, mx].
func (p *params) intDraw(key string, mn, mx int64) intDraw {
	d := intDraw{min: mn, span: spanOf(mn, mx)}
	switch dist := p.str(key, "uniform"); dist {
	case "uniform":
	case "zipfian":
		if d.span == 0 || d.span > maxZipfSpan {
			p.fail(0, "%s zipfian needs a narrower range than [%d, %d]", key, mn, mx)
		} else if d.span > 1 {
			z := NewZipfian(ZipfianConstant).over(int64(d.span))
			d.zipf = &z
		}
	default:
		p.fail(0, "%s must be uniform or zipfian, got %q", key, dist)
	}
	return d
}

// uniformInt draws uniformly from the span values starting at min; span 0
// means all 2^64 values, the one span that does not fit in a uint64.
func uniformInt(r *rand.Rand, min int64, span uint64) int64 {
	if span == 0 {
		return int64(r.Uint64())
	}
	return min + int64(r.Uint64N(span))
}

// spanOf is the number of integers in [min, max], 0 for all 2^64.
func spanOf(min, max int64) uint64 { return uint64(max) - uint64(min) + 1 }

// Append implements Generator.
func (g *intGen) Append(dst []byte, st *State) (bson.Type, []byte) {
	v := g.next(st.Rand)
	if g.long {
		return bson.TypeInt64, appendInt64(dst, v)
	}
	return bson.TypeInt32, appendInt32(dst, int32(v))
}

// buildInt: int {min, max, distribution}, an int32 in [min, max];
// defaults 0, 2^31-1 and uniform.
func buildInt(p *params) (Generator, error) {
	mn, mx := p.intRange(0, math.MaxInt32, math.MinInt32, math.MaxInt32)
	return p.done(&intGen{intDraw: p.intDraw("distribution", mn, mx)})
}

// buildLong: long {min, max, distribution}, an int64 in [min, max];
// defaults 0, 2^63-1 and uniform.
func buildLong(p *params) (Generator, error) {
	mn, mx := p.intRange(0, math.MaxInt64, math.MinInt64, math.MaxInt64)
	return p.done(&intGen{intDraw: p.intDraw("distribution", mn, mx), long: true})
}

// doubleGen draws doubles uniformly from [min, max), optionally rounded.
type doubleGen struct {
	min, width float64
	scale      float64 // 10^decimals; 0 means no rounding
}

// Append implements Generator.
func (g *doubleGen) Append(dst []byte, st *State) (bson.Type, []byte) {
	f := g.min + st.Rand.Float64()*g.width
	if g.scale != 0 {
		// Past 2^53 a double has no decimals left to round, and scaling
		// it could overflow to infinity.
		if r := math.Round(f*g.scale) / g.scale; !math.IsInf(r, 0) {
			f = r
		}
	}
	return bson.TypeDouble, appendDouble(dst, f)
}

// buildDouble: double {min, max, decimals}; defaults 0, 1 and no rounding.
func buildDouble(p *params) (Generator, error) {
	mn, mx := p.floatRange(0, 1)
	if math.IsInf(mx-mn, 0) {
		p.fail(0, "the range from min %v to max %v is too wide for a double", mn, mx)
	}
	g := &doubleGen{min: mn, width: mx - mn}
	if _, ok := p.get("decimals"); ok {
		g.scale = math.Pow10(int(p.intIn("decimals", 0, 0, 15)))
	}
	return p.done(g)
}
