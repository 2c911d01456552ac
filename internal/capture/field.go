package capture

import (
	"math/rand/v2"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/mongodb"
)

// maxDistinct is how many distinct values a field keeps before it counts
// as high-cardinality: beyond it, no value of the field is written to the
// workload (but with --keep-values), only its type, range and lengths.
const maxDistinct = 4096

// reservoirSize bounds the values kept per field for ranges, histograms
// and string patterns (Vitter's algorithm R, so a long capture costs no
// more memory than a short one).
const reservoirSize = 2048

// Field accumulates what was seen of one field path (a document field
// across sampled documents) or one placeholder (the literals a shape's
// filter was run with).
type Field struct {
	N       int // values seen, nulls included
	Present int // documents holding the field (sampled documents only)
	Nulls   int
	Types   map[bson.Type]int

	distinct map[string]int           // raw value -> count, until overflow
	values   map[string]bson.RawValue // raw value -> the value
	overflow bool

	nums  []float64 // numbers and dates (ms), a reservoir
	strs  []string  // strings, a reservoir
	numN  int
	strN  int
	decim int // the most decimals a double had

	minLen, maxLen int // string lengths
	trues          int

	arrN           int
	minArr, maxArr int
	Elem           *Field // array elements

	Fields map[string]*Field // nested documents
	Order  []string          // their first-seen order
	docs   int               // values that were documents
}

func newField() *Field { return &Field{Types: map[bson.Type]int{}} }

// Observe adds one value.
func (f *Field) Observe(v bson.RawValue, r *rand.Rand) {
	f.N++
	if v.Type == bson.TypeNull || v.Type == bson.TypeUndefined {
		f.Nulls++
		return
	}
	f.Types[v.Type]++
	if !f.overflow && v.Type != bson.TypeEmbeddedDocument && v.Type != bson.TypeArray {
		if f.distinct == nil {
			f.distinct, f.values = map[string]int{}, map[string]bson.RawValue{}
		}
		k := string(append([]byte{byte(v.Type)}, v.Value...))
		if _, ok := f.distinct[k]; !ok && len(f.distinct) >= maxDistinct {
			f.overflow, f.distinct, f.values = true, nil, nil
		} else {
			if f.distinct[k] == 0 {
				// A copy: the value must not pin the whole entry it came in.
				f.values[k] = bson.RawValue{Type: v.Type, Value: []byte(k[1:])}
			}
			f.distinct[k]++
		}
	}
	switch v.Type {
	case bson.TypeInt32, bson.TypeInt64, bson.TypeDouble:
		x := mongodb.Number(v)
		f.addNum(x, r)
		if v.Type == bson.TypeDouble {
			f.decim = max(f.decim, decimals(x))
		}
	case bson.TypeDecimal128:
		if d, ok := v.Decimal128OK(); ok {
			if x, err := decimalFloat(d); err == nil {
				f.addNum(x, r)
			}
		}
	case bson.TypeDateTime:
		f.addNum(float64(v.DateTime()), r)
	case bson.TypeString:
		s := v.StringValue()
		n := len([]rune(s))
		if f.strN == 0 || n < f.minLen {
			f.minLen = n
		}
		f.maxLen = max(f.maxLen, n)
		f.strN++
		keep(&f.strs, s, f.strN, r)
	case bson.TypeBoolean:
		if v.Boolean() {
			f.trues++
		}
	case bson.TypeArray:
		vals, _ := v.Array().Values()
		if f.arrN == 0 || len(vals) < f.minArr {
			f.minArr = len(vals)
		}
		f.maxArr = max(f.maxArr, len(vals))
		f.arrN++
		if f.Elem == nil {
			f.Elem = newField()
		}
		for _, e := range vals {
			f.Elem.Observe(e, r)
		}
	case bson.TypeEmbeddedDocument:
		f.ObserveDoc(v.Document(), r)
	}
}

// ObserveDoc adds the fields of one document.
func (f *Field) ObserveDoc(d bson.Raw, r *rand.Rand) {
	f.docs++
	if f.Fields == nil {
		f.Fields = map[string]*Field{}
	}
	els, _ := d.Elements()
	for _, e := range els {
		sub, ok := f.Fields[e.Key()]
		if !ok {
			sub = newField()
			f.Fields[e.Key()] = sub
			f.Order = append(f.Order, e.Key())
		}
		sub.Present++
		sub.Observe(e.Value(), r)
	}
}

func (f *Field) addNum(x float64, r *rand.Rand) {
	f.numN++
	keep(&f.nums, x, f.numN, r)
}

// keep adds x, the n-th value, to a reservoir of reservoirSize.
func keep[T any](res *[]T, x T, n int, r *rand.Rand) {
	if len(*res) < reservoirSize {
		*res = append(*res, x)
		return
	}
	if i := r.IntN(n); i < reservoirSize {
		(*res)[i] = x
	}
}

// dominant is the most frequent type (ties: the lower type number, so the
// choice does not depend on map order).
func (f *Field) dominant() bson.Type {
	var best bson.Type
	bn := 0
	for t, n := range f.Types {
		if n > bn || n == bn && t < best {
			best, bn = t, n
		}
	}
	return best
}

// lowCardinality: few distinct values, each seen a few times on average,
// so they are categories (a status, a country), not identifiers, and may
// be written to the workload as a weighted enum.
func (f *Field) lowCardinality() bool {
	d := len(f.distinct)
	return !f.overflow && d > 0 && d <= 32 && f.N-f.Nulls >= 3*d
}
