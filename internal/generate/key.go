package generate

import (
	"strconv"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/config"
)

// How a key is written.
const (
	keyLong   = iota // int64
	keyInt           // int32 when it fits, else int64
	keyString        // prefix followed by the decimal key
)

var keyForms = map[string]uint8{"long": keyLong, "int": keyInt, "string": keyString}

// keyGen hands out keys of a collection's key space: new ones in Insert
// mode, existing ones drawn by dist in Query mode.
type keyGen struct {
	ks     *KeySpace
	dist   Distribution
	insert bool
	as     uint8
	prefix string
}

// Append implements Generator.
func (g *keyGen) Append(dst []byte, st *State) (bson.Type, []byte) {
	k := g.key(st)
	switch g.as {
	case keyInt:
		return appendIntAuto(dst, k)
	case keyString:
		start, dst := reserve(dst)
		dst = append(dst, g.prefix...)
		dst = strconv.AppendInt(dst, k, 10)
		return bson.TypeString, closeString(dst, start)
	}
	return bson.TypeInt64, appendInt64(dst, k)
}

// key returns a new key, or an existing one. The end of the key space is
// read on every call, so keys inserted during the run become reachable; an
// empty key space yields its first key, which queries simply do not find.
func (g *keyGen) key(st *State) int64 {
	if g.insert {
		return g.ks.Next()
	}
	first, end := g.ks.Bounds()
	if end <= first {
		return first
	}
	return first + g.dist.Next(st.Rand, end-first)
}

// buildKey: key {collection, distribution, as, prefix}.
func buildKey(p *params) (Generator, error) {
	g := &keyGen{insert: p.c.env.Mode == Insert, prefix: p.str("prefix", "")}
	coll := p.str("collection", "")
	if p.c.env.KeySpace != nil {
		g.ks = p.c.env.KeySpace(coll)
	}
	switch {
	case g.ks != nil:
	case coll == "":
		p.fail(0, "unknown collection: this template belongs to no collection, so name one with collection:")
	default:
		p.fail(0, "unknown collection %q", coll)
	}
	dist := p.str("distribution", "uniform")
	if mk, found := distributions[dist]; found {
		g.dist = mk()
	} else {
		p.fail(0, "unknown distribution %q%s", dist, config.DidYouMean(dist, distributionNames()))
	}
	as := p.str("as", "long")
	form, ok := keyForms[as]
	if !ok {
		p.fail(0, "as must be long, int or string, got %q", as)
	}
	g.as = form
	if _, ok := p.get("prefix"); ok && g.as != keyString {
		p.fail(0, "prefix needs as: string")
	}
	return p.done(g)
}
