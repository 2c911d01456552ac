package generate

// The 64-bit FNV-1 constants (Fowler, Noll and Vo), as YCSB uses them.
const (
	fnvOffset64 uint64 = 0xcbf29ce484222325
	fnvPrime64  uint64 = 1099511628211
)

// FNVHash64 is YCSB's Utils.fnvhash64: FNV-1 over the eight bytes of v,
// least significant first, made non-negative the way Java's Math.abs does
// (so, as in YCSB, the one hash equal to math.MinInt64 stays negative).
// YCSB uses it to turn record numbers into keys (insertorder=hashed) and to
// scatter the popular items of its scrambled Zipfian distribution.
func FNVHash64(v int64) int64 {
	h := fnvOffset64
	for range 8 {
		h ^= uint64(v & 0xff)
		h *= fnvPrime64
		v >>= 8 // arithmetic, like Java's >>
	}
	s := int64(h)
	if s < 0 {
		s = -s
	}
	return s
}
