package generate

import (
	"encoding/binary"
	"math"
	"strconv"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/config"
)

// How a key is written.
const (
	keyLong     = iota // int64
	keyInt             // int32 when it fits, else int64
	keyString          // prefix followed by the decimal key
	keyObjectID        // an ObjectId that is a function of the key (keyObjectIDPrefix, then the key)
)

var keyForms = map[string]uint8{"long": keyLong, "int": keyInt, "string": keyString, "objectId": keyObjectID}

// keyObjectIDPrefix makes the first 4 bytes (the timestamp part) of a
// key's ObjectId: a fixed time (2020-01-01), so that ids made from keys
// sort by key and a query can make the id of an existing document again,
// as a captured workload's {_id: ObjectId} filters need.
var keyObjectIDPrefix = [4]byte{0x5e, 0x0b, 0xe1, 0x00}

// keyGen hands out keys of a collection's key space: new ones in Insert
// mode, existing ones drawn by dist in Query mode. A key k is written as
// offset+k, FNV-hashed when hashed is set, then padded and prefixed:
// YCSB's record keys.
type keyGen struct {
	ks     *KeySpace
	dist   Distribution
	insert bool
	as     uint8
	prefix string
	pad    int // zero padding: at least this many digits (strings)
	offset int64
	hashed bool
}

// Append implements Generator.
func (g *keyGen) Append(dst []byte, st *State) (bson.Type, []byte) {
	return g.encode(dst, g.ks.physical(g.key(st)))
}

// encode appends physical key k as the field stores it.
func (g *keyGen) encode(dst []byte, k int64) (bson.Type, []byte) {
	k += g.offset
	if g.hashed {
		k = FNVHash64(k)
	}
	switch g.as {
	case keyInt:
		return appendIntAuto(dst, k)
	case keyString:
		start, dst := reserve(dst)
		dst = append(dst, g.prefix...)
		for d := decimalLen(k); d < g.pad; d++ {
			dst = append(dst, '0')
		}
		dst = strconv.AppendInt(dst, k, 10)
		return bson.TypeString, closeString(dst, start)
	case keyObjectID:
		dst = append(dst, keyObjectIDPrefix[:]...)
		return bson.TypeObjectID, binary.BigEndian.AppendUint64(dst, uint64(k))
	}
	return bson.TypeInt64, appendInt64(dst, k)
}

// key returns a new key, or an existing one. The end of the key space is
// read on every call, so keys inserted during the run become reachable as
// soon as their inserts are over (KeySpace.Settled); an empty key space
// yields its first key, which queries simply do not find.
func (g *keyGen) key(st *State) int64 {
	if g.insert {
		k := st.newKey(g.ks)
		st.docKey, st.hasKey = g.ks.physical(k), true // the key as stored: the same reading whichever process
		return k
	}
	first, end := g.ks.Settled()
	if end <= first {
		return first
	}
	return first + g.dist.Next(st.Rand, end-first)
}

// decimalLen is the length of k written in decimal, sign included.
func decimalLen(k int64) int {
	n := 1
	if k < 0 {
		n++
		if k == math.MinInt64 {
			return 20
		}
		k = -k
	}
	for ; k >= 10; k /= 10 {
		n++
	}
	return n
}

// keyParams are the key generator's own parameters; each distribution
// adds its own (distributionParams).
var keyParams = []string{"collection", "distribution", "as", "prefix", "zeroPadding", "hashed", "offset"}

// buildKey: key {collection, distribution and its parameters, as, prefix,
// zeroPadding, hashed, offset}.
func buildKey(p *params) (Generator, error) {
	g := &keyGen{insert: p.c.env.Mode == Insert, prefix: p.str("prefix", "")}
	coll := p.str("collection", "")
	if p.c.env.KeySpace != nil {
		g.ks = p.c.env.KeySpace(coll)
		// Only the template's own key space hands out new keys; a key of
		// another collection in a new document is a reference to one of its
		// existing documents (a foreign key), drawn like a query's.
		if own := p.c.env.KeySpace(""); g.ks != own {
			g.insert = false
		}
	}
	switch {
	case g.ks != nil:
	case coll == "":
		p.fail(0, "unknown collection: this template belongs to no collection, so name one with collection:")
	default:
		p.fail(0, "unknown collection %q", coll)
	}
	dist := p.str("distribution", "uniform")
	if g.dist = p.distribution(dist); g.dist == nil {
		p.fail(0, "unknown distribution %q%s", dist, config.DidYouMean(dist, distributionNames()))
	}
	g.pad = int(p.intIn("zeroPadding", 0, 0, 64))
	g.hashed = p.boolean("hashed", false)
	g.offset = p.intIn("offset", 0, 0, math.MaxInt64/2)
	_, hasPrefix := p.get("prefix")
	_, hasPad := p.get("zeroPadding")
	def := "long"
	if hasPrefix || hasPad {
		def = "string" // a prefix or padding only makes sense in a string
	}
	as := p.str("as", def)
	form, ok := keyForms[as]
	if !ok {
		p.fail(0, "as must be long, int, string or objectId, got %q", as)
	}
	g.as = form
	if (hasPrefix || hasPad) && g.as != keyString {
		p.fail(0, "prefix and zeroPadding need as: string")
	}
	return p.done(g)
}
