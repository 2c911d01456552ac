package generate

import (
	"math"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
)

// decimal128 layout (IEEE 754-2008 BID, as BSON uses it): the sign in bit
// 63 of the high word, a 14-bit exponent biased by 6176 in bits 49-62, and
// the coefficient in the low word when it fits in 64 bits, as ours do.
const (
	decimalBias     = 6176
	decimalExpShift = 49
	maxDecimalScale = 18 // 10^18 is the largest power of ten in an int64
)

// decimalGen draws decimal128 values coefficient × 10^-scale with the
// coefficient uniform in [lo, lo+span-1]: building the value from its
// parts avoids formatting and parsing a string per call.
type decimalGen struct {
	lo   int64
	span uint64
	exp  uint64 // biased exponent, already shifted into place
}

// Append implements Generator.
func (g *decimalGen) Append(dst []byte, st *State) (bson.Type, []byte) {
	c := uniformInt(st.Rand, g.lo, g.span)
	high := g.exp
	low := uint64(c)
	if c < 0 {
		high |= 1 << 63
		low = uint64(-c)
	}
	return bson.TypeDecimal128, bsoncore.AppendDecimal128(dst, high, low)
}

// buildDecimal: decimal {min, max, scale}, a decimal128 in [min, max] with
// scale digits after the point; defaults 0, 1000 and 2.
func buildDecimal(p *params) (Generator, error) {
	mn, mx := p.floatRange(0, 1000)
	scale := p.intIn("scale", 2, 0, maxDecimalScale)
	// min and max are rounded to the scale: min 0.1 with scale 2 is 10 × 10^-2.
	pow := math.Pow10(int(scale))
	lo, hi := math.Round(mn*pow), math.Round(mx*pow)
	if math.Abs(lo) >= 1<<63 || math.Abs(hi) >= 1<<63 {
		p.fail(0, "min %v and max %v with scale %d need more than 18 significant digits", mn, mx, scale)
		return p.done(nil)
	}
	exp := uint64(decimalBias-scale) << decimalExpShift
	return p.done(&decimalGen{lo: int64(lo), span: spanOf(int64(lo), int64(hi)), exp: exp})
}
