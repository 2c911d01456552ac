package capture

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/config"
)

// genOptions say how far a field's values may be written out.
type genOptions struct {
	keepValues bool // --keep-values: high-cardinality values too, as enums
	// private: the field was judged high-cardinality over the data (the
	// collection's sample, or all its occurrences in the window): none of
	// its values is written, however often a placeholder saw it.
	private bool
}

// Generator turns what was seen of a field into a template value: a
// literal when it never changed, a weighted enum when it has few values,
// else a generator of its type over its range, with a histogram when the
// values are skewed.
func (f *Field) Generator(o genOptions) config.Value {
	seen := f.N - f.Nulls
	if seen == 0 {
		return config.Value{Kind: config.KindNull}
	}
	v := f.typed(f.dominant(), o)
	if alt := f.minorTypes(); len(alt) > 0 {
		vals, weights := []config.Value{v}, []float64{float64(f.Types[f.dominant()])}
		for _, t := range alt {
			vals, weights = append(vals, f.typed(t, o)), append(weights, float64(f.Types[t]))
		}
		v = enumOf(vals, weights)
	}
	if f.Nulls > 0 && v.Kind == config.KindGen {
		v.Fields = append(v.Fields, param("nullProbability", round(float64(f.Nulls)/float64(f.N), 4)))
	} else if f.Nulls > 0 {
		v = enumOf([]config.Value{v, {Kind: config.KindNull}}, []float64{float64(seen), float64(f.Nulls)})
	}
	return v
}

func (f *Field) typed(t bson.Type, o genOptions) config.Value {
	if t != bson.TypeEmbeddedDocument && t != bson.TypeArray && t != bson.TypeBoolean {
		// Values leave the source only as a category's (privacy.go).
		category := f.lowCardinality() && !o.private && !f.identifying()
		if len(f.distinct) == 1 && !f.overflow && (category || o.keepValues) {
			for _, v := range f.values {
				return literal(v)
			}
		}
		if category || o.keepValues && !f.overflow {
			return f.enum()
		}
	}
	switch t {
	case bson.TypeInt32:
		return f.numeric("int", 0, o)
	case bson.TypeInt64:
		return f.numeric("long", 0, o)
	case bson.TypeDouble:
		return f.numeric("double", min(f.decim, 15), o)
	case bson.TypeDecimal128:
		lo, hi := f.privateRange(o)
		return gen("decimal", param("min", math.Floor(lo)), param("max", math.Ceil(hi)), param("scale", int64(2)))
	case bson.TypeDateTime:
		return f.dates(o)
	case bson.TypeString:
		return f.strings(o)
	case bson.TypeBoolean:
		return gen("bool", param("probability", round(float64(f.trues)/float64(max(1, f.Types[t])), 3)))
	case bson.TypeObjectID:
		return gen("objectId")
	case bson.TypeBinary:
		return gen("binary", param("min", int64(16)), param("max", int64(16)))
	case bson.TypeTimestamp:
		return gen("timestamp")
	case bson.TypeArray:
		elem := config.Value{Kind: config.KindNull}
		if f.Elem != nil {
			elem = f.Elem.Generator(o)
		}
		return gen("array", param("min", int64(f.minArr)), param("max", int64(f.maxArr)), config.Field{Key: "of", Value: elem})
	case bson.TypeEmbeddedDocument:
		return f.document(o)
	}
	return config.Value{Kind: config.KindNull}
}

// document writes a nested document: each field's generator, with the
// chance that it is missing.
func (f *Field) document(o genOptions) config.Value {
	d := config.Value{Kind: config.KindDoc}
	for _, k := range f.Order {
		sub := f.Fields[k]
		so := o
		so.private = o.private || sensitiveName(k) // a cvv, a street: private however few its values
		v := sub.Generator(so)
		if miss := 1 - float64(sub.Present)/float64(max(1, f.docs)); miss > 0.0005 {
			if v.Kind != config.KindGen {
				v = enumOf([]config.Value{v}, nil)
			}
			v.Fields = append(v.Fields, param("missingProbability", round(miss, 4)))
		}
		d.Fields = append(d.Fields, config.Field{Key: k, Value: v})
	}
	return d
}

// enum writes the values seen with their counts as weights, most frequent
// first.
func (f *Field) enum() config.Value {
	keys := make([]string, 0, len(f.distinct))
	for k := range f.distinct {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int { return cmp.Or(f.distinct[b]-f.distinct[a], strings.Compare(a, b)) })
	vals := make([]config.Value, len(keys))
	weights := make([]float64, len(keys))
	for i, k := range keys {
		vals[i], weights[i] = literal(f.values[k]), float64(f.distinct[k])
	}
	return enumOf(vals, weights)
}

// histogramBuckets: values are cut into this many equal-width ranges; a
// skewed field becomes an enum of those ranges, weighted by their counts.
const histogramBuckets = 8

// skewed reports the buckets of xs over [lo, hi] and whether their counts
// depart from a uniform law: the fullest or the emptiest bucket more than
// half again, or less than half, of the even share.
func skewed(xs []float64, lo, hi float64) ([]int, bool) {
	counts := make([]int, histogramBuckets)
	if hi <= lo || len(xs) < 8*histogramBuckets {
		return counts, false
	}
	for _, x := range xs {
		i := int((x - lo) / (hi - lo) * histogramBuckets)
		counts[min(max(i, 0), histogramBuckets-1)]++
	}
	even := float64(len(xs)) / histogramBuckets
	return counts, float64(slices.Max(counts)) > 1.5*even || float64(slices.Min(counts)) < 0.5*even
}

// numeric writes int, long or double over the range seen.
func (f *Field) numeric(name string, decimals int, o genOptions) config.Value {
	lo, hi := f.privateRange(o)
	if name == "int" {
		lo, hi = max(lo, math.MinInt32), min(hi, math.MaxInt32)
	}
	lo, hi = max(lo, -9e18), min(hi, 9e18) // within a long
	mk := func(a, b float64) config.Value {
		if name == "double" {
			v := gen(name, param("min", a), param("max", b))
			if decimals > 0 {
				v.Fields = append(v.Fields, param("decimals", int64(decimals)))
			}
			return v
		}
		return gen(name, param("min", int64(math.Round(a))), param("max", int64(math.Round(b))))
	}
	counts, skew := skewed(f.nums, lo, hi)
	if !skew || f.fewValues() && !o.keepValues { // a histogram of few values would place each
		return mk(lo, hi)
	}
	return buckets(counts, lo, hi, name != "double", mk)
}

// buckets writes a histogram as an enum of ranges weighted by counts.
func buckets(counts []int, lo, hi float64, whole bool, mk func(a, b float64) config.Value) config.Value {
	var vals []config.Value
	var weights []float64
	w := (hi - lo) / float64(len(counts))
	for i, n := range counts {
		if n == 0 {
			continue
		}
		a, b := lo+float64(i)*w, lo+float64(i+1)*w
		if whole {
			a, b = math.Ceil(a), math.Floor(b)
			if i < len(counts)-1 && b >= lo+float64(i+1)*w {
				b-- // the next bucket starts there
			}
			b = max(a, b)
		}
		vals, weights = append(vals, mk(a, b)), append(weights, float64(n))
	}
	return enumOf(vals, weights)
}

func (f *Field) dates(o genOptions) config.Value {
	lo, hi := f.privateDates(o)
	mk := func(a, b float64) config.Value {
		return gen("date", param("from", msTime(a)), param("to", msTime(b)))
	}
	counts, skew := skewed(f.nums, lo, hi)
	if !skew || f.fewValues() && !o.keepValues {
		return mk(lo, hi)
	}
	return buckets(counts, lo, hi, true, mk)
}

func msTime(ms float64) string {
	return time.UnixMilli(int64(ms)).UTC().Format(time.RFC3339Nano)
}

func minMax(xs []float64) (float64, float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	return slices.Min(xs), slices.Max(xs)
}

// decimals counts the digits after the point of x's shortest form.
func decimals(x float64) int {
	s := strconv.FormatFloat(x, 'f', -1, 64)
	if i := strings.IndexByte(s, '.'); i >= 0 {
		return len(s) - i - 1
	}
	return 0
}

func decimalFloat(d bson.Decimal128) (float64, error) {
	return strconv.ParseFloat(d.String(), 64)
}

func round(x float64, places int) float64 {
	p := math.Pow(10, float64(places))
	return math.Round(x*p) / p
}

// The template values capture writes.

func gen(name string, params ...config.Field) config.Value {
	return config.Value{Kind: config.KindGen, Gen: name, Fields: params}
}

func param(key string, v any) config.Field {
	switch x := v.(type) {
	case config.Value:
		return config.Field{Key: key, Value: x}
	case int:
		v = int64(x)
	}
	return config.Field{Key: key, Value: config.Value{Kind: config.KindScalar, Scalar: v}}
}

func enumOf(vals []config.Value, weights []float64) config.Value {
	v := gen("enum", config.Field{Key: "values", Value: config.Value{Kind: config.KindArray, Items: vals}})
	if weights != nil {
		ws := config.Value{Kind: config.KindArray}
		for _, w := range weights {
			var x any = w
			if w == math.Trunc(w) && w < 1e15 {
				x = int64(w) // counts: written as whole numbers
			}
			ws.Items = append(ws.Items, config.Value{Kind: config.KindScalar, Scalar: x})
		}
		v.Fields = append(v.Fields, config.Field{Key: "weights", Value: ws})
	}
	return v
}

// literal writes a BSON value as the template value that encodes to the
// same type.
func literal(v bson.RawValue) config.Value {
	sc := func(x any) config.Value { return config.Value{Kind: config.KindScalar, Scalar: x} }
	switch v.Type {
	case bson.TypeString:
		return sc(v.StringValue())
	case bson.TypeInt32:
		return sc(int64(v.Int32()))
	case bson.TypeInt64:
		if x := v.Int64(); x < math.MinInt32 || x > math.MaxInt32 {
			return sc(x)
		}
		return gen("long", param("min", v.Int64()), param("max", v.Int64()))
	case bson.TypeDouble:
		return sc(v.Double())
	case bson.TypeBoolean:
		return sc(v.Boolean())
	case bson.TypeDateTime:
		return sc(v.Time().UTC())
	case bson.TypeEmbeddedDocument:
		d := config.Value{Kind: config.KindDoc}
		els, _ := v.Document().Elements()
		for _, e := range els {
			d.Fields = append(d.Fields, config.Field{Key: e.Key(), Value: literal(e.Value())})
		}
		return d
	case bson.TypeArray:
		a := config.Value{Kind: config.KindArray}
		vals, _ := v.Array().Values()
		for _, e := range vals {
			a.Items = append(a.Items, literal(e))
		}
		return a
	case bson.TypeObjectID:
		return gen("objectId")
	}
	return config.Value{Kind: config.KindNull}
}

// minorTypes are the types other than the dominant one that hold at least
// 5% of a field's values: a field that is sometimes a string, sometimes a
// number, is both in the replay, in the same proportions.
func (f *Field) minorTypes() []bson.Type {
	var out []bson.Type
	seen := f.N - f.Nulls
	for t, n := range f.Types {
		if t != f.dominant() && float64(n) >= 0.05*float64(seen) {
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return out
}
