package generate

import (
	"math"
	"math/rand/v2"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// intGen draws integers uniformly from [min, max], written as int32 or
// int64.
type intGen struct {
	min  int64
	span uint64 // max-min+1; 0 stands for all 2^64 values
	long bool
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
	v := uniformInt(st.Rand, g.min, g.span)
	if g.long {
		return bson.TypeInt64, appendInt64(dst, v)
	}
	return bson.TypeInt32, appendInt32(dst, int32(v))
}

// buildInt: int {min, max}, an int32 in [min, max]; defaults 0 and 2^31-1.
func buildInt(p *params) (Generator, error) {
	mn, mx := p.intRange(0, math.MaxInt32, math.MinInt32, math.MaxInt32)
	return p.done(&intGen{min: mn, span: spanOf(mn, mx)})
}

// buildLong: long {min, max}, an int64 in [min, max]; defaults 0 and
// 2^63-1.
func buildLong(p *params) (Generator, error) {
	mn, mx := p.intRange(0, math.MaxInt64, math.MinInt64, math.MaxInt64)
	return p.done(&intGen{min: mn, span: spanOf(mn, mx), long: true})
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
