package generate

import (
	"unicode/utf8"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// The named character sets of the string generator. Any other charset
// value is taken as the set of characters itself.
var charsets = map[string]string{
	"alphanumeric": "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
	"alpha":        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
	"lower":        "abcdefghijklmnopqrstuvwxyz",
	"upper":        "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
	"numeric":      "0123456789",
	"hex":          "0123456789abcdef",
}

// stringGen draws strings of characters from a set, with a length (in
// characters) in [min, max], uniform or zipfian.
type stringGen struct {
	length intDraw
	ascii  string   // the set when it is all ASCII: one byte per character
	runes  []string // otherwise, each character's UTF-8 encoding
}

// Append implements Generator.
func (g *stringGen) Append(dst []byte, st *State) (bson.Type, []byte) {
	n := g.length.next(st.Rand)
	start, dst := reserve(dst)
	if g.ascii != "" {
		dst = appendChars(dst, st, g.ascii, n)
	} else {
		for range n {
			dst = append(dst, g.runes[st.Rand.IntN(len(g.runes))]...)
		}
	}
	return bson.TypeString, closeString(dst, start)
}

// appendChars appends n bytes drawn from set (see reservoir).
func appendChars(dst []byte, st *State, set string, n int64) []byte {
	var rv reservoir
	for range n {
		dst = append(dst, rv.pickByte(st.Rand, set))
	}
	return dst
}

// buildString: string {length | min, max, lengthDistribution, charset};
// default length 10, uniform lengths, charset alphanumeric.
func buildString(p *params) (Generator, error) {
	mn, mx := p.lengths(10, 10, maxBSONSize)
	g := &stringGen{length: p.intDraw("lengthDistribution", mn, mx)}
	set := p.str("charset", "alphanumeric")
	if named, ok := charsets[set]; ok {
		set = named
	}
	switch {
	case set == "":
		p.fail(0, "charset is empty")
	case !utf8.ValidString(set):
		p.fail(0, "charset is not valid UTF-8")
	case utf8.RuneCountInString(set) == len(set):
		g.ascii = set
	default:
		for _, r := range set {
			g.runes = append(g.runes, string(r))
		}
	}
	return p.done(g)
}
