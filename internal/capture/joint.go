package capture

import (
	"math/rand/v2"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/mongodb"
)

// Values that go together are drawn together. A range's two bounds drawn
// apart make ranges of any width: a replayed {created: {$gte: a, $lt: b}}
// then returns about half the documents, or twice as many, as the one it
// stands for. So each range's width is observed with its lower bound, and
// the range is written as one generator ({$gen: range}): the lower
// bound's law, then the width's.

// leaf is one literal of an operation and its placeholder's path.
type leaf struct {
	path string
	v    bson.RawValue
}

// lowerOps and upperOps are a range's bounds.
var (
	lowerOps = map[string]bool{"$gte": true, "$gt": true}
	upperOps = map[string]bool{"$lt": true, "$lte": true}
)

// observeJoint records the width of each range the operation holds.
func (sh *Shape) observeJoint(leaves []leaf, r *rand.Rand) {
	lows := map[string]bson.RawValue{}
	for _, l := range leaves {
		if parent, op, ok := cutOp(l.path); ok && lowerOps[op] {
			lows[parent] = l.v
		}
	}
	for _, l := range leaves {
		parent, op, ok := cutOp(l.path)
		lo, has := lows[parent]
		if !ok || !has || !upperOps[op] {
			continue
		}
		w, ok := width(lo, l.v)
		if !ok {
			continue
		}
		if sh.Widths == nil {
			sh.Widths = map[string]*Field{}
		}
		f := sh.Widths[parent]
		if f == nil {
			f = newField()
			sh.Widths[parent] = f
		}
		f.Observe(w, r)
	}
}

// cutOp splits a placeholder's path into its parent and its last operator.
func cutOp(path string) (parent, op string, ok bool) {
	i := strings.LastIndexByte(path, '.')
	if i < 0 || !strings.HasPrefix(path[i+1:], "$") {
		return "", "", false
	}
	return path[:i], path[i+1:], true
}

// width is hi - lo as a value: a long of milliseconds for dates, a long
// for integers, a double otherwise; ok is false for other types.
func width(lo, hi bson.RawValue) (bson.RawValue, bool) {
	num := func(v bson.RawValue) bool {
		return v.Type == bson.TypeInt32 || v.Type == bson.TypeInt64 || v.Type == bson.TypeDouble
	}
	switch {
	case lo.Type == bson.TypeDateTime && hi.Type == bson.TypeDateTime:
		return longValue(hi.DateTime() - lo.DateTime()), true
	case num(lo) && num(hi) && lo.Type != bson.TypeDouble && hi.Type != bson.TypeDouble:
		return longValue(int64(mongodb.Number(hi) - mongodb.Number(lo))), true
	case num(lo) && num(hi):
		return bson.RawValue{Type: bson.TypeDouble, Value: bsonDouble(mongodb.Number(hi) - mongodb.Number(lo))}, true
	}
	return bson.RawValue{}, false
}

func longValue(x int64) bson.RawValue {
	_, b, _ := bson.MarshalValue(x)
	return bson.RawValue{Type: bson.TypeInt64, Value: b}
}

func bsonDouble(x float64) []byte {
	_, b, _ := bson.MarshalValue(x)
	return b
}

// rangeOf writes the range at path as one generator when its widths were
// observed: the two operators of the captured document d, the lower
// bound's generator and the widths' law. ok is false for anything else.
func (b *builder) rangeOf(path string, d bson.Raw) (config.Value, bool) {
	wf := b.sh.Widths[path]
	els, _ := d.Elements()
	if wf == nil || len(els) != 2 || wf.N-wf.Nulls < 3 { // seen once or twice: the bounds stay apart, as private as each
		return config.Value{}, false
	}
	lo, hi := els[0].Key(), els[1].Key()
	if upperOps[lo] {
		lo, hi = hi, lo
	}
	if !lowerOps[lo] || !upperOps[hi] {
		return config.Value{}, false
	}
	lower := b.value(path+"."+lo, d.Lookup(lo))
	ops := config.Value{Kind: config.KindArray, Items: []config.Value{{Kind: config.KindScalar, Scalar: lo}, {Kind: config.KindScalar, Scalar: hi}}}
	return gen("range", param("lower", lower), param("width", wf.Generator(genOptions{})), param("ops", ops)), true
}
