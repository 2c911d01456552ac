package generate

import (
	"math/rand/v2"
	"sync/atomic"
)

// scrambledSpace is YCSB's ScrambledZipfianGenerator.ITEM_COUNT, 10^10
// (10000000000L in every YCSB version since 2012, 0.17.0 and master
// included). YCSB builds its inner ZipfianGenerator(0, ITEM_COUNT), whose
// bounds are inclusive, so ranks are drawn over ITEM_COUNT+1 items before
// being hashed onto the keys.
const scrambledSpace int64 = 10_000_000_000

// ycsbZetan is YCSB's ScrambledZipfianGenerator.ZETAN: ζ(10^10, 0.99),
// precomputed because summing 10^10 terms takes minutes. YCSB passes it as
// ζ of its ITEM_COUNT+1 items; the one missing term (10^10+1)^-0.99 is
// below 1e-9 and YCSB ignores it, and so does mongoload, to draw exactly
// as YCSB does: rank 0 gets 1/26.469 = 3.78% of the draws.
const ycsbZetan = 26.46902820178302

// maxRedraws bounds the draws that land on keys not inserted yet before a
// distribution gives up and folds its draw into the key space.
const maxRedraws = 64

// ScrambledZipfian is YCSB's zipfian request distribution, the
// ScrambledZipfianGenerator: a Zipfian rank with constant 0.99 (Gray et
// al., SIGMOD '94) over 10^10+1 items with YCSB's ζ (ycsbZetan), scattered
// over a fixed number of items by FNV-64 hashing (Utils.fnvhash64) so the
// popular keys are not clustered at the start of the key space:
//
//	key = fnvhash64(zipfian rank) mod items
//
// The item count is fixed so that popularity does not move as the key
// space grows: YCSB sizes it as the records loaded plus twice the inserts
// the run is expected to make, and draws again when the key is past the
// last insert acknowledged. Here items is given (the --ycsb translation
// computes YCSB's figure), or, when 0, taken as the key space's size at
// the first draw; keys at or past the current end are drawn again, up to
// maxRedraws times, after which the key is folded into the key space.
type ScrambledZipfian struct {
	zipf  zipfOver
	items atomic.Int64
}

// NewScrambledZipfian returns the scrambled Zipfian over items keys; 0
// means the key space's size at the first draw.
func NewScrambledZipfian(items int64) *ScrambledZipfian {
	s := &ScrambledZipfian{zipf: NewZipfian(ZipfianConstant).overZeta(scrambledSpace+1, ycsbZetan)}
	s.items.Store(max(items, 0))
	return s
}

// Next returns an index in [0, n).
func (s *ScrambledZipfian) Next(r *rand.Rand, n int64) int64 {
	if n <= 1 {
		return 0
	}
	items := s.items.Load()
	if items == 0 {
		s.items.CompareAndSwap(0, n)
		items = s.items.Load()
	}
	var k int64
	for range maxRedraws {
		// A negative hash (one value in 2^64) gives a negative k: draw again.
		if k = FNVHash64(s.zipf.next(r)) % items; k >= 0 && k < n {
			return k
		}
	}
	if k < 0 {
		k = -k
	}
	return k % n
}
