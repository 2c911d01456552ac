package source

import (
	"math"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// maxLiteral is the largest string or binary literal an operation may
// carry into a workload file; a larger one (a 50 MB blob in a filter) makes
// the operation odd.
const maxLiteral = 1 << 20

// Dates a workload file can write: years 0001 to 9999 (RFC 3339).
var (
	minDateMS = int64(-62135596800000) // 0001-01-01T00:00:00Z
	MaxDateMS = int64(253402300799999) // 9999-12-31T23:59:59.999Z
)

// odd says why an operation cannot be written to a workload ("" when it
// can): an update with a pipeline, which the workload language has no
// form for, or a literal it cannot write (NaN, an infinity, a date after
// 9999, a literal over maxLiteral). Such an operation is skipped and
// counted, and the rest of the capture is written.
func odd(o *Op) string {
	if o.Update.Type == bson.TypeArray {
		return "updates with a pipeline (u: [...]; the workload language writes update documents only)"
	}
	if o.Update.Type == 0 && (o.Kind == KindUpdate || o.Kind == KindFindAndModify && !o.Remove) {
		return "updates logged without their update (no u: a time-series bucket's, or one cut by the server)"
	}
	for _, v := range []bson.RawValue{DocValue(o.Filter), DocValue(o.Sort), DocValue(o.Projection), o.Update, {Type: bson.TypeArray, Value: o.Pipeline}} {
		if len(v.Value) == 0 {
			continue
		}
		if why := oddValue(v); why != "" {
			return why
		}
	}
	return ""
}

func oddValue(v bson.RawValue) string {
	switch v.Type {
	case bson.TypeEmbeddedDocument, bson.TypeArray:
		vals, err := bson.Raw(v.Value).Elements()
		if err != nil {
			return "operations with an unreadable document"
		}
		for _, e := range vals {
			if why := oddValue(e.Value()); why != "" {
				return why
			}
		}
	case bson.TypeDouble:
		if x := v.Double(); math.IsNaN(x) || math.IsInf(x, 0) {
			return "operations with a NaN or infinite literal"
		}
	case bson.TypeDecimal128:
		if d, ok := v.Decimal128OK(); ok {
			if s := strings.ToLower(d.String()); strings.Contains(s, "nan") || strings.Contains(s, "inf") {
				return "operations with a NaN or infinite literal"
			}
		}
	case bson.TypeDateTime:
		if ms := v.DateTime(); ms < minDateMS || ms > MaxDateMS {
			return "operations with a date before year 1 or after 9999"
		}
	case bson.TypeString, bson.TypeBinary, bson.TypeJavaScript, bson.TypeSymbol:
		if len(v.Value) > maxLiteral {
			return "operations with a literal over 1 MiB"
		}
	}
	return ""
}
