package generate

import (
	"math/bits"
	"math/rand/v2"
)

// reservoir spends one 64-bit draw on several small choices, which is what
// makes strings and patterns cheap: a choice among m is the high word of
// x·m (Lemire's multiply-shift, without the rejection step) and the low
// word carries the unused randomness on to the next choice. Each choice
// uses up about log2(m) bits; the reservoir refills while 32 bits of
// precision are left, so every choice is biased by less than m/2^32, far
// below what a workload can notice. A reservoir lives on the stack of one
// Append call.
type reservoir struct {
	x    uint64
	left int // bits of precision left in x
}

// pick returns a number in [0, m); need is bits.Len64(m).
func (rv *reservoir) pick(r *rand.Rand, m uint64, need int) uint64 {
	if rv.left < need+32 {
		rv.x, rv.left = r.Uint64(), 64
	}
	hi, lo := bits.Mul64(rv.x, m)
	rv.x, rv.left = lo, rv.left-need
	return hi
}

// pickByte returns a random byte of set, which must not be empty.
func (rv *reservoir) pickByte(r *rand.Rand, set string) byte {
	m := uint64(len(set))
	return set[rv.pick(r, m, bits.Len64(m))]
}
