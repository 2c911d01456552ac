package capture

import (
	"cmp"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
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

// tuples counts the combinations of values of a filter's equality
// fields (paths such as filter.org), up to maxDistinct combinations.
type tuples struct {
	paths    []string
	counts   map[string]int
	values   map[string][]bson.RawValue
	overflow bool
}

// observeTuple counts the operation's combination of equality values.
func (sh *Shape) observeTuple(leaves []leaf) {
	var paths []string
	var vals []bson.RawValue
	for _, l := range leaves {
		if tupleField(l.path) != "" {
			paths, vals = append(paths, l.path), append(vals, l.v)
		}
	}
	if len(paths) < 2 {
		return
	}
	if sh.Tuples == nil {
		sh.Tuples = &tuples{paths: paths, counts: map[string]int{}, values: map[string][]bson.RawValue{}}
	}
	t := sh.Tuples
	if t.overflow || !slices.Equal(t.paths, paths) {
		t.overflow = true
		return
	}
	var kb []byte
	for _, v := range vals {
		kb = append(append(append(kb, byte(v.Type)), v.Value...), 0xff)
	}
	k := string(kb)
	if t.counts[k] == 0 {
		if len(t.counts) >= maxDistinct {
			t.overflow, t.counts, t.values = true, nil, nil
			return
		}
		cp := make([]bson.RawValue, len(vals))
		for i, v := range vals {
			cp[i] = bson.RawValue{Type: v.Type, Value: slices.Clone(v.Value)}
		}
		t.values[k] = cp
	}
	t.counts[k]++
}

// tupleField is the field of an equality placeholder of a filter's top
// level (filter.f, filter.f.$eq), "" for any other.
func tupleField(path string) string {
	parts := strings.Split(path, ".")
	switch {
	case len(parts) < 2 || parts[0] != "filter" || strings.HasPrefix(parts[1], "$"):
		return ""
	case len(parts) == 2, len(parts) == 3 && parts[2] == "$eq":
		return parts[1]
	}
	return ""
}

// observeJoint records the width of each range the operation holds and
// its combination of equality values.
func (sh *Shape) observeJoint(leaves []leaf, r *rand.Rand) {
	sh.observeTuple(leaves)
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
	// The operators without their $: a string starting with $ would read
	// as a field path to --redact-names.
	ops := config.Value{Kind: config.KindArray, Items: []config.Value{{Kind: config.KindScalar, Scalar: lo[1:]}, {Kind: config.KindScalar, Scalar: hi[1:]}}}
	return gen("range", param("lower", lower), param("width", b.widthGen(wf, d.Lookup(lo).Type == bson.TypeDateTime)), param("ops", ops)), true
}

// widthGen writes the law of a range's widths: an enum of the widths seen
// when they are few (a day, a week), else eight quantile buckets of equal
// weight. A width is a length, not a value of the data, so it is written
// as seen; but a number width of nine digits or more (a range from 0 to an
// account number) is modelled as a value, under the privacy rules.
func (b *builder) widthGen(f *Field, dates bool) config.Value {
	lo, hi := minMax(f.nums)
	if !dates && !b.opts.keepValues && math.Max(math.Abs(lo), math.Abs(hi)) >= 1e8 {
		return f.Generator(b.opts)
	}
	if f.lowCardinality() {
		return f.enum()
	}
	xs := slices.Clone(f.nums)
	slices.Sort(xs)
	const n = 8
	var vals []config.Value
	for i := range n {
		a, z := xs[i*len(xs)/n], xs[min((i+1)*len(xs)/n, len(xs)-1)]
		if f.dominant() == bson.TypeDouble {
			vals = append(vals, gen("double", param("min", a), param("max", z)))
		} else {
			vals = append(vals, gen("long", param("min", int64(a)), param("max", int64(z))))
		}
	}
	return enumOf(vals, nil)
}

// maxTupleItems bounds the combinations written as whole filters.
const maxTupleItems = 1000

// tupled writes a filter whose equality fields ran with their values
// together ({org: x, status: y}) as a choice of whole filters, one per
// combination seen, weighted by how often it ran: combinations the
// application never asks for do not appear, and those it asks for keep
// their share. A field joins the combinations only where its own model
// writes values (a low-cardinality enum, or a field's ranks, ranks.go);
// the others keep their generator in every choice.
func (b *builder) tupled(filter config.Value) config.Value {
	t := b.sh.Tuples
	if t == nil || t.overflow || filter.Kind != config.KindDoc {
		return filter
	}
	writers := make([]func(bson.RawValue) config.Value, len(t.paths))
	tied := 0
	for i, p := range t.paths {
		if writers[i] = b.writer(p); writers[i] != nil {
			tied++
		}
	}
	if tied < 2 {
		return filter
	}
	type choice struct {
		vals []config.Value
		n    int
		key  string
	}
	byKey := map[string]*choice{}
	for k, n := range t.counts {
		c := &choice{vals: make([]config.Value, len(t.paths))}
		var key strings.Builder
		for i, v := range t.values[k] {
			if writers[i] != nil {
				c.vals[i] = writers[i](v)
				key.WriteString(c.vals[i].String() + "\x00")
			}
		}
		c.key = key.String()
		if prev := byKey[c.key]; prev != nil {
			prev.n += n
			continue
		}
		c.n = n
		byKey[c.key] = c
	}
	if len(byKey) > maxTupleItems {
		return filter
	}
	choices := slices.Collect(maps.Values(byKey))
	slices.SortFunc(choices, func(a, b *choice) int { return cmp.Or(b.n-a.n, strings.Compare(a.key, b.key)) })
	var docs []config.Value
	var weights []float64
	for _, c := range choices {
		d := config.Value{Kind: config.KindDoc, Fields: slices.Clone(filter.Fields)}
		for i, p := range t.paths {
			if writers[i] == nil {
				continue
			}
			j := slices.IndexFunc(d.Fields, func(f config.Field) bool { return f.Key == tupleField(p) })
			if j < 0 {
				return filter
			}
			v := c.vals[i]
			if strings.HasSuffix(p, ".$eq") {
				v = config.Value{Kind: config.KindDoc, Fields: []config.Field{{Key: "$eq", Value: v}}}
			}
			d.Fields[j].Value = v
		}
		docs, weights = append(docs, d), append(weights, float64(c.n))
	}
	return enumOf(docs, weights)
}

// writer is how one equality field's values are written in a combination,
// nil where its model writes no value: by rank for a field that keeps its
// frequency law, as the value itself where the placeholder's own model
// writes that value (a low-cardinality enum), never beyond it.
func (b *builder) writer(path string) func(bson.RawValue) config.Value {
	field := tupleField(path)
	if slices.ContainsFunc(b.keys, func(k keyed) bool { return k.field == field }) {
		return nil // drawn from the collection's keys
	}
	if law := b.laws[field]; law != nil {
		return func(v bson.RawValue) config.Value {
			if r, ok := law.rank[string(append([]byte{byte(v.Type)}, v.Value...))]; ok {
				return law.name(r)
			}
			if law.names > 0 {
				return law.tailGen()
			}
			return law.name(len(law.head))
		}
	}
	f := b.sh.Holes[path]
	if f == nil || f.onlyPlaceholders() {
		return nil
	}
	written := map[string]bool{}
	o := b.opts
	o.private = b.private[fieldOf(path)] // as the placeholder alone writes it (hole)
	g := f.Generator(o)
	switch {
	case g.Kind == config.KindScalar:
		written[g.String()] = true
	case g.Kind == config.KindGen && g.Gen == "enum":
		for _, p := range g.Fields {
			if p.Key == "values" {
				for _, it := range p.Value.Items {
					if it.Kind == config.KindScalar {
						written[it.String()] = true
					}
				}
			}
		}
	}
	if len(written) == 0 {
		return nil
	}
	return func(v bson.RawValue) config.Value {
		if l := literal(v); written[l.String()] {
			return l
		}
		return g // a value its model does not write: the model draws one
	}
}
