package generate

import (
	"go.mongodb.org/mongo-driver/v2/bson"
)

// patternOp is one step of a compiled pattern: literal bytes, or one
// character drawn from set.
type patternOp struct {
	lit string
	set string
}

// patternGen fills a fixed-shape pattern such as "TCK-########".
type patternGen struct{ ops []patternOp }

// Append implements Generator.
func (g *patternGen) Append(dst []byte, st *State) (bson.Type, []byte) {
	start, dst := reserve(dst)
	var rv reservoir
	for _, op := range g.ops {
		if op.set == "" {
			dst = append(dst, op.lit...)
			continue
		}
		dst = append(dst, rv.pickByte(st.Rand, op.set))
	}
	return bson.TypeString, closeString(dst, start)
}

// patternSets are the placeholders of a pattern.
var patternSets = map[byte]string{
	'#': charsets["numeric"],
	'?': charsets["upper"],
	'*': charsets["alphanumeric"],
}

// buildPattern: pattern {pattern}. "#" is a digit, "?" an uppercase letter,
// "*" a letter or digit, "\" makes the next character literal, and every
// other character is itself. It is deliberately not a regular expression:
// "[A-F]" is five literal characters.
func buildPattern(p *params) (Generator, error) {
	src := p.str("pattern", "")
	if _, ok := p.get("pattern"); !ok {
		p.fail(0, "pattern is required, for example pattern: \"TCK-########\"")
	}
	var ops []patternOp
	var lit []byte
	flush := func() {
		if len(lit) > 0 {
			ops = append(ops, patternOp{lit: string(lit)})
			lit = lit[:0]
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		set, placeholder := patternSets[c]
		switch {
		case c == '\\' && i+1 < len(src):
			i++
			lit = append(lit, src[i])
		case c == '\\':
			p.fail(0, `pattern %q ends with a lone "\"; write "\\" for a backslash`, src)
		case placeholder:
			flush()
			ops = append(ops, patternOp{set: set})
		default:
			lit = append(lit, c)
		}
	}
	flush()
	if s, ok := constantPattern(ops); ok {
		return p.done(&literal{t: bson.TypeString, b: appendString(nil, s)})
	}
	return p.done(&patternGen{ops: ops})
}

// constantPattern returns the text of a pattern without placeholders.
// Adjacent literals are merged, so such a pattern has at most one op.
func constantPattern(ops []patternOp) (string, bool) {
	switch {
	case len(ops) == 0:
		return "", true
	case len(ops) == 1 && ops[0].set == "":
		return ops[0].lit, true
	}
	return "", false
}
