package generate

import (
	"math"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/config"
)

// literal is a value encoded once at compile time and copied on Append.
type literal struct {
	t bson.Type
	b []byte
}

// Append implements Generator.
func (l *literal) Append(dst []byte, _ *State) (bson.Type, []byte) {
	return l.t, append(dst, l.b...)
}

var nullLiteral = &literal{t: bson.TypeNull}

// scalarLiteral encodes a scalar of a template. Integers become int32 when
// they fit and int64 otherwise, which is what the mongo shell and most
// drivers do with small integers, so that documents written by mongoload
// compare and index like documents written by applications.
func scalarLiteral(v config.Value) (*literal, error) {
	switch s := v.Scalar.(type) {
	case string:
		return &literal{bson.TypeString, appendString(nil, s)}, nil
	case int64:
		return intLiteral(s), nil
	case int:
		return intLiteral(int64(s)), nil
	case int32:
		return intLiteral(int64(s)), nil
	case float64:
		return &literal{bson.TypeDouble, appendDouble(nil, s)}, nil
	case float32:
		return &literal{bson.TypeDouble, appendDouble(nil, float64(s))}, nil
	case bool:
		return &literal{bson.TypeBoolean, appendBool(nil, s)}, nil
	case time.Time:
		return &literal{bson.TypeDateTime, appendInt64(nil, s.UnixMilli())}, nil
	case nil:
		return nullLiteral, nil
	}
	return nil, config.Errorf(config.Invalid, v.Line, "unsupported scalar %v of type %T", v.Scalar, v.Scalar)
}

// intLiteral encodes i as int32 when it fits, else as int64.
func intLiteral(i int64) *literal {
	if i >= math.MinInt32 && i <= math.MaxInt32 {
		return &literal{bson.TypeInt32, appendInt32(nil, int32(i))}
	}
	return &literal{bson.TypeInt64, appendInt64(nil, i)}
}

// appendIntAuto appends i as int32 when it fits, else as int64, the same
// rule as for literal integers.
func appendIntAuto(dst []byte, i int64) (bson.Type, []byte) {
	if i >= math.MinInt32 && i <= math.MaxInt32 {
		return bson.TypeInt32, appendInt32(dst, int32(i))
	}
	return bson.TypeInt64, appendInt64(dst, i)
}

// asLiteral returns g as a literal when it is one.
func asLiteral(g Generator) (*literal, bool) {
	l, ok := g.(*literal)
	return l, ok
}
