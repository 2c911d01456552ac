package shape

import (
	"strconv"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/mongodb"
)

// InQuery: the path is inside a query (a filter, an update, a $match, an
// $elemMatch), where every literal is compared with the data, and a
// string starting with $ is a value, not a path, unless under $expr.
func InQuery(path string) bool {
	return strings.HasPrefix(path, "filter") || strings.HasPrefix(path, "update") ||
		strings.Contains(path, ".$match") || strings.Contains(path, "$elemMatch")
}

// Collapses: the array at path is a list of values ($in's), in a query,
// written as one placeholder ([] in its elements' path), as its length is
// data, not shape; in an aggregation expression $in is [expression, array].
func Collapses(path string) bool {
	if !InQuery(path) || strings.Contains(path, "$expr") {
		return false
	}
	switch path[strings.LastIndexByte(path, '.')+1:] {
	case "$in", "$nin", "$all":
		return true
	}
	return false
}

// Placeholder names a literal's type as $queryStats does: every number
// is ?number, so 5 and 5.0 and NumberLong(5) are one shape.
func Placeholder(t bson.Type) string {
	switch t {
	case bson.TypeInt32, bson.TypeInt64, bson.TypeDouble, bson.TypeDecimal128:
		return "?number"
	case bson.TypeString:
		return "?string"
	case bson.TypeDateTime:
		return "?date"
	case bson.TypeObjectID:
		return "?objectId"
	case bson.TypeBoolean:
		return "?bool"
	}
	return "?" + t.String()
}

// Text writes a literal that is part of a shape as the shape line shows
// it: -1, true, null, "$email" (every number alike, as placeholders are:
// 1 and 1.0 are one shape).
func Text(v bson.RawValue) string {
	switch v.Type {
	case bson.TypeInt32, bson.TypeInt64, bson.TypeDouble:
		return strconv.FormatFloat(mongodb.Number(v), 'g', -1, 64)
	case bson.TypeString:
		return strconv.Quote(v.StringValue())
	case bson.TypeBoolean:
		return strconv.FormatBool(v.Boolean())
	case bson.TypeNull, bson.TypeUndefined:
		return "null"
	}
	return v.String()
}

// TypeName is a BSON type as the $type operator names it, in angle
// brackets, except that integers say their width (int32, int64) as
// drivers do.
func TypeName(t bson.Type) string {
	switch t {
	case bson.TypeDouble:
		return "<double>"
	case bson.TypeString:
		return "<string>"
	case bson.TypeEmbeddedDocument:
		return "<object>"
	case bson.TypeArray:
		return "<array>"
	case bson.TypeBinary:
		return "<binData>"
	case bson.TypeObjectID:
		return "<objectId>"
	case bson.TypeBoolean:
		return "<bool>"
	case bson.TypeDateTime:
		return "<date>"
	case bson.TypeNull:
		return "<null>"
	case bson.TypeRegex:
		return "<regex>"
	case bson.TypeInt32:
		return "<int32>"
	case bson.TypeTimestamp:
		return "<timestamp>"
	case bson.TypeInt64:
		return "<int64>"
	case bson.TypeDecimal128:
		return "<decimal>"
	case bson.TypeUndefined:
		return "<undefined>"
	case bson.TypeMinKey:
		return "<minKey>"
	case bson.TypeMaxKey:
		return "<maxKey>"
	}
	return "<" + t.String() + ">"
}

// FilterShape is a query filter's shape in insights' notation (Types):
// {flight_id: <int64>, seats_available: {$gt: <int32>}}. An invalid
// document is <invalid>.
func FilterShape(filter []byte) string {
	return (&Writer{Style: Types}).Filter("filter", filter)
}

// PipelineShape is an aggregation pipeline's shape in insights' notation.
func PipelineShape(pipeline []byte) string {
	return (&Writer{Style: Types}).Pipeline("pipeline", pipeline)
}
