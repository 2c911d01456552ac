package generate

import "go.mongodb.org/mongo-driver/v2/bson"

// boolGen is true with probability p.
type boolGen struct{ p float64 }

// Append implements Generator.
func (g *boolGen) Append(dst []byte, st *State) (bson.Type, []byte) {
	return bson.TypeBoolean, appendBool(dst, st.Rand.Float64() < g.p)
}

// buildBool: bool {probability}, true with that probability (default 0.5).
func buildBool(p *params) (Generator, error) {
	return p.done(&boolGen{p: p.prob("probability", 0.5)})
}
