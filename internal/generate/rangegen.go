package generate

import (
	"encoding/binary"
	"math"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/config"
)

// rangeGen writes a range whose two bounds go together: {$gte: lo, $lt:
// lo + width}, lo drawn by one generator and the width by another. Two
// bounds drawn apart make ranges of any width (a replayed range then
// returns far more or fewer documents than the captured one did); a
// captured range keeps its lower bound's law and its width's.
type rangeGen struct {
	lower, width Generator
	ops          [2]string // the bounds' operators, such as $gte and $lt
}

// Append implements Generator: a document of two elements, the upper
// bound of the lower's type (a date's width is in milliseconds).
func (g *rangeGen) Append(dst []byte, st *State) (bson.Type, []byte) {
	start, dst := reserve(dst)
	at := len(dst)
	dst = append(append(append(dst, 0), g.ops[0]...), 0)
	from := len(dst)
	t, dst := g.lower.Append(dst, st)
	to := len(dst)
	dst[at] = byte(t)
	n := valueLen(t)
	lo := dst[to-n : to]
	var loBits uint64
	if n == 8 {
		loBits = binary.LittleEndian.Uint64(lo)
	} else if n == 4 {
		loBits = uint64(int64(int32(binary.LittleEndian.Uint32(lo))))
	}
	// The width is drawn past the end and cut off: no buffer of its own.
	mark := len(dst)
	wt, dst := g.width.Append(dst, st)
	w := numberOf(wt, dst[mark:])
	dst = dst[:mark]
	dst = append(append(append(dst, byte(t)), g.ops[1]...), 0)
	switch t {
	case bson.TypeInt32:
		dst = appendInt32(dst, int32(min(max(float64(int64(loBits))+math.Round(w), math.MinInt32), math.MaxInt32)))
	case bson.TypeInt64, bson.TypeDateTime:
		dst = appendInt64(dst, int64(loBits)+int64(math.Round(w)))
	case bson.TypeDouble:
		dst = appendDouble(dst, math.Float64frombits(loBits)+w)
	default: // no arithmetic on this type: the upper bound is the lower
		dst = append(dst, dst[from:to]...)
	}
	return bson.TypeEmbeddedDocument, closeDoc(dst, start)
}

// valueLen is the length of a number's or a date's value (0 for a type
// with no arithmetic).
func valueLen(t bson.Type) int {
	switch t {
	case bson.TypeInt32:
		return 4
	case bson.TypeInt64, bson.TypeDateTime, bson.TypeDouble:
		return 8
	}
	return 0
}

func numberOf(t bson.Type, b []byte) float64 {
	switch {
	case t == bson.TypeInt32 && len(b) >= 4:
		return float64(int32(binary.LittleEndian.Uint32(b)))
	case t == bson.TypeInt64 && len(b) >= 8:
		return float64(int64(binary.LittleEndian.Uint64(b)))
	case t == bson.TypeDouble && len(b) >= 8:
		return math.Float64frombits(binary.LittleEndian.Uint64(b))
	}
	return 0
}

// buildRange: range {lower, width, ops}. lower is the template of the
// lower bound (an int, long, double or date generator); width a number
// (milliseconds for a date); ops the two operators, default [$gte, $lt]
// (the $ may be left out: [gt, lte]).
func buildRange(p *params) (Generator, error) {
	g := &rangeGen{ops: [2]string{"$gte", "$lt"}}
	if ops, ok := p.get("ops"); ok {
		if ops.Kind != config.KindArray || len(ops.Items) != 2 {
			p.fail(ops.Line, "ops must be two operators, for example ops: [$gte, $lt]")
		} else {
			for i, it := range ops.Items {
				s, isStr := it.Scalar.(string)
				if !isStr || s == "" {
					p.fail(it.Line, "ops[%d] must be an operator such as $gte, got %s", i, it)
				}
				g.ops[i] = "$" + strings.TrimPrefix(s, "$") // gte or $gte
			}
		}
	}
	for _, part := range []struct {
		key string
		to  *Generator
	}{{"lower", &g.lower}, {"width", &g.width}} {
		v, ok := p.v.Param(part.key)
		if !ok {
			p.fail(0, "%s is required, for example lower: {$gen: date}, width: {$gen: int, min: 3600000, max: 86400000}", part.key)
		}
		if p.err != nil {
			return p.done(nil)
		}
		c, err := p.c.value(v)
		if err != nil {
			return nil, err
		}
		*part.to = c
	}
	return p.done(g)
}
