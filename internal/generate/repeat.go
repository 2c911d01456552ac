package generate

import (
	"strconv"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// repeatGen is the array generator: a BSON array of n values of one
// template, n uniform in [min, max].
type repeatGen struct {
	of   Generator
	min  int64
	span uint64
}

// Append implements Generator.
func (g *repeatGen) Append(dst []byte, st *State) (bson.Type, []byte) {
	n := uniformInt(st.Rand, g.min, g.span)
	start, dst := reserve(dst)
	for i := range n {
		// Element keys are the indexes; the type byte is patched in once the
		// value is written, as in documents.
		at := len(dst)
		dst = append(dst, 0)
		dst = strconv.AppendInt(dst, i, 10)
		dst = append(dst, 0)
		var t bson.Type
		t, dst = g.of.Append(dst, st)
		dst[at] = byte(t)
		if len(dst)-start > maxBSONSize {
			break // the server would reject it anyway; see maxBSONSize
		}
	}
	return bson.TypeArray, closeDoc(dst, start)
}

// buildArray: array {of, length | min, max}, an array of values of the
// template "of" (any template value, generators at any depth); default
// length 1 to 10.
func buildArray(p *params) (Generator, error) {
	mn, mx := p.lengths(1, 10, maxBSONSize)
	// Param, not get: "of: null" is an array of nulls, not a missing "of".
	of, ok := p.v.Param("of")
	if !ok {
		p.fail(0, "of is required: the template of each element, for example of: {$gen: int}")
	}
	if p.err != nil {
		return p.done(nil)
	}
	g, err := p.c.value(of)
	if err != nil {
		return nil, err
	}
	return p.done(&repeatGen{of: g, min: mn, span: spanOf(mn, mx)})
}
