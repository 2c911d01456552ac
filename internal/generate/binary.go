package generate

import (
	"encoding/binary"

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

// binaryGen makes random bytes, BSON binary subtype 0 (generic).
type binaryGen struct {
	length intDraw
}

// Append implements Generator.
func (g *binaryGen) Append(dst []byte, st *State) (bson.Type, []byte) {
	n := g.length.next(st.Rand)
	dst = appendInt32(dst, int32(n))
	dst = append(dst, bson.TypeBinaryGeneric)
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

// buildBinary: binary {length | min, max, lengthDistribution}, random
// bytes; default length 16; lengths uniform (default) or zipfian.
func buildBinary(p *params) (Generator, error) {
	mn, mx := p.lengths(16, 16, maxBSONSize)
	return p.done(&binaryGen{length: p.intDraw("lengthDistribution", mn, mx)})
}
