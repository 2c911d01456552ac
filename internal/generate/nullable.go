package generate

import "go.mongodb.org/mongo-driver/v2/bson"

// nullGen writes BSON null with probability p and otherwise defers to g.
type nullGen struct {
	g Generator
	p float64
}

// nullable wraps g for nullProbability p: unchanged for 0, a literal null
// for 1.
func nullable(g Generator, p float64) Generator {
	switch {
	case p <= 0:
		return g
	case p >= 1:
		return nullLiteral
	}
	return &nullGen{g: g, p: p}
}

// Append implements Generator.
func (n *nullGen) Append(dst []byte, st *State) (bson.Type, []byte) {
	if st.Rand.Float64() < n.p {
		return bson.TypeNull, dst
	}
	return n.g.Append(dst, st)
}
