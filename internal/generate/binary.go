package generate

import (
	"encoding/binary"
	"math/rand/v2"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// uuidGen makes random (version 4) UUIDs, BSON binary subtype 4.
type uuidGen struct{}

// Append implements Generator.
func (uuidGen) Append(dst []byte, st *State) (bson.Type, []byte) {
	dst = appendInt32(dst, 16)
	dst = append(dst, bson.TypeBinaryUUID)
	at := len(dst)
	dst = binary.LittleEndian.AppendUint64(dst, st.Rand.Uint64())
	dst = binary.LittleEndian.AppendUint64(dst, st.Rand.Uint64())
	dst[at+6] = dst[at+6]&0x0f | 0x40 // version 4
	dst[at+8] = dst[at+8]&0x3f | 0x80 // RFC 4122 variant
	return bson.TypeBinary, dst
}

// buildUUID: uuid, a random UUID.
func buildUUID(p *params) (Generator, error) { return p.done(uuidGen{}) }

// binaryGen makes random bytes, BSON binary subtype 0 (generic): every
// byte uniform over 0-255, or, with ycsb set, drawn as YCSB's
// RandomByteIterator draws them (appendYCSBBytes).
type binaryGen struct {
	length intDraw
	ycsb   bool
}

// Append implements Generator.
func (g *binaryGen) Append(dst []byte, st *State) (bson.Type, []byte) {
	n := g.length.next(st.Rand)
	dst = appendInt32(dst, int32(n))
	dst = append(dst, bson.TypeBinaryGeneric)
	if g.ycsb {
		return bson.TypeBinary, appendYCSBBytes(dst, n, st.Rand)
	}
	for ; n >= 8; n -= 8 {
		dst = binary.LittleEndian.AppendUint64(dst, st.Rand.Uint64())
	}
	if n > 0 {
		x := st.Rand.Uint64()
		for ; n > 0; n-- {
			dst = append(dst, byte(x))
			x >>= 8
		}
	}
	return bson.TypeBinary, dst
}

// ycsbByteMasks are the masks of YCSB's RandomByteIterator.fillBytesImpl:
// it draws one 32-bit int per six bytes and writes byte j of each six as
// ' ' plus (bits >> 5j) & mask[j]. The bytes are printable, 32 to 127,
// and carry 34 random bits per six bytes, which is why YCSB's values
// compress (zlib: to about 79%) where uniform bytes do not.
var ycsbByteMasks = [6]uint64{31, 63, 95, 31, 63, 95}

// appendYCSBBytes appends n bytes drawn as YCSB's RandomByteIterator
// (toArray) draws a field of length n: groups of six from the start of the
// field, the last group cut short with each byte keeping its position's
// mask. One 64-bit draw serves two groups, its halves standing for YCSB's
// two ints.
func appendYCSBBytes(dst []byte, n int64, r *rand.Rand) []byte {
	start := len(dst)
	dst = append(dst, make([]byte, n)...) // grows once, no allocation when it fits
	b := dst[start:]
	for len(b) >= 12 {
		x := r.Uint64()
		lo, hi := x, x>>32
		b[0], b[1], b[2] = byte(' '+lo&31), byte(' '+lo>>5&63), byte(' '+lo>>10&95)
		b[3], b[4], b[5] = byte(' '+lo>>15&31), byte(' '+lo>>20&63), byte(' '+lo>>25&95)
		b[6], b[7], b[8] = byte(' '+hi&31), byte(' '+hi>>5&63), byte(' '+hi>>10&95)
		b[9], b[10], b[11] = byte(' '+hi>>15&31), byte(' '+hi>>20&63), byte(' '+hi>>25&95)
		b = b[12:]
	}
	if len(b) > 0 {
		x := r.Uint64()
		for i := range b {
			if i == 6 {
				x >>= 32
			}
			j := i % 6
			b[i] = byte(' ' + x>>(5*j)&ycsbByteMasks[j])
		}
	}
	return dst
}

// buildBinary: binary {length | min, max, lengthDistribution, bytes},
// random bytes; default length 16; lengths uniform (default) or zipfian;
// bytes random (0-255, the default) or ycsb (YCSB's printable bytes).
func buildBinary(p *params) (Generator, error) {
	mn, mx := p.lengths(16, 16, maxBSONSize)
	g := &binaryGen{length: p.intDraw("lengthDistribution", mn, mx)}
	switch b := p.str("bytes", "random"); b {
	case "random":
	case "ycsb":
		g.ycsb = true
	default:
		v, _ := p.get("bytes")
		p.fail(v.Line, "bytes must be random or ycsb, got %q", b)
	}
	return p.done(g)
}
